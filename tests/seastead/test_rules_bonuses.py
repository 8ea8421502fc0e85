"""Column bonus (a column of the player board emptied) and the three row bonuses (last building of a type)."""

from __future__ import annotations

import pytest
from seastead_scenario import (
    DEMAND,
    LOCKED,
    P0,
    P1,
    attach_dock,
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

from meeplezoo.envs.seastead.actions import BUILD0, FLOT0, LOC0, PASS, SLOT0, SPEC0
from meeplezoo.envs.seastead.content import DOCKS, NUM_LOCS, Bld, Res
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step

GAIN_FISH = first_location("gain", resource=Res.FISH)  # Kelpwood (fish), cost 3
GAIN_ARTIFACT = first_location("gain", resource=Res.ARTIFACT)  # Rustholm (artifact), cost 3


def port_on_gain_fish(s) -> None:
    """Build a port on GAIN_FISH with dock slot 0 and pass its gain effect."""
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)


def column_ready(s, seat: int = P0) -> None:
    """``seat`` has built the academy and shipyard of column 1: a port empties the column."""
    d = s.d
    place(d, seat, Bld.ACADEMY, loc(3, 4))
    place(d, seat, Bld.SHIPYARD, loc(3, 5))
    assert d.columns[seat] == 0
    set_res(d, seat, fish=10)


# --- column bonus -------------------------------------------------------------------------------------
def test_emptying_a_column_swaps_two_unlocked_demand_tokens_and_moves_the_lock():
    s = fresh(P0)
    d = s.d
    column_ready(s)
    start(s)
    port_on_gain_fish(s)
    assert d.columns == [1, 0]
    assert pending(s) == (Step.DEMAND_A, P0)
    assert s.legal_actions() == [FLOT0 + 0, FLOT0 + 1, FLOT0 + 2, PASS]  # not the locked Lanternreef token
    s.apply(FLOT0 + 0)
    assert pending(s) == (Step.DEMAND_B, P0)
    assert s.legal_actions() == [FLOT0 + 1, FLOT0 + 2]
    s.apply(FLOT0 + 2)
    assert d.demand == [Res.KELP, Res.ARTIFACT, Res.FISH, Res.METAL]
    assert pending(s) == (Step.DEMAND_LOCK, P0)
    assert s.legal_actions() == [FLOT0 + 0, FLOT0 + 2]  # one of the two swapped tokens
    s.apply(FLOT0 + 2)
    assert d.locked == 2  # the old locked token (Lanternreef) is back on its resource side
    assert d.demand[LOCKED] == DEMAND[LOCKED]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_the_locked_token_is_never_one_of_the_swapped_pair():
    s = fresh(P0)
    d = s.d
    column_ready(s)
    d.locked = 1
    start(s)
    port_on_gain_fish(s)
    assert s.legal_actions() == [FLOT0 + 0, FLOT0 + 2, FLOT0 + 3, PASS]
    s.apply(FLOT0 + 3)
    assert s.legal_actions() == [FLOT0 + 0, FLOT0 + 2]
    s.apply(FLOT0 + 0)
    s.apply(FLOT0 + 3)
    assert d.locked == 3 and d.demand == [Res.METAL, Res.ARTIFACT, Res.KELP, Res.FISH]
    s.validate()


def test_a_locked_token_still_sets_its_flotillas_demand():
    """Engine reading (the seed leaves it open): the lock only keeps the token out of swaps; building on
    the locked flotilla is still paid in that token's resource."""
    s = fresh(P0)
    d = s.d
    assert d.locked == LOCKED and DEMAND[LOCKED] == Res.METAL
    set_res(d, P0, metal=2)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    assert s.legal_actions() == [la(loc(LOCKED, 0))]
    s.validate()


