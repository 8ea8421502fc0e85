"""MeepleZoo: PettingZoo AEC environments of modern board games.

Importing this package registers every env (and every plugin game, :mod:`meeplezoo.plugins`) with
PettingZoo's registry, and each game's single-agent view with Gymnasium's, without importing any of them::

    import meeplezoo, pettingzoo, gymnasium
    env = pettingzoo.make("aec", "meeplezoo/seastead-v0")
    single = gymnasium.make("meeplezoo/seastead-single-v0", opponent="heuristic")
"""

from __future__ import annotations

__version__ = "0.1.0"

#: registry id -> (module under meeplezoo.envs, default max_cycles)
ENV_IDS = {
    "meeplezoo/seastead-v0": "seastead_v0",
    "meeplezoo/concordia-v0": "concordia_v0",
    "meeplezoo/board_royale-v0": "board_royale_v0",
    "meeplezoo/resafa-v0": "resafa_v0",
}


def single_agent_id(env_id: str) -> str:
    """The Gymnasium id of a game's single-agent env: ``meeplezoo/seastead-v0`` -> ``meeplezoo/seastead-single-v0``."""
    name, _, version = env_id.rpartition("-")
    return f"{name}-single-{version}"


def _register() -> None:
    import warnings

    import gymnasium
    import pettingzoo

    from .games import entries

    for game in entries():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if game.env_id not in pettingzoo.aec_registry:
                pettingzoo.register("aec", game.env_id, entry_point=f"{game.package}.{game.module}:env")
            gym_id = single_agent_id(game.env_id)
            if gym_id not in gymnasium.registry:  # the module (and its agents) is imported by make() only
                gymnasium.register(
                    gym_id, entry_point="meeplezoo.training.single_agent:_make", kwargs={"game": game.name}
                )


#: Gymnasium id -> entry point (imported only by ``gymnasium.make``; no torch)
GYM_IDS = {
    "meeplezoo/SeasteadSolo-v0": "meeplezoo.envs.seastead_v0:solo_gym_env",
    "meeplezoo/ResafaSolo-v0": "meeplezoo.envs.resafa_v0:solo_gym_env",
}


def _register_gym() -> None:
    import gymnasium

    for env_id, entry_point in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=entry_point)


_register()
_register_gym()
