"""``meeplezoo arena`` and ``meeplezoo replay``: runs, reports, replays, bad input, kill and resume."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from arena_db import count_games
from rich.console import Console

from meeplezoo import cli
from meeplezoo.arena import command, replay
from meeplezoo.arena.store import Store


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "r.sqlite"
    code = cli.main(["arena", "seastead", "--agents", "random", "heuristic", "--games", "4", "--workers", "1",
                     "--db", str(path)])  # fmt: skip
    assert code == 0
    return path


def test_a_run_prints_ratings_and_a_summary(capsys, tmp_path):
    path = tmp_path / "r.sqlite"
    code, out, _ = run(capsys, "arena", "seastead", "--agents", "random", "heuristic", "--games", "2",
                       "--workers", "1", "--db", str(path))  # fmt: skip
    assert code == 0
    assert "Ratings (openskill Plackett-Luce)" in out and "Pairwise win rates" in out
    assert "2 games played and stored, 0 already stored, of 2 scheduled" in out
    code, out, _ = run(capsys, "arena", "seastead", "--agents", "random", "heuristic", "--games", "2",
                       "--workers", "1", "--db", str(path), "--quiet")  # fmt: skip
    assert code == 0 and "0 games played and stored, 2 already stored" in out and "Ratings" not in out


def test_report_writes_markdown_and_plots(capsys, db, tmp_path):
    code, out, _ = run(capsys, "arena", "--report", str(db), "--out", str(tmp_path / "rep"))
    assert code == 0 and "wrote 4 files" in out
    assert (tmp_path / "rep" / "README.md").read_text().startswith("# Arena report")
    assert len(list((tmp_path / "rep").glob("*.png"))) == 3


def test_replay_steps_through_and_reproduces_the_scores(capsys, db):
    code, out, _ = run(capsys, "replay", str(db), "2", "--board-every", "50")
    assert code == 0
    assert "before decision 50" in out and "Round 1" in out
    assert "the replay of" in out and "reproduces the stored scores" in out


def test_replay_to_json(capsys, db, tmp_path):
    target = tmp_path / "g.json"
    code, _, _ = run(capsys, "replay", str(db), "1", "--to-json", str(target), "--seat", "1")
    assert code == 0
    doc = json.loads(target.read_text())
    with Store(db) as store:
        row = store.game(1)
    assert doc["scores"] == row.scores and len(doc["decisions"]) == len(row.actions)
    assert doc["view"] == "seat 1"
    full = replay.to_json(row)
    assert doc["decisions"] == full["decisions"]  # every Seastead decision is public: named in full to seat 1
    assert {d["seat"] for d in doc["decisions"]} == {0, 1} and all(d["name"] for d in doc["decisions"])


def test_replay_seat_view_names_the_other_seats_choices(capsys, db):
    code, out, _ = run(capsys, "replay", str(db), "1", "--seat", "1")
    assert code == 0 and "P1's view" in out
    with Store(db) as store:
        row = store.game(1)
    flat = " ".join(out.split())  # long lines wrap at 120 columns
    other = [s for s in replay.steps(row) if s.seat == 0]
    assert other and all(f"{s.index} P0 {s.agent} {s.pending}: {' '.join(s.name.split())}" in flat for s in other)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "chess", "--agents", "random", "heuristic"], "unknown game 'chess'"),
        (["arena", "seastead", "--agents", "random", "wizard"], "no agent 'wizard' for seastead"),
        (["arena", "seastead", "--agents", "random", "heuristic:depth=2"], "has no parameter 'depth'"),
        (
            ["arena", "seastead", "--agents", "random", "mcts:iters=abc"],
            "agent 'mcts': iters takes a whole number of at least 1, not 'abc'",
        ),
        (["arena", "seastead", "--agents", "random", "human"], "a human player cannot take part"),
        (
            ["arena", "seastead", "--agents", "random", "heuristic", "--seats", "4"],
            "seastead is played by 1-2 players, not 4",
        ),
        (
            ["arena", "concordia", "--agents", "random", "heuristic", "--seats", "6"],
            "concordia is played by 2-5 players, not 6",
        ),
        (["arena", "seastead", "--agents", "random", "heuristic", "--set", "sides=ABAA"], "at least two B sides"),
        (["arena", "seastead", "--agents", "random", "heuristic", "--workers", "0"], "--workers must be"),
        (["arena", "--config", "/nonexistent/study.toml"], "cannot read study file"),
        # one way to say each thing: --set KEY=VALUE for a game option, --config FILE for a study
        (["arena", "seastead", "--agents", "random", "heuristic", "--config", "num_players=2"], "--set num_players=2"),
        (["arena", "seastead", "--agents", "random", "heuristic", "--set", "num_players=two"], "takes a whole number"),
        (["arena", "seastead", "--agents", "random", "heuristic", "--set", "reward_mode=rank"], "no config key"),
        (
            ["arena", "seastead", "--agents", "random", "heuristic", "--seats", "2", "--set", "num_players=1"],
            "disagree",
        ),
        (["arena", "--config", "study.toml", "--set", "num_players=2"], "not both"),
    ],
)
def test_bad_input_is_one_line_and_touches_nothing(capsys, db, argv, message):
    before = _digest(db)
    code, _, err = run(capsys, *argv, "--db", str(db))
    assert code == 2
    assert err.startswith("meeplezoo arena: error: ") and message in err
    assert err.count("\n") == 1
    assert _digest(db) == before


def test_bad_input_creates_no_database(capsys, tmp_path):
    code, _, err = run(capsys, "arena", "seastead", "--agents", "random", "wizard", "--db", str(tmp_path / "x.sqlite"))
    assert code == 2 and "wizard" in err
    assert list(tmp_path.iterdir()) == []


def test_a_foreign_database_is_refused_untouched(capsys, tmp_path):
    path = tmp_path / "mine.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE games (whatever TEXT)")
    con.commit()
    con.close()
    before = _digest(path)
    for argv in (
        ["arena", "seastead", "--agents", "random", "heuristic", "--db", str(path)],
        ["arena", "--report", str(path)],
        ["replay", str(path), "1"],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and "not a MeepleZoo arena database" in err and err.count("\n") == 1
    assert _digest(path) == before


def test_replay_of_a_missing_game_or_seat(capsys, db):
    code, _, err = run(capsys, "replay", str(db), "999")
    assert code == 2 and "has no game 999" in err
    code, _, err = run(capsys, "replay", str(db), "1", "--seat", "2")
    assert code == 2 and "--seat must be from 0 to 1" in err


@pytest.mark.slow
def test_a_killed_run_resumes_without_losing_or_repeating_games(tmp_path):
    path = tmp_path / "r.sqlite"
    argv = [sys.executable, "-m", "meeplezoo.cli", "arena", "seastead", "--agents", "random", "heuristic",
            "--games", "30", "--workers", "2", "--db", str(path), "--quiet"]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while count_games(path) < 4 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, without warning
    proc.wait(timeout=30)
    stored = count_games(path)
    assert 4 <= stored < 30, f"the run was not killed mid-way ({stored} games stored)"
    with Store(path) as db:
        before = {r.id: (r.key, r.finished_at, r.actions) for r in db.games()}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{30 - stored} games played and stored, {stored} already stored, of 30 scheduled" in done.stdout
    with Store(path) as db:
        rows = list(db.games())
        assert len(rows) == len({r.key for r in rows}) == 30
        after = {r.id: (r.key, r.finished_at, r.actions) for r in rows}
        assert db.con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert all(after[i] == row for i, row in before.items())  # the games stored before the kill are untouched


def test_a_study_file_over_two_games(capsys, tmp_path):
    study = tmp_path / "study.toml"
    study.write_text(
        'agents = ["random", "heuristic"]\nseed = 4\n'
        '[[study]]\ngame = "seastead"\ngames = 2\n'
        '[[study]]\ngame = "board_royale"\nseats = 3\ngames = 3\ntime_limit = 0\n'
    )
    path = tmp_path / "r.sqlite"
    code, out, _ = run(capsys, "arena", "--config", str(study), "--db", str(path), "--workers", "1")
    assert code == 0
    assert "8 games played and stored" in out  # 2 + two lineups of 3 seats x 3 rotations
    with Store(path) as db:
        rows = list(db.games())
    assert {(r.game, len(r.seats)) for r in rows} == {("seastead", 2), ("board_royale", 3)}
    assert {r.time_limit for r in rows if r.game == "board_royale"} == {None}
    assert "board_royale" in out and "seastead" in out


@pytest.mark.slow
def test_two_runs_of_one_study_at_once_store_each_game_once(tmp_path):
    path = tmp_path / "r.sqlite"
    argv = [sys.executable, "-m", "meeplezoo.cli", "arena", "seastead", "--agents", "random", "heuristic",
            "--games", "8", "--workers", "1", "--db", str(path), "--quiet"]  # fmt: skip
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    played = [int(out.split(" games played and stored")[0].split()[-1]) for out, _ in outs]
    assert sum(played) == 8  # the two runs shared the work: no game stored twice
    with Store(path) as db:
        assert db.count() == len(db.keys()) == 8
        assert db.con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# --- listing, ranks and labels (issue 37) --------------------------------------------------------------------------

LONG = "mcts:iters=2,rollout=heuristic,cutoff=20,forced=true,bias=5.0"


def test_replay_without_an_id_lists_the_stored_games(capsys, db, monkeypatch):
    monkeypatch.setattr(command, "_console", lambda: Console(highlight=False, width=80))  # an 80-column terminal
    code, out, err = run(capsys, "replay", str(db))
    assert code == 0, err
    with Store(db, create=False) as store:
        rows = sorted(store.games(actions=False), key=lambda r: r.id)
    lines = {line.strip("│ ").split()[0]: line for line in out.splitlines() if line.strip("│ ")[:1].isdigit()}
    assert sorted(lines, key=int) == [str(r.id) for r in rows]
    for r in rows:
        cells = [c.strip() for c in lines[str(r.id)].strip().strip("│").split("│")]
        assert cells[1:4] == ["seastead", "default", " ".join(r.seats)]
        winners = [f"P{s}" for s, rank in enumerate(r.ranks) if rank == 0]
        assert cells[4] == " ".join(winners) + (" won" if len(winners) == 1 else " shared")
        assert cells[5] == r.finished_at[:16].replace("T", " ")
    assert f"meeplezoo replay {db} ID" in out  # how to open one
    assert "…" not in out and max(len(line) for line in out.splitlines() if "│" in line) <= 80


def test_replay_list_of_an_empty_or_missing_database_is_one_line(capsys, tmp_path):
    path = tmp_path / "empty.sqlite"
    Store(path).close()
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and out == f"{path} holds no games yet\n" and not err
    code, out, err = run(capsys, "replay", str(tmp_path / "none.sqlite"))
    assert code == 2 and not out and err.count("\n") == 1 and "no such results database" in err
    code, _, err = run(capsys, "replay", str(path), "--seat", "0")
    assert code == 2 and "give its id" in err


def test_replay_ranks_count_from_zero(capsys, db):
    with Store(db, create=False) as store:
        row = store.game(1)
    code, out, _ = run(capsys, "replay", str(db), "1")
    assert code == 0 and "rank (0 = won)" in out
    table = out[out.index("rank (0 = won)") :]
    for seat, rank in enumerate(row.ranks):
        line = next(line for line in table.splitlines() if line.strip("│ ").startswith(f"{seat} "))
        assert line.strip().strip("│").split("│")[-1].strip() == str(rank)
    assert 0 in row.ranks


def test_arena_tables_call_a_long_spec_by_a_short_label(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(command, "_console", lambda: Console(highlight=False, width=80))  # an 80-column terminal
    path = tmp_path / "long.sqlite"
    code, out, err = run(capsys, "arena", "seastead", "--agents", "random", LONG, "--games", "2", "--workers", "1",
                         "--db", str(path))  # fmt: skip
    assert code == 0, err
    tables = out[out.index("Ratings") : out.index(f"mcts = {LONG}")]  # every table of the report, above the legend
    assert LONG not in tables and "…" not in tables
    assert max(len(line) for line in tables.splitlines()) <= 80
    for title in ("Ratings", "Per agent", "Pairwise win rates"):
        table = tables[tables.index(title) :]
        assert any(line.strip("│ ").startswith("mcts ") for line in table.splitlines())
    assert f"mcts = {LONG}" in out.splitlines()  # the legend holds the full spec
    with Store(path, create=False) as store:
        assert {spec for r in store.games(actions=False) for spec in r.seats} == {"random", LONG}  # stored in full


def test_a_solo_tournament_reports_each_agent_against_the_automa_without_ratings(capsys, tmp_path):
    """One seat: nobody at the table to rate an agent against (openskill refuses one team), so a solo context shows
    the games won against the automa and the scores, ranked by the share won, with no ratings, pairs or plots of
    them."""
    path, out_dir = tmp_path / "solo.sqlite", tmp_path / "rep"
    code, out, _ = run(capsys, "arena", "seastead", "--agents", "random", "heuristic", "--seats", "1", "--games", "2",
                       "--workers", "1", "--db", str(path), "--out", str(out_dir))  # fmt: skip
    assert code == 0
    assert "4 games played and stored" in out and "1 seat (solo: not rated" in out
    assert "Ratings" not in out and "Pairwise" not in out and "First-seat" not in out
    with Store(path, create=False) as store:
        rows = list(store.games(actions=False))
    (cs,) = command.ratings.compute(rows)
    assert cs.solo and cs.rated == 4
    for spec, stats in cs.agents.items():  # won: the games whose rank is 0, the Boss beaten (Seastead's ranks)
        assert stats.firsts == sum(r.ranks == [0] for r in rows if r.seats == [spec])
    share = {spec: (s.firsts / s.games, sum(s.scores) / s.games) for spec, s in cs.agents.items()}
    assert [s.spec for s in cs.ranking()] == sorted(share, key=share.__getitem__, reverse=True)
    assert {(s.mu, s.sigma) for s in cs.agents.values()} == {(25.0, 25.0 / 3)}  # openskill's prior: no update
    md = (out_dir / "README.md").read_text()
    assert "### Per agent" in md and "| won |" in md and "Ratings" not in md
    assert [p.name.rsplit("-", 1)[1] for p in out_dir.glob("*.png")] == ["scores.png"]
