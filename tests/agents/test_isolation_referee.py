"""The referee's side of isolation: its own protection, what the fork server preloads, the budget's keys."""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import time

import pytest

from meeplezoo.agents.budget import Budget
from meeplezoo.agents.isolation import PR_GET_DUMPABLE, preload_for, process_context
from meeplezoo.envs.core.params import ParamError


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_a_referee_that_starts_agent_processes_is_not_dumpable():
    """Non-dumpable: another process of the same user can neither read its memory (/proc/PID/mem) nor trace it."""
    process_context()
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0


def test_the_fork_server_preloads_what_a_policy_needs_and_nothing_for_the_others():
    assert {"torch", "sb3_contrib"} <= set(preload_for(["random", "ppo"], "seastead"))
    assert preload_for(["random", "heuristic", "mcts:iters=5"], "seastead") == []
    assert preload_for(["no_such_agent"], "seastead") == []  # its process reports the error when it is made


def test_a_budget_names_a_bad_key_or_value():
    assert Budget.read({"decision_cpu": "2.5", "memory_mb": "none"}) == Budget(decision_cpu=2.5, memory_mb=None)
    with pytest.raises(ParamError, match="no parameter 'memory'; its parameters: decision_seconds"):
        Budget.read({"memory": "10"})
    with pytest.raises(ParamError, match="memory_mb takes a whole number of at least 64 or none, not '12'"):
        Budget.read({"memory_mb": "12"})
    unlimited = Budget(decision_seconds=None, game_seconds=None, game_cpu=None, memory_mb=None)
    assert unlimited.describe() == "start_seconds=120"
    assert Budget().with_time_limit(2).decision_seconds == 2.0


REFEREE = """
import os, signal, sys
from multiprocessing import forkserver
from meeplezoo.agents.isolation import isolated_seats
from meeplezoo.agents.view import view_for
from meeplezoo.games import make_env

env = make_env("seastead")
env.reset(seed=1)
with isolated_seats(env, ["random", "heuristic"], "seastead", seeds=[1, 2]) as seats:
    for name in env.agent_iter(6):  # a few decisions: both agents are now stopped between decisions
        env.step(seats[name].act(view_for(env, name, seats[name])))
    pids = [a.process.pid for a in seats.values()] + [forkserver._forkserver._forkserver_pid]
    print(*pids, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the referee dies at once: no cleanup of its own
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_referee_takes_its_agent_processes_and_fork_server_with_it(tmp_path):
    """Even agents stopped between decisions (they never read their requests' end) die with the referee: the fork
    server sees its keep-alive pipe close and ends, and its agent processes get SIGKILL (PR_SET_PDEATHSIG)."""
    out = tmp_path / "pids.txt"
    with out.open("w") as f:  # a file, not a pipe: a survivor holding the referee's stdout must not block the test
        done = subprocess.run([sys.executable, "-c", REFEREE], stdout=f, stderr=subprocess.DEVNULL, timeout=120)
    assert done.returncode == -signal.SIGKILL
    pids = [int(p) for p in out.read_text().split()]
    assert len(pids) == 3
    deadline = time.monotonic() + 10
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids if _alive(p)], "processes outlived their referee"
