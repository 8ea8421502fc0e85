"""End triggers, the last turns, scoring by gods with the caps, the tie rule, intermediate scoring."""

from __future__ import annotations

import pytest
from concordia_scenario import (
    ARCHITECT,
    MERCATOR,
    P0,
    P1,
    P2,
    PREFECT,
    SENATOR,
    B,
    C,
    F,
    T,
    W,
    add_house,
    card_id,
    fresh,
    give_card,
    play,
    put_colonist,
    set_city_good,
    set_goods,
    start,
)

from meeplezoo.envs.concordia.actions import PASS, SLOT0
from meeplezoo.envs.concordia.content import CARDS, Act
from meeplezoo.envs.concordia.observation import SEAT_SCALARS, layout
from meeplezoo.envs.concordia.state import NO, board_of
from meeplezoo.envs.concordia.steps import Step


def empty_deck_one_card_left(s):
    """Empty the deck and leave one Forum card: the other for-sale cards go to the last seat's hand."""
    d = s.d
    last = d.n - 1
    for c in list(d.deck) + d.forum[1:]:
        d.hand[last].append(c)
    d.hand[last].sort()
    d.deck = []
    d.forum = [d.forum[0]] + [NO] * 6


def test_taking_the_last_forum_card_with_an_empty_deck_takes_concordia_then_every_other_player_plays_once():
    s = fresh(3)
    empty_deck_one_card_left(s)
    set_goods(s, P1, 3, 3, 3, 3, 3)
    start(s, P1)
    play(s, SENATOR)
    s.apply(SLOT0 + 0)
    assert s.d.concordia == P1 and all(c == NO for c in s.d.forum)
    assert s.current_player() == P2 and s.pending_step() == Step.MAIN
    play(s, PREFECT if PREFECT in s.d.hand[P2] else s.d.hand[P2][0])
    while s.current_player() == P2:
        s.apply(s.legal_actions()[-1])
    assert s.current_player() == P0 and not s.is_terminal()
    play(s, MERCATOR)
    while s.current_player() == P0:
        s.apply(PASS if PASS in s.legal_actions() else s.legal_actions()[0])
    assert s.is_terminal()  # P1 (the trigger) does not play again
    assert s.d.turns == 3 and len(s.d.final) == 3


def test_the_fifteenth_house_ends_the_game_after_one_more_turn_of_each_other_player():
    s = fresh(2)
    m = board_of(s.d)
    free = [c for c in range(m.num_cities) if c != m.roma and m.cities[c] not in ("Casinvm", "Neapolis")]
    for c in free[:14]:
        add_house(s, P1, m.cities[c])
    put_colonist(s, P1, 0, on=("Casinvm", "Neapolis"))
    set_goods(s, P1, 3, 3, 3, 3, 3)
    s.d.money[P1] = 30
    start(s, P1, Step.BUILD)
    s.apply(s.legal_actions()[0])
    assert s.d.concordia == P1 and s.current_player() == P0
    play(s, MERCATOR)
    while not s.is_terminal():
        assert s.current_player() == P0
        s.apply(PASS if PASS in s.legal_actions() else s.legal_actions()[0])
    assert s.scores()[P1] == s.god_sheet(P1)[-1] and s.god_sheet(P1)[6] == 7


def scoring_position():
    s = fresh(2, seed=2)
    d = s.d
    m = board_of(d)
    # houses: 2 brick cities and 3 other cities (food, tool, wine) in 4 provinces
    names = ["Bavzanvm", "Aqvileia", "Mvtina", "Ancona", "Messana"]
    for name, good in zip(names, (B, B, F, T, W), strict=True):
        set_city_good(s, name, good)
        add_house(s, P0, name)
    provinces = {m.province_of[m.cities.index(n)] for n in names}
    put_colonist(s, P0, 1, on=("Casinvm", "ROMA"))  # 3 colonists on the board
    set_goods(s, P0, brick=1, cloth=2)  # 3 + 14 = 17
    d.money[P0] = 15  # Vesta: (15 + 17) // 10 = 3
    return s, len(provinces)


def test_god_scoring_of_the_starting_hand_exactly():
    s, provinces = scoring_position()
    sheet = s.god_sheet(P0)
    # Vesta 1 card (Senator); Jupiter 2 (Architect, Diplomat); Saturnus 2 (Prefects); Mercurius 1; Mars 1 (Tribune)
    assert provinces == 4
    assert sheet == [3, 2 * 3, 2 * 4, 1 * 2 * 4, 1 * 2 * 3, 0, 0, 3 + 6 + 8 + 8 + 6]


