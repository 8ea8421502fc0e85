"""Setup, the preparation round, the Resource Phase, hand limits, reshuffles, rounds and the action cap."""

from __future__ import annotations

import pytest
from royale_scenario import (
    P0,
    P1,
    P2,
    action_phase,
    begin_turn,
    card_a,
    craft_a,
    deck_top,
    fresh,
    give_item,
    hand,
    item_a,
    pending,
    seat_a,
    set_hand,
)

from meeplezoo.envs.board_royale import BoardRoyaleGame
from meeplezoo.envs.board_royale.actions import DRAW, PASS
from meeplezoo.envs.board_royale.content import CARD_TYPE, ESCAPE_CARDS, KIND_COUNTS, NUM_ITEM_CARDS, RULES
from meeplezoo.envs.board_royale.state import NO
from meeplezoo.envs.board_royale.steps import Step
from meeplezoo.envs.core import ConfigError


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_start_player_hands_field(n):
    """Players draw until someone draws Gold, who starts; those cards are discarded; 5 cards each; 4 items
    face up; hidden items are shuffled into the Resource Deck only after the deal."""
    for seed in range(5):
        s = BoardRoyaleGame(num_players=n).new_state(seed)
        d = s.d
        drawn = sum(d.res_discard)
        assert d.res_discard[4] == 1 and sum(d.res_discard[5:]) == 0
        assert d.first_player == (drawn - 1) % n
        assert pending(s) == (Step.PREP, d.first_player)
        for seat in range(n):
            want = RULES.starting_hand + (RULES.draw if seat == d.first_player else 0)
            assert sum(hand(d, seat)) >= RULES.starting_hand and sum(hand(d, seat)[:5]) >= 5
            assert sum(hand(d, seat)) == want
        assert len([c for c in d.field if c != NO]) == 4
        assert len(d.res_deck) == 140 + sum(KIND_COUNTS[5:]) - drawn - 5 * n - 2


def test_config_is_checked():
    for bad in ({"num_players": 1}, {"num_players": 7}, {"num_players": 2.0}, {"elimination_only": "yes"}, {"x": 1}):
        with pytest.raises(ConfigError):
            BoardRoyaleGame(**bad)


def test_elimination_only_removes_the_escape_cards():
    """ "Sadece Eleme Modu (Elimination Only): Eşya Destesinden Kaçış kartları çıkarılır." """
    s = BoardRoyaleGame(num_players=3, elimination_only=True).new_state(0)
    d = s.d
    cards = d.item_deck + d.field
    assert len(cards) == NUM_ITEM_CARDS - len(ESCAPE_CARDS)
    assert not any(CARD_TYPE[c].category == "escape" for c in cards)


def test_resource_phase_offers_draw_or_steal_from_each_living_opponent():
    s = fresh(3)
    d = s.d
    for seat in (P0, P1, P2):
        set_hand(d, seat, food=3)
    d.alive[P2] = 0
    d.elim_rank[P2] = 2
    set_hand(d, P2, food=0)
    begin_turn(s, P0)
    assert s.legal_actions() == [DRAW, seat_a(P1)]


def test_a_thief_with_a_full_hand_discards_before_stealing():
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=20)
    set_hand(d, P1, gold=3)
    begin_turn(s, P0)
    s.apply(seat_a(P1))
    assert pending(s) == (Step.HAND_DISCARD, P0) and s.legal_actions() == [card_a("food")]
    s.apply(card_a("food"))
    s.apply(PASS)  # P1 does not answer
    assert hand(d, P0)[:5] == [19, 0, 0, 0, 1] and sum(hand(d, P0)) == 20


def test_an_empty_resource_deck_reshuffles_its_discard_pile():
    """ "Kaynak Destesi veya Eşya Destesi tükenirse, ilgili Çöp Yığını karıştırılarak yeni bir deste
    oluşturulur." """
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=3)
    set_hand(d, P1, food=3)
    pile = d.res_deck
    d.res_discard = [pile.count(k) for k in range(8)]
    for k in range(8):
        d.res_discard[k] -= 1 if k == 3 else 0
    d.res_deck = [3]  # one Iron left on the deck
    begin_turn(s, P0)
    s.apply(DRAW)
    assert hand(d, P0)[3] >= 1 and sum(hand(d, P0)) == 5
    assert sum(d.res_discard) == 0 and len(d.res_deck) == 140 + 9 - 6 - 1 - 1
    s.validate()


def test_an_empty_item_deck_reshuffles_its_discard_pile():
    s = fresh(2)
    d = s.d
    set_hand(d, P0, wood=9)
    set_hand(d, P1, food=3)
    d.item_discard = d.item_deck
    d.item_deck = []
    crafted = d.field[0]
    cost = CARD_TYPE[crafted].craft
    set_hand(d, P0, food=cost[0] + 1, wood=cost[1], stone=cost[2], iron=cost[3], gold=cost[4])
    action_phase(s, P0)
    s.apply(craft_a(0))
    assert d.item_owner[crafted] == P0 and d.field[0] != NO and d.item_discard == []
    s.validate()


def test_rounds_reset_per_round_uses_and_skip_eliminated_seats():
    s = fresh(3)
    d = s.d
    for seat in (P0, P1, P2):
        set_hand(d, seat, food=5, wood=2)
    rod = give_item(d, P0, "Fishing Rod")
    d.alive[P1] = 0
    d.elim_rank[P1] = 2
    set_hand(d, P1, food=0)
    begin_turn(s, P0)
    s.apply(DRAW)
    s.apply(item_a(rod))
    assert d.item_used[rod] == 1  # uses are counted (public) for the round
    s.apply(PASS)
    assert pending(s) == (Step.RESOURCE, P2) and d.round_no == 1
    s.apply(DRAW)
    s.apply(PASS)
    assert pending(s) == (Step.RESOURCE, P0) and d.round_no == 2 and d.item_used[rod] == 0


def test_only_an_engine_safety_bound_limits_a_turn():
    """No rule caps actions (seed FAQ: "Herhangi bir aksiyon sayısı sınırı yoktur"); the engine ends a turn
    only after RULES.max_decisions_per_turn decisions, far above real play (docs/rules/board_royale.md)."""
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=20)
    set_hand(d, P1, food=5)
    action_phase(s, P0)
    d.turn_decisions = 24  # the old cap of 24 actions no longer binds
    s.refresh()
    assert len(s.legal_actions()) > 1
    d.turn_decisions = RULES.max_decisions_per_turn
    s.refresh()
    assert s.legal_actions() == [PASS]
    assert RULES.max_decisions_per_turn >= 1000


def test_the_deck_top_helper_controls_draws():
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=3)
    set_hand(d, P1, food=3)
    deck_top(d, "deadfall", "gold")
    begin_turn(s, P0)
    s.apply(DRAW)
    assert hand(d, P0) == [3, 0, 0, 0, 1, 0, 0, 1]
