"""One scenario per personality card (seed: the card sections) and the Praefectus Magnus."""

from __future__ import annotations

from concordia_scenario import (
    ARCHITECT,
    DIPLOMAT,
    MERCATOR,
    P0,
    P1,
    P2,
    PREFECT,
    PREFECT2,
    SENATOR,
    TRIBUNE,
    B,
    C,
    F,
    T,
    W,
    add_house,
    card_id,
    city,
    discard,
    fresh,
    give_card,
    goods,
    play,
    province,
    put_colonist,
    set_city_good,
    set_goods,
    start,
)

from meeplezoo.envs.concordia.actions import (
    CASH,
    GOOD0,
    PASS,
    PROVINCE0,
    SEAT0,
    SLOT0,
    TAX,
    place_action,
    trade_action,
)
from meeplezoo.envs.concordia.content import CARDS, COLONISTS, Act
from meeplezoo.envs.concordia.state import NO, board_of
from meeplezoo.envs.concordia.steps import Step


# --- Tribune -------------------------------------------------------------------------------------------
def test_tribune_takes_back_the_pile_and_pays_one_per_card_beyond_three_counting_itself():
    s = fresh()
    for c in (ARCHITECT, PREFECT, PREFECT2, MERCATOR):
        discard(s, P0, c)
    start(s, P0)
    play(s, TRIBUNE)  # 4 played + the Tribune = 5 cards back: 2 sesterces
    assert s.d.money[P0] == 5 + 2
    assert s.d.hand[P0] == list(range(7)) and s.d.discard[P0] == []


def test_tribune_with_three_cards_back_pays_nothing():
    s = fresh()
    for c in (ARCHITECT, PREFECT):
        discard(s, P0, c)
    start(s, P0)
    play(s, TRIBUNE)
    assert s.d.money[P0] == 5


def test_tribune_offers_a_new_colonist_in_roma_for_food_and_tool():
    s = fresh()
    roma = board_of(s.d).roma
    start(s, P0)
    play(s, TRIBUNE)
    assert s.pending_step() == Step.TRIBUNE_PLACE
    assert set(s.legal_actions()) == {place_action(0, roma), place_action(1, roma), PASS}
    s.apply(place_action(1, roma))
    assert goods(s, P0) == [1, 1, 0, 1, 1]
    assert s.d.col[P0 * COLONISTS : P0 * COLONISTS + COLONISTS] == [roma, NO, NO, roma, roma, NO]


def test_tribune_without_food_and_tool_offers_no_colonist():
    s = fresh()
    set_goods(s, P0, food=3)
    start(s, P0)
    play(s, TRIBUNE)
    assert s.current_player() == P1


# --- Prefect and Praefectus Magnus -----------------------------------------------------------------------
def prefect_position():
    s = fresh(3, seed=4)
    p = province(s, "Campania")
    set_city_good(s, "Casinvm", T)
    set_city_good(s, "Neapolis", C)
    s.d.province_good = list(s.d.province_good)
    s.d.province_good[p] = C
    add_house(s, P1, "Casinvm")
    add_house(s, P2, "Casinvm")
    add_house(s, P2, "Neapolis")
    for seat in range(3):
        set_goods(s, seat)
    return s, p


def test_prefect_production_gives_the_marker_good_and_every_house_in_the_province_produces_for_its_owner():
    s, p = prefect_position()
    s.d.pm = P2
    start(s, P0)
    play(s, PREFECT)
    assert PROVINCE0 + p in s.legal_actions() and CASH in s.legal_actions()
    s.apply(PROVINCE0 + p)
    assert goods(s, P0) == [0, 0, 0, 0, 1]  # the bonus only: P0 has no house there
    assert goods(s, P1) == [0, 0, 1, 0, 0]
    assert goods(s, P2) == [0, 0, 1, 0, 1]
    assert s.d.marker[p] == 0 and s.d.pm == P2


def test_a_province_with_its_coin_side_up_cannot_produce():
    s, p = prefect_position()
    s.d.marker[p] = 0
    start(s, P0)
    play(s, PREFECT)
    assert PROVINCE0 + p not in s.legal_actions()


