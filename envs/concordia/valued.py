"""Concordia's heuristic with a learnt evaluation (agent ``valued``).

The heuristic (:mod:`~meeplezoo.envs.concordia.heuristic`) picks its card by playing out the rest of its turn
for each card and scoring the position reached with :func:`~meeplezoo.envs.concordia.heuristic.evaluate`:
its own points and potential, blind to what the turn does to the other seats. ``valued`` adds a learnt term to
that score: a small MLP (:class:`ValueModel`), fitted by :mod:`meeplezoo.training.value_fit` to the final score
margin of heuristic self-play games (own score minus the best other seat's), read from the seat's own
observation and the two evaluations. Choosing the card by it is one step of policy improvement over the
heuristic (the games it learns from are the heuristic's), in the spirit of TD-Gammon's learnt evaluation.

``valued`` plays the value model shipped with MeepleZoo for the table's number of players
(``envs/concordia/policies/concordia_value_<n>p.npz``, fitted on Italia: 2 and 4 players ship); ``valued:path=FILE.npz``
any other. A model plays only the configuration it was fitted on (players, map): anything else, or a table no
model ships for, is a one-line :class:`~meeplezoo.agents.spec.AgentSpecError`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..core.params import Param, bind_keywords
from ..core.params import ParamError as AgentSpecError
from . import observation
from .content import COLONISTS, NUM_GOODS
from .heuristic import ConcordiaHeuristicAgent, evaluate, game_left
from .scoring import final_scores
from .state import BOARD_INDEX, ConcordiaData

#: the score margin (in points) that the model's output 1.0 stands for
MARGIN_SCALE = 30.0
#: :func:`evaluate` is divided by this in the features
EVALUATE_SCALE = 100.0
#: features past the observation: the seat's evaluation, the best other seat's, the game left
EXTRA_FEATURES = 3
#: the folder of the shipped value models (package data beside the shipped policies)
VALUE_DIR = Path(__file__).resolve().parent / "policies"


def shipped_value(num_players: int) -> Path:
    """The path of the value model shipped for ``num_players``-player tables (it may not exist)."""
    return VALUE_DIR / f"concordia_value_{num_players}p.npz"


def features(
    d: ConcordiaData, seat: int, own: float | None = None, other: Callable[[ConcordiaData, int], float] = evaluate
) -> np.ndarray:
    """The model's input for ``seat``: its observation (what the seat may know), its :func:`evaluate` and the
    best other seat's (scaled by :data:`EVALUATE_SCALE`), and :func:`game_left`. ``own`` is ``evaluate(d, seat)``
    if the caller has it; ``other`` evaluates the other seats (a cache of :func:`evaluate`)."""
    size = observation.layout(d.n, d.board).size
    out = np.empty(size + EXTRA_FEATURES, np.float32)
    observation.observe(d, seat, out[:size])
    out[size] = (evaluate(d, seat) if own is None else own) / EVALUATE_SCALE
    out[size + 1] = max(other(d, s) for s in range(d.n) if s != seat) / EVALUATE_SCALE
    out[size + 2] = game_left(d)
    return out


def margin(scores: list[float] | list[int], seat: int) -> float:
    """The model's target: the seat's final score minus the best other seat's, over :data:`MARGIN_SCALE`."""
    return (scores[seat] - max(s for i, s in enumerate(scores) if i != seat)) / MARGIN_SCALE


if TYPE_CHECKING:
    from ...agents.base import Seed
    from ...agents.view import SeatView


class ValueModel:
    """A ReLU MLP (numpy, float32) from :func:`features` to the predicted :func:`margin`, with the
    configuration it was fitted on."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], num_players: int, board: str) -> None:
        if not layers or layers[-1][0].shape[1] != 1:
            raise ValueError("a value model ends in one output")
        for i, (w, b) in enumerate(layers):
            chained = i == 0 or layers[i - 1][0].shape[1] == w.shape[0]
            if w.ndim != 2 or b.shape != (w.shape[1],) or not chained:
                raise ValueError("a value model's layers do not chain (weights in x out, bias out)")
        self.layers = [(np.ascontiguousarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.num_players, self.board = int(num_players), str(board)

    @property
    def input_size(self) -> int:
        return self.layers[0][0].shape[0]

    def __call__(self, x: np.ndarray) -> float:
        """The predicted margin of one feature vector."""
        for w, b in self.layers[:-1]:
            x = x @ w
            x += b
            np.maximum(x, 0.0, out=x)
        w, b = self.layers[-1]
        return float(x @ w[:, 0] + b[0])

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        arrays: dict[str, Any] = {"num_players": np.int64(self.num_players), "board": np.str_(self.board)}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> ValueModel:
        """Load a model saved by :meth:`save` (an :class:`AgentSpecError` naming the file if it is not one)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                count = sum(1 for k in data.files if k.startswith("w"))
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
                return cls(layers, int(data["num_players"]), str(data["board"]))
        except FileNotFoundError:
            raise AgentSpecError(f"valued: no value model {str(path)!r}") from None
        except (OSError, KeyError, ValueError) as exc:
            raise AgentSpecError(f"valued: {path} is not a value model: {type(exc).__name__}: {exc}") from None


