"""Bots that misbehave, for the tests of ``meeplezoo play`` and the web server's bots: importing this module
(``--import hostile_bots``, ``create_app(imports=["hostile_bots"])``) registers them for every game.

Each plays like the random agent until it misbehaves; ``pidfile`` plays well and writes the id of the process it
runs in to its ``path``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.agents import register_agent
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.agents.spec import Param


class Boom(RandomAgent):
    """Raises on its first decision."""

    def act(self, view: Any) -> int:
        raise RuntimeError("boom")


class Cheat(RandomAgent):
    """Answers an action id far outside the action space."""

    def act(self, view: Any) -> int:
        return 10**6


class Yes(RandomAgent):
    """Answers ``True`` (an int to Python, no action id)."""

    def act(self, view: Any) -> Any:
        return True


class Text(RandomAgent):
    """Answers a legal action id as text."""

    def act(self, view: Any) -> Any:
        return str(view.legal_actions[0])


class NumpyInt(RandomAgent):
    """Answers a legal action as a numpy integer (an action id: it plays on)."""

    def act(self, view: Any) -> Any:
        return np.int64(view.legal_actions[-1])


class Nap(RandomAgent):
    """Sleeps ``seconds`` on every decision, then plays; writes ``os.getpid()`` to ``path`` if given."""

    PARAMS = (Param("seconds", float, 0.3), Param("path", str, ""))

    def __init__(self, seed: Any = None, seconds: float = 0.3, path: str = "") -> None:
        super().__init__(seed)
        self.seconds = seconds
        if path:
            with Path(path).open("a") as f:
                f.write(f"{os.getpid()}\n")

    def act(self, view: Any) -> int:
        time.sleep(self.seconds)
        return super().act(view)


class Quit(RandomAgent):
    """Calls ``sys.exit(3)`` on its first decision."""

    def act(self, view: Any) -> int:
        sys.exit(3)


class Out(RandomAgent):
    """Raises a bare ``BaseException`` on its first decision."""

    def act(self, view: Any) -> int:
        raise BaseException("out")


class PidFile(RandomAgent):
    """Plays at random; writes ``os.getpid()`` to ``path`` when made (one line per agent: appended)."""

    PARAMS = (Param("path", str, ""),)

    def __init__(self, seed: Any = None, path: str = "") -> None:
        super().__init__(seed)
        with Path(path).open("a") as f:
            f.write(f"{os.getpid()}\n")


NAMES = {
    "boom": "Boom",
    "cheat": "Cheat",
    "yes": "Yes",
    "text": "Text",
    "npint": "NumpyInt",
    "nap": "Nap",
    "quit": "Quit",
    "out": "Out",
    "pidfile": "PidFile",
}
for _name, _cls in NAMES.items():
    register_agent(_name, f"{__name__}:{_cls}")
