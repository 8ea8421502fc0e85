"""The manifest of Seastead: what MeepleZoo's tools need of the game, by reference (reading it loads no rules)."""

from __future__ import annotations

from ..core.manifest import GameManifest

MANIFEST = GameManifest(
    name="seastead",
    title="Seastead",
    package="meeplezoo.envs.seastead",
    engine="meeplezoo.envs.seastead.game:SeasteadGame",
    env="meeplezoo.envs.seastead.env",
    version=0,
    player_counts=(1, 2),
    solo_env="meeplezoo.envs.seastead.env:solo_gym_env",
    solo_env_id="meeplezoo/SeasteadSolo-v0",
    agents={
        "heuristic": "meeplezoo.envs.seastead.heuristic:SeasteadHeuristicAgent",
    },
    search="meeplezoo.envs.seastead.heuristic:SEARCH",
    # the IS-MCTS spec per table benchmarked against the heuristic (figures: docs/lab-notes/mcts.md)
    tuned_mcts={2: "mcts:iters=400,cutoff=20"},
    training={},
    table="meeplezoo.envs.seastead.table:table",
    conformance="meeplezoo.envs.seastead.conformance:SETTINGS",
    order=0,
)
