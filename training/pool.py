"""The opponent pool of self-play training: baseline agents and frozen past checkpoints of the learner.

:class:`OpponentPool` is the ``opponent`` factory of :class:`~meeplezoo.training.single_agent.SingleAgentEnv`
(``seed -> agent``): each opponent seat of each episode draws, from its own seed, a frozen checkpoint (with
chance ``self_play``, once there is one) or a baseline agent. It is plain data, so it pickles into
``SubprocVecEnv`` workers; the trainer sends the workers a new pool when it freezes a checkpoint. A frozen
checkpoint plays as a :class:`SnapshotAgent`, which pickles as its path (a checkpoint of the envs stays small).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..agents import make_agent

#: models of frozen checkpoints loaded in this process, by path
_MODELS: dict[str, Any] = {}


def _model(path: str) -> Any:
    if path not in _MODELS:
        from ..agents.policy import load_model

        _MODELS[path] = load_model(path)
    return _MODELS[path]


def _policy_agent_class() -> type:
    from ..agents.policy import PolicyAgent

    return PolicyAgent


class SnapshotAgent:
    """A frozen checkpoint playing greedily (a :class:`~meeplezoo.agents.policy.PolicyAgent` of the model at
    ``path``); pickled, it keeps its path and its generator, not the model (reloaded, once per process)."""

    def __init__(self, path: str, seed: int) -> None:
        self.path = path
        self._agent = _policy_agent_class()(_model(path), seed=seed)

    @property
    def uses_determinize(self) -> bool:
        return self._agent.uses_determinize  # an advised model's advisor may need it

    @property
    def name(self) -> str:
        return f"ppo:{self.path}"

    def act(self, view: Any) -> int:
        return self._agent.act(view)

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "rng": self._agent.rng.bit_generator.state, "seed": self._agent.seed}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"], state["seed"])
        self._agent.rng.bit_generator.state = state["rng"]


@dataclass
class OpponentPool:
    game: str
    baselines: list[str]
    snapshots: list[str] = field(default_factory=list)  #: paths of frozen checkpoints (``.zip``)
    self_play: float = 0.5

    def draw(self, seed: int) -> str:
        """The entry an opponent seeded ``seed`` plays: a baseline spec or a snapshot path."""
        rng = np.random.default_rng(seed)
        if self.snapshots and rng.random() < self.self_play:
            return self.snapshots[int(rng.integers(len(self.snapshots)))]
        return self.baselines[int(rng.integers(len(self.baselines)))]

    def __call__(self, seed: int) -> Any:
        entry = self.draw(seed)
        if entry in self.snapshots:
            return SnapshotAgent(entry, seed)
        return make_agent(entry, self.game, seed=seed)
