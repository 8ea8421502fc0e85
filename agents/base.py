"""What an agent is: something that picks the action of one AEC agent, looking at the env.

An agent is called only when its AEC agent is selected and alive::

    action = agent.act(env, "player_0")

It reads what it may know through the env: ``env.observe(name)`` gives ``{"observation", "action_mask"}``
(enough for a learned policy); a search agent may also use the engine state ``env.state_obj``
(``clone()``, ``legal_actions()``, ``apply()``, ``determinize(seat, rng)``), but must not change it. Each
agent owns a seeded ``numpy.random.Generator`` made from the ``seed`` given at construction, so a game played
with the same env seed and agent seeds is the same game.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

#: what ``seed=`` accepts: anything ``numpy.random.default_rng`` takes
Seed = int | np.random.SeedSequence | None


@runtime_checkable
class Agent(Protocol):
    """The protocol every MeepleZoo agent follows (classes need not inherit anything)."""

    def act(self, env: Any, agent: str) -> int:
        """The action of AEC agent ``agent`` (selected, alive) in ``env``: a legal int."""
        ...


class BaseAgent:
    """Convenience base: a seeded generator and the legal actions of the agent to move.

    Subclasses set ``name`` and implement :meth:`act`.
    """

    name = "agent"

    def __init__(self, seed: Seed = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, env: Any, agent: str) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    @staticmethod
    def legal_actions(env: Any, agent: str) -> np.ndarray:
        """Action ids allowed by ``agent``'s action mask (raises if there are none)."""
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        if legal.size == 0:
            raise RuntimeError(f"{agent} was asked to act but its action mask allows nothing")
        return legal

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"
