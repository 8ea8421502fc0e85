"""Agents that misbehave, for the arena's fault tests: ``--import arena_faulty_agents`` registers them.

Each plays like the random agent until it misbehaves, whatever the agent interface passes to ``act``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from meeplezoo.agents import register_agent
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.agents.spec import Param


class Raiser(RandomAgent):
    """Raises on its third decision."""

    name = "raiser"

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        self.calls = 0

    def act(self, *args: Any) -> int:
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("boom on decision 3")
        return super().act(*args)


class Exiter(RandomAgent):
    """Calls ``sys.exit`` on its second decision."""

    name = "exiter"

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        self.calls = 0

    def act(self, *args: Any) -> int:
        self.calls += 1
        if self.calls == 2:
            sys.exit(3)
        return super().act(*args)


class Illegal(RandomAgent):
    """Returns an action id far outside the action space on its second decision."""

    name = "illegal"

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        self.calls = 0

    def act(self, *args: Any) -> int:
        self.calls += 1
        return 10**6 if self.calls == 2 else super().act(*args)


class Sleeper(RandomAgent):
    """Sleeps ``seconds`` on its second decision."""

    name = "sleeper"
    PARAMS = (Param("seconds", float, 1.0),)

    def __init__(self, seed: Any = None, seconds: float = 1.0) -> None:
        super().__init__(seed)
        self.seconds = seconds
        self.calls = 0

    def act(self, *args: Any) -> int:
        self.calls += 1
        if self.calls == 2:
            time.sleep(self.seconds)
        return super().act(*args)


class Fragile(RandomAgent):
    """Cannot be made with any seed but 0 (the seed the arena checks specs with)."""

    name = "fragile"

    def __init__(self, seed: Any = None) -> None:
        if seed != 0:
            raise OSError("the model file went missing")
        super().__init__(seed)


class CrashOnce(RandomAgent):
    """Kills its process (as a segfault would) on its first decision, once: it leaves ``marker`` behind."""

    name = "crash_once"
    PARAMS = (Param("marker", str, ""),)

    def __init__(self, seed: Any = None, marker: str = "") -> None:
        super().__init__(seed)
        self.marker = Path(marker)

    def act(self, *args: Any) -> int:
        if not self.marker.exists():
            self.marker.write_text("crashed once\n")
            os._exit(3)
        return super().act(*args)


NAMES = {
    "raiser": "Raiser",
    "exiter": "Exiter",
    "illegal": "Illegal",
    "sleeper": "Sleeper",
    "fragile": "Fragile",
    "crash_once": "CrashOnce",
}
for _name, _cls in NAMES.items():
    register_agent(_name, f"arena_faulty_agents:{_cls}")
