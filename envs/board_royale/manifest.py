"""The manifest of Board Royale: The Island: what MeepleZoo's tools need of it, by reference (loads no rules)."""

from __future__ import annotations

from ..core.manifest import GameManifest

MANIFEST = GameManifest(
    name="board_royale",
    title="Board Royale: The Island",
    package="meeplezoo.envs.board_royale",
    engine="meeplezoo.envs.board_royale.game:BoardRoyaleGame",
    env="meeplezoo.envs.board_royale.env",
    version=1,
    player_counts=(2, 3, 4, 5, 6),
    agents={
        "heuristic": "meeplezoo.envs.board_royale.heuristic:BoardRoyaleHeuristicAgent",
    },
    search="meeplezoo.envs.board_royale.search:SEARCH",
    # the IS-MCTS spec per table benchmarked against the heuristic (figures: docs/lab-notes/mcts.md)
    tuned_mcts={
        2: "mcts:iters=200,rollout=heuristic,cutoff=20,forced=1,bias=5",
        4: "mcts:iters=400,rollout=heuristic,cutoff=20,forced=1,bias=5,horizon=others,repeat=1,estimate=fitted",
    },
    value_models={
        "win": "meeplezoo.envs.board_royale.value:win_chances",
    },
    own_cards="meeplezoo.envs.board_royale.seat_text:own_cards",
    training={"n_steps": 256, "gamma": 0.998},
    value_fitters={"win": "meeplezoo.envs.board_royale.value_fit:FITTER"},
    table="meeplezoo.envs.board_royale.table:table",
    conformance="meeplezoo.envs.board_royale.conformance:SETTINGS",
    order=2,
)