def test_praefectus_magnus_doubles_the_bonus_only_then_passes_to_the_right():
    s, p = prefect_position()
    s.d.pm = P1
    start(s, P1)
    play(s, PREFECT)
    s.apply(PROVINCE0 + p)
    assert goods(s, P1) == [0, 0, 1, 0, 2]  # 2 cloth bonus, the Casinvm house still makes 1 tool
    assert s.d.pm == P0  # passed right: the seat before in the clockwise order


def test_praefectus_magnus_is_used_whenever_its_holder_produces():
    s, p = prefect_position()
    s.d.pm = P0
    start(s, P0)
    play(s, PREFECT)
    s.apply(PROVINCE0 + p)
    assert goods(s, P0)[C] == 2 and s.d.pm == P2  # no way to keep it: it is used and passes right (P0 -> P2)


def test_prefect_cash_pays_each_visible_coin_and_turns_every_marker_back():
    s = fresh()
    s.d.pm = P0
    goods_sides = list(s.d.province_good)
    s.d.marker[0] = 0
    s.d.marker[3] = 0
    from meeplezoo.envs.concordia.content import BONUS_COINS

    expected = BONUS_COINS[goods_sides[0]] + BONUS_COINS[goods_sides[3]]
    start(s, P0)
    play(s, PREFECT)
    s.apply(CASH)
    assert s.d.money[P0] == 5 + expected and all(s.d.marker)
    assert s.d.pm == P0  # the cash bonus does not use the Praefectus Magnus


def test_production_overfilling_the_storehouse_asks_the_owner_to_discard():
    s, p = prefect_position()
    set_goods(s, P2, cloth=10)  # 10 goods + 4 colonists in store = 14 > 12 after +2
    set_goods(s, P2, cloth=7)  # 7 + 4 = 11; production gives tool + cloth: 13
    start(s, P0)
    play(s, PREFECT)
    s.apply(PROVINCE0 + p)
    assert s.current_player() == P2 and s.pending_step() == Step.OVERFLOW
    assert set(s.legal_actions()) == {GOOD0 + T, GOOD0 + C}
    s.apply(GOOD0 + C)
    assert goods(s, P2) == [0, 0, 1, 0, 7] and s.current_player() == P1


# --- Mercator ----------------------------------------------------------------------------------------
def test_mercator_pays_three_then_trades_two_different_goods_at_the_fixed_prices():
    s = fresh()
    set_goods(s, P0, wine=2)
    start(s, P0)
    play(s, MERCATOR)
    assert s.d.money[P0] == 8
    s.apply(trade_action(W, True, 2))  # +12
    assert s.d.money[P0] == 20 and goods(s, P0)[W] == 0
    assert trade_action(W, False, 1) not in s.legal_actions()  # wine was traded already
    s.apply(trade_action(B, False, 4))  # -12
    assert s.d.money[P0] == 8 and goods(s, P0) == [4, 0, 0, 0, 0]
    assert s.current_player() == P1  # two kinds traded: the card is done


def test_bought_mercator_pays_five():
    s = fresh()
    card = card_id(Act.MERCATOR, 1)
    give_card(s, P0, card)
    start(s, P0)
    play(s, card)
    assert s.d.money[P0] == 10


def test_buying_is_limited_by_free_storehouse_slots_and_money():
    s = fresh()
    set_goods(s, P0, food=6)  # 6 goods + 4 colonists: 2 free slots
    s.d.money[P0] = 100
    start(s, P0)
    play(s, MERCATOR)
    assert trade_action(C, False, 2) in s.legal_actions() and trade_action(C, False, 3) not in s.legal_actions()
    assert trade_action(F, True, 6) in s.legal_actions() and trade_action(F, True, 7) not in s.legal_actions()
    s2 = fresh()
    set_goods(s2, P0)
    s2.d.money[P0] = 0
    start(s2, P0)
    play(s2, MERCATOR)  # 3 sesterces: one brick at most
    assert trade_action(B, False, 1) in s2.legal_actions() and trade_action(B, False, 2) not in s2.legal_actions()
    assert trade_action(F, False, 1) not in s2.legal_actions()


