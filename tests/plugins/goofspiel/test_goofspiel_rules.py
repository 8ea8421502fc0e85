"""Goofspiel's rules, one scenario per rule (``rules.md``), through the engine's public verbs; the generic checks
(API, saves, clones, determinize, no leak) are MeepleZoo's conformance suite, which plays this game too."""

from __future__ import annotations

import json

import numpy as np
import pytest
from meeplezoo_goofspiel.game import GoofspielGame, GoofspielState
from meeplezoo_goofspiel.heuristic import GreedyAgent, MatchAgent, estimate_scores, greedy_bid

from meeplezoo.agents import view_of_state
from meeplezoo.envs.core import ConfigError, CorruptStateError, IllegalActionError


def bid(state: GoofspielState, *cards: int) -> GoofspielState:
    """Each seat to act in turn bids the next of ``cards``."""
    for card in cards:
        state.apply(card - 1)
    return state


def test_setup_deals_every_seat_the_cards_and_turns_up_one_prize():
    state = GoofspielGame(num_players=3, cards=5).new_state(seed=11)
    d = state.d
    assert d.hands == [[1, 2, 3, 4, 5]] * 3 and d.bids == [0, 0, 0]
    assert sorted([*d.deck, d.prize]) == [1, 2, 3, 4, 5] and len(d.deck) == 4
    assert state.current_player() == 0 and state.legal_actions() == [0, 1, 2, 3, 4]


def test_the_single_highest_bid_wins_the_prize_and_bid_cards_are_spent():
    state = GoofspielGame(num_players=3, cards=5).new_state(seed=1)
    prize = state.d.prize
    bid(state, 2, 5, 4)
    assert state.d.points == [0, prize, 0] and state.d.prizes == [prize]
    assert state.d.hands == [[1, 3, 4, 5], [1, 2, 3, 4], [1, 2, 3, 5]]
    assert state.d.played == [[2], [5], [4]] and state.d.bids == [0, 0, 0]
    with pytest.raises(IllegalActionError):
        state.apply(1)  # P0 spent its 2


def test_a_tie_for_the_highest_bid_discards_the_prize_even_over_a_lower_single_bid():
    state = GoofspielGame(num_players=3, cards=5).new_state(seed=2)
    prize = state.d.prize
    bid(state, 4, 4, 1)
    assert state.d.points == [0, 0, 0] and state.d.prizes == [prize]
    assert prize not in [*state.d.deck, state.d.prize]  # the prize is gone


def test_after_every_card_is_bid_the_highest_total_wins():
    game = GoofspielGame(num_players=2, cards=3)
    state = bid(game.new_state(seed=5), 3, 1, 2, 2, 1, 3)  # P0 wins round 1; round 2 tied; P1 wins round 3
    first, _, third = state.d.prizes
    assert state.is_terminal() and state.pending() == "game over" and state.current_player() == -1
    assert state.scores() == [float(first), float(third)]
    assert state.ranks() == ([0, 1] if first > third else [1, 0])


def test_a_later_bidder_sees_nothing_of_the_earlier_bids_until_all_have_bid():
    game = GoofspielGame(num_players=3, cards=4)
    start = game.new_state(seed=3)
    seen, named = set(), set()
    for card in (1, 2, 3, 4):
        state = bid(start.clone(), card)
        seen.add(state.observe(1).tobytes() + state.observe(2).tobytes() + state.render().encode())
        named.add(start.public_action_name(card - 1, 1))
    assert len(seen) == 1 and named == {"bid a card face down"}
    assert start.public_action_name(2, 0) == start.public_action_name(2, None) == "bid 3"
    last = bid(start.clone(), 1, 2)
    assert last.public_action_name(3, 0) == "bid 4"  # the last bid of a round is revealed at once
    revealed = {bid(start.clone(), card, 1, 1).observe(1).tobytes() for card in (2, 3, 4)}
    assert len(revealed) == 3  # once revealed, P0's bid is in everyone's observation


