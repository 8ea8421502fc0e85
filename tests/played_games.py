"""Test helpers: random legal play of a game, and storing a played game in an arena database as the arena does."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from meeplezoo import games


def random_play(game: str, config: dict[str, Any], seed: int, moves: int) -> tuple[Any, list[int]]:
    """``game`` reset with ``seed``, after up to ``moves`` random legal moves drawn with ``seed`` (fewer if it
    ends): the engine state and the actions."""
    env = games.make_env(game, **config)
    env.reset(seed=seed)
    state = env.unwrapped.state_obj
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    while len(actions) < moves and not state.is_terminal():
        actions.append(int(rng.choice(state.legal_actions())))
        state.apply(actions[-1])
    return state, actions


def store_played(
    store: Any,
    key: str,
    state: Any,
    actions: list[int],
    seats: list[str],
    ranks: list[int],
    *,
    seed: int,
    agent_seeds: list[int] | None = None,
    forfeit: dict[str, Any] | None = None,
    source: str = "test",
) -> None:
    """Store a game played to ``state`` in the open arena ``store``, as the arena (or ``Session.finish``) does."""
    n = len(seats)
    task = SimpleNamespace(
        key=key, game=state.game.name, config=dict(state.game.config), seed=seed, deal=0, seats=seats,
        agent_seeds=agent_seeds or [0] * n, time_limit=None,
    )  # fmt: skip
    result = {
        "scores": [float(x) for x in state.scores()], "ranks": ranks, "decisions": len(actions), "truncated": False,
        "forfeit": forfeit, "duration": 0.0, "seat_time": [[0.0, 0.0, 0]] * n, "actions": actions,
    }  # fmt: skip
    assert store.add(task, result, source)
