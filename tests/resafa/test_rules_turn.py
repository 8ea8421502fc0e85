"""Scenarios: playing a card, the colour action, provisions, held cards at any time, the hand limit, rounds."""

from __future__ import annotations

import numpy as np
import pytest
from resafa_scenario import (
    P0,
    P1,
    STONE,
    A,
    C,
    Step,
    bonus,
    card,
    empty_store,
    fresh,
    hold_bonus,
    hold_sack,
    play,
    set_cards,
    start,
    store,
    take_special,
)

from meeplezoo.envs.core import ConfigError
from meeplezoo.envs.resafa import ResafaGame
from meeplezoo.envs.resafa.content import Action, Colour
from meeplezoo.envs.resafa.state import NO, YELLOW0


def alpha(s, seat=P0):
    """Seat gets the alpha set: hand alpha-1..3, deck alpha-4..6 (alpha-6 on top)."""
    set_cards(s, seat, [card("alpha-1"), card("alpha-2"), card("alpha-3")], [card(f"alpha-{i}") for i in (4, 5, 6)])
    s.refresh()


def test_config_accepts_1_to_4_players_and_names_the_solo_mode():
    for n in (1, 2, 3, 4):
        assert ResafaGame(num_players=n).new_state(0).d.players == n
    for bad in (0, 5):
        with pytest.raises(ConfigError, match="1 \\(solo against Resafabot\\), 2, 3 or 4"):
            ResafaGame(num_players=bad)


def test_setup_deals_a_set_three_cards_two_workshops_and_a_bonus_display():
    s = ResafaGame(num_players=3).new_state(5)
    d = s.d
    sets = set()
    for seat in range(3):
        cards = d.hand[seat] + d.deck[seat]
        assert len(d.hand[seat]) == 3 and len(d.deck[seat]) == 3
        names = {C.action_cards[c].set for c in cards}
        assert len(names) == 1
        sets |= names
        assert sum(1 for t in d.ws_tile[seat * 25 : seat * 25 + 25] if t != NO) == 2
    assert len(sets) == 3  # one set per player, all different
    assert all(x != NO for x in d.bonus_display)
    assert [C.bonus_cards[x].colour for x in d.bonus_display] == [c for c in Colour for _ in range(3)]
    assert all(C.bonus_cards[x].level == 1 for x in d.bonus_display)
    assert d.spec_up == [1, 0, 0] * 4  # level I face up, levels II and III face down


def test_fourth_player_in_turn_order_starts_with_an_extra_stone_and_2_vp():
    s = ResafaGame(num_players=4).new_state(3)
    d = s.d
    fourth = (d.first + 3) % 4
    for seat in range(4):
        extra = seat == fourth
        assert d.vp[seat] == (2 if extra else 0)
        assert store(s, seat)[STONE] == C.setup.start_items.stone + (1 if extra else 0)


def test_orientation_chooses_main_action_and_colour_and_draw_follows():
    s = fresh()
    alpha(s)
    play(s, A.SLOT0 + 0)  # alpha-1: workshop/white | production/yellow
    play(s, A.HALF0 + 1)  # production on top
    assert (s.d.main, s.d.colour) == (Action.PRODUCTION, Colour.YELLOW)
    assert s.pending_step() == Step.ORDER
    assert set(s.legal_actions()) >= {A.MAIN_FIRST, A.COLOUR_FIRST}


def test_colour_action_first_then_the_main_action():
    s = fresh()
    alpha(s)
    empty = s.d.track[P0 * 4 + Colour.YELLOW]
    play(s, A.SLOT0 + 0, A.HALF0 + 1, A.COLOUR_FIRST)
    assert s.pending_step() == Step.COLOUR_OPT
    play(s, A.OPT0 + 1)  # step on the yellow track
    assert s.d.track[P0 * 4 + Colour.YELLOW] == empty + 1
    assert s.pending_step() == Step.PRODUCE  # then the main action


