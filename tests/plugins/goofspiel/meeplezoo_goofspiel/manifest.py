"""The manifest of Goofspiel: all MeepleZoo's tools need of this plugin game, by reference."""

from __future__ import annotations

from meeplezoo.envs.core.manifest import GameManifest

MANIFEST = GameManifest(
    name="goofspiel",
    title="Goofspiel",
    package="meeplezoo_goofspiel",
    engine="meeplezoo_goofspiel.game:GoofspielGame",
    env="meeplezoo_goofspiel.env",
    version=0,
    player_counts=(2, 3, 4),
    agents={"greedy": "meeplezoo_goofspiel.heuristic:GreedyAgent"},
    search="meeplezoo_goofspiel.heuristic:SEARCH",
    # short games (N decisions per seat): short rollouts; the game ships "greedy", not "heuristic"
    training={
        "n_steps": 64,
        "batch_size": 64,
        "opponents": ["random", "greedy"],
        "eval_opponent": "greedy",
        "pretrain_agent": "greedy",
    },
    conformance="meeplezoo_goofspiel.conformance:SETTINGS",
)
