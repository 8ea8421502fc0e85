"""A Seastead heuristic: one-step lookahead on a determinized copy with a hand-written evaluation.

Every decision is scored by applying the action to a copy of the position in which the hidden deck orders
are reshuffled (so the agent never peeks) and evaluating the result from its own seat. The main decision
looks two steps ahead (building type, then location). The evaluation estimates final points: buildings on
locations, dock matches, face-up specialists, cleanup tokens, ships, and resources as future building fuel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..core.manifest import SearchHooks
from .actions import BUILD0, DIVE, LOC0, SPEC0
from .content import (
    DIVE_CARDS,
    DOCKS,
    LOCS_PER_FLOTILLA,
    NUM_LOCS,
    NUM_RES,
    SETUP,
    SIDE_LOCATIONS,
    SPECIALISTS,
    WILD,
    Bld,
    Deck,
    DiveCard,
    dock_targets,
)
from .game import SeasteadState
from .state import BOSS_BUILDING, NO, SeasteadData
from .steps import Step
from .tokens import loc_values
from .turn import apply_to_look

if TYPE_CHECKING:
    from ...agents.view import SeatView


RESOURCE_VALUE = 0.9  # a resource in hand, in final points (how it was tuned: docs/lab-notes/heuristics.md)
SHIP_VALUE = 0.5
EFFECT_VALUE = {
    "gain": 0.5,
    "cleanup": 1.0,
    "gain_any": 0.6,
    "tribute": -2.0,  # a resource lost and one handed to the opponent
    "discard": -1.0,
    "opponent_gain": -1.0,
    "convert": 0.4,
    "refresh_specialist": 0.8,
    "move_ship": 0.2,
    "swap_demand": 0.2,
    "decree": 0.3,
}
BUILDING_EFFECT_VALUE = {Bld.PORT: 1.5, Bld.ACADEMY: 1.5, Bld.SHIPYARD: SHIP_VALUE}
#: ``EFFECT_VALUE`` of every location's effect, per tile side
_EFFECT_VALUES = [[EFFECT_VALUE.get(loc.effect.kind, 0.0) for loc in side] for side in SIDE_LOCATIONS]
_MAIN, _BUILD_WHERE, _PORT = int(Step.MAIN), int(Step.BUILD_WHERE), int(Bld.PORT)
_LOC_END = LOC0 + NUM_LOCS
_DOCK_TARGETS = [[dock_targets(dock, loc) for loc in range(NUM_LOCS)] for dock in DOCKS]
_VP = [s.vp for s in SPECIALISTS]


_DOCK_RES = [dock.resource for dock in DOCKS]
_DOCK_POINTS = [dock.points for dock in DOCKS]
_VP_HELD = [vp + 0.3 for vp in _VP]  # a face-up card's points, plus 0.3: it is also an option
_CAP = SETUP.dock_resource_cap


#: what :func:`_layout_points` returns
Layout = tuple[int, int, tuple[tuple[int, int], ...]]


def _layout_points(d: SeasteadData) -> Layout:
    """``(seat 0's points for its locations and dock buildings, seat 1's, (owner, resource) of each dock on a
    player's port in location order)``: the part of :func:`_boards` read from the board alone."""
    owner = d.loc_owner
    board = [0, 0]  # by owner 0, 1 (and the Boss's buildings in solo, seat 1)
    if owner.count(NO) == NUM_LOCS:
        return 0, 0, ()
    values = loc_values(d)
    for loc, o in enumerate(owner):
        if o != NO:
            board[o] += values[loc]
    dock_at = d.dock_at
    if dock_at.count(NO) == NUM_LOCS:
        return board[0], board[1], ()
    bld = d.loc_bld
    ports = []
    for loc, dock in enumerate(dock_at):
        if dock == NO:
            continue
        o = owner[loc]
        if o == 0 or o == 1:
            ports.append((o, _DOCK_RES[dock]))
        for q, btype in _DOCK_TARGETS[dock][loc]:
            if bld[q] == btype:  # a building there: owner 0 or 1 (the Boss's type never matches)
                board[owner[q]] += _DOCK_POINTS[dock]
    return board[0], board[1], tuple(ports)


def _boards(d: SeasteadData, layout: Layout | None = None) -> tuple[list[int], list[list[int]]]:
    """Both seats' ``(points of their locations and docks, resources left after the docks take theirs)``;
    ``layout``: :func:`_layout_points` of ``d`` if known."""
    b0, b1, ports = _layout_points(d) if layout is None else layout
    board = [b0, b1]
    res = d.res
    left = [res[:NUM_RES], res[NUM_RES : 2 * NUM_RES]]
    for o, kind in ports:
        mine = left[o]
        used = mine[kind]
        if used > _CAP:
            used = _CAP
        mine[kind] -= used
        board[o] += used
    return board, left


def _board(d: SeasteadData, seat: int) -> tuple[int, list[int]]:
    """``(points of seat's locations and docks, its resources left after the docks take theirs)``."""
    board, left = _boards(d)
    return board[seat], left[seat]


def _points(d: SeasteadData, seat: int, board: int, left: list[int]) -> float:
    total = float(board)
    if seat in d.spec_owner:
        for owner, spent, vp in zip(d.spec_owner, d.spec_spent, _VP_HELD, strict=True):
            if owner == seat and not spent:
                total += vp
    fuel = 0.0 if d.end_round != NO and d.round_no >= d.end_round else RESOURCE_VALUE * sum(left)
    total += d.cleanup[seat] + fuel + SHIP_VALUE * d.ship.count(seat)
    return total


def points(d: SeasteadData, seat: int, layout: Layout | None = None) -> float:
    """Estimated final points of ``seat`` if the game ended now, plus resources and ships as potential
    (``layout``: :func:`_layout_points` of ``d`` if known)."""
    board, left = _boards(d, layout)
    return _points(d, seat, board[seat], left[seat])


def boss_points(d: SeasteadData) -> float:
    """Solo: the Boss's 20 + 3 per building, and half a building for each location it delivered to once."""
    buildings = d.loc_bld.count(BOSS_BUILDING) + 0.5 * sum(d.boss_visits)
    return 20.0 + 3.0 * buildings


def evaluate(d: SeasteadData, seat: int, layout: Layout | None = None) -> float:
    """``seat``'s estimated points minus the opponent's (solo: minus the Boss's); ``layout``:
    :func:`_layout_points` of ``d`` if known."""
    if d.solo:
        return points(d, seat, layout) - boss_points(d)
    board, left = _boards(d, layout)
    opp = 1 - seat
    # _points(d, seat, ...) - _points(d, opp, ...) in one pass over the specialists (same sums, same order)
    mine, theirs = float(board[seat]), float(board[opp])
    if d.spec_owner.count(NO) != len(_VP_HELD):
        for owner, spent, vp in zip(d.spec_owner, d.spec_spent, _VP_HELD, strict=True):
            if not spent:
                if owner == seat:
                    mine += vp
                elif owner == opp:
                    theirs += vp
    ended = d.end_round != NO and d.round_no >= d.end_round
    cleanup, ship = d.cleanup, d.ship
    mine += cleanup[seat] + (0.0 if ended else RESOURCE_VALUE * sum(left[seat])) + SHIP_VALUE * ship.count(seat)
    theirs += cleanup[opp] + (0.0 if ended else RESOURCE_VALUE * sum(left[opp])) + SHIP_VALUE * ship.count(opp)
    return mine - theirs


def _card_value(card: DiveCard) -> float:
    """What the diver gains on the opponent with ``card``: the better half, and the difference."""
    a, b = sum(card.halves[0]), sum(card.halves[1])
    return RESOURCE_VALUE * (max(a, b) - min(a, b)) + RESOURCE_VALUE * 0.5 * max(a, b)


#: per band, the ``(id, value)`` of its cards in card order
_BAND_CARDS = {band: [(c.id, _card_value(c)) for c in DIVE_CARDS if c.deck == band] for band in Deck}
_CARD_BAND = [c.deck for c in DIVE_CARDS]


def dive_value(d: SeasteadData) -> float:
    """Expected margin of a dive for the diver: they keep the better half of the next card's band."""
    if not d.dive_deck:
        return 0.0
    seen = set(d.dive_discard)
    seen.add(d.revealed)
    values = [v for c, v in _BAND_CARDS[_CARD_BAND[d.dive_deck[-1]]] if c not in seen]
    if not values:
        return 0.0
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


class SeasteadHeuristicAgent:
    """Greedy one-step lookahead agent for Seastead (beats random play in well over 95% of games)."""

    name = "heuristic"
    owns_its_views = True  # its act takes its view apart (copy=False) and hands it to no one

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> int:
        legal = list(view.legal_actions)
        if len(legal) == 1:
            return legal[0]
        base = view.determinize(self.rng, copy=False)  # a disposable view's own copy: one clone less
        return self._choose(base, legal, own=True)

    def choose(self, base: SeasteadState, legal: list[int] | None = None) -> int:
        """The action for the seat to move in ``base``, a state the agent may see whole (a determinization:
        what the seat cannot see already resampled). Also the rollout policy of IS-MCTS."""
        return self._choose(base, legal, own=False)

    def _choose(self, base: SeasteadState, legal: list[int] | None, own: bool) -> int:
        """:meth:`choose`; with ``own`` (a determinization made for this decision) the last candidate is
        played on ``base`` itself instead of a copy."""
        if legal is None:
            legal = base.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = base.current_player()
        step = base.pending_step()
        last = legal[-1] if own else None
        board = _SameBoard(base.d)
        scored = []
        for action in legal:
            scored.append((self._score(base, step, action, me, board, action == last), action))
        best = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= best - 1e-9]
        return int(ties[self.rng.integers(len(ties))]) if len(ties) > 1 else ties[0]

    def _score(
        self, base: SeasteadState, step: Step | None, action: int, me: int, board: _SameBoard, consume: bool = False
    ) -> float:
        """The value of ``action`` for ``me`` (``board``: of ``base``); with ``consume`` it may be played on
        ``base`` itself."""
        d = base.d
        if step == _MAIN and action == DIVE:
            return board.evaluate(d, me) + dive_value(d)
        if step == _MAIN and BUILD0 <= action < LOC0:
            s = base.clone()
            apply_to_look(s.d, action)  # a build type: the location decision's actions are listed
            locs = [a for a in sorted(s.d.legal) if LOC0 <= a < _LOC_END]
            if not locs:  # only reachable through Engineer or Founder: worth a little less than a plain build
                return board.evaluate(d, me) + 0.5
            last = locs[-1]
            return max([self._build_score(s, loc, me, loc == last) for loc in locs])
        if step == _BUILD_WHERE and LOC0 <= action < _LOC_END:
            return self._build_score(base, action, me, consume)
        s = base if consume else base.clone()
        apply_to_look(s.d, action)
        bonus = 0.0
        if step == _MAIN and action >= SPEC0:
            bonus = 0.05  # prefer a useful play now over holding it
        return board.evaluate(s.d, me) + bonus

    def _build_score(self, pending: SeasteadState, action: int, me: int, consume: bool = False) -> float:
        """The value for ``me`` of building at ``action``'s location; with ``consume`` it may be built on
        ``pending`` itself."""
        before = pending.d
        if consume:  # what the dock bonus reads of the position before the build
            before = _DockView(before.dock_display[:], before.res[:], before.loc_owner[:])
            s = pending
        else:
            s = pending.clone()
        loc = action - LOC0
        apply_to_look(s.d, action)
        d = s.d
        value = evaluate(d, me) + _EFFECT_VALUES[d.sides[loc // LOCS_PER_FLOTILLA]][loc]
        btype = d.loc_bld[loc]
        value += BUILDING_EFFECT_VALUE[btype] if btype != NO else 0.0
        if btype == _PORT:
            value += _best_dock_bonus(before, loc, me)
        return value


class _SameBoard:
    """The candidates of one decision: most leave the board (owners, buildings, docks) as it was, and share
    the :func:`_layout_points` of the position they start from."""

    __slots__ = ("bld", "dock_at", "layout", "owner")

    def __init__(self, d: SeasteadData) -> None:
        self.owner, self.bld, self.dock_at = d.loc_owner[:], d.loc_bld[:], d.dock_at[:]
        self.layout: Layout | None = None

    def evaluate(self, d: SeasteadData, me: int) -> float:
        """:func:`evaluate` of ``d``, a position reached from the decision's."""
        if d.loc_owner == self.owner and d.loc_bld == self.bld and d.dock_at == self.dock_at:
            if self.layout is None:
                self.layout = _layout_points(d)
            return evaluate(d, me, self.layout)
        return evaluate(d, me)


class _DockView(NamedTuple):
    """The fields of a position :func:`_best_dock_bonus` reads."""

    dock_display: list[int]
    res: list[int]
    loc_owner: list[int]


def _best_dock_bonus(d: SeasteadData | _DockView, loc: int, me: int) -> float:
    """Value of the best dock tile in the display if attached at ``loc`` (resource match + neighbours)."""
    best = 0.0
    for dock_id in d.dock_display:
        if dock_id == NO:
            continue
        dock = DOCKS[dock_id]
        v = min(SETUP.dock_resource_cap, d.res[me * NUM_RES + dock.resource]) * 0.5
        v += 0.5 * dock.points * sum(1 for q, _ in _DOCK_TARGETS[dock_id][loc] if d.loc_owner[q] in (NO, me))
        best = max(best, v)
    return best - 1.5  # BUILDING_EFFECT_VALUE already counted an average dock


__all__ = ["ESTIMATE_SCALE", "WILD", "SeasteadHeuristicAgent", "estimate_scores", "evaluate", "points"]


#: the softmax temperature of IS-MCTS cut-offs: ``estimate_scores`` is scaled so that a margin of this many
#: units means about the same winning chance at every stage of the game
ESTIMATE_SCALE = 4.0

#: (resource value, ship value, weight of a face-up specialist's points, typical winning margin), in final
#: points, at the start of the game and at round ``_LATE`` before the end is triggered (linear in between),
#: in the round before the last, and in the last round. Fitted by logistic regression of the winner on
#: positions of heuristic self-play with 15% and 40% random moves (220 games, 17,357 positions): resources
#: are fuel for buildings worth about their cost until the end nears; specialists may still be spent
#: for their effect, so their points count fully only at the end; the margin that decides a game shrinks.
_EARLY = (1.3, 0.8, 0.0, 6.0)
_LATE, _LATE_WEIGHTS = 14, (1.0, 0.1, 0.3, 3.0)
_PENULTIMATE = (0.45, 0.0, 0.4, 2.5)
_FINAL = (0.35, 0.0, 0.65, 2.3)


def _weights(d: SeasteadData) -> tuple[float, ...]:
    if d.end_round == NO:
        t = min(d.round_no, _LATE) / _LATE
        return tuple(a + (b - a) * t for a, b in zip(_EARLY, _LATE_WEIGHTS, strict=True))
    return _PENULTIMATE if d.round_no < d.end_round else _FINAL


def _tally(d: SeasteadData, seat: int) -> tuple[int, int, int, int]:
    """``(points already on the board or in hand for the final scoring, resources left after the docks,
    face-up specialists' points, ships)`` of ``seat``."""
    board, left = _board(d, seat)
    banked = d.cleanup[seat] + board
    vp = sum(_VP[sid] for sid, owner in enumerate(d.spec_owner) if owner == seat and not d.spec_spent[sid])
    return banked, sum(left), vp, d.ship.count(seat)


def estimate_scores(state: SeasteadState) -> list[float]:
    """Each seat's expected final points (solo: yours and the Boss's), in units of ``ESTIMATE_SCALE``
    over the margin that typically decides a game at this stage (see ``_EARLY``)."""
    d = state.d
    res_value, ship_value, vp_weight, margin = _weights(d)
    out = []
    for seat in (0,) if d.solo else (0, 1):
        banked, left, vp, ships = _tally(d, seat)
        out.append(banked + res_value * left + vp_weight * vp + ship_value * ships)
    if d.solo:
        out.append(boss_points(d))
    return [ESTIMATE_SCALE / margin * x for x in out]


#: what IS-MCTS asks of the game (its manifest names it)
SEARCH = SearchHooks(estimate=estimate_scores, scale=ESTIMATE_SCALE)
