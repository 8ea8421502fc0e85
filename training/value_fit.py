"""Fit the learnt evaluation of the ``valued`` Concordia agent (:mod:`~meeplezoo.agents.concordia_valued`).

Heuristic self-play games in the run's configuration give rows: at the start of a sample of turns (each with
chance :data:`KEEP`), every seat's :func:`~meeplezoo.agents.concordia_valued.features`, labelled with that
seat's final :func:`~meeplezoo.agents.concordia_valued.margin`. A ReLU MLP is fitted to them by mean squared
error; every tenth game is held out, and the weights with the best held-out R^2 are kept (the rows of one game
share its outcome, so a net soon memorises the training games' boards: early stopping is what keeps it
general). The games are played on ``jobs`` processes; the rows, and so the model, do not depend on how many.

``meeplezoo train concordia`` runs it before PPO when the config has ``value_games > 0`` (and
``advisor = "valued"``): the model goes to ``OUT/value.npz`` and the advisor reads it. The shipped models were
fitted by the same call, :func:`fit_value_model` with seed 0 (docs/training.md gives both commands).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

#: the chance that a turn's start becomes rows (the rows of one game are alike; more games, not more rows)
KEEP = 0.15
#: games per task of the worker processes
CHUNK = 100
#: the share of games held out (every ``HOLDOUT``-th) to pick the weights
HOLDOUT = 10


def play_rows(env_config: dict[str, Any], seeds: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of heuristic self-play games: features, margin and the game's index in ``seeds``, at sampled turn
    starts, every seat."""
    from ..agents.concordia_heuristic import ConcordiaHeuristicAgent
    from ..agents.concordia_valued import EXTRA_FEATURES, features, margin
    from ..envs.concordia.game import ConcordiaGame
    from ..envs.concordia.steps import Step

    game = ConcordiaGame(**env_config)
    agent = ConcordiaHeuristicAgent()
    main = int(Step.MAIN)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    index: list[int] = []
    for k, seed in enumerate(seeds):
        state = game.new_state(seed)
        pick = np.random.default_rng(seed)
        rows: list[tuple[np.ndarray, int]] = []
        while not state.is_terminal():
            d = state.d
            if d.stack[-1][0] == main and pick.random() < KEEP:
                rows += [(features(d, seat), seat) for seat in range(d.n)]
            state.apply(agent.choose(state))
        scores = state.scores()
        xs += [x for x, _ in rows]
        ys += [margin(scores, seat) for _, seat in rows]
        index += [k] * len(rows)
    width = game.observation_size + EXTRA_FEATURES
    return np.array(xs, np.float32).reshape(-1, width), np.array(ys, np.float32), np.array(index, np.int64)


def collect(
    env_config: dict[str, Any], games: int, seed: int, jobs: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``games`` heuristic self-play games (seeds drawn from ``seed``) on ``jobs`` processes (0: one per core):
    features, margins, and each row's game index."""
    seeds = [int(s) for s in np.random.default_rng(seed).integers(2**31, size=games)]
    jobs = jobs or os.cpu_count() or 1
    parts = [seeds[i : i + CHUNK] for i in range(0, games, CHUNK)]
    if jobs == 1:
        results = [play_rows(env_config, p) for p in parts]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play_rows, [env_config] * len(parts), parts))
    xs, ys, index = zip(*results, strict=True)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate([i + k * CHUNK for k, i in enumerate(index)])


def fit(
    x: np.ndarray,
    y: np.ndarray,
    group: np.ndarray,
    hidden: list[int],
    epochs: int,
    seed: int,
    log: Callable[[str], None] = print,
) -> tuple[list[tuple[np.ndarray, np.ndarray]], float]:
    """Fit the MLP; return its layers (weights in x out, bias) with the best held-out R^2, and that R^2.
    Rows whose ``group`` (game index) is a multiple of :data:`HOLDOUT` are held out."""
    import torch

    torch.manual_seed(seed)
    held = group % HOLDOUT == 0
    if held.all() or not held.any():
        raise ValueError("fit: too few games to hold some out (give more value_games)")
    xt, yt = torch.from_numpy(x[~held]), torch.from_numpy(y[~held])
    xh, yh = torch.from_numpy(x[held]), torch.from_numpy(y[held])
    sizes = [x.shape[1], *hidden, 1]
    modules: list[Any] = []
    for i in range(len(sizes) - 1):
        modules.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            modules.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*modules)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-4, weight_decay=1e-2)
    var = float(yh.var())
    best, best_layers = -np.inf, None
    generator = torch.Generator().manual_seed(seed)

    def held_r2() -> float:
        with torch.no_grad():
            return 1.0 - float(((net(xh).squeeze(1) - yh) ** 2).mean()) / var

    batches = -(-len(yt) // 512)
    every = max(1, batches // 4)
    for epoch in range(epochs):
        order = torch.randperm(len(yt), generator=generator)
        for k in range(batches):
            idx = order[k * 512 : (k + 1) * 512]
            loss = torch.nn.functional.mse_loss(net(xt[idx]).squeeze(1), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if (k + 1) % every == 0 or k == batches - 1:
                r2 = held_r2()
                if r2 > best:
                    best = r2
                    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
                    best_layers = [
                        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears
                    ]
        log(f"value fit: epoch {epoch + 1}/{epochs}, held-out R^2 {held_r2():.3f} (best {best:.3f})")
    assert best_layers is not None
    return best_layers, best


def fit_value_model(
    env_config: dict[str, Any],
    games: int,
    out: str | Path,
    hidden: list[int],
    epochs: int,
    seed: int,
    jobs: int = 0,
    log: Callable[[str], None] = print,
) -> dict[str, float]:
    """Play, fit and save the value model to ``out``; return the figures (rows, R^2, seconds)."""
    import torch

    from ..agents.concordia_valued import ValueModel
    from ..envs.concordia.game import ConcordiaGame

    game = ConcordiaGame(**env_config)
    start = time.perf_counter()
    x, y, group = collect(env_config, games, seed, jobs)
    played = time.perf_counter() - start
    log(f"value fit: {games} heuristic self-play games, {len(y)} rows in {played:.0f} s")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a small MLP; and one thread gives the same floats on any machine
    try:
        layers, r2 = fit(x, y, group, hidden, epochs, seed, log)
    finally:
        torch.set_num_threads(threads)
    ValueModel(layers, game.num_players, game.config["map"]).save(out)
    log(f"Saved {out} (held-out R^2 {r2:.3f})")
    return {"rows": float(len(y)), "heldout_r2": r2, "play_seconds": played, "seconds": time.perf_counter() - start}
