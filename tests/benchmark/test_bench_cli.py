"""``meeplezoo benchmark`` and ``meeplezoo leaderboard`` through the real command line, on a tiny suite of our own
(``--suite FILE``, its calibration made once by ``meeplezoo benchmark --calibrate``): the score card and its files,
bit-for-bit reproduction, resume after a kill, one-line errors for bad input, a card of another suite version refused
by the leaderboard, and an agent that forfeits scored with losses (exit 4)."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from meeplezoo import cli
from meeplezoo.agents.run_options import EXIT_FORFEITS
from meeplezoo.arena.store import Store
from meeplezoo.benchmark.schedule import plan
from meeplezoo.benchmark.suite import read_suite

#: where ``arena_faulty_agents`` (``illegal``: an action id far outside the action space on its second decision) is
FAULTY = Path(__file__).resolve().parents[1] / "arena"

#: a suite small enough for a test: the random and heuristic background, a 2-player, a 4-player and a solo task; the
#: full 2-player task is 8 deals (enough games for a run to be killed mid-way), --quick plays its first 2
TINY = """\
name = "tiny"
version = 1
seed = 7
background = ["random", "heuristic"]
[envs]
seastead = 0
concordia = 0
board_royale = 1
resafa = 0
[budget]
decision_cpu = 1.0
decision_seconds = 10.0
[[task]]
name = "seastead-2p"
game = "seastead"
config = { num_players = 2 }
games = 16
quick = 4
[[task]]
name = "board_royale-4p"
game = "board_royale"
config = { num_players = 4 }
games = 4
quick = 4
[[task]]
name = "seastead-solo"
game = "seastead"
config = { num_players = 1 }
games = 4
quick = 2
measure = "margin"
"""

#: games of the heuristic's full run of TINY: per deal of seastead-2p, 2 seats against random and 1 mirror game
#: against itself (8 deals); board_royale-4p: 4 seats against random, 1 mirror game; seastead-solo: 4 games
FULL_GAMES = 8 * 3 + 4 + 1 + 4


def bench(*argv: str) -> int:
    """``meeplezoo benchmark ...`` in this process, one worker, no progress bar."""
    return cli.main(["benchmark", *argv, "--workers", "1", "--quiet"])


def bench_process(*argv: str) -> list[str]:
    """The argv of ``python -m meeplezoo benchmark ...`` (a subprocess)."""
    return [sys.executable, "-m", "meeplezoo", "benchmark", *argv]


def read(out: Path) -> dict[str, Any]:
    return json.loads((out / "scorecard.json").read_text(encoding="utf-8"))


def reproducible(card: dict[str, Any]) -> dict[str, Any]:
    """The card without what a rerun may change: ``run`` (how, when, where it was made, the measured CPU)."""
    assert all("cpu_per_decision" not in t for t in card["tasks"])  # measured: kept under run
    return {k: v for k, v in card.items() if k != "run"}


def count(db: Path) -> tuple[int, int]:
    """(games, distinct keys) stored in ``db`` so far, read without writing; (0, 0) before its table exists."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
        try:
            return con.execute("SELECT count(*), count(DISTINCT key) FROM games").fetchone()
        finally:
            con.close()
    except sqlite3.OperationalError:
        return (0, 0)


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    """TINY written to a file, with its calibration beside it (``tiny_calibration.json``) made by the command."""
    folder = tmp_path_factory.mktemp("suite")
    path = folder / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    calibration = folder / "tiny_calibration.json"
    code = bench("--calibrate", "--quick", "--suite", str(path), "--db", str(folder / "calib.sqlite"),
                 "--out", str(calibration))  # fmt: skip
    assert code == 0
    doc = json.loads(calibration.read_text(encoding="utf-8"))
    assert doc["suite"] == "tiny" and doc["suite_digest"] == read_suite(path).digest()
    return path


