"""The manifest of Concordia: what MeepleZoo's tools need of the game, by reference (reading it loads no rules)."""

from __future__ import annotations

from ..core.manifest import GameManifest

MANIFEST = GameManifest(
    name="concordia",
    title="Concordia",
    package="meeplezoo.envs.concordia",
    engine="meeplezoo.envs.concordia.game:ConcordiaGame",
    env="meeplezoo.envs.concordia.env",
    version=0,
    player_counts=(2, 3, 4, 5),
    agents={
        "heuristic": "meeplezoo.envs.concordia.heuristic:ConcordiaHeuristicAgent",
        "valued": "meeplezoo.envs.concordia.valued:ConcordiaValuedAgent",
    },
    search="meeplezoo.envs.concordia.heuristic:SEARCH",
    # the IS-MCTS spec per table benchmarked against the heuristic (figures: docs/lab-notes/mcts.md)
    tuned_mcts={
        2: "mcts:iters=1000,cutoff=30,forced=1,bias=2",
        4: "mcts:iters=1000,cutoff=30,forced=1,bias=2",
    },
    training={"n_steps": 256, "gamma": 0.998},
    value_fitters={"valued": "meeplezoo.envs.concordia.value_fit:FITTER"},
    table="meeplezoo.envs.concordia.table:table",
    conformance="meeplezoo.envs.concordia.conformance:SETTINGS",
    order=1,
)
