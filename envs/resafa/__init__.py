"""Resafa (Vladimír Suchý) for 2-4 players: a 6-card personal action deck, workshops, gardens, canals, trade.

The package describes itself to MeepleZoo in :data:`manifest.MANIFEST`; the engine classes are imported when
first used, so reading the manifest (every ``import meeplezoo``) does not load the rules.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ResafaGame", "ResafaState"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
