"""Arena runs with hostile agents (``tests/agents/hostile_agents.py``), every agent in its own process: the run
finishes, every game is stored once with its forfeit, the exit status and summary say so, a rerun plays nothing;
the isolation mode and budget are stored; bad ``--budget`` items are one line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from meeplezoo import cli
from meeplezoo.arena import runner
from meeplezoo.arena.command import EXIT_FORFEITS
from meeplezoo.arena.schedule import Study, validate
from meeplezoo.arena.store import Store

AGENTS_TESTS = Path(__file__).resolve().parents[1] / "agents"
MODULE = "hostile_agents"
#: each hostile agent (it misbehaves on its second decision) and the reason its games end with
HOSTILE = {
    "stubborn": "time limit",
    "long_sleeper": "time limit",
    "sys_exit": "crashed",
    "abort": "crashed",
    "hard_exit": "crashed",
    "memory_hog": "memory limit",
    "cpu_burner:seconds=-1": "cpu limit",
    "bad_answer:kind=str": "illegal action",
}
BUDGET = {"memory_mb": 512, "decision_cpu": 0.3}
TIME_LIMIT = 0.5


def reason_of(spec: str) -> str:
    """The reason of ``spec``'s forfeits (the arena stores specs in their canonical spelling: ``seconds=-1.0``)."""
    return next(reason for s, reason in HOSTILE.items() if s.partition(":")[0] == spec.partition(":")[0])


def budget_of(spec: str) -> dict:
    """The hog has no CPU budget (filling its memory takes CPU time too): its memory cap must stop it."""
    return {"memory_mb": 512} if spec.startswith("memory_hog") else dict(BUDGET)


def hostile_tasks(specs, **task):
    tasks = []
    for spec in specs:
        # the CPU and memory budgets bind first: the wall limit does not race them on a busy machine
        limit = 10 * TIME_LIMIT if spec.startswith(("cpu_burner", "memory_hog")) else TIME_LIMIT
        study = Study("seastead", ["random", spec], games=2, seed=3, time_limit=limit)
        tasks += [dataclasses.replace(t, budget=budget_of(spec), **task) for t in validate(study, [MODULE])]
    return tasks


@pytest.mark.parametrize("workers", [1, 2])
def test_an_arena_of_hostile_agents_stores_every_game_once_with_its_forfeit(hostile, tmp_path, workers):
    tasks = hostile_tasks([*HOSTILE, "first_legal"])
    with Store(tmp_path / "r.sqlite") as db:
        summary = runner.run(tasks, db, workers=workers)
        rows = list(db.games())
        again = runner.run(tasks, db, workers=workers)
        assert db.count() == len(tasks)
    assert summary.played == len(tasks) == 2 * (len(HOSTILE) + 1) and not summary.failed
    assert sorted(r.key for r in rows) == sorted(t.key for t in tasks)  # each game exactly once
    for r in rows:
        spec = next(s for s in r.seats if s != "random")
        seat = r.seats.index(spec)
        assert r.isolation == "process"
        assert r.budget["decision_seconds"] == r.time_limit > 0 and r.budget["memory_mb"] == 512
        assert r.budget["decision_cpu"] == budget_of(spec).get("decision_cpu")
        if spec == "first_legal":  # a staller is no fault: the game is played out
            assert r.forfeit is None and r.decisions > 20
            continue
        assert r.forfeit["seat"] == seat and r.forfeit["reason"] == reason_of(spec), (spec, r.forfeit)
        assert r.ranks[seat] == 1 and r.ranks[1 - seat] == 0
    assert sorted(reason_of(f["spec"]) for f in summary.forfeits) == sorted(list(HOSTILE.values()) * 2)
    assert all(reason_of(f["spec"]) == f["reason"] for f in summary.forfeits)
    assert again.played == 0 and again.already == len(tasks) and not again.forfeits  # no forfeit is replayed


