"""MeepleZoo environments, one package per game (``envs/<game>/``, described by its ``manifest.py``).

PettingZoo's spelling works for every registered game: ``from meeplezoo.envs import seastead_v0`` is the game's
env module (``meeplezoo.envs.seastead.env``), found through the registry.
"""

from __future__ import annotations

from types import ModuleType


def __getattr__(name: str) -> ModuleType:
    from ..games import UnknownGameError, env_module, manifest

    try:
        game = manifest(name)
    except UnknownGameError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    if name != game.env_module_name:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}; the env is {game.env_module_name}")
    return env_module(game.name)
