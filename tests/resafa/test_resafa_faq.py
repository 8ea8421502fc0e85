"""One scenario (at least) per answer of the seed's FAQ ("Sık Sorulan Sorular"), in the seed's order."""

from __future__ import annotations

import numpy as np
from resafa_scenario import (
    MARBLE,
    P0,
    P1,
    SPICE,
    STONE,
    A,
    C,
    Step,
    card,
    fresh,
    give,
    hold_bonus,
    hold_sack,
    play,
    set_cards,
    start,
    store,
    take_special,
)

from meeplezoo.envs.resafa import ResafaGame
from meeplezoo.envs.resafa.content import Colour
from meeplezoo.envs.resafa.scoring import final_scoring
from meeplezoo.envs.resafa.state import CATEGORIES, YELLOW0


def test_faq1_three_cards_a_round_draw_in_odd_rounds_reshuffle_with_yellow_first():
    s = ResafaGame(num_players=2).new_state(4)
    rng = np.random.default_rng(4)
    sizes = {}
    while not s.is_terminal() and s.d.round_no <= 3:
        legal = s.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        if s.pending_step() == Step.PLAY_CARD and A.SLOT0 <= action < A.SLOT0 + 3:
            seat = s.current_player()
            sizes.setdefault((s.d.round_no, seat), []).append((len(s.d.hand[seat]), len(s.d.deck[seat])))
        s.apply(action)
    for seat in (0, 1):
        assert sizes[(1, seat)] == [(3, 3), (3, 2), (3, 1)]  # odd round: a card drawn after each card
        assert sizes[(2, seat)] == [(3, 0), (2, 0), (1, 0)]  # even round: the 3 cards left, no draw
        assert sizes[(3, seat)][0] == (3, 3)  # after round 2: all 6 gathered, reshuffled, 3 drawn


def test_faq1_yellow_cards_go_to_hand_first_at_the_reshuffle():
    s = fresh()
    d = s.d
    d.round_no, d.turns = 4, 5
    y1 = take_special(s, P0, "sp-yellow-I-1")
    y2 = take_special(s, P0, "sp-yellow-I-2")
    played = [YELLOW0 + y1, YELLOW0 + y2] + [card(f"alpha-{i}") for i in (3, 4, 5, 6)]
    set_cards(s, P0, [], [], played)
    start(s, Step.END_TURN, P1)
    assert d.round_no == 5 and {YELLOW0 + y1, YELLOW0 + y2} <= set(d.hand[P0]) and len(d.hand[P0]) == 3


def test_faq2_level_two_workshop_needs_round_three_and_two_tokens_and_costs_like_level_one():
    s = fresh()
    d = s.d
    d.round_no = 3
    d.ws_display[3:] = [d.ws_decks[1].pop() for _ in range(3)]
    start(s, Step.WS_PICK, P0)
    assert not {A.WS0 + 3, A.WS0 + 4, A.WS0 + 5} & set(s.legal_actions())  # no merchant tokens yet
    d.stack.pop()
    d.gate[P0] = 2
    d.tokens[1] -= 2
    d.scarabs[P0] = 2
    start(s, Step.WS_PICK, P0)
    coins, stone = d.coins[P0], store(s, P0)[STONE]
    play(s, A.WS0 + 5)
    assert (d.coins[P0], store(s, P0)[STONE]) == (coins - 1, stone - 1)


def test_faq3_water_tank_needs_both_conditions_and_at_most_two():
    from meeplezoo.envs.resafa.canals import tank_allowed

    s = fresh()
    d = s.d
    assert not tank_allowed(d, P0)
    d.gardens_done[P0] = 2
    assert not tank_allowed(d, P0)
    d.gardens_done[P0], d.post_owner[4] = 1, P0
    assert not tank_allowed(d, P0)
    d.gardens_done[P0] = 2
    assert tank_allowed(d, P0)
    assert sum(t.back is not None for t in C.canal_tiles) == 2  # only two tiles have a tank back


def test_faq4_one_kind_on_the_camel_up_to_capacity_and_buy_or_sell_not_both():
    from test_rules_trade import GERASA, at_gerasa

    s = fresh()
    d = s.d
    at_gerasa(s, side=0)  # stone
    d.coins[P0] = 10
    give(s, P0, marble=1)
    start(s, Step.TRADE_MOVE, P0)
    play(s, A.MOVE0 + 2 * GERASA + 1, A.ITEM0 + MARBLE, A.COUNT0)  # marble aboard
    assert A.BUY not in s.legal_actions()  # stone cannot join the marble
    s2 = fresh()
    at_gerasa(s2, side=0)
    s2.d.coins[P0] = 10
    start(s2, Step.TRADE_MOVE, P0)
    play(s2, A.MOVE0 + 2 * GERASA + 1, A.PASS, A.BUY)
    assert max(x for x in s2.legal_actions() if x != A.USE) == A.COUNT0 + 1  # capacity 2 (USE: gold bonus first)
    play(s2, A.COUNT0 + 1)
    assert s2.pending_step() == Step.POST_BOX  # no second deal