def test_main_action_impossible_leaves_only_the_colour_action():
    s = fresh()
    alpha(s)
    s.d.coins[P0] = 0
    # alpha-3 top: trade (blue); with no coin no camel move is affordable
    play(s, A.SLOT0 + 2, A.HALF0 + 0)
    assert s.legal_actions() == [A.COLOUR_FIRST]
    play(s, A.COLOUR_FIRST, A.OPT0 + 2)  # a sack card
    assert s.d.sack_hand[P0] and s.pending_step() != Step.TRADE_MOVE


def test_after_the_card_one_card_is_drawn_in_odd_rounds():
    s = fresh()
    alpha(s)
    top = s.d.deck[P0][-1]
    play(s, A.SLOT0 + 2, A.HALF0 + 1, A.MAIN_FIRST, A.OPT0 + 2)  # provisions: a sack card
    play(s, A.COLOUR_FIRST if A.COLOUR_FIRST in s.legal_actions() else s.legal_actions()[0])
    while s.current_player() == P0 and s.pending_step() != Step.PLAY_CARD:
        play(s, A.OPT0 + 2 if A.OPT0 + 2 in s.legal_actions() else s.legal_actions()[-1])
    assert top in s.d.hand[P0] and len(s.d.hand[P0]) == 3 and len(s.d.deck[P0]) == 2
    assert s.d.played[P0] == [card("alpha-3")]


def test_colour_action_three_options():
    s = fresh()
    start(s, Step.COLOUR_OPT, P0, Colour.PINK)
    assert s.legal_actions()[:3] == [A.OPT0, A.OPT0 + 1, A.OPT0 + 2]
    play(s, A.OPT0)  # a pink bonus card from the display
    assert s.legal_actions() == [A.SHOW0 + 9, A.SHOW0 + 10, A.SHOW0 + 11]
    picked = s.d.bonus_display[10]
    play(s, A.SHOW0 + 10)
    assert s.d.bonus_hand[P0] == [picked] and s.d.bonus_display[10] == NO


def test_provisions_offers_any_colour_bonus_card_any_track_or_a_sack_card():
    s = fresh()
    start(s, Step.MAIN_ACTION, P0, Action.PROVISIONS)
    assert s.pending_step() == Step.COLOUR_OPT
    play(s, A.OPT0)
    assert s.legal_actions() == [A.SHOW0 + i for i in range(12)]
    s2 = fresh()
    start(s2, Step.MAIN_ACTION, P0, Action.PROVISIONS)
    play(s2, A.OPT0 + 1)
    assert s2.legal_actions() == [A.COLOUR0 + c for c in range(4)]


def test_bonus_card_usable_in_the_middle_of_an_action():
    s = fresh()
    b = hold_bonus(s, P0, "bc-1-blue-1")  # build a canal, 1 coin off
    start(s, Step.MAIN_ACTION, P0, Action.PRODUCTION)
    assert s.pending_step() == Step.PRODUCE and A.USE_BONUS0 + b in s.legal_actions()
    play(s, A.USE_BONUS0 + b)
    assert s.pending_step() == Step.BUILD_OFFER and b not in s.d.bonus_hand[P0]
    play(s, A.PASS)
    assert s.pending_step() == Step.PRODUCE  # the production goes on


def test_sack_card_use_and_discard_for_one_vp():
    s = fresh()
    a = hold_sack(s, P0, "sack-01")  # 1 stone
    b = hold_sack(s, P0, "sack-02")
    stone = store(s, P0)[STONE]
    s.refresh()
    play(s, A.USE_SACK0 + a)
    assert store(s, P0)[STONE] == stone + 1 and a in s.d.sack_discard
    vp = s.d.vp[P0]
    play(s, A.DROP_SACK0 + b)
    assert s.d.vp[P0] == vp + 1 and b in s.d.sack_discard and not s.d.sack_hand[P0]


def test_hand_limit_counts_action_bonus_and_sack_cards_not_special_cards():
    s = fresh()
    alpha(s)
    for name in ("bc-1-blue-1", "bc-1-blue-2"):
        hold_bonus(s, P0, name)
    take_special(s, P0, "sp-blue-I-3")  # an instant special card: not counted
    hold_sack(s, P0, "sack-01")
    # 3 action + 2 bonus + 1 sack = 6 > 5 at the end of the turn
    start(s, Step.HAND_LIMIT, P0)
    legal = s.legal_actions()
    assert A.PASS not in legal
    assert A.DROP_BONUS0 + bonus("bc-1-blue-1") in legal
    play(s, A.DROP_BONUS0 + bonus("bc-1-blue-1"))
    assert A.PASS in s.legal_actions()  # 5 cards: the turn may end