# --- Diplomat ----------------------------------------------------------------------------------------
def test_diplomat_copies_the_top_card_of_another_players_pile():
    s = fresh()
    discard(s, P1, PREFECT)
    discard(s, P1, MERCATOR)
    start(s, P0)
    play(s, DIPLOMAT)
    assert s.legal_actions() == [SEAT0 + P1]
    s.apply(SEAT0 + P1)
    assert s.d.money[P0] == 5 + 3 and s.pending_step() == Step.TRADE  # the Mercator, played by P0


def test_diplomat_cannot_copy_a_diplomat_nor_an_empty_pile_after_a_tribune():
    s = fresh(3)
    discard(s, P1, DIPLOMAT)  # P1 played a Diplomat last
    start(s, P0)
    play(s, DIPLOMAT)  # P2 has never played (empty pile): nothing to copy
    assert s.current_player() == P1 and s.d.discard[P0] == [DIPLOMAT]


def test_diplomat_copies_a_bought_card_with_its_own_strength():
    s = fresh()
    card = card_id(Act.MERCATOR, 1)
    give_card(s, P1, card)
    discard(s, P1, card)
    start(s, P0)
    play(s, DIPLOMAT)
    s.apply(SEAT0 + P1)
    assert s.d.money[P0] == 5 + 5


# --- Senator and Consul ------------------------------------------------------------------------------
def test_senator_buys_up_to_two_cards_paying_card_cost_plus_position_then_the_row_slides_and_refills():
    s = fresh()
    d = s.d
    row = list(d.forum)
    deck_top = d.deck[-2:]
    set_goods(s, P0, 5, 5, 5, 5, 5)
    start(s, P0)
    play(s, SENATOR)
    first = row[0]
    s.apply(SLOT0 + 0)  # position 1: card cost only
    expected = [5, 5, 5, 5, 5]
    for g in CARDS[first].cost:
        expected[g] -= 1
    assert goods(s, P0) == expected and first in d.hand[P0]
    third = row[3]
    s.apply(SLOT0 + 3)  # position 4: card cost + 1 cloth
    for g in (*CARDS[third].cost, C):
        expected[g] -= 1
    assert goods(s, P0) == expected and third in d.hand[P0]
    # the purchases are over (two cards): the row slides left and refills from the deck
    assert d.forum == [row[1], row[2], row[4], row[5], row[6], deck_top[1], deck_top[0]]


def test_senator_question_mark_is_paid_with_a_good_of_the_players_choice():
    s = fresh()
    set_goods(s, P0, brick=2, food=2, tool=2, wine=2, cloth=2)
    row = list(s.d.forum)
    start(s, P0)
    play(s, SENATOR)
    s.apply(SLOT0 + 1)  # position 2: card cost + '?'
    assert s.pending_step() == Step.PAY_ANY
    before = goods(s, P0)
    s.apply(GOOD0 + W)
    after = goods(s, P0)
    assert before[W] - after[W] == 1 and sum(before) - sum(after) == 1
    assert row[1] in s.d.hand[P0]
    assert s.pending_step() == Step.BUY  # a second card may follow
    s.apply(PASS)
    assert s.current_player() == P1


def test_senator_offers_only_affordable_cards():
    s = fresh()
    set_goods(s, P0)
    start(s, P0)
    play(s, SENATOR)
    assert s.current_player() == P1  # nothing affordable: no purchase decision at all


def test_consul_buys_one_card_at_card_cost_only():
    s = fresh()
    consul = card_id(Act.CONSUL, 2)
    give_card(s, P0, consul)
    row = list(s.d.forum)
    target = row[6]  # position 7 would cost 2 extra cloth with the Senator
    set_goods(s, P0, 0, 0, 0, 0, 0)
    for g in CARDS[target].cost:
        s.d.goods[P0 * 5 + g] += 1
    start(s, P0)
    play(s, consul)
    assert SLOT0 + 6 in s.legal_actions()
    s.apply(SLOT0 + 6)
    assert goods(s, P0) == [0, 0, 0, 0, 0] and target in s.d.hand[P0]
    assert s.current_player() == P1  # one card only


