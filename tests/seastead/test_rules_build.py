"""Build rules (seed "Oyun Akışı", build steps 1-5) and the three building effects, as scenarios."""

from __future__ import annotations

import pytest
from seastead_scenario import (
    P0,
    P1,
    fill_board,
    first_location,
    fresh,
    give_spec,
    la,
    loc,
    pending,
    place,
    put_ship,
    res,
    set_dock_display,
    set_res,
    set_spec_display,
    start,
)

from meeplezoo.envs.core import IllegalActionError
from meeplezoo.envs.seastead.actions import BUILD0, DIVE, LOC0, SLOT0, SPEC0, USE
from meeplezoo.envs.seastead.content import LOCATIONS, NUM_LOCS, SPEC_BY_NAME, Bld, Res
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step

ALL_TYPES = [BUILD0 + t for t in Bld]
GAIN_FISH = first_location("gain", resource=Res.FISH)  # Kelpwood, pays fish
CLEANUP1 = first_location("cleanup", n=1)


# --- choosing the type --------------------------------------------------------------------------------
def test_all_three_types_are_offered_while_buildings_are_left():
    s = fresh(P0)
    set_res(s.d, P0, fish=10)
    start(s)
    assert s.legal_actions() == [DIVE, *ALL_TYPES]
    s.validate()


def test_a_type_with_no_building_left_cannot_be_chosen():
    s = fresh(P0)
    d = s.d
    for p in range(4):
        place(d, P0, Bld.PORT, loc(3, p))
    set_res(d, P0, fish=10)
    start(s)
    assert s.legal_actions() == [DIVE, BUILD0 + Bld.ACADEMY, BUILD0 + Bld.SHIPYARD]
    with pytest.raises(IllegalActionError):
        s.apply(BUILD0 + Bld.PORT)
    s.validate()


def test_the_building_taken_is_the_next_one_of_its_row():
    """The leftmost building left in the row is taken: the row's count goes up by one, the others stay."""
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.ACADEMY, loc(3, 0))
    set_res(d, P0, fish=10)
    set_spec_display(d, ["Scout", "Trawler", "Prospector"])
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    assert pending(s) == (Step.BUILD_WHERE, P0)
    s.apply(la(GAIN_FISH))
    assert d.built[0:3] == [0, 2, 0]
    assert d.loc_owner[GAIN_FISH.index] == P0 and d.loc_bld[GAIN_FISH.index] == Bld.ACADEMY
    s.validate()


# --- choosing the location ----------------------------------------------------------------------------
def test_any_location_without_a_building_is_legal_even_with_a_ship_on_it():
    s = fresh(P0)
    d = s.d
    mine, theirs, ship_loc = loc(0, 5), loc(1, 5), loc(2, 5)
    place(d, P0, Bld.PORT, mine)
    place(d, P1, Bld.SHIPYARD, theirs)
    put_ship(d, P1, ship_loc)
    set_res(d, P0, 10, 10, 10, 10)
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    assert s.legal_actions() == [LOC0 + i for i in range(NUM_LOCS) if i not in (mine, theirs)]
    assert la(ship_loc) in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply(la(theirs))
    s.validate()


def test_only_affordable_locations_are_offered():
    """Cost = the number on the location, paid in the flotilla's demand kind (Kelpwood demands fish)."""
    s = fresh(P0)
    d = s.d
    set_res(d, P0, fish=3)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    expected = [la(x) for x in LOCATIONS if x.flotilla == 0 and x.cost <= 3]
    assert expected == [la(loc(0, 0)), la(loc(0, 1))]
    assert s.legal_actions() == expected
    s.validate()


def test_the_demand_token_sets_the_kind_paid():
    s = fresh(P0)
    d = s.d
    d.demand = [Res.KELP, Res.ARTIFACT, Res.FISH, Res.METAL]
    set_res(d, P0, fish=2)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    cheap_brinemarket = [la(x) for x in LOCATIONS if x.flotilla == 2 and x.cost == 2]
    assert s.legal_actions() == cheap_brinemarket
    s.validate()


def test_build_pays_the_location_value_in_the_demand_kind_back_to_the_supply():
    s = fresh(P0)
    d = s.d
    target = first_location("gain_any", n=1, resource=None)
    kind = d.demand[target.flotilla]
    set_res(d, P0, 5, 5, 5, 5)
    set_spec_display(d, ["Scout", "Trawler", "Prospector"])
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    s.apply(la(target))
    expected = [5, 5, 5, 5]
    expected[kind] -= target.cost
    assert res(d, P0) == expected
    assert d.supply[kind] == 5 + target.cost
    s.validate()


