"""The uniform random baseline: any legal action, with equal probability."""

from __future__ import annotations

from .base import BaseAgent
from .view import SeatView


class RandomAgent(BaseAgent):
    """Picks uniformly among the seat's legal actions. Works on any masked AEC env."""

    name = "random"

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not legal:
            raise RuntimeError(f"{view.agent} was asked to act but its action mask allows nothing")
        return int(legal[self.rng.integers(len(legal))])