@pytest.fixture(scope="module")
def cards(suite, tmp_path_factory) -> dict[str, Path]:
    """The quick score cards of the heuristic and of random (agent -> --out folder); each run's database beside."""
    folder = tmp_path_factory.mktemp("cards")
    outs = {}
    for agent in ("heuristic", "random"):
        out = folder / agent
        assert bench(agent, "--quick", "--suite", str(suite), "--db", str(folder / f"{agent}.sqlite"),
                     "--out", str(out)) == 0  # fmt: skip
        outs[agent] = out
    return outs


# --- 1. the score card --------------------------------------------------------------------------------------------


def test_the_score_card_and_its_files(suite, cards):
    out = cards["heuristic"]
    assert {p.name for p in out.iterdir()} == {"scorecard.json", "README.md", "normalised.png", "winrates.png"}
    for plot in ("normalised.png", "winrates.png"):
        assert (out / plot).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    card = read(out)
    assert card["format"] == "meeplezoo-scorecard" and card["agent"] == "heuristic"
    calibration = suite.with_name("tiny_calibration.json").read_bytes()
    assert card["suite"] == {
        "name": "tiny",
        "version": 1,
        "mode": "quick",
        "digest": read_suite(suite).digest(),
        "calibration": hashlib.sha256(calibration).hexdigest(),
        "tasks_not_run": [],
    }
    assert card["envs"] == {
        "seastead": "seastead_v0",
        "concordia": "concordia_v0",
        "board_royale": "board_royale_v1",
        "resafa": "resafa_v0",
    }
    assert card["budget"] == {"decision_cpu": 1.0, "decision_seconds": 10.0} and card["seed"] == 7
    tasks = {t["name"]: t for t in card["tasks"]}
    assert list(tasks) == ["seastead-2p", "board_royale-4p", "seastead-solo"]
    assert tasks["seastead-2p"]["seeds"] == [7, 8] and tasks["board_royale-4p"]["seeds"] == [7]
    assert tasks["seastead-solo"]["seeds"] == [7, 8]
    for name, games in (("seastead-2p", 4), ("board_royale-4p", 4)):
        assert [(v["background"], v["games"]) for v in tasks[name]["vs"]] == [("random", games), ("heuristic", games)]
    assert all(t["complete"] for t in tasks.values())
    assert card["headline"]["tasks"] == card["headline"]["of"] == 3
    run = card["run"]
    assert run["command"] == shlex.join(["meeplezoo", "benchmark", "heuristic", "--quick", "--suite", str(suite)])
    assert run["workers"] == 1 and run["backend"] == "local" and run["db"].endswith("heuristic.sqlite")
    # 2 deals x (2 seats against random + 1 mirror game), 4 seats + 1 mirror game at 4 players, 2 solo games
    assert run["played"] == run["stored"] == 2 * 3 + 5 + 2 and run["failed"] == 0
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "`heuristic`" in readme and "![normalised](normalised.png)" in readme


def test_random_scores_below_the_heuristic(cards):
    weak, strong = read(cards["random"]), read(cards["heuristic"])
    assert weak["headline"]["score"] < strong["headline"]["score"]
    for w, s in zip(weak["tasks"], strong["tasks"], strict=True):
        assert w["normalised"] < s["normalised"], w["name"]


# --- 2. reproducible ------------------------------------------------------------------------------------------


def test_the_same_run_into_another_database_gives_the_same_card(suite, cards, tmp_path):
    out = tmp_path / "again"
    assert bench("heuristic", "--quick", "--suite", str(suite), "--db", str(tmp_path / "again.sqlite"),
                 "--out", str(out)) == 0  # fmt: skip
    first, again = read(cards["heuristic"]), read(out)
    assert again["run"]["played"] == first["run"]["played"]  # played afresh, not read from the first database
    assert reproducible(again) == reproducible(first)
    assert json.dumps(reproducible(again)) == json.dumps(reproducible(first))  # the same keys in the same order


