"""Seastead (base game): the rules engine. The PettingZoo env is :mod:`.env` (also ``meeplezoo.envs.seastead_v0``).

The package describes itself to MeepleZoo in :data:`manifest.MANIFEST`; the engine classes are imported when
first used, so reading the manifest (every ``import meeplezoo``) does not load the rules.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SeasteadGame", "SeasteadState"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
