"""Shared helpers of the arena tests: tiny Seastead studies (the fastest game) and the faulty agents' module."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture
def faulty(monkeypatch):
    """Make ``arena_faulty_agents`` importable here, in worker processes and in subprocesses."""
    monkeypatch.syspath_prepend(str(HERE))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])))
    return "arena_faulty_agents"


@pytest.fixture(autouse=True)
def _no_stray_agents():
    """The faulty agents stay registered only during the test that imported them."""
    yield
    module = sys.modules.pop("arena_faulty_agents", None)
    if module is not None:
        from meeplezoo.agents import unregister_agent

        for name in module.NAMES:
            unregister_agent(name)