def test_hand_limit_plus_one_from_a_permanent_blue_card():
    s = fresh()
    alpha(s)
    for name in ("bc-1-blue-1", "bc-1-blue-2", "bc-1-blue-3"):
        hold_bonus(s, P0, name)
    take_special(s, P0, "sp-blue-I-7")
    start(s, Step.HAND_LIMIT, P0)
    assert A.PASS in s.legal_actions()  # 6 cards, limit 6


def test_look_at_your_deck_reshuffles_it():
    s = fresh()
    alpha(s)
    assert A.LOOK in s.legal_actions()
    before = sorted(s.d.deck[P0])
    events = s.d.chance.events
    play(s, A.LOOK)
    assert sorted(s.d.deck[P0]) == before and s.d.chance.events == events + 1
    assert A.LOOK not in s.legal_actions()  # once per turn (a bound far above any use)


def test_round_end_refreshes_the_display_and_passes_the_start_player_left():
    s = fresh(players=3)
    d = s.d
    d.turns = 8
    old = list(d.bonus_display)
    start(s, Step.END_TURN, 2)
    assert d.round_no == 2 and d.first == 1 and d.active == 1 and s.current_player() == 1
    assert d.turns == 0
    assert all(x != NO and x not in old for x in d.bonus_display)


def test_even_round_end_collects_and_reshuffles_with_yellow_cards_first():
    s = fresh()
    d = s.d
    d.round_no = 2
    d.turns = 5
    y = take_special(s, P0, "sp-yellow-I-1")
    played = [card("alpha-2"), card("alpha-3"), card("alpha-4"), card("alpha-5"), card("alpha-6"), YELLOW0 + y]
    set_cards(s, P0, [], [], played)
    start(s, Step.END_TURN, P1)
    assert d.round_no == 3
    assert YELLOW0 + y in d.hand[P0] and len(d.hand[P0]) == 3 and len(d.deck[P0]) == 3 and not d.played[P0]
    assert d.ws_display[3:] != [NO, NO, NO]  # level II workshops open in round 3


def test_level_two_bonus_cards_from_round_four():
    s = fresh()
    d = s.d
    d.round_no = 3
    d.turns = 5
    start(s, Step.END_TURN, P1)
    assert d.round_no == 4 and all(C.bonus_cards[x].level == 2 for x in d.bonus_display)


def test_yellow_card_replaces_the_starting_card_with_the_same_actions_and_frees_the_colour():
    s = fresh()
    alpha(s)
    i = take_special(s, P0, "sp-yellow-I-1")  # workshop/production, like alpha-1
    s.d.spec_owner[i] = NO
    from meeplezoo.envs.resafa.tracks import take

    take(s.d, P0, 0, i)
    assert card("alpha-1") not in s.d.hand[P0] and YELLOW0 + i in s.d.hand[P0]
    assert len(s.d.hand[P0] + s.d.deck[P0] + s.d.played[P0]) == 6
    s.refresh()
    play(s, A.SLOT0 + s.d.hand[P0].index(YELLOW0 + i), A.HALF0 + 0)
    assert s.pending_step() == Step.CARD_COLOUR and s.legal_actions() == [A.COLOUR0 + c for c in range(4)]
    play(s, A.COLOUR0 + Colour.PINK)
    assert (s.d.main, s.d.colour) == (Action.WORKSHOP, Colour.PINK)


def test_yellow_level_two_card_chooses_the_main_action_too():
    s = fresh()
    alpha(s)
    i = take_special(s, P0, "sp-yellow-II-1")  # replaces workshop/production
    s.d.spec_owner[i] = NO
    from meeplezoo.envs.resafa.tracks import take

    take(s.d, P0, 1, i)
    s.refresh()
    play(s, A.SLOT0 + s.d.hand[P0].index(YELLOW0 + i), A.HALF0 + 1)
    assert s.pending_step() == Step.CARD_MAIN and s.legal_actions() == [A.MAIN0 + m for m in range(6)]
    play(s, A.MAIN0 + Action.GARDEN, A.COLOUR0 + Colour.BLUE)
    assert (s.d.main, s.d.colour) == (Action.GARDEN, Colour.BLUE)


