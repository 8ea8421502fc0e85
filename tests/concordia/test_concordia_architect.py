"""Architect: colonist movement (one colonist per route, land/sea, passing but never stopping on occupied
routes, shared points) and houses (costs, one per player and city, none in Roma, the 15th house)."""

from __future__ import annotations

import pytest
from concordia_scenario import (
    ARCHITECT,
    P0,
    P1,
    B,
    C,
    F,
    T,
    W,
    add_house,
    city,
    fresh,
    goods,
    play,
    put_colonist,
    route,
    set_city_good,
    set_goods,
    start,
)

from meeplezoo.envs.concordia.actions import CITY0, COLONIST0, PASS, ROUTE0
from meeplezoo.envs.concordia.content import LAND, SEA
from meeplezoo.envs.concordia.state import NO, board_of
from meeplezoo.envs.concordia.steps import Step


def architect_turn(s, seat=P0):
    start(s, seat)
    play(s, ARCHITECT)


def test_movement_points_equal_colonists_on_the_board():
    s = fresh()
    architect_turn(s)
    assert s.d.stack[-1] == (Step.MOVE_PICK, P0, 2, 0)  # 1 land + 1 sea colonist in Roma
    s = fresh()
    put_colonist(s, P0, 1, city_name="ROMA")
    put_colonist(s, P0, 4, city_name="ROMA")
    architect_turn(s)
    assert s.d.stack[-1] == (Step.MOVE_PICK, P0, 4, 0)


def test_land_colonists_use_land_routes_and_sea_colonists_sea_routes():
    s = fresh()
    architect_turn(s)
    m = board_of(s.d)
    s.apply(COLONIST0 + 0)  # the land colonist
    land = [a - ROUTE0 for a in s.legal_actions()]
    assert land and all(m.routes[r][2] == LAND for r in land)
    assert route(s, "Casinvm", "ROMA") in land and route(s, "Olbia", "ROMA") not in land
    s = fresh()
    architect_turn(s)
    s.apply(COLONIST0 + 3)  # the sea colonist
    sea = [a - ROUTE0 for a in s.legal_actions()]
    assert sea and all(m.routes[r][2] == SEA for r in sea)
    assert route(s, "Olbia", "ROMA") in sea


def test_destinations_are_the_routes_reachable_with_the_points_left_by_shortest_paths():
    s = fresh()
    architect_turn(s)
    s.apply(COLONIST0 + 0)
    m = board_of(s.d)
    reach = {a - ROUTE0 for a in s.legal_actions()}
    # 2 points: the 3 land routes touching Roma (1 step) and every land route touching Cosa, Spoletvm, Casinvm
    one_step = set(m.city_routes[m.roma])
    two_steps = {r for c in ("Cosa", "Spoletvm", "Casinvm") for r in m.city_routes[city(s, c)]}
    expected = {r for r in one_step | two_steps if m.routes[r][2] == LAND}
    assert reach == expected
    s.apply(ROUTE0 + route(s, "Spoletvm", "Casinvm"))  # 2 steps: Roma-Casinvm, then Casinvm-Spoletvm
    assert s.d.col[0] == m.num_cities + route(s, "Spoletvm", "Casinvm")
    assert s.pending_step() != Step.MOVE_PICK  # both points spent


def test_points_are_shared_freely_between_colonists():
    s = fresh()
    architect_turn(s)
    s.apply(COLONIST0 + 0)
    s.apply(ROUTE0 + route(s, "Casinvm", "ROMA"))  # 1 point
    assert s.d.stack[-1] == (Step.MOVE_PICK, P0, 1, 0)
    s.apply(COLONIST0 + 0)  # the same colonist again, with the last point
    s.apply(ROUTE0 + route(s, "Casinvm", "Neapolis", kind=LAND))
    assert s.d.col[0] == board_of(s.d).num_cities + route(s, "Casinvm", "Neapolis", kind=LAND)
    assert s.pending_step() != Step.MOVE_PICK  # no points left: the movement ends


def test_one_colonist_per_route_a_colonist_never_stops_on_an_occupied_route_but_passes_over_it():
    s = fresh()
    put_colonist(s, P1, 0, on=("Casinvm", "ROMA"))
    architect_turn(s)
    s.apply(COLONIST0 + 0)
    reach = {a - ROUTE0 for a in s.legal_actions()}
    assert route(s, "Casinvm", "ROMA") not in reach
    # passing over the occupied Roma-Casinvm route: Casinvm-Neapolis is 2 steps away and free
    assert route(s, "Casinvm", "Neapolis", kind=LAND) in reach
    s.apply(ROUTE0 + route(s, "Casinvm", "Neapolis", kind=LAND))
    occupied = [r for r, k in enumerate(s.d.route_occ) if k != NO]
    assert sorted(occupied) == sorted([route(s, "Casinvm", "ROMA"), route(s, "Casinvm", "Neapolis", kind=LAND)])


def test_a_colonist_with_every_reachable_route_occupied_is_not_offered():
    s = fresh()
    m = board_of(s.d)
    put_colonist(s, P0, 3, city_name=None)  # own sea colonist back to the store: 1 point only
    for i, r in enumerate(x for x in m.city_routes[m.roma] if m.routes[x][2] == LAND):
        put_colonist(s, P1, i, on=tuple(m.cities[c] for c in m.routes[r][:2]))
    architect_turn(s)
    assert s.pending_step() != Step.MOVE_PICK  # nothing reachable with 1 point: straight to building (or end)