def test_the_column_bonus_is_optional():
    s = fresh(P0)
    d = s.d
    column_ready(s)
    start(s)
    port_on_gain_fish(s)
    s.apply(PASS)
    assert d.demand == list(DEMAND) and d.locked == LOCKED
    assert d.columns == [1, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


def test_no_column_bonus_while_the_column_still_holds_a_building():
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.PORT, loc(3, 3))
    place(d, P0, Bld.ACADEMY, loc(3, 4))
    set_res(d, P0, fish=10)
    start(s)
    port_on_gain_fish(s)  # ports: 2 built; the shipyard of column 1 is still on the board
    assert d.columns == [0, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


def test_the_fourth_column_gives_the_fourth_and_last_column_bonus():
    s = fresh(P0)
    d = s.d
    spots = iter([loc(f, p) for f in (1, 2, 3) for p in range(6)])
    for t, n in ((Bld.PORT, 3), (Bld.ACADEMY, 4), (Bld.SHIPYARD, 4)):
        for _ in range(n):
            place(d, P0, t, next(spots))
    assert d.columns == [3, 0]
    set_res(d, P0, fish=10)
    start(s)
    port_on_gain_fish(s)
    assert pending(s) == (Step.ROW_PORT, P0)  # the port row bonus comes first
    s.apply(PASS)
    assert pending(s) == (Step.DEMAND_A, P0) and d.columns == [4, 0]
    s.apply(PASS)
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_each_player_has_their_own_columns():
    s = fresh(P1)
    d = s.d
    column_ready(s, P1)
    place(d, P0, Bld.ACADEMY, loc(2, 4))
    place(d, P0, Bld.SHIPYARD, loc(2, 5))
    start(s)
    port_on_gain_fish(s)
    assert pending(s) == (Step.DEMAND_A, P1) and d.columns == [0, 1]
    s.validate()


# --- port row bonus -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("dock_kind", "held", "tokens"), [(Res.FISH, 5, 3), (Res.KELP, 2, 2), (Res.METAL, 0, 0)])
def test_last_port_gives_a_cleanup_token_per_resource_matching_one_chosen_dock_at_most_3(dock_kind, held, tokens):
    s = fresh(P0)
    d = s.d
    ports = [loc(3, 0), loc(3, 2), loc(3, 4)]
    for i in ports:
        place(d, P0, Bld.PORT, i)
    fish_dock, kelp_dock, metal_dock = (next(x.id for x in DOCKS if x.resource == k) for k in (0, 2, 3))
    for dock, i in zip((fish_dock, kelp_dock, metal_dock), ports, strict=True):
        attach_dock(d, dock, i)
    place(d, P1, Bld.PORT, loc(2, 0))
    p1_dock = next(x.id for x in DOCKS if x.resource == dock_kind and x.id not in d.dock_at)
    attach_dock(d, p1_dock, loc(2, 0))  # the opponent's docks are not offered
    set_dock_display(d, [x.id for x in DOCKS if x.resource == Res.ARTIFACT])
    amounts = {"artifact": GAIN_ARTIFACT.cost, "fish": 5, "kelp": 2}
    set_res(d, P0, **amounts)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_ARTIFACT))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.ROW_PORT, P0)
    assert s.legal_actions() == [la(loc(1, 1)), *(la(i) for i in ports), PASS]
    chosen = ports[[Res.FISH, Res.KELP, Res.METAL].index(dock_kind)]
    s.apply(la(chosen))
    assert d.cleanup == [tokens, 0] and d.cleanup_supply == 20 - tokens
    assert res(d, P0)[dock_kind] == held  # the resources are only counted, not spent
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


@pytest.mark.parametrize("ports_before", [2, 3])
def test_port_row_bonus_needs_the_fourth_port_and_may_be_passed(ports_before):
    s = fresh(P0)
    d = s.d
    for i in [loc(3, 0), loc(3, 2), loc(3, 4)][:ports_before]:
        place(d, P0, Bld.PORT, i)
    attach_dock(d, next(x.id for x in DOCKS if x.resource == Res.FISH), loc(3, 0))
    set_res(d, P0, fish=10)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    if ports_before == 2:  # the third port: no row bonus
        assert pending(s) == (Step.MAIN, P1)
        return
    assert pending(s) == (Step.ROW_PORT, P0)
    assert s.legal_actions() == [la(GAIN_FISH), la(loc(3, 0)), PASS]
    s.apply(PASS)
    assert d.cleanup == [0, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


# --- academy row bonus --------------------------------------------------------------------------------
def test_last_academy_refreshes_a_spent_specialist():
    s = fresh(P0)
    d = s.d
    for i in (loc(3, 0), loc(3, 2), loc(3, 4)):
        place(d, P0, Bld.ACADEMY, i)
    scout = give_spec(d, P0, "Scout", spent=True)
    give_spec(d, P0, "Trawler")
    give_spec(d, P1, "Agent", spent=True)
    set_spec_display(d, ["Prospector", "Salvager", "Founder"])
    set_res(d, P0, fish=10)
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)  # takes the Prospector (face up)
    s.apply(PASS)
    assert pending(s) == (Step.REFRESH, P0)
    assert s.legal_actions() == [SPEC0 + scout, PASS]
    s.apply(SPEC0 + scout)
    assert d.spec_spent[scout] == 0
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_academy_row_bonus_is_skipped_without_a_spent_specialist():
    s = fresh(P0)
    d = s.d
    for i in (loc(3, 0), loc(3, 2), loc(3, 4)):
        place(d, P0, Bld.ACADEMY, i)
    set_spec_display(d, ["Prospector", "Salvager", "Scout"])
    set_res(d, P0, fish=10)
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


