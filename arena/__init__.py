"""The arena: tournaments between agents, stored game by game in SQLite, rated, reported and replayable.

::

    meeplezoo arena seastead --agents random heuristic --games 100 --db results.sqlite
    meeplezoo arena --report results.sqlite --out report/
    meeplezoo replay results.sqlite 17 --seat 0

Modules: :mod:`.schedule` (who plays whom, in which seat, with which seed), :mod:`.play` (the one seam with
:mod:`meeplezoo.agents`: one game from agent specs), :mod:`.faults` (forfeits), :mod:`.store` (the SQLite
database), :mod:`.runner` (local worker processes or Ray), :mod:`.ratings`, :mod:`.report`, :mod:`.replay`,
:mod:`.command` (the `arena` and `replay` subcommands).
"""

from .errors import ArenaError, StoreError

__all__ = ["ArenaError", "StoreError"]
