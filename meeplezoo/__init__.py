"""MeepleZoo: PettingZoo AEC environments of modern board games.

Importing this package registers every game declared under the ``meeplezoo.games`` entry point (MeepleZoo's own
and plugins', :mod:`meeplezoo.games`) with PettingZoo's registry, and each game's single-agent and solo views with
Gymnasium's, without importing any of them::

    import meeplezoo, pettingzoo, gymnasium
    env = pettingzoo.make("aec", "meeplezoo/seastead-v0")
    single = gymnasium.make("meeplezoo/seastead-single-v0", opponent="heuristic")
"""

from __future__ import annotations

from .games import register_envs, single_agent_id

__version__ = "0.1.0"

register_envs()

__all__ = ["__version__", "single_agent_id"]