def test_colonists_start_in_roma_and_step_onto_routes_from_there():
    s = fresh()
    m = board_of(s.d)
    architect_turn(s)
    s.apply(COLONIST0 + 0)
    # one step from Roma reaches exactly the land routes at Roma
    one = {a - ROUTE0 for a in s.legal_actions() if board_of(s.d).routes[a - ROUTE0][2] == LAND}
    assert set(r for r in m.city_routes[m.roma] if m.routes[r][2] == LAND) <= one


def test_house_costs_brick_city_one_food_other_cities_brick_plus_their_good_money_times_houses_after():
    s = fresh()
    put_colonist(s, P0, 0, on=("Casinvm", "Neapolis"))
    set_city_good(s, "Casinvm", B)
    set_city_good(s, "Neapolis", W)
    add_house(s, P1, "Neapolis")
    set_goods(s, P0, brick=1, food=1, wine=1)
    s.d.money[P0] = 20
    start(s, P0, Step.BUILD)
    assert set(s.legal_actions()) == {CITY0 + city(s, "Casinvm"), CITY0 + city(s, "Neapolis"), PASS}
    s.apply(CITY0 + city(s, "Casinvm"))  # brick city: 1 food + 1 sesterce
    assert goods(s, P0) == [1, 0, 0, 1, 0] and s.d.money[P0] == 19
    s.apply(CITY0 + city(s, "Neapolis"))  # wine city with 1 house: brick + wine, 4 x 2 sesterces
    assert goods(s, P0) == [0, 0, 0, 0, 0] and s.d.money[P0] == 11
    assert s.d.houses[P0] == [city(s, "Casinvm"), city(s, "Neapolis")] and s.d.city_houses[city(s, "Neapolis")] == 2


@pytest.mark.parametrize(
    ("good", "money", "paid"), [(F, 2, [1, 1, 0, 0, 0]), (T, 3, [1, 0, 1, 0, 0]), (C, 5, [1, 0, 0, 0, 1])]
)
def test_house_cost_table_for_food_tool_and_cloth_cities(good, money, paid):
    s = fresh()
    put_colonist(s, P0, 0, on=("Casinvm", "Neapolis"))
    set_city_good(s, "Neapolis", good)
    set_goods(s, P0, 1, 1, 1, 1, 1)
    s.d.money[P0] = 10
    start(s, P0, Step.BUILD)
    s.apply(CITY0 + city(s, "Neapolis"))
    assert s.d.money[P0] == 10 - money
    assert goods(s, P0) == [1 - x for x in paid]


def test_a_house_not_paid_in_full_is_not_offered():
    s = fresh()
    put_colonist(s, P0, 0, on=("Casinvm", "Neapolis"))
    set_city_good(s, "Neapolis", C)
    set_city_good(s, "Casinvm", T)
    set_goods(s, P0, brick=1, cloth=1)
    s.d.money[P0] = 4  # a cloth house costs 5
    start(s, P0, Step.BUILD)
    assert s.pending_step() != Step.BUILD  # no city affordable: the build step is skipped


def test_never_two_houses_of_one_player_in_a_city_and_none_in_roma():
    s = fresh()
    put_colonist(s, P0, 0, on=("Casinvm", "ROMA"))
    add_house(s, P0, "Casinvm")
    set_goods(s, P0, 5, 5, 5, 5, 5)
    s.d.money[P0] = 50
    start(s, P0, Step.BUILD)
    assert s.pending_step() != Step.BUILD  # Casinvm has the player's house and Roma takes none


def test_the_fifteenth_house_takes_the_concordia_card():
    s = fresh()
    m = board_of(s.d)
    others = [c for c in range(m.num_cities) if c != m.roma and m.cities[c] not in ("Casinvm", "Neapolis")]
    for c in others[:14]:
        add_house(s, P0, m.cities[c])
    put_colonist(s, P0, 0, on=("Casinvm", "Neapolis"))
    set_goods(s, P0, 5, 5, 5, 5, 5)
    s.d.money[P0] = 50
    start(s, P0, Step.BUILD)
    s.apply(CITY0 + city(s, "Neapolis"))
    assert len(s.d.houses[P0]) == 15 and s.d.concordia == P0
    assert s.pending_step() == Step.MAIN and s.current_player() == P1  # no 16th house: the turn ends


def test_houses_are_built_one_city_at_a_time_until_stop():
    s = fresh()
    put_colonist(s, P0, 0, on=("Casinvm", "Neapolis"))
    set_goods(s, P0, 5, 5, 5, 5, 5)
    s.d.money[P0] = 50
    start(s, P0, Step.BUILD)
    s.apply(CITY0 + city(s, "Casinvm"))
    assert s.pending_step() == Step.BUILD and PASS in s.legal_actions()
    s.apply(PASS)
    assert s.current_player() == P1 and s.d.houses[P0] == [city(s, "Casinvm")]


def test_colonist_moved_to_a_new_route_builds_next_to_it_in_the_same_turn():
    s = fresh()
    set_city_good(s, "Casinvm", W)
    set_goods(s, P0, brick=1, wine=1)
    architect_turn(s)
    s.apply(COLONIST0 + 0)
    s.apply(ROUTE0 + route(s, "Casinvm", "ROMA"))
    s.apply(PASS)  # stop moving with 1 point left
    assert s.pending_step() == Step.BUILD and CITY0 + city(s, "Casinvm") in s.legal_actions()
    s.apply(CITY0 + city(s, "Casinvm"))
    assert s.d.houses[P0] == [city(s, "Casinvm")] and s.d.money[P0] == 5 - 4
