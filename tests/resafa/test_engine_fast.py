"""The s29 round's engine fast paths against the code they replaced (``engine_reference.py``), on positions
reached by legal play: legal-action questions, the level limits, determinize and the public copy."""

from __future__ import annotations

from functools import cache

import engine_reference as ref
import numpy as np
from test_heuristic_fast import BUILD_CODES, heuristic_positions

from meeplezoo.envs.core.tasks import StackState
from meeplezoo.envs.resafa import canals, cards, economy, gardens, trade, workshops
from meeplezoo.envs.resafa.game import ResafaState
from meeplezoo.envs.resafa.geometry import GARDEN_CELLS
from meeplezoo.envs.resafa.state import NO
from meeplezoo.envs.resafa.tracks import can_step

#: heuristic games at every player count (positions of every kind of decision, tiles built late in the game)
GAMES = ((1, 12), (2, 13), (3, 14), (4, 15))


@cache
def positions() -> tuple[ResafaState, ...]:
    """Every 4th of the first 400 positions of each game (played once, shared by the tests)."""
    return tuple(s for players, seed in GAMES for s in heuristic_positions(players, seed, limit=400)[::4])


def test_legal_questions_match_the_reference() -> None:
    """Every seat of every position: the level limits, discounts, canal picks (every build discount), garden
    sizes and positions, camel moves, workshop picks, colour options: the same answers, in the same order."""
    built = 0
    for state in positions():
        d = state.d
        for seat in range(d.players):
            assert [can_step(d, seat, c) for c in range(4)] == [ref.can_step(d, seat, c) for c in range(4)]
            for target in ("canal", "workshop", "garden_small", "garden_large", "road"):
                assert economy.discount(d, seat, target) == ref.discount(d, seat, target)
            for code in (0, *BUILD_CODES):
                picks = list(canals.canal_picks(d, seat, code))
                assert picks == list(ref.canal_picks(d, seat, code))
                built += len(picks)
                assert list(gardens.garden_sizes(d, seat, 3, code)) == list(ref.garden_sizes(d, seat, 3, code))
            for size in (gardens.SMALL, gardens.LARGE):
                for cell in GARDEN_CELLS:
                    got = gardens.legal_positions(d, seat, cell, size)
                    assert got == ref.legal_positions(d, seat, cell, size)
                assert gardens.any_position(d, seat, size) == any(
                    ref.legal_positions(d, seat, c, size) for c in GARDEN_CELLS
                )
            for road_discount in (0, 1, 2):
                assert list(trade.moves(d, seat, road_discount)) == list(ref.moves(d, seat, road_discount))
            assert workshops.has_free_cell(d, seat) == ref.has_free_cell(d, seat)
            for code in (0, *BUILD_CODES):
                assert workshops.pick_possible(d, seat, code) == bool(workshops.legal_ws_pick(d, seat, 0, code))
            for colour in (NO, 0, 1, 2, 3):
                assert cards.legal_colour_opt(d, seat, colour, 0) == ref.legal_colour_opt(d, seat, colour, 0)
    assert built > 300


def test_determinize_and_public_copy_match_the_reference() -> None:
    """The same copy (every field, the legal actions included) and the same draws, for the seat to act (legal
    actions kept: they depend only on what it sees) and for another seat (re-read)."""
    rng = np.random.default_rng(5)
    for state in positions()[::2]:
        d = state.d
        for seat in {state.current_player(), int(rng.integers(d.players))}:
            a, b = np.random.default_rng(seat + 1), np.random.default_rng(seat + 1)
            fast, slow = state.determinize(seat, a), ref.determinize(state, seat, b)
            assert fast.to_dict() == slow.to_dict() and fast.d.legal == slow.d.legal
            assert a.bit_generator.state == b.bit_generator.state
            fast, slow = state.public_copy(seat), ref.public_copy(state, seat)
            assert fast.to_dict() == slow.to_dict() and fast.d.legal == slow.d.legal
        assert state.to_dict() == state.clone().to_dict()  # the original is left alone


def test_the_pending_decision_s_legal_actions_depend_only_on_what_its_seat_sees() -> None:
    """Why determinize may keep them: the base class's re-read gives the same tuple for the seat to act."""
    rng = np.random.default_rng(6)
    for state in positions():
        seat = state.current_player()
        for r in (None, rng):
            copy = state.clone()
            copy.resample_hidden(seat, r)
            before = copy.d.legal
            copy.machine.relegal(copy.d)
            assert copy.d.legal == before
        assert StackState.determinize(state, seat, np.random.default_rng(1)).d.legal == state.d.legal


def test_the_lookahead_s_first_legal_actions_are_legal_and_there_exactly_when_some_are() -> None:
    """:data:`~meeplezoo.envs.resafa.turn.FIRST_LEGAL` against the full lists of the game's decisions, at every
    such decision of every position's lookahead (each action of the position applied by the game's machine)."""
    from collections import Counter

    from meeplezoo.envs.resafa.turn import _PLAIN, FIRST_LEGAL

    seen: Counter[int] = Counter()
    for state in positions():
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            for step, seat, a, b in after.d.stack:
                if step in FIRST_LEGAL:
                    full = _PLAIN[step][0](after.d, seat, a, b)
                    first = FIRST_LEGAL[step](after.d, seat, a, b)
                    assert set(first) <= set(full) and len(first) == min(1, len(full))
                    seen[step] += 1
    assert len(seen) == len(FIRST_LEGAL) and min(seen.values()) >= 10, seen


def test_determinize_in_place_on_a_handed_over_public_copy_is_what_the_view_s_determinize_gives() -> None:
    """The heuristic's way (a disposable view's own public copy, resampled in place): the same position and
    legal actions as ``view.determinize``, from the same draws."""
    from meeplezoo.agents.view import view_of_state

    for k, state in enumerate(positions()[::2]):
        seat = state.current_player()
        a, b = np.random.default_rng(k), np.random.default_rng(k)
        expected = view_of_state(state, seat).determinize(a)
        own = view_of_state(state, seat, disposable=True).determinize(b, copy=False)
        assert own.to_dict() == expected.to_dict() and own.d.legal == expected.d.legal
        assert a.bit_generator.state == b.bit_generator.state
