"""The arena report in people's words: plot titles name the game and only the settings that differ from its
defaults, plots are large enough to read, each context names the ids of the games it summarises, ranks are
0-based, Board Royale (whose score is only a ranking) gets a plot of its agents' final escape points, each context
says how its agents ran (isolation mode and budget), and truncated games are ranked by the game's standing."""

from __future__ import annotations

import pytest
from PIL import Image
from rich.console import Console

from meeplezoo.arena import ratings, replay, report, runner
from meeplezoo.arena.contexts import changed_settings, context_title
from meeplezoo.arena.schedule import Study, validate
from meeplezoo.arena.store import Store
from meeplezoo.envs.board_royale.escape import escape_points


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    """Seastead at its defaults and Board Royale at 3 players (not its default 4), reported."""
    tmp = tmp_path_factory.mktemp("report")
    tasks = validate(Study("seastead", ["random", "heuristic"], games=2, seed=1))
    tasks += validate(Study("board_royale", ["random", "heuristic"], seats=3, games=1, seed=1))
    with Store(tmp / "r.sqlite") as db:
        assert runner.run(tasks, db, workers=1).played == len(tasks)
        rows = list(db.games(actions=False))
        stats = ratings.compute(rows)
    files = report.write_report(stats, tmp / "out", tmp / "r.sqlite")
    return tmp / "r.sqlite", {cs.game: cs for cs in stats}, rows, files


def title(png) -> str:
    return Image.open(png).text["Title"]


def test_plot_titles_show_the_game_and_only_the_settings_that_differ_from_its_defaults(reported):
    _, _, _, files = reported
    pngs = [f for f in files if f.suffix == ".png"]
    assert len(pngs) == 6
    for png in pngs:
        game = "seastead" if png.name.startswith("seastead") else "board_royale num_players=3"
        assert title(png).splitlines()[-1] == game, png.name  # not the config's JSON
    assert context_title("seastead", {"decree": "random", "num_players": 2, "sides": "AAAA"}) == "seastead"
    settings = {"num_players": 4, "elimination_only": True, "max_cycles": 500}  # an adapter key has no game default
    assert changed_settings("board_royale", settings) == ["elimination_only=True", "max_cycles=500"]


def test_plots_are_large_enough_to_read(reported):
    for png in (f for f in reported[3] if f.suffix == ".png"):
        width, height = Image.open(png).size
        assert width >= 900 and height >= 500, (png.name, width, height)


def test_each_context_names_the_ids_of_the_games_it_summarises(reported):
    path, _, rows, files = reported
    md = files[0].read_text()
    for game, heading in (("seastead", "## seastead\n"), ("board_royale", "## board_royale num_players=3\n")):
        ids = sorted(r.id for r in rows if r.game == game)
        section = md.split(heading)[1].split("\n## ")[0]
        assert f"Game ids: {report.id_ranges(ids)} " in section and len(ids) >= 2
    assert report.id_ranges([7, 1, 2, 3, 5, 9, 8]) == "1-3, 5, 7-9"
    assert f"meeplezoo replay {path} ID" in md


def test_mean_ranks_are_0_based_as_in_every_other_table(reported):
    _, stats, _, files = reported
    md = files[0].read_text()
    heuristic = stats["seastead"].agents["heuristic"]
    assert "| mean rank (0 = won) |" in md
    section = md.split("## seastead\n")[1].split("### Per agent")[1]
    row = next(line for line in section.splitlines() if line.startswith("| heuristic |"))
    assert row.split(" | ")[3] == f"{heuristic.mean_rank - 1:.2f}"


def test_board_royale_plots_its_final_escape_points_not_its_rank_based_score(reported):
    path, stats, rows, files = reported
    png = next(f for f in files if f.name.startswith("board-royale") and f.name.endswith("-scores.png"))
    assert title(png).startswith("Final escape points")
    cs = stats["board_royale"]
    ids = [r.id for r in rows if r.game == "board_royale"]
    with Store(path, create=False) as store:
        plot_title, label, values = report.plotted(cs, store, ids)
        games = [store.game(i) for i in ids]
        assert report.plotted(stats["seastead"], store, [1])[:2] == report.SCORES  # a game without a chart: the score
    assert plot_title.startswith("Final escape points") and label == "escape points"
    got = {spec: sorted(xs) for spec, xs in values}
    want: dict[str, list[float]] = {spec: [] for spec in got}
    for row in games:
        final = replay.replay(row)
        points = [float(escape_points(final.d, s)) for s in range(3)]
        for spec, x in zip(row.seats, points, strict=True):
            want[spec].append(x)
    assert got == {spec: sorted(xs) for spec, xs in want.items()}
    assert {spec: len(xs) for spec, xs in values} == {s.spec: len(s.scores) for s in cs.agents.values()}
    assert any(sorted(xs) != sorted(s.scores) for (_, xs), s in zip(values, cs.ranking(), strict=True))