# --- Colonist ----------------------------------------------------------------------------------------
def test_colonist_places_new_colonists_for_food_and_tool_in_roma_or_a_city_with_an_own_house():
    s = fresh()
    card = card_id(Act.COLONIST, 1)
    give_card(s, P0, card)
    add_house(s, P0, "Florentia")
    add_house(s, P1, "Cosa")
    set_goods(s, P0, food=2, tool=2)
    roma, flo = board_of(s.d).roma, city(s, "Florentia")
    start(s, P0)
    play(s, card)
    expected = {place_action(k, c) for k in (0, 1) for c in (roma, flo)} | {TAX}
    assert set(s.legal_actions()) == expected
    s.apply(place_action(0, flo))
    s.apply(place_action(1, roma))
    assert goods(s, P0) == [0, 0, 0, 0, 0]
    assert s.d.col[0:6] == [roma, flo, NO, roma, roma, NO]
    assert s.current_player() == P1  # no food and tool left


def test_colonist_tax_pays_five_plus_one_per_colonist_on_the_board():
    s = fresh()
    card = card_id(Act.COLONIST, 1)
    give_card(s, P0, card)
    put_colonist(s, P0, 1, on=("Casinvm", "ROMA"))
    start(s, P0)
    play(s, card)
    s.apply(TAX)
    assert s.d.money[P0] == 5 + 5 + 3


def test_at_most_six_colonists():
    s = fresh()
    card = card_id(Act.COLONIST, 1)
    give_card(s, P0, card)
    roma = board_of(s.d).roma
    for i in range(6):
        put_colonist(s, P0, i, city_name="ROMA")
    set_goods(s, P0, food=3, tool=3)
    start(s, P0)
    play(s, card)
    assert s.legal_actions() == [TAX]
    assert s.d.col[0:6] == [roma] * 6


# --- Specialists -------------------------------------------------------------------------------------
def test_specialist_produces_one_good_per_own_house_in_cities_of_that_good_map_wide():
    s = fresh()
    smith = card_id(Act.SPECIALIST, 1, good=T)
    give_card(s, P0, smith)
    for name in ("Florentia", "Messana", "Genva"):
        set_city_good(s, name, T)
    set_city_good(s, "Cosa", F)
    for name in ("Florentia", "Messana", "Cosa"):
        add_house(s, P0, name)
    add_house(s, P1, "Genva")  # another player's tool house produces nothing
    set_goods(s, P0)
    set_goods(s, P1)
    start(s, P0)
    play(s, smith)
    assert goods(s, P0) == [0, 0, 2, 0, 0] and goods(s, P1) == [0, 0, 0, 0, 0]


def test_the_five_specialists_and_their_goods():
    names = {c.name for c in CARDS if c.action == Act.SPECIALIST}
    assert names == {
        "Mason (specialist brick)",
        "Farmer (specialist food)",
        "Smith (specialist tool)",
        "Vintner (specialist wine)",
        "Weaver (specialist cloth)",
    }
    assert {c.good for c in CARDS if c.action == Act.SPECIALIST} == {B, F, T, W, C}


def test_diplomat_copying_a_prefect_uses_the_praefectus_magnus_of_its_holder():
    s, p = prefect_position()
    s.d.pm = P0
    discard(s, P1, PREFECT)
    start(s, P0)
    play(s, DIPLOMAT)
    s.apply(SEAT0 + P1)
    s.apply(PROVINCE0 + p)
    assert goods(s, P0)[C] == 2 and s.d.pm == P2  # doubled bonus, then passed right


def test_senator_question_mark_is_paid_without_a_decision_when_one_kind_of_good_is_left():
    s = fresh()
    row = list(s.d.forum)
    set_goods(s, P0)
    for g in CARDS[row[1]].cost:
        s.d.goods[P0 * 5 + g] += 1
    s.d.goods[P0 * 5 + B] += 1  # the only good left for the '?' of position 2
    start(s, P0)
    play(s, SENATOR)
    s.apply(SLOT0 + 1)
    assert goods(s, P0) == [0, 0, 0, 0, 0] and row[1] in s.d.hand[P0]
    assert s.pending_step() != Step.PAY_ANY
