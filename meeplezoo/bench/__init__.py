"""Speed figures: random legal games through the AEC loop, and the engine's clone + apply.

MeepleZoo's benchmarks, in one place:

* :mod:`.speed`: speed of every registered game (AEC steps, clone + apply, engine playouts, IS-MCTS
  iterations), what ``meeplezoo bench`` prints; its names are this package's (``bench.run``, ``bench.table``);
* :mod:`.mcts`: win rates of a search agent against each game's heuristic, with the IS-MCTS spec each game's
  manifest tunes per table (``python -m meeplezoo.bench.mcts``);
* :mod:`.solo`: final scores of an agent in a game's solo mode (``python -m meeplezoo.bench.solo``);
* :mod:`.isolation`: arena games per second with every agent in its own process against in-process, and the
  overhead per decision and per game (``meeplezoo bench isolation``);
* :mod:`.openspiel`: decisions per second of every game through pyspiel (``meeplezoo.openspiel``), beside its env,
  its engine and a C++ OpenSpiel game of similar length (``python -m meeplezoo.bench.openspiel``; needs the
  ``openspiel`` extra).

Every figure is per CPU second of this process (``time.process_time``), so it holds on a shared machine; the
isolation benchmark gives wall-clock figures (an isolated game's work is spread over several processes) beside
CPU-time ones.
"""

from __future__ import annotations

from .speed import (
    CONNECT_FOUR,
    BenchRow,
    aec_random_games,
    clone_apply_rate,
    connect_four_factory,
    env_row,
    mcts_iteration_rate,
    playout_rate,
    run,
    sample_states,
    table,
)

__all__ = [
    "CONNECT_FOUR",
    "BenchRow",
    "aec_random_games",
    "clone_apply_rate",
    "connect_four_factory",
    "env_row",
    "mcts_iteration_rate",
    "playout_rate",
    "run",
    "sample_states",
    "table",
]
