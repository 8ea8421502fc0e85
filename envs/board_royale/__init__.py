"""Board Royale: The Island: the rules engine. The env is :mod:`.env` (also ``meeplezoo.envs.board_royale_v1``).

The package describes itself to MeepleZoo in :data:`manifest.MANIFEST`; the engine classes are imported when
first used, so reading the manifest (every ``import meeplezoo``) does not load the rules.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BoardRoyaleGame", "BoardRoyaleState"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
