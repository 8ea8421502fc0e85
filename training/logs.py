"""Reading a training run's logs: the scalars ``meeplezoo train`` wrote to ``OUT/tb`` (tensorboard files).

>>> curves = read_scalars("runs/s1")                         # doctest: +SKIP
>>> steps, values = zip(*curves["rollout/ep_rew_mean"])      # doctest: +SKIP

Tags of an sb3 run: ``rollout/ep_rew_mean`` and ``rollout/ep_len_mean`` (the learner's mean return and game
length over its last 100 games against the pool), ``eval/win_rate_vs_<opponent>`` (the periodic
evaluations), ``train/*`` (PPO's losses, entropy, KL, explained variance), ``pool/frozen_checkpoints`` and
``time/fps``. Needs the ``tensorboard`` package (the ``training`` extra).
"""

from __future__ import annotations

from pathlib import Path

from ..envs.core.errors import MeepleZooError


class LogsError(MeepleZooError):
    """A folder without training logs (one line)."""


def event_files(run: str | Path) -> list[Path]:
    """The tensorboard event files of the run folder ``run`` (under ``run/tb``, or ``run`` itself), in order."""
    root = Path(run)
    tb = root / "tb" if (root / "tb").is_dir() else root
    files = sorted(tb.rglob("events.out.tfevents.*"), key=lambda p: (p.stat().st_mtime, str(p)))
    if not files:
        raise LogsError(f"no training logs in {root} (no tensorboard event files under {tb})")
    return files


def read_scalars(run: str | Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar the run logged: tag -> ``[(step, value), ...]`` by step.

    A resumed run writes more event files; all are read, and a step logged twice keeps its latest value.
    """
    from tensorboard.backend.event_processing.event_accumulator import SCALARS, EventAccumulator

    merged: dict[str, dict[int, tuple[float, float]]] = {}
    for file in event_files(run):
        acc = EventAccumulator(str(file), size_guidance={SCALARS: 0})  # 0: keep every point
        acc.Reload()
        for tag in acc.Tags()[SCALARS]:
            points = merged.setdefault(tag, {})
            for event in acc.Scalars(tag):
                if event.step not in points or event.wall_time >= points[event.step][0]:
                    points[event.step] = (event.wall_time, float(event.value))
    return {tag: [(step, v) for step, (_, v) in sorted(points.items())] for tag, points in sorted(merged.items())}
