"""The benchmarks (meeplezoo.bench): the IS-MCTS win rates against each game's heuristic with the spec its
manifest tunes, the solo scores of any game with a solo mode, and the speed table's rows."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import statistics

import pytest

from meeplezoo import bench, games
from meeplezoo.agents import make_agent
from meeplezoo.bench import mcts as mcts_bench
from meeplezoo.bench import solo
from meeplezoo.envs.core.errors import MeepleZooError
from meeplezoo.envs.core.params import parse_call


def test_the_benchmark_reports_the_wilson_interval():
    from meeplezoo.bench.mcts import Result, wilson

    low, high = wilson(15, 23)  # the textbook figures: 0.449 to 0.812
    assert (round(low, 3), round(high, 3)) == (0.449, 0.812)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 3) == 0.278
    assert wilson(10, 10)[1] == 1.0 and round(wilson(10, 10)[0], 3) == 0.722
    r = Result("board_royale", 4, "mcts", "heuristic", games=40, wins=28.0)
    assert "won 28/40 =  70.0% (95% 55-82%)" in r.line()


def test_a_resumed_benchmark_plays_the_same_games_with_the_same_seats(capsys):
    full = mcts_bench.measure("seastead", {}, "random", "random", games=3, seed=5, verbose=True)
    lines = capsys.readouterr().out.splitlines()
    resumed = mcts_bench.measure("seastead", {}, "random", "random", games=3, seed=5, verbose=True, start=2)
    tail = capsys.readouterr().out.splitlines()
    assert (full.games, resumed.games) == (3, 1)
    assert tail[0].startswith("  game 2 seed 7 seat 0: ")  # game g: seed + g, seat g % players, as in the full run
    assert tail[0].split(";")[0] == lines[2].split(";")[0]  # the same winners and scores


def test_the_tuned_configurations_are_the_manifests(monkeypatch):
    found = mcts_bench.configurations()
    assert {(game, n) for game, n, _ in found} >= {("seastead", 2), ("concordia", 4), ("board_royale", 4)}
    for game, n, spec in found:
        assert spec == games.manifest(game).tuned_mcts[n] and n in games.player_counts(game)
        assert parse_call(spec)[0] == "mcts" and make_agent(spec, game, seed=0).check_game(game) is None  # valid
    tuned = dataclasses.replace(games.manifest("seastead"), tuned_mcts={1: "mcts:iters=7", 2: "mcts:iters=9"})
    table = {m.name: m for m in games.manifests()} | {"seastead": tuned}
    monkeypatch.setattr(games, "manifests", lambda: list(table.values()))
    assert [c for c in mcts_bench.configurations() if c[0] == "seastead"] == [
        ("seastead", 1, "mcts:iters=7"),
        ("seastead", 2, "mcts:iters=9"),
    ]


def test_the_mcts_benchmark_runs_the_configurations_asked_for(monkeypatch, capsys):
    calls = []

    def measure(game, config, agent, opponent, played, seed, verbose, start):
        calls.append((game, config, agent, opponent, played, seed))
        return mcts_bench.Result(game, config["num_players"], agent, opponent, games=played, wins=1.0)

    monkeypatch.setattr(mcts_bench, "measure", measure)
    assert mcts_bench.main(["--only", "board_royale_v1", "--players", "4", "--games", "2"]) == 0
    assert calls == [
        ("board_royale", {"num_players": 4}, games.manifest("board_royale").tuned_mcts[4], "heuristic", 2, 1000)
    ]
    assert "won 1/2" in capsys.readouterr().out


def test_the_solo_benchmark_plays_any_game_with_a_solo_mode(capsys):
    assert set(solo.solo_games()) >= {"seastead", "resafa"} and "concordia" not in solo.solo_games()
    figures = solo.run("random", 2, seed=3, game="seastead")
    out = capsys.readouterr().out
    assert figures["games"] == 2 and figures["worst"] <= figures["mean"] <= figures["best"]
    assert out.count(" seed ") == 2 and "Seastead solo, agent random, 2 games (seeds 3..4)" in out
    assert solo.band_of("seastead") is None  # won or lost against the Boss: no bands
    assert solo.band_of("resafa")(150) != solo.band_of("resafa")(100)  # the designer's bands


def test_the_solo_benchmark_reports_the_margin_over_the_boss(capsys):
    from meeplezoo.agents.match import agent_seed, play_game

    figures = solo.run("heuristic", 3, seed=5, quiet=True, game="seastead")
    margins = []
    for g in range(3):  # the same games again, the Boss's final score read from the engine state
        env = games.make_env("seastead", num_players=1)
        record = play_game(env, {"player_0": make_agent("heuristic", "seastead", seed=agent_seed(5 + g, 0))}, 5 + g)
        margins.append(record.scores["player_0"] - env.unwrapped.state_obj.automa_score())
    assert figures["margin"] == pytest.approx(sum(margins) / 3) and figures["worst_margin"] == min(margins)
    assert env.unwrapped.state_obj.automa_score() > 0  # the Boss scored: the margin is not the score
    assert f"margin over the automa: mean {figures['margin']:+.1f}" in capsys.readouterr().out
    # an agent with a prepare step (az loads the shipped solo network there) and one without (the heuristic)
    assert solo.run("az:sims=0", 2, seed=5, quiet=True, game="seastead")["won"] == 2


def test_the_solo_benchmark_cli_gives_bad_input_one_line(tmp_path, capsys):
    """A bad count, a bad agent spec or a file that is no network: exit status 2 with the reason in one line, and
    no game played."""
    with pytest.raises(SystemExit) as stop:
        solo.main(["seastead", "--games", "0"])
    assert stop.value.code == 2
    assert "argument --games: takes a whole number from 1 to 1000000, not 0" in capsys.readouterr().err
    junk = tmp_path / "net.pt"
    junk.write_bytes(b"not a network")
    for agent, message in (
        ("az:mix=2", "agent 'az': mix takes a number from 0 to 1, not '2'"),
        (f"az:path={junk}", f"az: {junk} is not an az network file"),
    ):
        assert solo.main(["seastead", "--agent", agent, "--games", "1"]) == 2
        captured = capsys.readouterr()
        assert captured.err.startswith(f"python -m meeplezoo.bench.solo: error: {message}")
        assert captured.err.count("\n") == 1 and captured.out == ""


def test_the_solo_benchmark_plays_the_same_games_on_worker_processes(capsys):
    """``--workers 2`` plays each seed's game whole in one of two processes: the same scores, in seed order, and the
    same figures (the CPU aside) as one process; the mean's standard error is the scores' over the root of the
    count, printed with its 95% interval."""
    alone = solo.run("heuristic", 3, seed=7, game="resafa")
    first = capsys.readouterr().out
    shared = solo.run("heuristic", 3, seed=7, game="resafa", workers=2)
    second = capsys.readouterr().out

    def games_played(out: str) -> list[str]:  # each game's line without its CPU per decision, which varies
        lines = [line for line in out.splitlines() if line.startswith("game ")]
        assert all(re.search(r"  \[[\d.e+-]+ ms/decision\]$", line) for line in lines)
        return [line.split("  [")[0] for line in lines]

    lines = games_played(first)
    assert len(lines) == 3 and lines == games_played(second)
    cpu = "cpu_s_per_decision"
    assert {k: v for k, v in alone.items() if k != cpu} == {k: v for k, v in shared.items() if k != cpu}
    scores = [float(line.split(": ")[1].split(" ")[0]) for line in lines]
    assert len(set(scores)) > 1 and alone["stderr"] == pytest.approx(statistics.stdev(scores) / math.sqrt(3))
    low, high = alone["mean"] - 1.96 * alone["stderr"], alone["mean"] + 1.96 * alone["stderr"]
    assert f"standard error {alone['stderr']:.1f}, 95% interval {low:.1f} to {high:.1f}" in second


def test_the_solo_benchmark_gives_a_workers_bad_network_one_line(tmp_path, capsys):
    """A network file that fails to load in a worker process reaches the command line as the same one line."""
    junk = tmp_path / "net.pt"
    junk.write_bytes(b"not a network")
    assert solo.main(["seastead", "--agent", f"az:path={junk}", "--games", "2", "--workers", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"python -m meeplezoo.bench.solo: error: az: {junk} is not an az network file")
    assert captured.err.count("\n") == 1 and captured.out == ""


def _count_games(monkeypatch) -> list[int]:
    """The seeds the solo benchmark plays from now on (in this process: ``workers=1``)."""
    played: list[int] = []
    play_one = solo.play_one

    def counted(agent, game, seed):
        played.append(seed)
        return play_one(agent, game, seed)

    monkeypatch.setattr(solo, "play_one", counted)
    return played


def test_the_solo_benchmark_record_resumes_a_run_and_joins_its_parts(tmp_path, monkeypatch, capsys):
    """``record`` appends each game played; a run over the whole range reads the seeds the file holds (from runs
    over its parts) and plays only the rest, with the figures of one run that played them all."""
    whole = solo.run("random", 5, seed=11, quiet=True, game="seastead")
    path = tmp_path / "solo.jsonl"
    solo.run("random", 2, seed=11, quiet=True, game="seastead", record=path)
    solo.run("random", 2, seed=13, quiet=True, game="seastead", record=path)
    lines = path.read_text().splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [11, 12, 13, 14]
    assert set(json.loads(lines[0])) == set(solo.RECORD_FIELDS)
    capsys.readouterr()
    played = _count_games(monkeypatch)
    resumed = solo.run("random", 5, seed=11, game="seastead", record=path)
    out = capsys.readouterr().out
    assert played == [15] and out.count("(recorded)") == 4 and "seed     15: " in out
    cpu = "cpu_s_per_decision"
    assert {k: v for k, v in resumed.items() if k != cpu} == {k: v for k, v in whole.items() if k != cpu}
    assert solo.read_record(path, "seastead", "random").keys() == {11, 12, 13, 14, 15}
    again = solo.run("random", 5, seed=11, quiet=True, game="seastead", record=path)
    assert played == [15] and again == resumed and len(path.read_text().splitlines()) == 5


def test_the_solo_benchmark_refuses_a_bad_record_and_leaves_it_as_it_was(tmp_path, monkeypatch, capsys):
    """A record line that is not a whole game, or a game of another agent, is one line naming the file and line;
    no game is played and the file is not touched."""
    path = tmp_path / "solo.jsonl"
    solo.run("random", 1, seed=3, quiet=True, game="seastead", record=path)
    assert "standard error: none from one game" in capsys.readouterr().out
    good = path.read_text()
    entry = json.loads(good)
    played = _count_games(monkeypatch)
    cases = {
        good + "{not json\n": "line 2 is not JSON",
        good + good[:20]: "line 2 has no newline at its end (a run stopped while writing it?)",
        good + json.dumps({**entry, "seed": "4"}) + "\n": "line 2 has a value of the wrong type or out of range",
        good + json.dumps({**entry, "cpu": float("nan")}) + "\n": "line 2 has a value of the wrong type",
        good + json.dumps({**entry, "won": 1}) + "\n": "line 2 has a value of the wrong type",
        good + json.dumps({"seed": 4}) + "\n": "line 2 is not a solo game (its fields are game, agent, seed",
        good + good: "line 2 records seed 3 a second time",
        json.dumps({**entry, "agent": "heuristic"}) + "\n": "line 1 is a game of 'seastead' by agent 'heuristic', "
        "not of 'seastead' by 'random': record this run in another file",
    }
    for text, message in cases.items():
        path.write_text(text)
        assert solo.main(["seastead", "--agent", "random", "--games", "2", "--seed", "3", "--record", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.err.startswith(f"python -m meeplezoo.bench.solo: error: {path} {message}"), captured.err
        assert captured.err.count("\n") == 1 and captured.out == ""
        assert path.read_text() == text and played == []
    nowhere = tmp_path / "missing" / "solo.jsonl"
    assert solo.main(["seastead", "--agent", "random", "--games", "1", "--record", str(nowhere)]) == 2
    assert capsys.readouterr().err.startswith(
        f"python -m meeplezoo.bench.solo: error: cannot write the record {nowhere}"
    )
    assert played == [] and not nowhere.parent.exists()


def test_the_solo_benchmark_refuses_a_game_without_a_solo_mode():
    with pytest.raises(MeepleZooError, match=r"^concordia has no solo mode; the games with one: seastead"):
        solo.run("random", 1, game="concordia")


def test_the_speed_table_has_a_row_per_registered_game():
    manifest = games.manifest("seastead")
    row = bench.env_row(manifest, 0.3, 1, seed=0)
    assert row.env == "seastead_v0" and row.games == 1 and row.steps > 0
    assert row.clone_apply_per_s and row.playouts_per_s and row.mcts_iterations_per_s
    bare = dataclasses.replace(manifest, engine=None)  # an env-only game: the AEC loop only
    row = bench.env_row(bare, 0.1, 1, seed=0)
    assert row.games == 1 and row.mcts_iterations_per_s is None and "no engine" in row.note


def test_the_isolation_benchmark_measures_the_built_in_games_with_their_baseline_and_random():
    from meeplezoo.bench import isolation

    assert isolation.builtin_games() == ["seastead", "concordia", "board_royale", "resafa"]  # not the plugin game
    assert isolation.lineups("seastead") == ["heuristic", "random"]
    t = isolation.task("seastead", "heuristic", 4, "process")
    assert (t.seats, t.config["num_players"], t.isolation, t.seed) == (("heuristic", "heuristic"), 2, "process", 4)
    row = isolation.run(seconds=0.0, max_games=1, seed=3, only=["seastead"])[0]
    assert (row.game, row.spec, row.games, len(row.starts)) == ("seastead", "heuristic", 1, 1)
    assert row.decisions > 0 and row.note == ""  # both modes played the same game
    assert row.ratio is not None and row.cpu_ratio is not None and row.decision_us is not None
    assert row.start_ms > 0 and row.start_cpu_ms > 0 and row.decision_cpu_us is not None


def test_meeplezoo_bench_isolation_prints_the_columns_and_the_goals(capsys, monkeypatch):
    from meeplezoo import cli
    from meeplezoo.bench import isolation

    monkeypatch.setattr(isolation, "builtin_games", lambda: ["seastead"])
    code = cli.main(["bench", "isolation", "--quick", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    for word in (word for column in isolation.COLUMNS for word in column.split()):  # a header may wrap
        assert word in out, word
    assert "seastead" in out and "random" in out and "heuristic" in out
    assert "% of in-process games/s" in out and "overhead per isolated decision" in out and "µs" in out
    assert "agent processes started and stopped per game" in out


def test_the_value_benchmark_scores_a_perfect_and_a_constant_predictor_as_it_should():
    import numpy as np

    from meeplezoo.bench.az_value import fits

    rng = np.random.default_rng(0)
    final = rng.uniform(-1, 1, 300)
    where = np.linspace(0, 1, 300, endpoint=False)
    rows = np.stack([where, final, np.full(300, final.mean()), final], axis=1)  # the net exact, the estimate a constant
    table = {f.part: f for f in fits(rows)}
    assert sum(table[p].positions for p in ("first third", "second third", "last third")) == table["all"].positions
    whole = table["all"]
    assert whole.positions == 300 and whole.net_corr == pytest.approx(1.0) and whole.net_mse == pytest.approx(0.0)
    assert whole.estimate_corr == 0.0 and whole.estimate_mse == pytest.approx(whole.variance)


def test_the_value_benchmark_reads_a_shipped_network_on_real_games_and_refuses_a_foreign_one(tmp_path, capsys):
    pytest.importorskip("torch")
    from meeplezoo.bench import az_value

    table = {f.part: f for f in az_value.run("seastead", None, ["heuristic", "random"], 2, seed=3)}
    out = capsys.readouterr().out
    assert "value head of" in out and "heuristic / random" in out
    assert table["all"].positions > 100 and table["all"].variance > 0
    assert -1 <= table["all"].net_corr <= 1 and table["all"].net_mse > 0
    # a file that is no network, another game's network: one line, status 2
    junk = tmp_path / "net.pt"
    junk.write_bytes(b"not a network")
    concordia = games.manifest("concordia").data_file("policies", "az_2p.pt")
    for net, message in ((junk, f"az: {junk} is not an az network file"), (concordia, "concordia")):
        assert az_value.main(["seastead", "--net", str(net), "--games", "1"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("python -m meeplezoo.bench.az_value: error: ") and message in err
        assert err.count("\n") == 1
