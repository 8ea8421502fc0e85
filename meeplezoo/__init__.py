"""MeepleZoo: PettingZoo AEC environments of modern board games.

Importing this package registers every env with PettingZoo's registry::

    import meeplezoo, pettingzoo
    env = pettingzoo.make("aec", "meeplezoo/seastead-v0")
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


def _register() -> None:
    import warnings

    import pettingzoo

    for env_id, module in ENV_IDS.items():
        if env_id in pettingzoo.aec_registry:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pettingzoo.register("aec", env_id, entry_point=f"meeplezoo.envs.{module}:env")


_register()