#: loaded models by (path, modification time)
_LOADED: dict[tuple[str, float], ValueModel] = {}


def load_value_model(path: str | Path) -> ValueModel:
    """The model in ``path``, loaded once per file version."""
    file = Path(path)
    if not file.is_file():
        raise AgentSpecError(f"valued: no value model {str(file)!r}")
    key = (str(file.resolve()), file.stat().st_mtime)
    if key not in _LOADED:
        _LOADED[key] = ValueModel.load(file)
    return _LOADED[key]


class ConcordiaValuedAgent(ConcordiaHeuristicAgent):
    """The heuristic whose card lookahead scores a position by :func:`evaluate` plus the learnt margin."""

    name = "valued"
    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param("path", str, "", "a value model .npz (default: the one shipped for the table's player count)"),
    )

    def __init__(self, seed: Seed = None, model: ValueModel | None = None, **params: Any) -> None:
        super().__init__(seed)
        values = bind_keywords(f"agent {self.name!r}", self.PARAMS, params)
        self.path: str = values["path"]
        # None: the model shipped for the table, loaded at the first choice (again at a table of another size)
        self.model = model if model is not None else load_value_model(self.path) if self.path else None
        self._shipped = self.model is None
        self.score = self._score  # type: ignore[assignment]  # the lookahead's scoring, per instance
        self._checked: tuple[int, int] | None = None
        #: :meth:`_other`'s cache, emptied at each decision (its keys hold what changes within a game)
        self._others: dict[tuple, float] = {}

    def _score(self, d: ConcordiaData, seat: int) -> float:
        own = evaluate(d, seat)
        if not d.stack:  # the turn ended the game: the true margin
            return own + MARGIN_SCALE * margin(final_scores(d), seat)
        return own + MARGIN_SCALE * self.model(features(d, seat, own, self._other))  # type: ignore[misc]

    def _other(self, d: ConcordiaData, seat: int) -> float:
        """:func:`evaluate` of a seat not to act, cached for one decision by everything it reads: the lookahead's
        trials of one card after another mostly leave the other seats as they were."""
        base, cb = seat * NUM_GOODS, seat * COLONISTS
        key = (
            id(d.city_good),  # one game's setup: a decision's trial copies share the list
            seat,
            d.money[seat],
            d.concordia,
            tuple(d.goods[base : base + NUM_GOODS]),
            tuple(d.col[cb : cb + COLONISTS]),
            tuple(d.hand[seat]),
            tuple(d.discard[seat]),
            tuple(d.houses[seat]),
            tuple(d.city_houses),
        )
        value = self._others.get(key)
        if value is None:
            value = self._others[key] = evaluate(d, seat)
        return value

    def _check(self, d: ConcordiaData) -> None:
        if self._checked == (d.n, d.board):
            return
        if self._shipped:
            file = shipped_value(d.n)
            if not file.is_file():
                raise AgentSpecError(
                    f"valued: no value model ships for {d.n}-player Concordia; give one: valued:path=FILE.npz "
                    "(meeplezoo train's value_games fits one)"
                )
            self.model = load_value_model(file)
        m = self.model
        if (d.n, d.board) != (m.num_players, BOARD_INDEX[m.board]):
            board = next(name for name, i in BOARD_INDEX.items() if i == d.board)
            raise AgentSpecError(
                f"valued: the value model was fitted on {m.num_players} players ({m.board}); "
                f"this game has {d.n} ({board})"
            )
        self._checked = (d.n, d.board)

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        d = view.public_state(copy=False).d
        self._check(d)
        return self._choose(d, owned=True)

    def choose(self, state: Any) -> int:
        self._check(state.d)
        return self._choose(state.d, owned=False)

    def _choose(self, d: ConcordiaData, owned: bool) -> int:
        self._others.clear()  # a new decision: the other seats' evaluations are computed afresh
        return super()._choose(d, owned)
