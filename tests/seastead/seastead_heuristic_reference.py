"""Seastead's heuristic as it was before its lookahead fast paths, kept as the reference they are tested against.

:class:`ReferenceHeuristic` plays every candidate through the engine's full ``apply`` (which lists the legal
actions of the decision reached) and evaluates each position from scratch; it determinizes with the engine's
default :meth:`StackState.determinize` (which re-reads the legal actions) from the default public copy.
"""

from __future__ import annotations

from meeplezoo.envs.core.tasks import StackState
from meeplezoo.envs.seastead.actions import BUILD0, DIVE, LOC0, SPEC0
from meeplezoo.envs.seastead.content import LOCS_PER_FLOTILLA
from meeplezoo.envs.seastead.game import SeasteadState
from meeplezoo.envs.seastead.heuristic import (
    _BUILD_WHERE,
    _EFFECT_VALUES,
    _LOC_END,
    _MAIN,
    _PORT,
    BUILDING_EFFECT_VALUE,
    SeasteadHeuristicAgent,
    _best_dock_bonus,
    _DockView,
    dive_value,
    evaluate,
)
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step


class ReferenceHeuristic(SeasteadHeuristicAgent):
    """The heuristic's decisions computed the plain way (same values, same draws)."""

    def act_on(self, state: SeasteadState, seat: int) -> int:
        """:meth:`act` on ``seat``'s view of ``state``, with the engine's default public copy and
        determinization."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        public = StackState.public_copy(state, seat)
        return self._choose(StackState.determinize(public, seat, self.rng), legal, own=True)

    def _choose(self, base: SeasteadState, legal: list[int] | None, own: bool) -> int:
        if legal is None:
            legal = base.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = base.current_player()
        step = base.pending_step()
        last = legal[-1] if own else None
        scored = [(self._score_plain(base, step, action, me, action == last), action) for action in legal]
        best = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= best - 1e-9]
        return int(ties[self.rng.integers(len(ties))]) if len(ties) > 1 else ties[0]

    def _score_plain(self, base: SeasteadState, step: Step | None, action: int, me: int, consume: bool) -> float:
        d = base.d
        if step == _MAIN and action == DIVE:
            return evaluate(d, me) + dive_value(d)
        if step == _MAIN and BUILD0 <= action < LOC0:
            s = base.clone()
            s.apply(action)
            locs = [a for a in s.legal_actions() if LOC0 <= a < _LOC_END]
            if not locs:
                return evaluate(d, me) + 0.5
            last = locs[-1]
            return max([self._build_score_plain(s, loc, me, loc == last) for loc in locs])
        if step == _BUILD_WHERE and LOC0 <= action < _LOC_END:
            return self._build_score_plain(base, action, me, consume)
        s = base if consume else base.clone()
        s.apply(action)
        bonus = 0.05 if step == _MAIN and action >= SPEC0 else 0.0
        return evaluate(s.d, me) + bonus

    def _build_score_plain(self, pending: SeasteadState, action: int, me: int, consume: bool) -> float:
        before = pending.d
        if consume:
            before = _DockView(before.dock_display[:], before.res[:], before.loc_owner[:])
            s = pending
        else:
            s = pending.clone()
        loc = action - LOC0
        s.apply(action)
        d = s.d
        value = evaluate(d, me) + _EFFECT_VALUES[d.sides[loc // LOCS_PER_FLOTILLA]][loc]
        btype = d.loc_bld[loc]
        value += BUILDING_EFFECT_VALUE[btype] if btype != NO else 0.0
        if btype == _PORT:
            value += _best_dock_bonus(before, loc, me)
        return value


__all__ = ["ReferenceHeuristic"]
