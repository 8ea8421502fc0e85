"""Ships (seed: "Oyundaki tüm gemiler ... 1 kaynak indirimi sağlar", "Gemi Sahibinin Bonusu", "Gemi Hareketi")."""

from __future__ import annotations

from seastead_scenario import (
    P0,
    P1,
    fill_board,
    first_location,
    fresh,
    la,
    loc,
    pending,
    place,
    put_ship,
    res,
    set_res,
    start,
)

from meeplezoo.envs.seastead.actions import BUILD0, DIVE, PASS, RES0, SLOT0
from meeplezoo.envs.seastead.content import NUM_LOCS, Bld, Res
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step

GAIN_FISH = first_location("gain", resource=Res.FISH)  # Kelpwood, demand fish, cost 3
#: the cheapest empty location of each flotilla on an otherwise empty board (Brinemarket has a tie)
CHEAPEST = [la(loc(0, 0)), la(loc(1, 0)), la(loc(2, 0)), la(loc(2, 1)), la(loc(3, 0))]
ALL_RES = [RES0 + k for k in Res]


def build_port_on_gain_fish(s) -> None:
    """Build a port on GAIN_FISH, take dock slot 0 and pass the location's gain."""
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    assert pending(s)[0] == Step.EFFECT_USE
    s.apply(PASS)


def test_owner_building_on_own_ship_gets_the_discount_moves_the_ship_and_no_bonus():
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, GAIN_FISH.index)
    set_res(d, P0, fish=GAIN_FISH.cost - 1)
    start(s)
    build_port_on_gain_fish(s)
    assert res(d, P0) == [0, 0, 0, 0]  # 3 - 1 for the ship
    assert pending(s) == (Step.SHIP_PLACE, P0)
    assert s.legal_actions() == CHEAPEST  # normal placement rules; no PASS: the move is mandatory
    s.apply(la(loc(1, 0)))
    assert d.ship[GAIN_FISH.index] == NO and d.ship[loc(1, 0)] == P0
    assert res(d, P0) == [0, 0, 0, 0] and d.supply == [10, 10, 10, 10]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_opponent_building_on_your_ship_gets_the_discount_you_take_a_free_resource_and_move_the_ship():
    s = fresh(P1)
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, GAIN_FISH.index)
    set_res(d, P1, fish=GAIN_FISH.cost - 1)
    start(s)
    build_port_on_gain_fish(s)
    assert res(d, P1) == [0, 0, 0, 0]
    # the ship's owner (not the active player) decides: first the free resource, then the move
    assert pending(s) == (Step.OWNER_BONUS, P0)
    assert s.legal_actions() == [*ALL_RES, PASS]
    s.apply(RES0 + Res.METAL)
    assert res(d, P0) == [0, 0, 0, 1]
    assert pending(s) == (Step.SHIP_PLACE, P0)
    assert s.legal_actions() == CHEAPEST
    s.apply(la(loc(2, 1)))
    assert d.ship[loc(2, 1)] == P0 and d.ship.count(P0) == 1
    assert pending(s) == (Step.MAIN, P0)  # P1's turn is over
    s.validate()


def test_ship_owner_may_decline_the_free_resource():
    """Seed: "ortak arzdan dilediğiniz 1 kaynağı ücretsiz alabilirsiniz" (may, not must)."""
    s = fresh(P1)
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, GAIN_FISH.index)
    set_res(d, P1, fish=GAIN_FISH.cost - 1)
    start(s)
    build_port_on_gain_fish(s)
    s.apply(PASS)
    assert res(d, P0) == [0, 0, 0, 0] and pending(s) == (Step.SHIP_PLACE, P0)
    s.validate()


def test_owner_bonus_offers_only_kinds_left_in_the_supply():
    s = fresh(P1)
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, GAIN_FISH.index)
    set_res(d, P1, fish=GAIN_FISH.cost - 1, artifact=10)
    set_res(d, P0, kelp=10)
    start(s)
    build_port_on_gain_fish(s)
    assert pending(s) == (Step.OWNER_BONUS, P0)
    assert s.legal_actions() == [RES0 + Res.FISH, RES0 + Res.METAL, PASS]
    s.validate()


def test_displaced_ship_follows_normal_placement_not_any_empty_location():
    s = fresh(P0)
    d = s.d
    place(d, P1, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P1, GAIN_FISH.index)
    place(d, P1, Bld.PORT, loc(2, 0))  # Brinemarket's tie is broken
    place(d, P1, Bld.PORT, loc(0, 0))  # Kelpwood's cheapest empty is now position 3 (cost 4)
    set_res(d, P0, fish=10)
    start(s)
    build_port_on_gain_fish(s)
    s.apply(RES0 + Res.FISH)  # owner bonus
    assert pending(s) == (Step.SHIP_PLACE, P1)
    assert s.legal_actions() == [la(loc(0, 2)), la(loc(0, 3)), la(loc(1, 0)), la(loc(2, 1)), la(loc(3, 0))]
    s.apply(la(loc(0, 3)))
    assert d.ship[loc(0, 3)] == P1 and d.ship.count(P1) == 1
    s.validate()


def test_displaced_ship_with_nowhere_to_go_is_boxed_and_its_owner_takes_a_cleanup_token():
    s = fresh(P0)
    d = s.d
    target = GAIN_FISH.index
    fill_board(d, keep=target)  # P0 keeps 2 ports, 2 academies, 2 shipyards and 2 ships
    put_ship(d, P1, target)  # P1's fourth ship
    assert all(d.loc_bld[i] != NO or d.ship[i] != NO for i in range(NUM_LOCS))
    set_res(d, P0, fish=GAIN_FISH.cost - 1)
    start(s)
    assert s.legal_actions() == [DIVE, *(BUILD0 + t for t in Bld)]  # only the ship location is free
    s.apply(BUILD0 + Bld.SHIPYARD)
    assert s.legal_actions() == [la(target)]
    s.apply(la(GAIN_FISH))
    # P0's new ship: no empty location -> boxed, 1 cleanup token
    assert d.ships_boxed == [1, 0] and d.cleanup == [1, 0]
    assert pending(s) == (Step.EFFECT_USE, P0)
    s.apply(PASS)
    # P1's displaced ship: nowhere to go -> boxed, 1 cleanup token; P1 still gets the owner's bonus
    assert d.ship[target] == NO and d.ships_boxed == [1, 1] and d.cleanup == [1, 1]
    assert d.cleanup_supply == 18
    assert pending(s) == (Step.OWNER_BONUS, P1)
    s.apply(RES0 + Res.KELP)
    assert res(d, P1)[Res.KELP] == 1
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_a_ship_on_a_location_does_not_stop_a_ship_elsewhere_from_being_placed_but_is_not_empty():
    """A location with a ship can be built on, but it is not "boş" for placing another ship."""
    s = fresh(P0)
    d = s.d
    place(d, P1, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P1, loc(1, 0))
    set_res(d, P0, 10, 10, 10, 10)
    start(s)
    s.apply(BUILD0 + Bld.SHIPYARD)
    s.apply(la(loc(3, 3)))
    assert pending(s) == (Step.SHIP_PLACE, P0)
    assert la(loc(1, 0)) not in s.legal_actions()
    assert s.legal_actions() == [la(loc(0, 0)), la(loc(1, 1)), la(loc(1, 2)), la(loc(2, 0)), la(loc(2, 1)), CHEAPEST[4]]
    s.validate()
