"""The observation's colonist sections: which seat's colonists of which kind stand in each city (counted) and
on each route, from the viewer's seat."""

from __future__ import annotations

import numpy as np
from concordia_scenario import (
    ARCHITECT,
    P0,
    P1,
    TRIBUNE,
    add_house,
    card_id,
    city,
    fresh,
    give_card,
    play,
    route,
    set_goods,
    start,
)

from meeplezoo.envs.concordia.actions import COLONIST0, PASS, ROUTE0, place_action
from meeplezoo.envs.concordia.content import Act
from meeplezoo.envs.concordia.observation import layout
from meeplezoo.envs.concordia.state import BOARDS, board_of

LAND, SEA = 0, 1


#: the scaled values a city's colonists of one kind may take: count / 3
COUNT = {np.float32(x / 3): x for x in range(4)}


def in_city(s, viewer: int, seat: int, name: str, kind: int) -> int:
    """How many of ``seat``'s colonists of ``kind`` stand in the city, as ``viewer`` sees it (seats rotate:
    the viewer's block first); a value other than count / 3 raises KeyError."""
    L = layout(s.d.n, s.d.board)
    k = (seat - viewer) % s.d.n
    return COUNT[s.observe(viewer)[L.slices["seat_city_colonists"]][(k * L.c + city(s, name)) * 2 + kind]]


def on_route(s, viewer: int, seat: int, r: int) -> float:
    L = layout(s.d.n, s.d.board)
    k = (seat - viewer) % s.d.n
    return float(s.observe(viewer)[L.slices["seat_route_colonists"]][k * L.r + r])


def test_the_colonist_sections_are_per_seat_city_and_kind_and_per_seat_route():
    for n, board in ((2, 0), (4, 0), (3, 1), (5, 1)):
        m = BOARDS[board]
        sl = layout(n, board).slices
        assert sl["seat_city_colonists"].stop - sl["seat_city_colonists"].start == n * m.num_cities * 2
        assert sl["seat_route_colonists"].stop - sl["seat_route_colonists"].start == n * m.num_routes
    assert layout(2, 0).size == 1028 and layout(5, 1).size == 2018  # Italia 2 players, Imperium 5 players


def test_city_colonists_are_counted_per_kind_and_routes_name_the_seat():
    s = fresh(2)
    roma = board_of(s.d).cities[board_of(s.d).roma]
    L = layout(2, 0)
    for viewer in (P0, P1):  # the start: 1 land + 1 sea colonist of each seat in Roma, nothing elsewhere
        cities = s.observe(viewer)[L.slices["seat_city_colonists"]]
        assert sorted(cities[cities > 0]) == [np.float32(1 / 3)] * 4
        for seat in (P0, P1):
            assert in_city(s, viewer, seat, roma, LAND) == in_city(s, viewer, seat, roma, SEA) == 1
    # Tribune: a second land colonist in Roma
    start(s, P0)
    play(s, TRIBUNE)
    s.apply(place_action(LAND, board_of(s.d).roma))
    assert in_city(s, P0, P0, roma, LAND) == in_city(s, P1, P0, roma, LAND) == 2
    assert in_city(s, P1, P0, roma, SEA) == 1 and in_city(s, P1, P1, roma, LAND) == 1
    # Architect: the sea colonist and one land colonist leave Roma for a route each
    sea_r, land_r = route(s, "Olbia", "ROMA", kind=SEA), route(s, "Casinvm", "ROMA", kind=LAND)
    start(s, P0)
    play(s, ARCHITECT)
    s.apply(COLONIST0 + 3)
    s.apply(ROUTE0 + sea_r)
    s.apply(COLONIST0 + 0)
    s.apply(ROUTE0 + land_r)
    for viewer in (P0, P1):
        assert in_city(s, viewer, P0, roma, LAND) == 1 and in_city(s, viewer, P0, roma, SEA) == 0
        assert on_route(s, viewer, P0, sea_r) == on_route(s, viewer, P0, land_r) == 1.0
        assert on_route(s, viewer, P1, sea_r) == 0.0
    routes = s.observe(P1)[L.slices["seat_route_colonists"]]
    assert routes.sum() == 2 and routes[L.r : 2 * L.r].sum() == 2  # P0's block is second from P1's seat


def test_colonists_placed_in_a_city_with_a_house_are_counted_by_kind():
    s = fresh(2)
    add_house(s, P1, "Casinvm")
    card = card_id(Act.COLONIST, 1)
    give_card(s, P1, card)
    set_goods(s, P1, food=4, tool=4)
    start(s, P1)
    play(s, card)
    casinvm = city(s, "Casinvm")
    s.apply(place_action(SEA, casinvm))
    s.apply(place_action(SEA, casinvm))
    s.apply(place_action(LAND, casinvm))
    s.apply(PASS)
    assert in_city(s, P0, P1, "Casinvm", SEA) == 2 and in_city(s, P0, P1, "Casinvm", LAND) == 1
    assert in_city(s, P1, P1, "Casinvm", SEA) == 2 and in_city(s, P0, P0, "Casinvm", SEA) == 0
