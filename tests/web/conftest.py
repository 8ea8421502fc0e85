"""Shared by the web tests: the misbehaving bots of ``hostile_bots`` (``tests/hostile_bots.py``), registered only
while a test uses them."""

from __future__ import annotations

import sys

import pytest

#: the module that registers the hostile bots (tests/ is on sys.path, for the bot processes too)
HOSTILE = "hostile_bots"


@pytest.fixture
def hostile():
    """The hostile bots' module name, for ``create_app(imports=[...])``; its agents are unregistered after the test."""
    yield HOSTILE
    module = sys.modules.pop(HOSTILE, None)
    if module is not None:
        from meeplezoo.agents import unregister_agent

        for name in module.NAMES:
            unregister_agent(name)
