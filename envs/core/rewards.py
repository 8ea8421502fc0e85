"""Reward modes: how the adapter turns an engine's ranks and scores into per-agent returns.

``win`` (default)
    Zero-sum. With ``k`` seats sharing rank 0 among ``n``: each winner gets ``(n/k - 1)/(n - 1)`` and
    every other seat ``-1/(n - 1)``. Two players: win +1, loss -1, shared win 0.
``rank``
    ``1 - 2 * r/(n - 1)`` for rank ``r`` (0 best): +1 for first, -1 for last, linear between.
``score_margin``
    ``(own score - mean score of the others) / score_scale``: dense, for learning from margins.

A single-seat game (a solo mode) uses ``win``: +1 if rank 0 (the engine ranks beating the automa as 0), else -1.
"""

from __future__ import annotations

from collections.abc import Sequence

REWARD_MODES = ("win", "rank", "score_margin")


def seat_return(mode: str, seat: int, ranks: Sequence[int], scores: Sequence[float], scale: float) -> float:
    """Return of ``seat`` under ``mode`` given everybody's ranks and scores."""
    n = len(ranks)
    if n == 1:
        return 1.0 if ranks[0] == 0 else -1.0
    if mode == "win":
        winners = sum(1 for r in ranks if r == 0)
        return (n / winners - 1) / (n - 1) if ranks[seat] == 0 else -1.0 / (n - 1)
    if mode == "rank":
        return 1.0 - 2.0 * ranks[seat] / (n - 1)
    if mode == "score_margin":
        others = [s for i, s in enumerate(scores) if i != seat]
        return (scores[seat] - sum(others) / len(others)) / scale
    raise ValueError(f"unknown reward mode {mode!r}; choose one of {REWARD_MODES}")
