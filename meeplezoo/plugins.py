"""Entry points of installed packages: where every game (built in or not) and every plugin agent is declared.

MeepleZoo's own games are declared exactly as a third party declares one, in ``pyproject.toml``::

    [project.entry-points."meeplezoo.games"]
    goofspiel = "meeplezoo_goofspiel.manifest:MANIFEST"   # a GameManifest (meeplezoo.envs.core.manifest)

    [project.entry-points."meeplezoo.agents"]
    corner = "meeplezoo_tictactoe.bots:CornerAgent"     # for every game
    "greedy@tictactoe" = "meeplezoo_tictactoe.bots:GreedyAgent"   # AGENT@GAME: for one game

A game's value may also be a bare env module ``package.<name>_v<N>`` with ``env()`` and ``raw_env()`` returning
any PettingZoo ``AECEnv`` with ``action_mask`` observations (and optionally ``PLAYER_COUNTS``): it then gets a
manifest with the env only (no save, search or conformance). This module only reads the declarations; the registry
(:mod:`meeplezoo.games`) loads them. An agent class is called as ``Class(seed=seed)``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

GAMES_GROUP = "meeplezoo.games"
AGENTS_GROUP = "meeplezoo.agents"

#: a bare env module value: ``package.<name>_v<N>``
ENV_MODULE = re.compile(r"^(?P<package>[\w.]+)\.(?P<module>(?P<name>\w+?)_v(?P<version>\d+))$")


class PluginWarning(UserWarning):
    """A plugin entry point that MeepleZoo cannot use (it is skipped)."""


@dataclass(frozen=True, slots=True)
class GameDeclaration:
    """One ``meeplezoo.games`` entry point: the game's short name, the value it names and its distribution."""

    name: str
    value: str
    distribution: str


def _entry_points(group: str) -> list[EntryPoint]:
    return sorted(entry_points(group=group), key=lambda ep: ep.name)


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return dist.metadata["Name"] if dist is not None else "plugin"


#: the distribution whose games' names win over a plugin's
BUILT_IN = "meeplezoo"


def game_declarations() -> list[GameDeclaration]:
    """Every ``meeplezoo.games`` entry point, one per name: MeepleZoo's own first (a plugin reusing a built-in name
    is skipped with a warning), then the others by name (a name two plugins declare keeps the first)."""
    seen: dict[str, GameDeclaration] = {}
    declared = [
        GameDeclaration(ep.name.strip(), ep.value.strip(), _distribution(ep)) for ep in _entry_points(GAMES_GROUP)
    ]
    for found in sorted(declared, key=lambda d: (d.distribution != BUILT_IN, d.name, d.distribution)):
        if found.name in seen:
            if seen[found.name] != found:
                warnings.warn(
                    f"meeplezoo game {found.name!r} of {found.distribution} skipped: "
                    f"{seen[found.name].distribution} declares it too",
                    PluginWarning,
                    stacklevel=2,
                )
            continue
        seen[found.name] = found
    return list(seen.values())


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
