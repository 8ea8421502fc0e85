"""What the value fitter (:mod:`meeplezoo.training.value_fit`) needs of Concordia to fit the ``valued`` agent's
model (:mod:`~meeplezoo.envs.concordia.valued`): one heuristic self-play game's rows and how the model is saved.

At the start of a sample of turns (each with chance :data:`KEEP`) every seat's
:func:`~meeplezoo.envs.concordia.valued.features` is a row, labelled with that seat's final
:func:`~meeplezoo.envs.concordia.valued.margin`. Every tenth game is held out: the rows of one game share its
outcome, so a net soon memorises the training games' boards, and early stopping on held-out games keeps it general.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core.value_fit import ValueFitter
from .game import ConcordiaGame
from .heuristic import ConcordiaHeuristicAgent
from .steps import Step
from .valued import EXTRA_FEATURES, ValueModel, features, margin

#: the chance that a turn's start becomes rows (the rows of one game are alike; more games, not more rows)
KEEP = 0.15


def rows(config: Mapping[str, Any], seed: int) -> dict[str, np.ndarray]:
    """The rows of one heuristic self-play game: ``x`` the features, ``y`` the margins, at sampled turn starts,
    every seat."""
    game = ConcordiaGame(**config)
    agent = ConcordiaHeuristicAgent()  # deterministic: one per game or per thousand games is the same
    main = int(Step.MAIN)
    state = game.new_state(seed)
    pick = np.random.default_rng(seed)
    found: list[tuple[np.ndarray, int]] = []
    while not state.is_terminal():
        d = state.d
        if d.stack[-1][0] == main and pick.random() < KEEP:
            found += [(features(d, seat), seat) for seat in range(d.n)]
        state.apply(agent.choose(state))
    scores = state.scores()
    width = game.observation_size + EXTRA_FEATURES
    x = np.array([x for x, _ in found], np.float32).reshape(-1, width)
    return {"x": x, "y": np.array([margin(scores, seat) for _, seat in found], np.float32)}


def save(layers: list[tuple[np.ndarray, np.ndarray]], path: Any, facts: Mapping[str, Any]) -> None:
    """The MLP as a :class:`~meeplezoo.envs.concordia.valued.ValueModel` of the configuration it was fitted on."""
    game = ConcordiaGame(**facts["config"])
    ValueModel(layers, game.num_players, game.config["map"]).save(path)


FITTER = ValueFitter(rows=rows, save=save, model="margin", holdout=("every", 10), played="heuristic self-play games")
