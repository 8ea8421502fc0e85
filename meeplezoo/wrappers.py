"""AEC wrappers for RL libraries that read a PettingZoo env in their own way.

Tianshou's ``tianshou.env.PettingZooEnv`` (2.0) ends an episode as soon as the agent selected next is
terminated, and builds its reward vector from ``env.rewards`` without clearing it. In an elimination game
(Board Royale) the AEC loop selects an eliminated agent once, to step it with ``None``: Tianshou then ends
the episode at the first elimination, and the eliminated agent's reward stays in its vector on every later
step. :class:`SkipDeadSteps` hides those dead steps::

    from tianshou.env import PettingZooEnv
    from meeplezoo.wrappers import SkipDeadSteps
    env = PettingZooEnv(SkipDeadSteps(board_royale_v1.env()))
    # or: meeplezoo.wrappers.tianshou_env("board_royale", num_players=4)

With it, an episode is the whole game; ``rewards`` holds every possible agent each step, with what was
paid during that step (an eliminated agent's final reward on the step that eliminated it, everyone else's
at the end), so each agent's rewards summed over the episode are its return. Games without elimination
are unchanged by it.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import BaseWrapper


class SkipDeadSteps(BaseWrapper):
    """Steps eliminated agents with ``None`` inside :meth:`step`, so the selected agent is alive until the
    game is over; ``rewards`` is what each possible agent was paid during the last :meth:`step`."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._paid: dict[str, float] = {}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self._paid = dict.fromkeys(self.env.possible_agents, 0.0)
        self._collect(self._paid)
        self._skip_dead(self._paid)

    def step(self, action: Any) -> None:
        paid = dict.fromkeys(self.env.possible_agents, 0.0)
        self.env.step(action)
        self._collect(paid)
        self._skip_dead(paid)
        self._paid = paid

    @property
    def rewards(self) -> dict[str, float]:  # type: ignore[override]
        return self._paid

    def _collect(self, paid: dict[str, float]) -> None:
        for agent, reward in self.env.rewards.items():
            paid[agent] += reward

    def _skip_dead(self, paid: dict[str, float]) -> None:
        env = self.env
        while env.agents and self._done(env.agent_selection) and not all(self._done(a) for a in env.agents):
            env.step(None)
            self._collect(paid)

    def _done(self, agent: str) -> bool:
        return self.env.terminations[agent] or self.env.truncations[agent]


def tianshou_env(game: str, **kwargs: Any):
    """``tianshou.env.PettingZooEnv`` of a MeepleZoo game, dead steps skipped (needs ``pip install tianshou``)."""
    from tianshou.env import PettingZooEnv

    from .games import make_env

    return PettingZooEnv(SkipDeadSteps(make_env(game, **kwargs)))
