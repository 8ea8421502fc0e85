"""The fifth round's fast paths give exactly what the code they replaced gives, on positions reached by legal play:
the heuristic's move through a view (its last trial played on its own copy), its turn played out on a trial copy
(the Architect's destination taken from the pick), the observation, the public copy, a move's cost, the price
table and the Mercator's and a turn's legal actions (``concordia_engine_reference`` and ``concordia_reference``
hold the code as it was)."""

from __future__ import annotations

import concordia_engine_reference as old
import concordia_reference as ref
import numpy as np
import pytest
from test_concordia_fast_paths import CONFIGS, positions

from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.concordia import ConcordiaGame
from meeplezoo.envs.concordia import heuristic as fast
from meeplezoo.envs.concordia.architect import move_cost
from meeplezoo.envs.concordia.content import CARDS, COLONISTS, FORUM_SIZE, NUM_GOODS
from meeplezoo.envs.concordia.forum import _PRICES, CONSUL, SENATOR, price
from meeplezoo.envs.concordia.mercator import legal as mercator_legal
from meeplezoo.envs.concordia.personalities import legal_main
from meeplezoo.envs.concordia.state import BOARDS, CODEC
from meeplezoo.envs.concordia.steps import Step
from meeplezoo.envs.concordia.turn import apply_action

IDS = [f"{c['num_players']}p-{c.get('map', 'italia')}" for c in CONFIGS]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_agent_acts_through_a_view_as_the_reference_chooses(config: dict) -> None:
    reference = ref.ReferenceAgent()
    agent = fast.ConcordiaHeuristicAgent()
    cards = 0
    for state in positions(config, 21):
        if state.is_terminal():
            continue
        seat = state.current_player()
        view = view_of_state(state, seat)
        expected = reference.choose(state.public_copy(seat))
        assert agent.act(view) == expected
        assert agent.act(view) == expected  # the view's public state is not used up by the first call
        cards += state.d.stack[-1][0] in (Step.MAIN, Step.DIPLOMAT) and len(state.d.legal) > 1
    assert cards > 20


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_turn_played_on_a_trial_copy_is_the_reference_turn_and_leaves_the_position(config: dict) -> None:
    turns = moves = 0
    for state in positions(config, 22, every=2):
        if state.is_terminal():
            continue
        d = state.public_copy(state.current_player()).d
        seat = d.stack[-1][1]
        before = CODEC.to_dict(d)
        for action in d.legal:
            trial = fast._trial_copy(d, seat)
            assert CODEC.to_dict(trial) == before and trial.legal == d.legal
            theirs = CODEC.clone(d)
            apply_action(trial, action)
            apply_action(theirs, action)
            fast.finish_turn(trial, seat)
            ref.finish_turn(theirs, seat)
            assert CODEC.to_dict(trial) == CODEC.to_dict(theirs) and trial.legal == theirs.legal
            assert fast.evaluate(trial, seat) == ref.evaluate(theirs, seat)
            turns += 1
            cb = seat * COLONISTS
            moves += trial.col[cb : cb + COLONISTS] != d.col[cb : cb + COLONISTS]  # colonists moved or placed
        assert CODEC.to_dict(d) == before  # the trials changed nothing of the position they started from
    assert turns > 300 and moves > 10


def test_evaluate_beyond_the_goods_table_matches_the_reference() -> None:
    state = ConcordiaGame(num_players=3).new_state(5)
    d = state.d
    for g in range(NUM_GOODS):
        for have in (fast._TERMS - 1, fast._TERMS, fast._TERMS + 7):
            e = CODEC.clone(d)
            e.goods[NUM_GOODS + g] = have
            assert fast.evaluate(e, 1) == ref.evaluate(e, 1)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_observations_match_the_reference(config: dict) -> None:
    checked = 0
    for state in positions(config, 23, every=3):
        d = state.d
        for viewer in range(d.n):
            assert np.array_equal(state.observe(viewer), old.observe(d, viewer))
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("config", CONFIGS[2:], ids=IDS[2:])
def test_the_public_copy_is_the_reference_copy(config: dict) -> None:
    checked = 0
    for state in positions(config, 24, every=10):
        for scramble in (False, True):
            if scramble:  # bands out of order (no play gives that; a loaded position may)
                state = state.clone()
                np.random.default_rng(len(state.d.deck)).shuffle(state.d.deck)
            for seat in range(state.d.n):
                mine, theirs = state.public_copy(seat), old.public_copy(state, seat)
                assert CODEC.to_dict(mine.d) == CODEC.to_dict(theirs.d) and mine.d.legal == theirs.d.legal
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_legal_actions_match_the_reference(config: dict) -> None:
    for state in positions(config, 25, every=2):
        d = state.d
        for s in range(d.n):
            assert legal_main(d, s, 0, 0) == old.legal_main(d, s, 0, 0)
            for mask in (0, 1, 6, 31):
                for done in (0, 1, 2):
                    assert mercator_legal(d, s, mask, done) == old.mercator_legal(d, s, mask, done)


def test_move_costs_and_prices_match_the_reference() -> None:
    for board, m in enumerate(BOARDS):
        d = ConcordiaGame(num_players=3, map=m.name).new_state(1).d
        assert d.board == board
        for i in (0, COLONISTS - 1):
            for pos, moves in enumerate(m.moves_land if i == 0 else m.moves_sea):
                for _, r in moves:
                    assert move_cost(d, i, pos, r) == old.move_cost(d, i, pos, r)
                with pytest.raises(ValueError):
                    move_cost(d, i, pos, m.num_routes)  # no such route
    for mode in (CONSUL, SENATOR):
        for slot in range(FORUM_SIZE):
            for card in range(len(CARDS)):
                fixed, n_any = price(card, slot, mode)
                assert _PRICES[mode][slot][card] == (tuple(fixed), n_any)
