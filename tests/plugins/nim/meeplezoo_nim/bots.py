"""Plugin agents: ``greedy`` (Nim only: leave a multiple of 4 when it can) and ``last-legal`` (any game).

Both follow MeepleZoo's agent protocol: ``act(view)`` with a :class:`meeplezoo.agents.view.SeatView`.
"""

from __future__ import annotations


class LastLegalAgent:
    name = "last-legal"
    uses_determinize = False  # reads the view's legal actions only

    def __init__(self, seed=None) -> None:
        self.seed = seed

    def act(self, view) -> int:
        return int(view.legal_actions[-1])


class GreedyNimAgent(LastLegalAgent):
    name = "greedy"

    def act(self, view) -> int:
        left = round(float(view.observation[0]) * view.config["sticks"])  # the observation: sticks left / sticks
        take = left % 4
        return take - 1 if take and view.action_mask[take - 1] else int(view.legal_actions[0])