# --- shipyard row bonus -------------------------------------------------------------------------------
def test_last_shipyard_moves_any_number_of_own_ships_one_by_one_each_once():
    s = fresh(P0)
    d = s.d
    for i in (loc(3, 3), loc(3, 4), loc(3, 5)):
        place(d, P0, Bld.SHIPYARD, i)
    place(d, P1, Bld.SHIPYARD, loc(2, 5))
    put_ship(d, P0, loc(0, 0))
    put_ship(d, P0, loc(1, 0))
    put_ship(d, P1, loc(2, 0))
    set_res(d, P0, metal=10)
    start(s)
    s.apply(BUILD0 + Bld.SHIPYARD)
    s.apply(la(loc(3, 1)))
    assert pending(s) == (Step.SHIP_PLACE, P0)
    s.apply(la(loc(2, 1)))  # the new (fourth) ship
    s.apply(PASS)  # the location's gain
    assert pending(s) == (Step.SHIP_SELECT, P0)
    assert s.legal_actions() == [la(loc(0, 0)), la(loc(1, 0)), la(loc(2, 1)), PASS]
    s.apply(la(loc(0, 0)))
    assert pending(s) == (Step.SHIP_DEST, P0)
    occupied = {loc(3, 3), loc(3, 4), loc(3, 5), loc(2, 5), loc(3, 1), loc(0, 0), loc(1, 0), loc(2, 0), loc(2, 1)}
    assert s.legal_actions() == [LOC0 + i for i in range(NUM_LOCS) if i not in occupied]  # any empty location
    s.apply(la(loc(0, 5)))
    # the moved ship (now at Kelpwood position 6) is not offered again
    assert s.legal_actions() == [la(loc(1, 0)), la(loc(2, 1)), PASS]
    s.apply(la(loc(2, 1)))
    s.apply(la(loc(0, 0)))  # a location left empty by an earlier move
    assert s.legal_actions() == [la(loc(1, 0)), PASS]
    s.apply(la(loc(1, 0)))
    s.apply(la(loc(1, 5)))
    assert pending(s) == (Step.MAIN, P1)  # every ship has moved: the bonus ends by itself
    assert sorted(i for i in range(NUM_LOCS) if d.ship[i] == P0) == [loc(0, 0), loc(0, 5), loc(1, 5)]
    assert d.ship[loc(2, 0)] == P1
    s.validate()


def test_shipyard_row_bonus_may_stop_after_any_ship():
    s = fresh(P0)
    d = s.d
    for i in (loc(3, 3), loc(3, 4), loc(3, 5)):
        place(d, P0, Bld.SHIPYARD, i)
    put_ship(d, P0, loc(0, 0))
    set_res(d, P0, metal=10)
    start(s)
    s.apply(BUILD0 + Bld.SHIPYARD)
    s.apply(la(loc(3, 1)))
    s.apply(la(loc(1, 0)))
    s.apply(PASS)
    s.apply(la(loc(1, 0)))
    s.apply(la(loc(1, 5)))
    s.apply(PASS)
    assert pending(s) == (Step.MAIN, P1)
    assert [i for i in range(NUM_LOCS) if d.ship[i] == P0] == [loc(0, 0), loc(1, 5)]
    assert d.ship.count(NO) == NUM_LOCS - 2
    s.validate()