def test_a_seeded_search_reproduces(suite, tmp_path):
    made = []
    for run in ("a", "b"):
        out = tmp_path / run
        argv = ["mcts:iters=5", "--quick", "--tasks", "seastead-2p", "seastead-solo", "--suite", str(suite)]
        assert bench(*argv, "--db", str(tmp_path / f"{run}.sqlite"), "--out", str(out)) == 0
        made.append(read(out))
    assert made[0]["agent"] == "mcts:iters=5"
    assert made[0]["suite"]["tasks_not_run"] == ["board_royale-4p"]
    assert reproducible(made[0]) == reproducible(made[1])


# --- 3. resume after a kill -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_killed_run_resumes_to_the_card_of_an_uninterrupted_one(suite, tmp_path):
    db, out = tmp_path / "killed.sqlite", tmp_path / "killed"
    argv = bench_process("heuristic", "--suite", str(suite), "--db", str(db), "--out", str(out), "--workers", "1",
                         "--quiet")  # fmt: skip
    keys = {p.task.key for p in plan(read_suite(suite), "heuristic", quick=False)}
    assert len(keys) == FULL_GAMES
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 180
    while count(db)[0] < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, without warning
    proc.wait(timeout=30)
    stored = count(db)[0]
    assert 3 <= stored < FULL_GAMES, f"the run was not killed mid-way ({stored} games stored)"
    assert not out.exists()  # no card from a run that did not finish
    with Store(db) as store:
        before = {r.id: (r.key, r.finished_at, r.actions, r.ranks) for r in store.games(actions=True)}
        assert store.con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert len(before) == stored and {k for k, *_ in before.values()} <= keys
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert count(db) == (FULL_GAMES, FULL_GAMES)  # every game stored exactly once
    with Store(db) as store:
        after = {r.id: (r.key, r.finished_at, r.actions, r.ranks) for r in store.games(actions=True)}
    assert {k for k, *_ in after.values()} == keys
    assert all(after[i] == row for i, row in before.items())  # the games stored before the kill are untouched
    card = read(out)
    assert card["run"]["played"] + stored == FULL_GAMES and card["run"]["stored"] == FULL_GAMES
    fresh = tmp_path / "fresh"
    assert bench("heuristic", "--suite", str(suite), "--db", str(tmp_path / "fresh.sqlite"), "--out", str(fresh)) == 0
    assert read(fresh)["run"]["played"] == FULL_GAMES
    assert reproducible(card) == reproducible(read(fresh))


def test_a_full_run_after_a_quick_one_plays_only_the_rest(suite, cards, tmp_path):
    db = tmp_path / "quick-then-full.sqlite"
    source = cards["heuristic"].parent / "heuristic.sqlite"
    with closing(sqlite3.connect(source)) as quick, closing(sqlite3.connect(db)) as copy:
        quick.backup(copy)  # the quick run's games, its database left as it is
    quick_games = read(cards["heuristic"])["run"]["stored"]
    assert bench("heuristic", "--suite", str(suite), "--db", str(db), "--out", str(tmp_path / "full")) == 0
    run = read(tmp_path / "full")["run"]
    assert run["played"] == FULL_GAMES - quick_games and run["stored"] == FULL_GAMES
    assert count(db) == (FULL_GAMES, FULL_GAMES)


