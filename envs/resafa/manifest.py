"""The manifest of Resafa: what MeepleZoo's tools need of the game, by reference (reading it loads no rules)."""

from __future__ import annotations

from ..core.manifest import GameManifest

MANIFEST = GameManifest(
    name="resafa",
    title="Resafa",
    package="meeplezoo.envs.resafa",
    engine="meeplezoo.envs.resafa.game:ResafaGame",
    env="meeplezoo.envs.resafa.env",
    version=0,
    player_counts=(1, 2, 3, 4),
    solo_env="meeplezoo.envs.resafa.env:solo_gym_env",
    solo_env_id="meeplezoo/ResafaSolo-v0",
    agents={
        "heuristic": "meeplezoo.envs.resafa.heuristic:ResafaHeuristicAgent",
    },
    search="meeplezoo.envs.resafa.heuristic:SEARCH",
    # the IS-MCTS spec per table benchmarked against the heuristic (figures: docs/lab-notes/mcts.md)
    tuned_mcts={2: "mcts:iters=100,cutoff=10"},
    # ~9800 observation values: smaller hidden layers keep the model (and the shipped policy) small
    training={"net_arch": [32, 32], "n_steps": 256},
    table="meeplezoo.envs.resafa.table:table",
    conformance="meeplezoo.envs.resafa.conformance:SETTINGS",
    order=3,
)
