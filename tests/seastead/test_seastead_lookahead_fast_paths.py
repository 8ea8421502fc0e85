"""The heuristic's lookahead fast paths against the code they replace, on positions reached by legal play.

* :func:`~meeplezoo.envs.seastead.turn.apply_to_look` (a candidate played without listing the legal actions
  of a decision that always has some) reaches the position the engine's ``apply`` reaches;
* Seastead's ``public_copy`` and ``determinize`` (no re-reading of the legal actions, the stacked dive deck
  arranged by slices) give the engine defaults' copies and draws;
* the heuristic (a disposable view's public copy determinized in place, layouts shared by the candidates
  that leave the board alone) chooses as ``seastead_heuristic_reference.py`` does, with the same draws.
"""

from __future__ import annotations

import numpy as np
import pytest
from seastead_heuristic_reference import ReferenceHeuristic
from test_seastead_fast_paths import CONFIGS, positions, reference_resample

from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.core.tasks import StackState
from meeplezoo.envs.seastead.heuristic import SeasteadHeuristicAgent, _SameBoard, evaluate
from meeplezoo.envs.seastead.turn import ALWAYS_OPEN, apply_to_look

IDS = [str(c) for c in CONFIGS]


def _seats(s) -> range:
    return range(s.game.num_players)


@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=IDS)
def test_apply_to_look_reaches_the_engines_position(config_index: int) -> None:
    stopped = 0
    for s in positions(config_index)[::2]:
        for action in s.legal_actions():
            full, look = s.clone(), s.clone()
            full.apply(action)
            apply_to_look(look.d, action)
            assert look.to_dict() == full.to_dict()
            if look.d.legal != full.d.legal:  # stopped at a decision that has legal actions, unlisted
                assert look.d.legal == () and full.d.legal and full.pending_step() in ALWAYS_OPEN
                stopped += 1
    assert stopped > 0


@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=IDS)
def test_public_copy_and_determinize_equal_the_engine_defaults(config_index: int) -> None:
    for i, s in enumerate(positions(config_index)[::2]):
        if s.is_terminal():
            continue
        for seat in _seats(s):
            fast, slow = s.public_copy(seat), StackState.public_copy(s, seat)
            assert fast.to_dict() == slow.to_dict() and fast.d.legal == slow.d.legal
            rng_fast, rng_slow = np.random.default_rng(i), np.random.default_rng(i)
            fast_det, slow_det = fast.determinize(seat, rng_fast), StackState.determinize(slow, seat, rng_slow)
            assert fast_det.to_dict() == slow_det.to_dict() and fast_det.d.legal == slow_det.d.legal
            assert rng_fast.bit_generator.state == rng_slow.bit_generator.state


def test_resampling_a_hand_set_unstacked_dive_deck_takes_the_general_path() -> None:
    """A deck whose bands are not stacked (set up by hand) is arranged as ``arrange_bands`` does."""
    for i, s in enumerate(positions(0)[:40]):
        fast, slow = s.clone(), s.clone()
        fast.d.dive_deck.reverse()  # Shallows at the bottom: not the setup's stacking
        slow.d.dive_deck.reverse()
        rng_fast, rng_slow = np.random.default_rng(i), np.random.default_rng(i)
        fast.resample_hidden(0, rng_fast)
        reference_resample(slow.d, rng_slow)
        assert fast.to_dict() == slow.to_dict()
        assert rng_fast.bit_generator.state == rng_slow.bit_generator.state


@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=IDS)
def test_shared_layouts_evaluate_as_from_scratch(config_index: int) -> None:
    shared = 0
    for s in positions(config_index)[::3]:
        if s.is_terminal():
            continue
        board = _SameBoard(s.d)
        me = s.current_player()
        assert board.evaluate(s.d, me) == evaluate(s.d, me)
        for action in s.legal_actions():
            after = s.clone()
            after.apply(action)
            assert board.evaluate(after.d, me) == evaluate(after.d, me)
            d, before = after.d, s.d
            shared += d.loc_owner == before.loc_owner and d.loc_bld == before.loc_bld and d.dock_at == before.dock_at
    assert shared > 0


@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=IDS)
def test_the_heuristic_chooses_as_the_reference_with_the_same_draws(config_index: int) -> None:
    fast, slow = SeasteadHeuristicAgent(seed=config_index), ReferenceHeuristic(seed=config_index)
    for s in positions(config_index)[::2]:
        if s.is_terminal():
            continue
        seat = s.current_player()
        view = view_of_state(s, seat, disposable=bool(seat))  # seat 1's: handed over, not cloned
        assert fast.act(view) == slow.act_on(s, seat)
        assert fast.rng.bit_generator.state == slow.rng.bit_generator.state
        # the rollout policy of IS-MCTS (no copy of its own to consume)
        assert fast.choose(s.clone()) == slow.choose(s.clone())
