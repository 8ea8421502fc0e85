"""The uniform random baseline: any legal action, with equal probability."""

from __future__ import annotations

from typing import Any

from .base import BaseAgent


class RandomAgent(BaseAgent):
    """Picks uniformly among the actions its action mask allows. Works on any masked AEC env."""

    name = "random"

    def act(self, env: Any, agent: str) -> int:
        legal = self.legal_actions(env, agent)
        return int(legal[self.rng.integers(legal.size)])