def test_faq5_production_goes_to_the_storehouse_bought_goods_to_the_camel():
    from test_rules_trade import GERASA, tile

    s = fresh()
    d = s.d
    d.trade_tile[GERASA], d.trade_side[GERASA] = tile("tt-blue-3"), 0  # spice: buy 2
    d.coins[P0] = 10
    spice = store(s, P0)[SPICE]
    start(s, Step.TRADE_MOVE, P0)
    play(s, A.MOVE0 + 2 * GERASA + 1, A.PASS, A.BUY, A.COUNT0)
    while s.pending_step() != Step.PLAY_CARD:
        play(s, A.PASS if A.PASS in s.legal_actions() else s.legal_actions()[0])
    assert store(s, P0)[SPICE] == spice and (d.camel_item[P0], d.camel_load[P0]) == (SPICE, 1)
    # back through Resafa the cargo goes to the storehouse and can be loaded again
    d.coins[P0] = 1
    start(s, Step.TRADE_MOVE, P0)
    play(s, A.MOVE0 + 2 * GERASA + 1)
    assert store(s, P0)[SPICE] == spice + 1 and d.coins[P0] == 0


def test_faq6_hand_limit_five_special_cards_excluded_sack_discard_one_vp():
    s = fresh()
    d = s.d
    set_cards(s, P0, [card("alpha-1"), card("alpha-2"), card("alpha-3")], [card(f"alpha-{i}") for i in (4, 5, 6)])
    hold_bonus(s, P0, "bc-1-white-1")
    hold_sack(s, P0, "sack-03")
    hold_sack(s, P0, "sack-04")
    take_special(s, P0, "sp-white-I-5")
    start(s, Step.HAND_LIMIT, P0)
    assert A.PASS not in s.legal_actions()  # 3 + 1 + 2 = 6 cards
    vp = d.vp[P0]
    play(s, A.DROP_SACK0 + d.sack_hand[P0][0])
    assert d.vp[P0] == vp + 1 and A.PASS in s.legal_actions()


def test_faq7_level_limits_and_only_the_current_level_deck():
    s = fresh()
    d = s.d
    t = P0 * 4
    d.track[t + Colour.BLUE], d.track[t + Colour.WHITE], d.track[t + Colour.YELLOW] = 5, 5, 4
    start(s, Step.TRACK_PICK, P0)
    assert A.COLOUR0 + Colour.YELLOW not in s.legal_actions()  # only two tracks at level II
    assert A.COLOUR0 + Colour.PINK in s.legal_actions()  # pink has no limit
    play(s, A.COLOUR0 + Colour.BLUE)  # 5 -> 6: no card space
    assert s.pending_step() == Step.PLAY_CARD


def test_faq8_face_up_card_with_bonus_or_search_without_and_next_level_revealed():
    s = fresh()
    d = s.d
    d.round_no = 6
    k = Colour.BLUE * 3
    start(s, Step.SPECIAL, P0, k)
    vp, coins = d.vp[P0], d.coins[P0]
    play(s, A.TAKE_TOP)
    assert (d.vp[P0] - vp, d.coins[P0] - coins) == (1, 1) and d.spec_up[k + 1] == 1
    s2 = fresh()
    d2 = s2.d
    start(s2, Step.SPECIAL, P0, k)
    vp, coins = d2.vp[P0], d2.coins[P0]
    play(s2, A.SEARCH, A.PICK0)
    assert (d2.vp[P0] - vp, d2.coins[P0] - coins) == (0, 0) and d2.spec_up[k + 1] == 1


def test_faq9_green_bonus_only_when_a_garden_is_placed_not_when_a_workshop_comes_later():
    from test_resafa_rules_build import place_ws

    s = fresh()
    d = s.d
    start(s, Step.GARDEN_POS, P0, 0, 1 * 5 + 2)  # (1,2): vertical left strip, next to (1,1)'s E green
    coins = d.coins[P0]
    play(s, A.GPOS0 + 3)
    gained = d.coins[P0] - coins
    assert gained == 1
    # a new workshop at (0,3) whose green bonuses face the existing garden: nothing happens
    vp, coins = d.vp[P0], d.coins[P0]
    place_ws(s, P0, 3, "ws-1-01")
    s.refresh()
    assert (d.vp[P0], d.coins[P0]) == (vp, coins)


def test_faq10_water_flow_chooser_is_the_placer_and_keeps_the_cube():
    from test_rules_canals import rain_board

    s = rain_board()
    start(s, Step.RAIN, P1)  # whoever ends the round: the chooser is the owner of the tile under the cube
    assert s.current_player() == P0
    play(s, A.DIR0 + 2)
    assert s.d.cubes_taken[P0] == 1


def test_faq11_tie_broken_by_most_canal_tiles_then_shared():
    s = fresh()
    d = s.d
    d.stack = []
    d.canal_owner[0], d.canal_design[0] = P1, 0
    d.canal_placed[7 + 0] = 1
    d.sheet = final_scoring(d)
    k = len(CATEGORIES)
    d.sheet[k - 1] = d.sheet[2 * k - 1] = 50
    assert s.ranks() == [1, 0]  # P1 has more canal tiles
    d.canal_owner[1], d.canal_design[1] = P0, 1
    d.canal_placed[1] = 1
    assert s.ranks() == [0, 0]  # still tied: the win is shared


def test_faq12_pink_card_bonus_depends_on_the_round():
    for rnd, extra in ((2, (2, 3)), (4, (1, 1)), (6, (0, 0))):
        s = fresh()
        d = s.d
        d.round_no = rnd
        vp, coins = d.vp[P0], d.coins[P0]
        start(s, Step.SPECIAL, P0, Colour.PINK * 3)
        play(s, A.TAKE_TOP)
        assert (d.coins[P0] - coins, d.vp[P0] - vp) == (1 + extra[0], 1 + extra[1])
