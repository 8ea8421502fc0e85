"""``mcts-ref``: the IS-MCTS each game tunes for its table, by a name a user can type.

A plain ``mcts`` is the search at its generic defaults (300 iterations, random rollouts). What makes it strong in a
game are the settings the game's manifest names per player count (``tuned_mcts``; the figures are in
``docs/lab-notes/mcts.md``). ``mcts-ref`` plays that spec at the table it sits at: the tuned count nearest the
table's (the smaller on a tie), or the generic defaults in a game that tunes none. Parameters given override the
tuned ones: ``mcts-ref:iters=800`` is the tuned search at another budget. With the same seed it plays exactly as
the tuned spec written out.

>>> reference_spec("seastead", 2)
'mcts:iters=400,cutoff=20'
>>> reference_spec("seastead", 2, {"iters": 50})
'mcts:iters=50,cutoff=20'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from .. import games
from .base import Seed
from .mcts import ISMCTSAgent
from .spec import Param, bind_params, parse_spec
from .view import SeatView


def tuned_table(game: str, num_players: int) -> int | None:
    """The player count whose tuned spec ``game`` plays at a table of ``num_players`` (None: it tunes none)."""
    tuned = games.manifest(game).tuned_mcts
    if not tuned:
        return None
    return min(tuned, key=lambda n: (abs(n - num_players), n))


def reference_spec(game: str, num_players: int, overrides: Mapping[str, Any] | None = None) -> str:
    """The ``mcts`` spec ``mcts-ref`` plays for ``game`` at ``num_players``, with ``overrides`` over the tuned keys."""
    table = tuned_table(game, num_players)
    name, raw = parse_spec(games.manifest(game).tuned_mcts[table]) if table is not None else ("mcts", {})
    params = bind_params(name, ISMCTSAgent.PARAMS, raw)
    params.update(overrides or {})
    order = [p.name for p in ISMCTSAgent.PARAMS]
    items = sorted(params.items(), key=lambda kv: order.index(kv[0]))
    return "mcts" + (":" + ",".join(f"{k}={_text(v)}" for k, v in items) if items else "")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class ReferenceMCTS:
    """The tuned IS-MCTS of the game and table (see the module docstring); made as ``ReferenceMCTS(seed, **given)``
    where ``given`` are :class:`~.mcts.ISMCTSAgent` parameters that override the tuned ones."""

    name = "mcts-ref"
    PARAMS: ClassVar[tuple[Param, ...]] = ISMCTSAgent.PARAMS

    def __init__(self, seed: Seed = None, **given: Any) -> None:
        self.seed = seed
        self.given = dict(given)
        self._search: ISMCTSAgent | None = None
        self._table: tuple[str, int] | None = None

    def check_game(self, game: str) -> None:
        """Check the search of every table the game tunes, with the overrides (``make_agent`` calls it)."""
        counts = games.manifest(game).tuned_mcts or {2: None}
        for n in counts:
            self._make(game, n).check_game(game)

    def _make(self, game: str, num_players: int) -> ISMCTSAgent:
        _, raw = parse_spec(reference_spec(game, num_players, self.given))
        return ISMCTSAgent(seed=self.seed, **bind_params(self.name, ISMCTSAgent.PARAMS, raw))

    def spec_for(self, game: str, num_players: int) -> str:
        """The ``mcts`` spec this agent plays at that table."""
        return reference_spec(game, num_players, self.given)

    def act(self, view: SeatView) -> int:
        table = (view.game_name, view.num_players)
        if self._search is None or self._table != table:  # made at the first decision: the table is known then
            self._search, self._table = self._make(*table), table
        return self._search.act(view)

    def search_distribution(self) -> np.ndarray | None:
        """The root's visit shares of the last search (:meth:`.mcts.ISMCTSAgent.search_distribution`)."""
        return self._search.search_distribution() if self._search is not None else None


__all__ = ["ReferenceMCTS", "reference_spec", "tuned_table"]