def test_with_isolation_only_agent_processes_run_the_plugin_modules_code(hostile, tmp_path, monkeypatch):
    """The arena's workers hold the true states: with isolation they do not import ``--import`` modules (the agent
    processes of the agents those modules bring do; a built-in agent's process does not)."""
    log = tmp_path / "imported.txt"
    monkeypatch.setenv("HOSTILE_IMPORT_LOG", str(log))
    tasks = hostile_tasks(["first_legal"]) + hostile_tasks(["sys_exit"])
    with Store(tmp_path / "r.sqlite") as db:
        summary = runner.run(tasks, db, workers=2)
    assert summary.played == 4 and len(summary.forfeits) == 2
    importers = log.read_text().split()
    assert importers and all(name.startswith("agent-seat") for name in importers), importers
    assert len(importers) == 4  # the hostile seat of each game; none of the random seats


def test_in_process_play_is_stored_as_isolation_none(hostile, tmp_path):
    tasks = hostile_tasks(["first_legal"], isolation="none")
    with Store(tmp_path / "r.sqlite") as db:
        assert runner.run(tasks, db, workers=1).played == 2
        rows = list(db.games())
    assert {r.isolation for r in rows} == {"none"} and all(r.forfeit is None for r in rows)


def arena(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["arena", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_arena_command_with_hostile_agents_exits_4_and_lists_the_forfeits(hostile, capsys, tmp_path, workers):
    db = str(tmp_path / "r.sqlite")
    argv = ["seastead", "--agents", "random", "stubborn", "sys_exit", "bad_answer", "--games", "2", "--db", db]
    argv += ["--import", MODULE, "--time-limit", "0.5", "--budget", "memory_mb=512", "--workers", workers, "--quiet"]
    code, out, err = arena(capsys, *argv)
    assert code == EXIT_FORFEITS, out + err
    games = 2 * 6  # 4 agents: 6 pairs
    assert f"{games} games played and stored" in out
    assert "games ended by a forfeit" in out
    for spec, reason in (("stubborn", "time limit"), ("sys_exit", "crashed"), ("bad_answer", "illegal action")):
        assert any(line.strip().startswith(f"{spec}:") and reason in line for line in out.splitlines()), out
    assert "agents ran each in its own process" in out and "memory_mb=512" in out
    with Store(db, create=False) as store:
        rows = list(store.games())
    assert len(rows) == games and {r.isolation for r in rows} == {"process"}
    assert sum(r.forfeit is not None for r in rows) >= 10  # all but random against random... each pair has a hostile
    code, out, err = arena(capsys, *argv)  # the rerun: nothing to play, no forfeit of its own
    assert code == 0 and f"0 games played and stored, {games} already stored" in out
    with Store(db, create=False) as store:
        assert store.count() == games


def test_the_arena_command_stores_the_isolation_mode(capsys, tmp_path):
    for mode in ("process", "none"):
        db = str(tmp_path / f"{mode}.sqlite")
        code, out, err = arena(
            capsys, "seastead", "--agents", "random", "heuristic", "--games", "2", "--db", db, "--workers", "1",
            "--isolation", mode, "--quiet",
        )  # fmt: skip
        assert code == 0, err
        with Store(db, create=False) as store:
            rows = list(store.games())
        assert len(rows) == 2 and {r.isolation for r in rows} == {mode}
        if mode == "process":
            assert all(r.budget["decision_seconds"] > 0 and "memory_mb" in r.budget for r in rows)
        assert ("own process" in out) == (mode == "process")


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("nope=1", "nope"),
        ("memory_mb=lots", "memory_mb"),
        ("memory_mb=1", "memory_mb"),
        ("decision_cpu=-2", "decision_cpu"),
        ("memory_mb", "memory_mb"),
        ("decision_seconds=3", "--time-limit"),
    ],
)
def test_a_bad_budget_item_is_one_line_and_exit_2(capsys, tmp_path, item, message):
    db = tmp_path / "r.sqlite"
    code, out, err = arena(
        capsys, "seastead", "--agents", "random", "heuristic", "--games", "2", "--db", str(db), "--budget", item
    )
    assert code == 2 and err.startswith("meeplezoo arena: error: ") and err.count("\n") == 1, err
    assert message in err and "--budget" in err
    assert out == "" and not db.exists()