def test_a_whole_game_has_six_rounds_of_three_cards_each():
    s = ResafaGame(num_players=2).new_state(11)
    rng = np.random.default_rng(0)
    plays = [0, 0]
    while not s.is_terminal():
        if s.pending_step() == Step.PLAY_CARD:
            legal = [a for a in s.legal_actions() if A.SLOT0 <= a < A.SLOT0 + 3]
            plays[s.current_player()] += 1
            s.apply(int(rng.choice(legal)))
        else:
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    assert plays == [18, 18] and s.d.round_no == 7 and s.d.sheet


def test_yellow_card_extra_effect_comes_with_its_main_action():
    s = fresh()
    alpha(s)
    i = take_special(s, P0, "sp-yellow-I-1")  # workshop half: +1 coin with the main action
    s.d.spec_owner[i] = NO
    from meeplezoo.envs.resafa.tracks import take

    take(s.d, P0, 0, i)
    s.refresh()
    coins = s.d.coins[P0]
    play(s, A.SLOT0 + s.d.hand[P0].index(YELLOW0 + i), A.HALF0 + 0, A.COLOUR0 + Colour.BLUE, A.MAIN_FIRST)
    play(s, A.WS0, A.FACE0, A.CELL0)
    while s.pending_step() == Step.WS_ROT:
        play(s, A.ROT0)
    assert s.d.coins[P0] == coins - 1 + 1  # paid 1 for the workshop, the extra gave 1 back
    s2 = fresh()
    alpha(s2)
    s2.d.coins[P0] = 0
    hand_index = s2.d.hand[P0].index(card("alpha-1"))
    play(s2, A.SLOT0 + hand_index, A.HALF0 + 0, A.COLOUR_FIRST)  # starting card: no extra effect
    assert s2.d.coins[P0] == 0


def test_cards_usable_in_the_middle_of_loading_and_dealing():
    """Seed: bonus and sack cards "istediği sayıda, aksiyonların ortasında bile". With an empty storehouse a
    sack card used while loading in Resafa gives the stone that is then loaded; the deal's count and the
    orientation of the card also offer the held cards."""
    from meeplezoo.envs.resafa.state import CITY

    s = fresh()
    d = s.d
    empty_store(s, P0)
    a = hold_sack(s, P0, "sack-01")  # 1 stone
    b = hold_sack(s, P0, "sack-02")
    d.camel_at[P0], d.coins[P0] = CITY, 5
    d.camel_item[P0], d.camel_load[P0] = NO, 0
    start(s, Step.TRADE_MOVE, P0)
    play(s, next(x for x in s.legal_actions() if A.MOVE0 <= x < A.ITEM0))  # out of Resafa: loading first
    assert s.pending_step() == Step.LOAD_ITEM
    assert s.legal_actions() == sorted([A.PASS, A.USE_SACK0 + a, A.USE_SACK0 + b, A.DROP_SACK0 + a, A.DROP_SACK0 + b])
    play(s, A.USE_SACK0 + a)
    assert s.pending_step() == Step.LOAD_ITEM and A.ITEM0 + STONE in s.legal_actions()
    play(s, A.ITEM0 + STONE, A.COUNT0)
    assert (d.camel_item[P0], d.camel_load[P0]) == (STONE, 1) and store(s, P0)[STONE] == 0


def test_cards_offered_when_orienting_the_card_but_not_inside_a_paid_placement():
    s = fresh()
    a = hold_sack(s, P0, "sack-01")
    s.refresh()
    play(s, A.SLOT0)
    assert s.pending_step() == Step.ORIENT and A.USE_SACK0 + a in s.legal_actions()
    start(s, Step.WS_CELL, P0, 0, 0)  # a workshop already paid for: its placement is one move
    assert all(x < A.CARD_USE_FIRST for x in s.legal_actions())
