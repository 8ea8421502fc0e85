"""MeepleZoo-Bench: one command that scores any agent on a fixed, versioned suite of tasks.

::

    meeplezoo benchmark heuristic --quick --db bench.sqlite --out card/
    meeplezoo leaderboard docs/benchmark/cards/*.json --out docs/leaderboard.md

Modules: :mod:`.suite` (the suite's tasks, background, budget and env versions, as data in ``suites/``),
:mod:`.schedule` (the games of one agent's run: seats rotated, fixed deals, keys), :mod:`.outcomes` (stored
games read back as the focal agent's results), :mod:`.scoring` (win rates, margins, ratings on the frozen scale,
the normalised headline), :mod:`.calibration` (the frozen background ratings), :mod:`.card` (``scorecard.json``
and its ``README.md``), :mod:`.leaderboard`, :mod:`.command` (the ``benchmark`` and ``leaderboard`` subcommands).
"""

from .errors import BenchmarkError

__all__ = ["BenchmarkError"]