def test_minerva_scores_its_points_per_house_in_cities_of_its_good():
    s, _ = scoring_position()
    mason = card_id(Act.SPECIALIST, 1, good=B)  # 3 per brick city
    give_card(s, P0, mason)
    assert s.god_sheet(P0)[5] == 3 * 2
    weaver = card_id(Act.SPECIALIST, 2, good=C)  # 5 per cloth city; none
    give_card(s, P0, weaver)
    assert s.god_sheet(P0)[5] == 6
    vintner = card_id(Act.SPECIALIST, 2, good=W)  # 4 per wine city: Messana
    give_card(s, P0, vintner)
    assert s.god_sheet(P0)[5] == 6 + 4


def test_cards_in_the_discard_pile_count_like_cards_in_hand():
    s, _ = scoring_position()
    before = s.god_sheet(P0)
    s.d.hand[P0].remove(ARCHITECT)
    s.d.discard[P0].append(ARCHITECT)
    assert s.god_sheet(P0) == before


def test_caps_per_card_jupiter_15_saturnus_11_on_italia_mercurius_10_mars_12():
    s = fresh(2, seed=3)
    d = s.d
    m = board_of(d)
    cities = [c for c in range(m.num_cities) if c != m.roma]
    for c in cities[:15]:
        add_house(s, P0, m.cities[c])
    for i in range(6):
        put_colonist(s, P0, i, city_name="ROMA")
    non_brick = sum(1 for c in cities[:15] if d.city_good[c] != B)
    kinds = len({d.city_good[c] for c in cities[:15]})
    sheet = s.god_sheet(P0)
    assert sheet[1] == 2 * min(15, non_brick)
    assert sheet[2] == 2 * min(11, len({m.province_of[c] for c in cities[:15]}))
    assert sheet[3] == min(10, 2 * kinds)
    assert sheet[4] == 12  # 6 colonists x 2 = 12, the cap
    for c in cities[15:]:
        add_house(s, P1, m.cities[c])
    # Italia has 11 provinces; with every province the Saturnus criterion is capped at 11
    every = {m.province_of[c] for c in cities}
    assert len(every) == 11


def test_jupiter_cap_15_counts_only_non_brick_cities():
    s = fresh(4, "imperium", seed=1)
    d = s.d
    m = board_of(d)
    cities = [c for c in range(m.num_cities) if c != m.roma and d.city_good[c] != B][:16]
    assert len(cities) == 16
    for c in cities:
        d.houses[P0].append(c)
        d.city_houses[c] += 1
    assert s.god_sheet(P0)[1] == 2 * 15  # 16 non-brick houses, capped at 15 per Jupiter card


def test_saturnus_cap_is_12_on_imperium():
    s = fresh(3, "imperium", seed=1)
    d = s.d
    m = board_of(d)
    for cities in m.province_cities:
        c = next(x for x in cities if x != m.roma)
        d.houses[P0].append(c)
        d.city_houses[c] += 1
    assert s.god_sheet(P0)[2] == 2 * 12


def test_tie_goes_to_the_praefectus_magnus_holder_then_to_whoever_receives_it_next():
    s = fresh(3)
    d = s.d
    d.final = [50, 50, 50]
    d.stack = []
    d.pm = P1
    assert s.ranks() == [1, 0, 2]  # P1 holds it; next (to the right) is P0, then P2
    d.final = [50, 40, 50]
    assert s.ranks() == [0, 2, 1]  # P1 not tied: P0 receives it before P2
    d.pm = P0
    d.final = [40, 50, 50]
    assert s.ranks() == [2, 1, 0]  # from P0 it passes to P2 first


def test_intermediate_scoring_shows_the_running_score_in_observations_and_rendering():
    plain = fresh(2, seed=1)
    shown = fresh(2, seed=1, intermediate_scoring=True)
    L = layout(2, 0)
    idx = L.scal0 + SEAT_SCALARS - 1  # the viewer's running score
    expected = shown.god_sheet(P0)[-1]
    assert expected > 0
    assert shown.observe(P0)[idx] == pytest.approx(expected / 200.0)
    assert plain.observe(P0)[idx] == 0.0
    assert "score: Vesta" in shown.render() and "score: Vesta" not in plain.render()


def test_final_scores_are_shown_in_rendering_at_the_end():
    s = fresh(2)
    s.d.stack = []
    s.d.final = [s.god_sheet(P0)[-1], s.god_sheet(P1)[-1]]
    assert "game over" in s.render() and "score: Vesta" in s.render()


def test_concordia_card_is_worth_seven():
    s = fresh(2)
    before = s.god_sheet(P0)[-1]
    s.d.concordia = P0
    assert s.god_sheet(P0)[-1] == before + 7 and s.god_sheet(P0)[6] == 7


def test_every_card_has_its_god_from_the_data():
    gods = {c.name: c.god.name for c in CARDS if c.deck == 0}
    assert gods == {
        "Tribune": "MARS",
        "Architect": "JUPITER",
        "Prefect": "SATURNUS",
        "Mercator (3 sestertii)": "MERCURIUS",
        "Diplomat": "JUPITER",
        "Senator": "VESTA",
    }
    assert sum(1 for c in CARDS if c.deck > 0) == 30
