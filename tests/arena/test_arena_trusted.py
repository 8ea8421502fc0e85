"""``meeplezoo arena --isolation none``: the trusted fast path runs MeepleZoo's own agents only, and says so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from meeplezoo import cli
from meeplezoo.arena.store import Store


def test_in_process_agents_must_be_meeplezoos_own(tmp_path, capsys, faulty):
    db = tmp_path / "r.sqlite"
    agents = ["--agents", "random", "raiser", "--import", faulty]
    code = cli.main(["arena", "seastead", *agents, "--isolation", "none", "--db", str(db), "--games", "2"])
    err = capsys.readouterr().err
    assert code == 2 and not db.exists()
    assert (
        err.strip()
        .splitlines()[-1]
        .endswith(
            "--isolation none runs MeepleZoo's own agents only; 'raiser' comes from arena_faulty_agents "
            "(run it isolated: --isolation process)"
        )
    )


def test_the_stored_games_and_the_summary_name_the_mode(tmp_path, capsys):
    db = tmp_path / "r.sqlite"
    argv = ["arena", "seastead", "--agents", "random", "heuristic", "--games", "2", "--workers", "1", "--quiet"]
    assert cli.main([*argv, "--db", str(db), "--isolation", "none"]) == 0
    assert "agents ran in the referee's process (--isolation none" in capsys.readouterr().out
    assert cli.main([*argv, "--db", str(tmp_path / "p.sqlite"), "--budget", "memory_mb=1024"]) == 0
    out = capsys.readouterr().out
    assert "agents ran each in its own process; budget decision_seconds=30 " in out and "memory_mb=1024" in out
    with Store(db, create=False) as trusted, Store(tmp_path / "p.sqlite", create=False) as isolated:
        a, b = list(trusted.games()), list(isolated.games())
    assert {r.isolation for r in a} == {"none"} and {r.isolation for r in b} == {"process"}
    assert {r.budget["memory_mb"] for r in b} == {1024}
    assert [r.actions for r in a] == [r.actions for r in b]  # the same games, whichever the mode


def test_with_isolation_the_arena_command_never_runs_an_imported_modules_code(tmp_path):
    """``--import`` code runs only in agent processes: not in the command (the referee with ``--workers 1``), not
    to check the specs, not to read their parameters. (A fresh process: agent processes get the environment
    of the moment their fork server started.)"""
    here = Path(__file__).resolve().parents[1] / "agents"
    log = tmp_path / "imported.txt"
    env = {**os.environ, "HOSTILE_IMPORT_LOG": str(log)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(here), os.environ.get("PYTHONPATH")]))
    argv = ["arena", "seastead", "--agents", "random", "first_legal", "--import", "hostile_agents", "--games", "2"]
    argv += ["--workers", "1", "--quiet", "--db", str(tmp_path / "r.sqlite")]
    done = subprocess.run([sys.executable, "-m", "meeplezoo", *argv], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    importers = log.read_text().split()
    assert importers and set(importers) == {"agent-seat0", "agent-seat1"}  # the spec check, then the games' seats
