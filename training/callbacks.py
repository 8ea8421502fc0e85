"""sb3's callback of a :class:`~meeplezoo.training.trainer.TrainingRun`: each hook asks the run (its own module,
so that the trainer imports stable-baselines3 only when a run starts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stable_baselines3.common.callbacks import BaseCallback

if TYPE_CHECKING:
    from .trainer import TrainingRun


class RunCallback(BaseCallback):
    """The warm start when training starts, the run's duties at each rollout start (and its stop past the time
    limit or ``stop_at``), the advice figures at each rollout end, the progress bar at each step."""

    def __init__(self, run: TrainingRun) -> None:
        super().__init__()
        self.run = run

    def _on_training_start(self) -> None:
        self.run.on_training_start()

    def _on_rollout_start(self) -> None:
        self.run.on_rollout_start()

    def _on_rollout_end(self) -> None:
        self.run.on_rollout_end()

    def _on_step(self) -> bool:
        return self.run.on_step()
