"""The opponent pool of self-play training: baseline agents and frozen past checkpoints of the learner.

:class:`OpponentPool` is the ``opponent`` factory of :class:`~meeplezoo.training.single_agent.SingleAgentEnv`
(``seed -> agent``): each opponent seat of each episode draws, from its own seed, a frozen checkpoint (with
chance ``self_play``, once there is one) or a baseline agent. It is plain data, so it pickles into
``SubprocVecEnv`` workers; the trainer sends the workers a new pool when it freezes a checkpoint.
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
            from ..agents.policy import PolicyAgent

            return PolicyAgent(_model(entry), seed=seed)
        return make_agent(entry, self.game, seed=seed)
