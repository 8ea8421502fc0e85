"""Third-party games and agents, found through package entry points (:mod:`importlib.metadata`).

A plugin package declares them in its ``pyproject.toml``; nothing is imported until it is used::

    [project.entry-points."meeplezoo.games"]
    tictactoe = "meeplezoo_tictactoe.tictactoe_v0"      # short name = env module named <name>_v<N>

    [project.entry-points."meeplezoo.agents"]
    corner = "meeplezoo_tictactoe.bots:CornerAgent"     # for every game
    "greedy@tictactoe" = "meeplezoo_tictactoe.bots:GreedyAgent"   # AGENT@GAME: for one game

A game's env module has ``env(**kwargs)`` and ``raw_env(**kwargs)`` returning a PettingZoo ``AECEnv`` (a
MeepleZoo engine behind :func:`meeplezoo.envs.core.env_factory`, or any AEC env with ``action_mask``
observations) and optionally ``PLAYER_COUNTS``. It is registered with PettingZoo as
``<distribution>/<name>-v<N>`` (``meeplezoo-tictactoe/tictactoe-v0``) and is then a game like the built-in
ones: ``meeplezoo play tictactoe``, ``make_env("tictactoe")``, ``make_agent("random", "tictactoe")``.
An agent class is called as ``Class(seed=seed)``. Built-in names win: a plugin game or agent that reuses
one is skipped with a warning.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points

GAMES_GROUP = "meeplezoo.games"
AGENTS_GROUP = "meeplezoo.agents"

_MODULE = re.compile(r"^(?P<package>[\w.]+)\.(?P<module>(?P<name>\w+?)_v(?P<version>\d+))$")


class PluginWarning(UserWarning):
    """A plugin entry point that MeepleZoo cannot use (it is skipped)."""


@dataclass(frozen=True, slots=True)
class PluginGame:
    """A game from a plugin: short name, PettingZoo registry id, package and env module name."""

    name: str
    env_id: str
    package: str
    module: str
    distribution: str


def _entry_points(group: str) -> list[EntryPoint]:
    return sorted(entry_points(group=group), key=lambda ep: ep.name)


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return dist.metadata["Name"] if dist is not None else "plugin"


def _built_in_names() -> set[str]:
    from . import ENV_IDS

    return {re.sub(r"_v\d+$", "", module) for module in ENV_IDS.values()}


@cache
def plugin_games() -> tuple[PluginGame, ...]:
    """Every usable ``meeplezoo.games`` entry point (read once per process)."""
    found = []
    for ep in _entry_points(GAMES_GROUP):
        match = _MODULE.match(ep.value.strip())
        if not match or match["name"] != ep.name:
            warnings.warn(
                f"meeplezoo plugin game {ep.name!r} = {ep.value!r} skipped: the value must be the env module "
                f"'package.{ep.name}_v<N>'",
                PluginWarning,
                stacklevel=2,
            )
            continue
        if ep.name in _built_in_names():
            warnings.warn(
                f"meeplezoo plugin game {ep.name!r} skipped: the name is built in", PluginWarning, stacklevel=2
            )
            continue
        dist = _distribution(ep)
        env_id = f"{dist}/{ep.name}-v{match['version']}"
        found.append(PluginGame(ep.name, env_id, match["package"], match["module"], dist))
    return tuple(found)


def plugin_agents() -> list[tuple[str, str, str | None]]:
    """Every ``meeplezoo.agents`` entry point as ``(agent name, "module:Class", game or None for all)``."""
    out = []
    for ep in _entry_points(AGENTS_GROUP):
        name, _, game = ep.name.partition("@")
        out.append((name.strip(), ep.value.strip(), game.strip() or None))
    return out


def register_plugin_agents(register: Callable[..., None], taken: Callable[[str, str | None], bool]) -> None:
    """Register every plugin agent with ``register(name, target, game=...)`` unless ``taken(name, game)``."""
    for name, target, game in plugin_agents():
        if taken(name, game):
            warnings.warn(f"meeplezoo plugin agent {name!r} skipped: the name is built in", PluginWarning, stacklevel=2)
            continue
        try:
            register(name, target) if game is None else register(name, target, game=game)
        except ValueError as exc:
            warnings.warn(f"meeplezoo plugin agent {name!r} skipped: {exc}", PluginWarning, stacklevel=2)
