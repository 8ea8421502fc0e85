"""Plugin agents: ``greedy`` (Nim only: leave a multiple of 4 when it can) and ``last-legal`` (any game)."""

from __future__ import annotations

import numpy as np


class LastLegalAgent:
    name = "last-legal"

    def __init__(self, seed=None) -> None:
        self.seed = seed

    def act(self, env, agent: str) -> int:
        return int(np.flatnonzero(env.observe(agent)["action_mask"])[-1])


class GreedyNimAgent(LastLegalAgent):
    name = "greedy"

    def act(self, env, agent: str) -> int:
        left = env.unwrapped.state_obj.left
        take = left % 4
        mask = env.observe(agent)["action_mask"]
        return take - 1 if take and mask[take - 1] else int(np.flatnonzero(mask)[0])
