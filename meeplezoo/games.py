"""The games MeepleZoo ships, by short name, derived from :data:`meeplezoo.ENV_IDS`.

A game's short name is its env module without the version suffix: ``seastead_v0`` -> ``seastead``. Every
tool (CLI, bench, agent registry, training) resolves names here, so a new game needs only its line in
``ENV_IDS``.

>>> resolve("seastead"), resolve("seastead_v0"), resolve("meeplezoo/seastead-v0")
('seastead', 'seastead', 'seastead')
>>> env_module_name("seastead")
'seastead_v0'
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from . import ENV_IDS
from .envs.core.errors import MeepleZooError
from .plugins import plugin_games

_VERSION = re.compile(r"_v\d+$")


class UnknownGameError(MeepleZooError):
    """A game name that is not in :data:`meeplezoo.ENV_IDS`."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One registered env: short name, PettingZoo registry id, env module and the package holding it
    (``meeplezoo.envs``, or a plugin's package: :mod:`meeplezoo.plugins`)."""

    name: str
    env_id: str
    module: str
    package: str = "meeplezoo.envs"


def _entries() -> dict[str, GameEntry]:
    out = {}
    for env_id, module in ENV_IDS.items():
        name = _VERSION.sub("", module)
        out[name] = GameEntry(name, env_id, module)
    for game in plugin_games():  # built-in names win
        if game.name not in out:
            out[game.name] = GameEntry(game.name, game.env_id, game.module, game.package)
    return out


def game_names() -> list[str]:
    """Short names of every registered game, in registry order."""
    return list(_entries())


def entries() -> list[GameEntry]:
    return list(_entries().values())


def resolve(name: str) -> str:
    """The short name of a game given its short name, env module name or registry id."""
    table = _entries()
    for entry in table.values():
        if name in (entry.name, entry.module, entry.env_id):
            return entry.name
    raise UnknownGameError(f"unknown game {name!r}; MeepleZoo has: {', '.join(table) or '(none)'}")


def entry(name: str) -> GameEntry:
    return _entries()[resolve(name)]


def env_module_name(name: str) -> str:
    return entry(name).module


def env_module(name: str) -> ModuleType:
    """The env module (``meeplezoo.envs.<game>_v<N>``, or a plugin's) with ``env()`` and ``raw_env()``."""
    game = entry(name)
    path = f"{game.package}.{game.module}"
    if game.package == "meeplezoo.envs":
        return importlib.import_module(path)
    try:
        return importlib.import_module(path)
    except ImportError as exc:  # a plugin's broken install is the user's one-line error, not a traceback
        raise UnknownGameError(f"plugin game {game.name!r} ({game.env_id}) cannot be imported: {exc}") from exc


def make_env(name: str, **kwargs: Any):
    """Create the AEC env of a game: ``make_env("seastead", render_mode="ansi")``."""
    return env_module(name).env(**kwargs)


def game_of(env: Any) -> str:
    """Short game name of a MeepleZoo env (from ``env.metadata["name"]``)."""
    return resolve(env.unwrapped.metadata["name"])


def player_counts(name: str) -> tuple[int, ...]:
    """The player counts a game supports: its env module's ``PLAYER_COUNTS``, else its default count."""
    module = env_module(name)
    counts = getattr(module, "PLAYER_COUNTS", None)
    return tuple(counts) if counts else (len(module.env().possible_agents),)
