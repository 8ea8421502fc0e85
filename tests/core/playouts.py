"""Random playouts through the AEC loop, shared by the core tests (test-only)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from meeplezoo.envs.core import EngineEnv


@dataclass
class Playout:
    """What happened in one AEC loop: who was selected, what they did, every reward handed out."""

    selected: list[str] = field(default_factory=list)
    actions: list[int | None] = field(default_factory=list)
    returns: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    #: agent -> index in ``selected`` of the step at which it was first reported terminated/truncated
    done_at: dict[str, int] = field(default_factory=dict)


def random_action(env: EngineEnv, agent: str, rng: np.random.Generator) -> int:
    """A uniformly random legal action of ``agent`` read from its action mask."""
    legal = np.flatnonzero(env.observe(agent)["action_mask"])
    assert legal.size, f"{agent} is selected and alive but has no legal action"
    return int(rng.choice(legal))


def play(env: EngineEnv, rng: np.random.Generator, max_steps: int = 100_000) -> Playout:
    """Drive ``env`` (already reset or loaded) with random legal actions until every agent is gone."""
    log = Playout()
    for _ in range(max_steps):
        if not env.agents:
            return log
        agent = env.agent_selection
        _, _, terminated, truncated, _ = env.last()
        if (terminated or truncated) and agent not in log.done_at:
            log.done_at[agent] = len(log.selected)
        action = None if terminated or truncated else random_action(env, agent, rng)
        log.selected.append(agent)
        log.actions.append(action)
        env.step(action)
        for a, reward in env.rewards.items():
            log.returns[a] += reward
    raise AssertionError(f"the game did not end within {max_steps} steps")
