"""A stored game's context (its game and config) in people's words: the game's name and the settings that
differ from the game's defaults, as ``KEY=VALUE`` (the report's plot titles, the Watch page's list).

>>> context_title("seastead", {"decree": "random", "num_players": 2, "sides": "AAAA"})
'seastead'
>>> context_title("concordia", {"map": "imperium", "num_players": 4, "intermediate_scoring": False})
'concordia map=imperium'
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from .. import games


@cache
def _defaults(game: str) -> tuple[tuple[str, Any], ...]:
    """The game's config keys with their defaults (none for a game this install does not have)."""
    try:
        return tuple(games.make_env(game).unwrapped.game.defaults.items())
    except Exception:  # a stored game of an uninstalled plugin: every setting is shown
        return ()


def changed_settings(game: str, config: dict[str, Any]) -> list[str]:
    """``KEY=VALUE`` for each setting of ``config`` that differs from ``game``'s default, in key order, as
    ``--set KEY=VALUE`` reads it back (``elimination_only=True``)."""
    defaults = dict(_defaults(game))
    return [f"{k}={v}" for k, v in sorted(config.items()) if k not in defaults or defaults[k] != v]


def context_title(game: str, config: dict[str, Any]) -> str:
    """The game's name, then the settings that differ from its defaults."""
    return " ".join([game, *changed_settings(game, config)])


def split_context(context: str) -> tuple[str, dict[str, Any]]:
    """The game and config of a context name (:func:`meeplezoo.arena.store.context_name`)."""
    game, _, config = context.partition(" ")
    return game, json.loads(config) if config else {}
