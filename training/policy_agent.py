"""A trained policy as a MeepleZoo agent, so it can play in :func:`meeplezoo.agents.play_match` and the CLI."""

from __future__ import annotations

from typing import Any

import numpy as np


class PolicyAgent:
    """Acts with a Stable-Baselines3-style model: ``model.predict(obs, action_masks=mask)``.

    Works with sb3-contrib's ``MaskablePPO`` (masks honoured). If the model still picks an illegal action
    (a model without masking), the agent falls back to a uniformly random legal one.
    """

    name = "ppo"

    def __init__(self, model: Any, seed: int | None = None, deterministic: bool = True) -> None:
        self.model = model
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def act(self, env: Any, agent: str) -> int:
        view = env.observe(agent)
        mask = view["action_mask"].astype(bool)
        action, _ = self.model.predict(view["observation"], action_masks=mask, deterministic=self.deterministic)
        action = int(action)
        if not mask[action]:
            legal = np.flatnonzero(mask)
            action = int(legal[self.rng.integers(legal.size)])
        return action
