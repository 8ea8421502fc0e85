"""Shared by every test folder: pytest puts the folder of a root ``conftest.py`` on ``sys.path`` (its default
``prepend`` import mode), so the helper modules beside it (``played_games``) import by name from any test.

The suite also plays the test plugin game (``tests/plugins/goofspiel``, installed as a third party installs one):
without it the run stops at once with the command that installs it, rather than failing test by test."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).parent / "plugins" / "goofspiel"
#: where ``hostile_agents`` lives (the spies and misbehaving agents of the isolation tests)
HOSTILE_AGENTS = Path(__file__).parent / "agents"


def pytest_configure(config: pytest.Config) -> None:
    spec = importlib.util.find_spec("meeplezoo_goofspiel")
    if spec is None or spec.origin is None or not Path(spec.origin).resolve().is_relative_to(PLUGIN.resolve()):
        raise pytest.UsageError(f"the test plugin game is not installed from {PLUGIN}: run pip install -e {PLUGIN}")


@pytest.fixture
def hostile(monkeypatch):
    """Make ``hostile_agents`` importable here, in worker processes, agent processes and subprocesses; yields its
    module name (for ``--import``) and unregisters its agents afterwards."""
    from meeplezoo.agents import unregister_agent

    monkeypatch.syspath_prepend(str(HOSTILE_AGENTS))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HOSTILE_AGENTS), os.environ.get("PYTHONPATH")])))
    import hostile_agents

    yield "hostile_agents"
    for name in hostile_agents.NAMES:
        unregister_agent(name)
    sys.modules.pop("hostile_agents", None)