def test_a_ship_gives_one_resource_discount():
    s = fresh(P0)
    d = s.d
    place(d, P1, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P1, GAIN_FISH.index)  # cost 3
    set_res(d, P0, fish=2)
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    assert s.legal_actions() == [la(loc(0, 0)), la(GAIN_FISH)]  # cost 2, and cost 3 - 1 for the ship
    s.apply(la(GAIN_FISH))
    assert res(d, P0)[Res.FISH] == 0 and d.supply[Res.FISH] == 10
    s.validate()


def test_discounts_stack_but_the_cost_never_goes_below_zero():
    s = fresh(P0)
    d = s.d
    engineer = give_spec(d, P0, "Engineer")
    place(d, P1, Bld.SHIPYARD, loc(3, 5))
    cheap = loc(0, 0)
    assert LOCATIONS[cheap].cost == 2
    put_ship(d, P1, cheap)
    start(s)  # P0 holds nothing at all
    assert s.legal_actions() == [DIVE, *ALL_TYPES]  # possible with the Engineer and the ship
    s.apply(BUILD0 + Bld.PORT)
    assert s.legal_actions() == [SPEC0 + engineer]
    s.apply(SPEC0 + engineer)
    free = [la(x) for x in LOCATIONS if x.cost - (x.index == cheap) - 2 <= 0]
    assert s.legal_actions() == free
    s.apply(la(cheap))  # 2 - 1 - 2 -> 0, not -1
    assert res(d, P0) == [0, 0, 0, 0] and d.supply == [10, 10, 10, 10]
    assert d.loc_owner[cheap] == P0
    s.validate()


def test_a_location_with_a_building_cannot_be_built_on():
    s = fresh(P0)
    d = s.d
    place(d, P1, Bld.PORT, loc(0, 0))
    set_res(d, P0, fish=10)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    assert la(loc(0, 0)) not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply(la(loc(0, 0)))
    s.validate()


# --- forced dive --------------------------------------------------------------------------------------
def test_without_a_legal_build_the_only_action_is_to_dive():
    s = fresh(P0)
    set_res(s.d, P0, 1, 1, 1, 1)  # every location costs at least 2
    start(s)
    assert s.legal_actions() == [DIVE]
    s.validate()


def test_forced_dive_still_allows_playing_a_both_specialist_but_not_a_dive_or_build_one():
    s = fresh(P0)
    d = s.d
    set_res(d, P0, 1, 1, 1, 1)
    give_spec(d, P0, "Trawler")  # a dive specialist: played during the dive
    give_spec(d, P0, "Engineer", spent=True)
    scavenger = give_spec(d, P0, "Scavenger")
    start(s)
    assert s.legal_actions() == [DIVE, SPEC0 + scavenger]
    s.validate()


def test_a_type_is_offered_when_only_the_founder_makes_a_build_affordable():
    """The Engineer and Founder count towards "a legal build exists" (they are played while building)."""
    s = fresh(P0)
    d = s.d
    place(d, P1, Bld.PORT, loc(3, 0))  # Lanternreef (metal) now costs at least 3
    set_res(d, P0, metal=1)
    founder = give_spec(d, P0, "Founder")
    start(s)
    assert s.legal_actions() == [DIVE]  # 1 metal pays nowhere, even with the Founder
    set_res(d, P0, metal=2)
    start(s)
    assert s.legal_actions() == [DIVE, *ALL_TYPES]
    s.apply(BUILD0 + Bld.PORT)
    assert s.legal_actions() == [SPEC0 + founder]  # no location is affordable without it
    s.validate()


# --- the order of a build -----------------------------------------------------------------------------
def test_building_effect_comes_before_the_location_effect_then_the_turn_ends():
    s = fresh(P0)
    d = s.d
    set_res(d, P0, fish=10)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(CLEANUP1))
    assert pending(s) == (Step.DOCK_CHOICE, P0)
    assert s.legal_actions() == [SLOT0, SLOT0 + 1, SLOT0 + 2]  # mandatory: no PASS
    s.apply(SLOT0)
    assert pending(s) == (Step.EFFECT_USE, P0)
    s.apply(USE)
    assert d.cleanup[P0] == 1
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