def test_a_board_royale_game_that_no_longer_replays_is_left_out_and_said_so(reported, tmp_path):
    import shutil
    import sqlite3

    path, stats, rows, _ = reported
    ids = [r.id for r in rows if r.game == "board_royale"]
    copy = tmp_path / "changed.sqlite"
    shutil.copy(path, copy)
    with sqlite3.connect(copy) as con:  # as if a later engine had played the first game differently
        con.execute("UPDATE games SET scores = '[9.0, 9.0, -18.0]' WHERE id = ?", (ids[0],))
    con.close()
    with Store(copy, create=False) as store:
        title, _, values = report.plotted(stats["board_royale"], store, ids)
    assert title.endswith("\n1 games left out: they no longer replay to their stored scores")
    assert sum(len(xs) for _, xs in values) == 3 * (len(ids) - 1)


def test_each_context_says_how_its_agents_ran(reported):
    _, _, rows, files = reported
    md = files[0].read_text()
    section = md.split("## seastead\n")[1].split("\n## ")[0]
    n = sum(r.game == "seastead" for r in rows)
    assert {r.isolation for r in rows} == {"process"} and len({str(r.budget) for r in rows}) == 1
    budget = report.budget_text(rows[0].budget)  # the arena's default budget, as stored
    assert budget.startswith("decision_seconds=30 ") and "memory_mb=4096" in budget  # --time-limit's default
    assert f"How the agents ran:\n\n- {n} games: each agent in its own process, budget {budget}\n" in section


def _edited(path, tmp_path, *statements):
    """Stats and run modes of a copy of the database ``path`` changed by SQL ``statements`` (as an older MeepleZoo
    or another mode would have stored its games)."""
    import shutil
    import sqlite3

    copy = tmp_path / "edited.sqlite"
    shutil.copy(path, copy)
    with sqlite3.connect(copy) as con:
        for statement in statements:
            con.execute(statement)
    con.close()
    with Store(copy, create=False) as store:
        rows = list(store.games(actions=False))
    return {cs.game: cs for cs in ratings.compute(rows)}, report.run_modes(rows), copy


def test_games_of_other_modes_and_of_before_the_modes_were_recorded_are_told_apart(reported, tmp_path):
    path, _, rows, _ = reported
    first, second = sorted(r.id for r in rows if r.game == "board_royale")[:2]
    stats, modes, copy = _edited(
        path,
        tmp_path,
        f"UPDATE games SET isolation = 'none', budget = '{{\"decision_seconds\": 30.0}}' WHERE id = {first}",
        f"UPDATE games SET isolation = NULL, budget = NULL WHERE id = {second}",
    )
    cs = stats["board_royale"]
    n = sum(r.game == "board_royale" for r in rows)
    lines = modes[cs.context]
    assert n > 3 and len(lines) == 3 and lines[0].startswith(f"{n - 2} games: each agent in its own process, budget ")
    assert "1 games: in the referee's process (--isolation none: trusted agents), 30 s per decision" in lines
    assert "1 games: not recorded (stored before MeepleZoo recorded the isolation mode)" in lines
    assert modes[stats["seastead"].context][0].startswith("2 games: each agent in its own process")  # unchanged
    console = Console(record=True, width=200)
    report.print_report(console, [cs], modes)
    text = console.export_text()
    assert all(f"agents: {line}" in text for line in lines)
    md = report.write_report([cs], tmp_path / "out", copy)[0].read_text()
    assert all(f"- {line}\n" in md for line in lines)


def test_truncated_games_are_ranked_by_the_games_standing_unless_stored_before_adjudication(reported, tmp_path):
    path, before, rows, _ = reported
    first, second = sorted(r.id for r in rows if r.game == "seastead")[:2]
    stats, _, _ = _edited(
        path,
        tmp_path,
        f"UPDATE games SET truncated = 1 WHERE id IN ({first}, {second})",
        f"UPDATE games SET isolation = NULL, budget = NULL WHERE id = {second}",
    )
    cs = stats["seastead"]
    assert (cs.truncated, cs.games - cs.rated) == (2, 1)
    line = report.summary_line(cs)
    assert "1 truncated (ranked by the game's standing at its decision cap)" in line
    assert "1 truncated before adjudication (not rated)" in line
    assert "truncated" not in report.summary_line(before["seastead"])
    assert report.budget_text({"memory_mb": None, "game_cpu": 2.5, "later_key": 1}) == "game_cpu=2.5 later_key=1"
    assert report.budget_text(None) == "no limits"
