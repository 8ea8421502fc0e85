"""The one registry of games: every :class:`~meeplezoo.envs.core.manifest.GameManifest` declared under the
``meeplezoo.games`` entry point, MeepleZoo's own and plugins' alike (:mod:`meeplezoo.plugins`).

Every tool (CLI, arena, agents, training, web) finds a game here and asks its manifest; nothing outside a game's
package names a game. A name resolves from the short name, the env module name or the registry id:

>>> resolve("seastead"), resolve("seastead_v0"), resolve("meeplezoo/seastead-v0")
('seastead', 'seastead', 'seastead')
>>> manifest("seastead").env_id
'meeplezoo/seastead-v0'
"""

from __future__ import annotations

import dataclasses
import importlib
import warnings
from functools import cache
from types import ModuleType
from typing import Any

from .envs.core.errors import MeepleZooError
from .envs.core.manifest import GameManifest, load
from .plugins import ENV_MODULE, GameDeclaration, PluginWarning, game_declarations


class UnknownGameError(MeepleZooError):
    """A game name that no installed package declares."""


def _from_env_module(found: GameDeclaration) -> GameManifest | None:
    """The manifest of a game declared by its bare env module (``package.<name>_v<N>``): the env only."""
    match = ENV_MODULE.match(found.value)
    if not match or match["name"] != found.name:
        return None
    return GameManifest(
        name=found.name,
        title=found.name,
        package=match["package"],
        env=found.value,
        version=int(match["version"]),
        player_counts=(),
    )


def _load(found: GameDeclaration) -> GameManifest | None:
    """The manifest an entry point declares, with its distribution; None (and a warning) when it is unusable."""
    if ":" not in found.value:
        manifest = _from_env_module(found)
        problem = "the value must be 'package.module:MANIFEST' or the env module 'package.<name>_v<N>'"
    else:
        try:
            manifest = load(found.value)
        except Exception as exc:  # a broken plugin is skipped with a warning, never the whole registry
            manifest, problem = None, f"cannot be loaded: {type(exc).__name__}: {exc}"
        else:
            problem = f"{found.value} is not a GameManifest named {found.name!r}"
            if not isinstance(manifest, GameManifest) or manifest.name != found.name:
                manifest = None
    if manifest is None:
        warnings.warn(f"meeplezoo game {found.name!r} skipped: {problem}", PluginWarning, stacklevel=3)
        return None
    return dataclasses.replace(manifest, distribution=found.distribution)


@cache
def _manifests() -> dict[str, GameManifest]:
    loaded = [m for m in map(_load, game_declarations()) if m is not None]
    loaded.sort(key=lambda m: (m.order, m.name))
    return {m.name: m for m in loaded}


def manifests() -> list[GameManifest]:
    """Every registered game's manifest, in listing order."""
    return list(_manifests().values())


def game_names() -> list[str]:
    """Short names of every registered game, in listing order."""
    return list(_manifests())


def resolve(name: str) -> str:
    """The short name of a game given its short name, env module name or registry id."""
    table = _manifests()
    if name in table:
        return name
    for m in table.values():
        if name in (m.env_module_name, m.env_id):
            return m.name
    raise UnknownGameError(f"unknown game {name!r}; MeepleZoo has: {', '.join(table) or '(none)'}")


def manifest(name: str) -> GameManifest:
    """The manifest of a game (short name, env module name or registry id)."""
    return _manifests()[resolve(name)]


def env_module(name: str) -> ModuleType:
    """The game's env module, with ``env()`` and ``raw_env()``."""
    game = manifest(name)
    try:
        return importlib.import_module(game.env)
    except ImportError as exc:  # a plugin's broken install is the user's one-line error, not a traceback
        if game.distribution == "meeplezoo":
            raise
        raise UnknownGameError(f"game {game.name!r} ({game.env_id}) cannot be imported: {exc}") from exc


def make_env(name: str, **kwargs: Any):
    """Create the AEC env of a game: ``make_env("seastead", render_mode="ansi")``."""
    return env_module(name).env(**kwargs)


def game_of(env: Any) -> str:
    """Short game name of a MeepleZoo env (from ``env.metadata["name"]``)."""
    return resolve(env.unwrapped.metadata["name"])


def player_counts(name: str) -> tuple[int, ...]:
    """The player counts a game supports (its manifest's; for an env-only game its env's ``PLAYER_COUNTS``, else
    its default count)."""
    game = manifest(name)
    if game.player_counts:
        return tuple(game.player_counts)
    module = env_module(name)
    counts = getattr(module, "PLAYER_COUNTS", None)
    return tuple(counts) if counts else (len(module.env().possible_agents),)


def single_agent_id(env_id: str) -> str:
    """The Gymnasium id of a game's single-agent env: ``meeplezoo/seastead-v0`` -> ``meeplezoo/seastead-single-v0``."""
    name, _, version = env_id.rpartition("-")
    return f"{name}-single-{version}"


def register_envs() -> None:
    """Register every game with PettingZoo (its AEC env) and Gymnasium (its single-agent env against baseline
    opponents, and its solo env if it has one); nothing is imported until an env is made."""
    import gymnasium
    import pettingzoo

    for game in manifests():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if game.env_id not in pettingzoo.aec_registry:
                pettingzoo.register("aec", game.env_id, entry_point=f"{game.env}:env")
            gym_id = single_agent_id(game.env_id)
            if gym_id not in gymnasium.registry:
                gymnasium.register(
                    gym_id, entry_point="meeplezoo.training.single_agent:_make", kwargs={"game": game.name}
                )
            if game.solo_env and game.solo_env_id and game.solo_env_id not in gymnasium.registry:
                gymnasium.register(game.solo_env_id, entry_point=game.solo_env)


__all__ = [
    "UnknownGameError",
    "env_module",
    "game_names",
    "game_of",
    "make_env",
    "manifest",
    "manifests",
    "player_counts",
    "register_envs",
    "resolve",
    "single_agent_id",
]
