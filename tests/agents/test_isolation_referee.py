"""The referee's side of isolation: its own protection, what the fork server preloads, the budget's keys."""

from __future__ import annotations

import ctypes
import sys

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
