"""Every MeepleZoo game with an engine, registered with OpenSpiel as ``meeplezoo_<name>``.

Each game's parameters are its config keys with their defaults (``meeplezoo rules GAME`` lists them)::

    pyspiel.load_game("meeplezoo_concordia(num_players=4,map=imperium)")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from .. import games
from ..envs.core.manifest import GameManifest
from .game import PREFIX, MeepleZooGame

#: OpenSpiel name -> the game class registered under it (this process)
REGISTERED: dict[str, type[MeepleZooGame]] = {}


def short_name(game: str) -> str:
    """The OpenSpiel name of MeepleZoo game ``game`` (``seastead`` -> ``meeplezoo_seastead``)."""
    return PREFIX + games.resolve(game)


def game_string(game: str, config: Mapping[str, Any] | None = None) -> str:
    """The ``load_game`` string of ``game`` with ``config`` (``meeplezoo_resafa(num_players=2)``)."""
    params = ",".join(f"{k}={_text(v)}" for k, v in sorted((config or {}).items()))
    return short_name(game) + (f"({params})" if params else "")


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def parameter_specification(manifest: GameManifest) -> dict[str, Any]:
    """The game's parameters and defaults: its engine's config."""
    spec = dict(manifest.engine_class().defaults)
    for key, value in spec.items():
        if not isinstance(value, bool | int | float | str):
            raise TypeError(f"{manifest.name}: config key {key!r} has a default OpenSpiel cannot take: {value!r}")
    return spec


def _game_type(manifest: GameManifest, utility: Any) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=PREFIX + manifest.name,
        long_name=f"MeepleZoo {manifest.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(manifest.player_counts),
        min_num_players=min(manifest.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameter_specification(manifest),
        default_loadable=True,
    )


def register(manifest: GameManifest) -> type[MeepleZooGame]:
    """Register ``manifest``'s game with OpenSpiel (again: the class registered before) and return its class."""
    name = PREFIX + manifest.name
    if name in REGISTERED:
        return REGISTERED[name]
    game_type = _game_type(manifest, pyspiel.GameType.Utility.ZERO_SUM)
    cls = type(
        f"{manifest.title.replace(' ', '').replace(':', '')}Game",
        (MeepleZooGame,),
        {
            "manifest": manifest,
            "game_type": game_type,
            "solo_type": _game_type(manifest, pyspiel.GameType.Utility.GENERAL_SUM),
            "__module__": __name__,
            "__doc__": f"{manifest.title} as an OpenSpiel game ({name}).",
        },
    )
    pyspiel.register_game(game_type, cls)
    REGISTERED[name] = cls
    return cls


def register_all() -> list[str]:
    """Register every installed MeepleZoo game that has an engine; their OpenSpiel names."""
    return [PREFIX + m.name for m in games.manifests() if m.engine is not None and register(m)]


def load_game(game: str, config: Mapping[str, Any] | None = None) -> MeepleZooGame:
    """``pyspiel.load_game`` of MeepleZoo game ``game`` with ``config`` (registering it first)."""
    register(games.manifest(game))
    return pyspiel.load_game(game_string(game, config))