# --- 4. bad input: one line, exit 2, nothing written ------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["nosuchbot"], "no agent 'nosuchbot'"),
        (["mcts:iters=-3"], "iters takes a whole number of at least 1, not '-3'"),
        (["heuristic", "--tasks", "nope"], "has no task 'nope'"),
        (["human"], "a human player cannot be benchmarked"),
        (["heuristic", "--workers", "0"], "--workers must be at least 1, not 0"),
        (["heuristic", "--suite-is-not-toml"], "is not valid TOML"),
        (["heuristic", "--suite-without-calibration"], "has no calibration"),
    ],
    ids=["unknown-agent", "bad-parameter", "unknown-task", "human", "no-workers", "not-toml", "no-calibration"],
)
def test_bad_input_is_one_line_and_exit_2_and_writes_nothing(suite, tmp_path, argv, named):
    if "--suite-is-not-toml" in argv:
        bad = tmp_path / "bad.toml"
        bad.write_text('name = "bad"\n[[task\n', encoding="utf-8")
        argv = [argv[0], "--suite", str(bad)]
    elif "--suite-without-calibration" in argv:
        alone = tmp_path / "alone.toml"
        alone.write_text(suite.read_text(encoding="utf-8"), encoding="utf-8")
        argv = [argv[0], "--suite", str(alone)]
    else:
        argv = [*argv, "--suite", str(suite)]
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run(bench_process(*argv, "--quiet"), capture_output=True, text=True, cwd=work, timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("meeplezoo benchmark: error: "), done.stderr
    assert named in done.stderr
    assert list(work.iterdir()) == []  # neither the default database nor the default card folder


# --- 5. the leaderboard refuses a card of another suite version ------------------------------------------------


def test_the_leaderboard_refuses_a_card_of_another_suite_version(cards, tmp_path, capsys):
    other = read(cards["random"])
    other["suite"]["version"] = 2
    bad = tmp_path / "v2" / "scorecard.json"
    bad.parent.mkdir()
    bad.write_text(json.dumps(other), encoding="utf-8")
    page = tmp_path / "leaderboard.md"
    capsys.readouterr()
    assert cli.main(["leaderboard", str(cards["heuristic"]), str(bad), "--out", str(page)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("meeplezoo leaderboard: error: ") and "v2" in err, err
    assert not page.exists()
    assert cli.main(["leaderboard", str(cards["heuristic"]), str(cards["random"]), "--out", str(page)]) == 0
    assert "2 rows from 2 score cards" in capsys.readouterr().out
    text = page.read_text(encoding="utf-8")
    assert "`heuristic`" in text and "`random`" in text
    assert text.index("`heuristic`") < text.index("`random`")  # the better headline first


# --- 6. an agent that forfeits ----------------------------------------------------------------------------------


def test_a_forfeiting_agent_loses_its_games_and_the_command_exits_4(suite, tmp_path):
    db, out = tmp_path / "f.sqlite", tmp_path / "f"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(FAULTY), os.environ.get("PYTHONPATH")]))}
    spec = ["illegal", "--import", "arena_faulty_agents", "--quick", "--tasks", "seastead-2p", "--suite", str(suite)]
    argv = bench_process(*spec, "--db", str(db), "--out", str(out), "--workers", "1", "--quiet")
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == EXIT_FORFEITS == 4, done.stderr
    assert "games ended by a forfeit" in done.stdout
    card = read(out)
    (task,) = [t for t in card["tasks"] if "skipped" not in t]
    assert task["name"] == "seastead-2p" and task["complete"]
    for vs in task["vs"]:  # it plays its first decision, then answers an action id that does not exist
        assert vs["games"] == 4 and vs["focal_forfeits"] == 4 and vs["background_forfeits"] == 0, vs
        assert vs["wins"] == 0 and vs["win_rate"] == 0.0
    assert task["normalised"] < 0  # below random
    with Store(db) as store:
        rows = list(store.games())
    assert len(rows) == 8
    for row in rows:
        focal = row.seats.index("illegal")
        assert row.forfeit["seat"] == focal and row.ranks[focal] == max(row.ranks) > min(row.ranks)


@pytest.mark.slow
def test_the_ray_backend_gives_the_card_of_a_local_run(suite, cards, tmp_path):
    pytest.importorskip("ray")
    out = tmp_path / "ray"
    code = cli.main(["benchmark", "heuristic", "--quick", "--suite", str(suite), "--db", str(tmp_path / "ray.sqlite"),
                     "--out", str(out), "--backend", "ray", "--workers", "2", "--quiet"])  # fmt: skip
    assert code == 0
    card = read(out)
    assert card["run"]["backend"] == "ray" and card["run"]["played"] == card["run"]["stored"] > 0
    assert reproducible(card) == reproducible(read(cards["heuristic"]))