def test_the_prize_order_and_face_down_bids_are_resampled_and_their_canonical_copy_is_one():
    state = bid(GoofspielGame(num_players=2, cards=8).new_state(seed=4), 5)
    rng = np.random.default_rng(0)
    copies = [state.determinize(1, rng) for _ in range(20)]
    assert all(np.array_equal(c.observe(1), state.observe(1)) for c in copies)
    assert len({tuple(c.d.deck) for c in copies}) > 1 and len({c.d.bids[0] for c in copies}) > 1
    assert all(sorted([*c.d.hands[0], c.d.bids[0]]) == [1, 2, 3, 4, 5, 6, 7, 8] for c in copies)
    assert {json.dumps(c.public_copy(1).to_dict()) for c in copies} == {json.dumps(state.public_copy(1).to_dict())}
    assert state.determinize(0, rng).d.bids[0] == 5  # a seat keeps its own bid


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda s: s["points"].__setitem__(0, s["points"][0] + 1), "points"),
        (lambda s: s["hands"][1].append(s["hands"][1][0]), "P1's hand"),
        (lambda s: s["deck"].append(s["deck"][0]), "prize cards"),
        (lambda s: s.update(bids=[0, 3], hands=[[1, 2, 3, 4, 5], [1, 2, 4, 5]]), "seats bid in order"),
        (lambda s: s["stack"].pop(), "task stack"),
    ],
)
def test_a_save_that_breaks_a_rule_is_refused_naming_it(edit, problem):
    game = GoofspielGame(num_players=2, cards=5)
    state = game.new_state(seed=6)
    data = state.to_dict()
    edit(data)
    with pytest.raises(CorruptStateError, match=problem):
        game.state_from_dict(data)


@pytest.mark.parametrize(("key", "value"), [("cards", 2), ("cards", 14), ("num_players", 5), ("cards", True)])
def test_a_config_out_of_its_range_is_refused_in_one_line(key, value):
    with pytest.raises(ConfigError, match=rf"goofspiel: {key} must be an int in \[\d+, \d+\], not {value!r}"):
        GoofspielGame(**{key: value})


def last_but_one_round(prize: int) -> GoofspielState:
    """Prizes 2-5 played (P1 won 3 and 4, 2 and 5 tied); ``prize`` (6 or 1) face up, the other left; P0 holds
    3 and 5, P1 holds 2 and 4."""
    game = GoofspielGame(num_players=2, cards=6)
    data = {
        "chance": {"seed": 0, "events": 1},
        "stack": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]],
        "deck": [7 - prize],
        "prize": prize,
        "hands": [[3, 5], [2, 4]],
        "bids": [0, 0],
        "played": [[1, 2, 4, 6], [1, 3, 5, 6]],
        "prizes": [2, 3, 4, 5],
        "points": [0, 7],
    }
    return game.state_from_dict(data)


def test_greedy_wins_a_high_prize_as_cheaply_as_is_sure_and_throws_its_lowest_card_at_a_low_one():
    assert greedy_bid(last_but_one_round(6), 0) == 5  # P1 may still bid 4
    assert greedy_bid(last_but_one_round(1), 0) == 3
    assert GreedyAgent(seed=0).act(view_of_state(last_but_one_round(6), 0)) == 4  # the action bidding 5
    assert GreedyAgent(seed=0).choose(last_but_one_round(1)) == 2


def test_match_bids_the_card_equal_to_the_prize():
    state = GoofspielGame(num_players=3, cards=7).new_state(seed=8)
    while not state.is_terminal():
        prize = state.d.prize
        action = MatchAgent(seed=0).act(view_of_state(state, state.current_player(), determinize=False))
        assert action == prize - 1
        state.apply(action)


def test_the_search_estimate_is_the_points_plus_a_share_of_the_prizes_to_come():
    state = last_but_one_round(6)
    assert estimate_scores(state) == pytest.approx([0 + 7 * 8 / 14, 7 + 7 * 6 / 14])
    state.apply(4)  # 5 against P1's 4 wins the 6; the last round is 3 against 2 for the 1
    state.apply(3)
    bid(state, 3, 2)
    assert state.is_terminal() and estimate_scores(state) == state.scores() == [7.0, 7.0]