# --- building effects ---------------------------------------------------------------------------------
def test_port_attaches_a_dock_from_the_display_at_its_location_and_the_display_is_refilled():
    s = fresh(P0)
    d = s.d
    a, b, c, top = 0, 1, 2, 3
    set_dock_display(d, [a, b, c])
    d.dock_deck.remove(top)
    d.dock_deck.append(top)
    size = len(d.dock_deck)
    set_res(d, P0, fish=10)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    assert pending(s) == (Step.DOCK_CHOICE, P0)
    s.apply(SLOT0 + 1)
    assert d.dock_at[GAIN_FISH.index] == b
    assert [x for x in d.dock_at if x != NO] == [b]
    assert d.dock_display == [a, top, c] and len(d.dock_deck) == size - 1
    s.validate()


def test_academy_takes_a_specialist_from_the_display_and_the_display_is_refilled():
    s = fresh(P0)
    d = s.d
    shown = set_spec_display(d, ["Scout", "Trawler", "Prospector"])
    top = SPEC_BY_NAME["Salvager"]
    d.spec_deck.remove(top)
    d.spec_deck.append(top)
    set_res(d, P0, fish=10)
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    s.apply(la(GAIN_FISH))
    assert pending(s) == (Step.SPECIALIST_CHOICE, P0)
    assert s.legal_actions() == [SLOT0, SLOT0 + 1, SLOT0 + 2]
    s.apply(SLOT0 + 2)
    assert d.spec_owner[shown[2]] == P0 and d.spec_spent[shown[2]] == 0
    assert d.spec_display == [shown[0], shown[1], top]
    assert pending(s) == (Step.EFFECT_USE, P0)
    s.validate()


def test_shipyard_places_a_ship_on_the_cheapest_empty_location_of_a_chosen_flotilla():
    s = fresh(P0)
    d = s.d
    set_res(d, P0, 10, 10, 10, 10)
    target = first_location("gain", resource=Res.METAL)  # Lanternreef position 2
    start(s)
    s.apply(BUILD0 + Bld.SHIPYARD)
    s.apply(la(target))
    assert pending(s) == (Step.SHIP_PLACE, P0)
    # the cheapest empty location of each flotilla; Brinemarket has two of cost 2 (a tie: both offered)
    assert LOCATIONS[loc(2, 0)].cost == LOCATIONS[loc(2, 1)].cost == 2 < LOCATIONS[loc(2, 2)].cost
    assert s.legal_actions() == [la(loc(0, 0)), la(loc(1, 0)), la(loc(2, 0)), la(loc(2, 1)), la(loc(3, 0))]
    s.apply(la(loc(2, 1)))
    assert d.ship[loc(2, 1)] == P0 and d.ship.count(P0) == 1
    assert pending(s) == (Step.EFFECT_USE, P0)
    s.validate()


def test_ship_placement_skips_locations_with_a_building_or_a_ship():
    s = fresh(P0)
    d = s.d
    set_res(d, P0, 10, 10, 10, 10)
    place(d, P1, Bld.SHIPYARD, loc(0, 0))
    put_ship(d, P1, loc(1, 0))
    place(d, P1, Bld.PORT, loc(2, 0))
    place(d, P1, Bld.PORT, loc(2, 1))
    place(d, P1, Bld.PORT, loc(3, 0))
    start(s)
    s.apply(BUILD0 + Bld.SHIPYARD)
    s.apply(la(loc(3, 1)))
    # Kelpwood: position 2 (3); Rustholm: positions 2 and 3 (3, 3); Brinemarket: position 3 (3);
    # Lanternreef: position 3 (4) as position 2 now holds the new shipyard
    assert s.legal_actions() == [la(loc(0, 1)), la(loc(1, 1)), la(loc(1, 2)), la(loc(2, 2)), la(loc(3, 2))]
    s.validate()


def test_shipyard_with_no_empty_location_anywhere_boxes_the_ship_for_a_cleanup_token():
    s = fresh(P0)
    d = s.d
    target = first_location("gain", resource=Res.ARTIFACT)
    fill_board(d, keep=target.index)
    set_res(d, P0, artifact=target.cost)
    start(s)
    s.apply(BUILD0 + Bld.SHIPYARD)
    s.apply(la(target))
    assert d.ships_boxed == [1, 0] and d.ship.count(P0) == 2
    assert d.cleanup == [1, 0] and d.cleanup_supply == 19
    assert pending(s) == (Step.EFFECT_USE, P0)  # straight on to the location effect
    s.validate()
