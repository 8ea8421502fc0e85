"""What the value fitter (:mod:`meeplezoo.training.value_fit`) needs of Board Royale to fit its win-chance model
(:mod:`~meeplezoo.envs.board_royale.value`): one game's rows and the weights document.

A game between heuristic agents gives every ``every``-th position: each seat's
:func:`~meeplezoo.envs.board_royale.value.seat_features`, who is alive, the game's winner, and the weight block
of the number of living seats (:func:`~meeplezoo.envs.board_royale.value.block_of`); a game with no single
winner (stopped by its safety bound) gives none. The last sixth of the games is held out.

    python scripts/fit_board_royale_value.py --games 12000 --seed 200000
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..core.params import Param
from ..core.value_fit import ValueFitter
from . import value
from .game import BoardRoyaleGame
from .heuristic import BoardRoyaleHeuristicAgent


def rows(config: Mapping[str, Any], seed: int, every: int = 7) -> dict[str, np.ndarray] | None:
    """Every ``every``-th position of one game between heuristic agents: ``x`` (positions, seats, features),
    ``alive``, ``winner`` and ``group`` (the weight block); None for a game without a single winner."""
    game = BoardRoyaleGame(**config)
    n = game.num_players
    state = game.new_state(seed)
    agents = [BoardRoyaleHeuristicAgent(seed=seed * n + s) for s in range(n)]
    found, alive, k = [], [], 0
    d = state.d
    while d.stack:
        if k % every == 0:
            found.append(value.seat_features(d))
            alive.append([bool(a) for a in d.alive])
        state.apply(agents[d.stack[-1][1]].choose(state))
        k += 1
    ranks = state.ranks()
    if ranks.count(0) != 1:
        return None
    alive_rows = np.array(alive, bool).reshape(-1, n)
    return {
        "x": np.array(found, float).reshape(-1, n, len(value.FEATURES)),
        "alive": alive_rows,
        "winner": np.full(len(found), ranks.index(0), np.int64),
        "group": np.array([value.block_of(int(c)) for c in alive_rows.sum(1)], np.int64),
    }


def save(weights: Mapping[int, np.ndarray], path: Any, facts: Mapping[str, Any]) -> None:
    """The weights document (``data/value_model.json``, at 2 players ``data/value_model_2p.json``): the weights by
    block with how they were fitted."""
    report = {
        str(group): {
            "train_positions": figures["train_rows"],
            "test_positions": figures["held_rows"],
            "test_log_loss": round(figures["held_log_loss"], 4),
            "test_log_loss_uniform": round(figures["held_log_loss_uniform"], 4),
        }
        for group, figures in facts["report"].items()
    }
    doc = {
        "about": "Board Royale cut-off value (envs/board_royale/value.py): conditional-logit weights per number "
        f"of living seats, fitted on positions of {facts['config'].get('num_players', 4)}-player games between "
        "heuristic agents",
        "command": facts["command"],
        "games": facts["games"],
        "seed": facts["seed"],
        "every": facts["options"].get("every", 7),
        "l2": facts["l2"],
        "test_games": facts["held_games"],
        "fit": report,
        "features": list(value.FEATURES),
        "weights": {str(group): [round(float(v), 6) for v in w] for group, w in weights.items()},
    }
    Path(path).write_text(json.dumps(doc, indent=1) + "\n")


FITTER = ValueFitter(
    rows=rows,
    save=save,
    model="win",
    options=(Param("every", int, 7, "take every n-th position of a game", minimum=1),),
    holdout=("last", 6),
    consecutive_seeds=True,
    played="games between heuristic agents",
)
