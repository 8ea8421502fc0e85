"""A Seastead heuristic: one-step lookahead on a determinized copy with a hand-written evaluation.

Every decision is scored by applying the action to a copy of the position in which the hidden deck orders
are reshuffled (so the agent never peeks) and evaluating the result from its own seat. The main decision
looks two steps ahead (building type, then location). The evaluation estimates final points: buildings on
locations, dock matches, face-up specialists, cleanup tokens, ships, and resources as future building fuel.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.seastead.actions import BUILD0, DIVE, LOC0, SPEC0
from meeplezoo.envs.seastead.content import (
    DIVE_CARDS,
    DOCKS,
    NUM_LOCS,
    NUM_RES,
    SETUP,
    SPECIALISTS,
    WILD,
    Bld,
    dock_targets,
)
from meeplezoo.envs.seastead.game import SeasteadState
from meeplezoo.envs.seastead.state import BOSS_BUILDING, NO, SeasteadData
from meeplezoo.envs.seastead.steps import Step
from meeplezoo.envs.seastead.tokens import loc_cost, loc_effect

from .view import SeatView

RESOURCE_VALUE = 0.9  # tuned with the effect values below: 99.75% wins against random over 800 games
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
_DOCK_TARGETS = [[dock_targets(dock, loc) for loc in range(NUM_LOCS)] for dock in DOCKS]
_VP = [s.vp for s in SPECIALISTS]


def _board(d: SeasteadData, seat: int) -> tuple[int, list[int]]:
    """``(points of seat's locations and docks, its resources left after the docks take theirs)``."""
    board = 0
    left = d.res[seat * NUM_RES : seat * NUM_RES + NUM_RES]
    for loc in range(NUM_LOCS):
        owner = d.loc_owner[loc]
        if owner == seat:
            board += loc_cost(d, loc)
        dock = d.dock_at[loc]
        if dock != NO:
            if owner == seat:
                kind = DOCKS[dock].resource
                used = min(SETUP.dock_resource_cap, left[kind])
                left[kind] -= used
                board += used
            for q, btype in _DOCK_TARGETS[dock][loc]:
                if d.loc_owner[q] == seat and d.loc_bld[q] == btype:
                    board += DOCKS[dock].points
    return board, left


def points(d: SeasteadData, seat: int) -> float:
    """Estimated final points of ``seat`` if the game ended now, plus resources and ships as potential."""
    board, left = _board(d, seat)
    total = float(board)
    for sid, owner in enumerate(d.spec_owner):
        if owner == seat and not d.spec_spent[sid]:
            total += _VP[sid] + 0.3  # an unspent card is also an option
    fuel = 0.0 if d.end_round != NO and d.round_no >= d.end_round else RESOURCE_VALUE * sum(left)
    total += d.cleanup[seat] + fuel + SHIP_VALUE * d.ship.count(seat)
    return total


def boss_points(d: SeasteadData) -> float:
    """Solo: the Boss's 20 + 3 per building, and half a building for each location it delivered to once."""
    buildings = d.loc_bld.count(BOSS_BUILDING) + 0.5 * sum(d.boss_visits)
    return 20.0 + 3.0 * buildings


def evaluate(d: SeasteadData, seat: int) -> float:
    if d.solo:
        return points(d, seat) - boss_points(d)
    return points(d, seat) - points(d, 1 - seat)


def dive_value(d: SeasteadData) -> float:
    """Expected margin of a dive for the diver: they keep the better half of the next card's band."""
    if not d.dive_deck:
        return 0.0
    band = DIVE_CARDS[d.dive_deck[-1]].deck
    seen = set(d.dive_discard)
    cards = [c for c in DIVE_CARDS if c.deck == band and c.id not in seen and c.id != d.revealed]
    if not cards:
        return 0.0
    total = 0.0
    for card in cards:
        a, b = sum(card.halves[0]), sum(card.halves[1])
        total += RESOURCE_VALUE * (max(a, b) - min(a, b)) + RESOURCE_VALUE * 0.5 * max(a, b)
    return total / len(cards)


class SeasteadHeuristicAgent:
    """Greedy one-step lookahead agent for Seastead (beats random play in well over 95% of games)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> int:
        legal = list(view.legal_actions)
        if len(legal) == 1:
            return legal[0]
        return self.choose(view.determinize(self.rng), legal)

    def choose(self, base: SeasteadState, legal: list[int] | None = None) -> int:
        """The action for the seat to move in ``base``, a state the agent may see whole (a determinization:
        what the seat cannot see already resampled). Also the rollout policy of IS-MCTS."""
        if legal is None:
            legal = base.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = base.current_player()
        step = base.pending_step()
        scored = []
        for action in legal:
            scored.append((self._score(base, step, action, me), action))
        best = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= best - 1e-9]
        return int(ties[self.rng.integers(len(ties))]) if len(ties) > 1 else ties[0]

    def _score(self, base: SeasteadState, step: Step | None, action: int, me: int) -> float:
        d = base.d
        if step == Step.MAIN and action == DIVE:
            return evaluate(d, me) + dive_value(d)
        if step == Step.MAIN and BUILD0 <= action < LOC0:
            s = base.clone()
            s.apply(action)
            locs = [a for a in s.legal_actions() if LOC0 <= a < LOC0 + NUM_LOCS]
            if not locs:  # only reachable through Engineer or Founder: worth a little less than a plain build
                return evaluate(d, me) + 0.5
            return max(self._build_score(s, loc, me) for loc in locs)
        if step == Step.BUILD_WHERE and LOC0 <= action < LOC0 + NUM_LOCS:
            return self._build_score(base, action, me)
        s = base.clone()
        s.apply(action)
        bonus = 0.0
        if step == Step.MAIN and action >= SPEC0:
            bonus = 0.05  # prefer a useful play now over holding it
        return evaluate(s.d, me) + bonus

    def _build_score(self, pending: SeasteadState, action: int, me: int) -> float:
        s = pending.clone()
        loc = action - LOC0
        s.apply(action)
        d = s.d
        value = evaluate(d, me) + EFFECT_VALUE.get(loc_effect(d, loc).kind, 0.0)
        value += BUILDING_EFFECT_VALUE[Bld(d.loc_bld[loc])] if d.loc_bld[loc] != NO else 0.0
        if d.loc_bld[loc] == Bld.PORT:
            value += _best_dock_bonus(pending.d, loc, me)
        return value


def _best_dock_bonus(d: SeasteadData, loc: int, me: int) -> float:
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
