"""What the value fitter (:mod:`meeplezoo.training.value_fit`) asks of a game: :class:`ValueFitter`.

A game that fits a value model on its own games defines one beside the model and names it in its manifest's
``value_fitters`` (name -> ``"module:FITTER"``). The game gives only what is its own: one played game's rows
(features and labels) and how the fitted model is saved where the game reads it; the fitter plays the games
on all cores, holds games out, fits and reports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .params import Param

#: the kinds of model the fitter fits
MODELS = ("margin", "win")


@dataclass(frozen=True)
class ValueFitter:
    """One value model of a game, as the fitter sees it.

    ``rows(config, seed, **options) -> dict[str, ndarray] | None``: play one game of the game config ``config``
    from ``seed`` and return its rows (arrays of equal length; None: a game with nothing to learn from).
    ``model`` says what the rows hold and what is fitted:

    - ``"margin"``: ``x`` (rows, features) and ``y`` (rows,): an MLP fitted by mean squared error, the weights
      with the best held-out R^2 kept; ``save`` gets its layers ``[(weights in x out, bias), ...]``.
    - ``"win"``: ``x`` (rows, seats, features), ``alive`` (rows, seats), ``winner`` (rows,) and ``group``
      (rows,): a conditional logit (each living seat's chance to win is the softmax of ``w . x``), one weight
      vector per group; ``save`` gets ``{group: weights}``.

    ``save(model, path, facts)`` writes the fitted model (``facts``: the command, games, seed, options, fit
    settings, held-out games and the per-group report). ``options`` are the parameters ``rows`` takes.
    ``holdout``: ``("every", n)`` holds out games 0, n, 2n, ...; ``("last", n)`` the last n-th of the games.
    ``consecutive_seeds``: game k plays seed ``seed + k`` (else seeds drawn from ``seed``). ``played`` names
    the games in the fitter's log (``"heuristic self-play games"``).
    """

    rows: Callable[..., Mapping[str, Any] | None]
    save: Callable[[Any, Any, Mapping[str, Any]], None]
    model: str = "margin"
    options: tuple[Param, ...] = ()
    holdout: tuple[str, int] = ("every", 10)
    consecutive_seeds: bool = False
    played: str = "games"

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ValueError(f"a value fitter's model is one of {', '.join(MODELS)}, not {self.model!r}")
        if self.holdout[0] not in ("every", "last") or self.holdout[1] < 2:
            raise ValueError(f"a value fitter's holdout is ('every' or 'last', n >= 2), not {self.holdout!r}")

    @property
    def min_games(self) -> int:
        """The fewest games that leave games on both sides of the hold-out."""
        kind, n = self.holdout
        return 2 * n if kind == "every" else n


__all__ = ["MODELS", "ValueFitter"]
