"""Location effects (build step 5): every effect kind printed on the A-side flotillas.

Seed: "konum etkileri genellikle isteğe bağlıdır, ancak bazıları zorunludur". The engine makes ``tribute``,
``discard`` and ``opponent_gain`` mandatory (no PASS) and all other kinds optional (effects.py).
"""

from __future__ import annotations

import pytest
from seastead_scenario import (
    DEMAND,
    LOCKED,
    P0,
    P1,
    build,
    first_location,
    fresh,
    give_spec,
    la,
    loc,
    locations,
    pending,
    place,
    put_ship,
    res,
    set_res,
    start,
)

from meeplezoo.envs.seastead.actions import FLOT0, LOC0, PASS, RES0, SPEC0, USE
from meeplezoo.envs.seastead.content import LOCATIONS, NUM_LOCS, SPEC_BY_NAME, Bld, Res
from meeplezoo.envs.seastead.effects import MANDATORY
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step

ALL_RES = [RES0 + k for k in Res]
TESTED_KINDS = {
    "gain",
    "cleanup",
    "gain_any",
    "tribute",
    "discard",
    "opponent_gain",
    "convert",
    "refresh_specialist",
    "move_ship",
    "swap_demand",
}


def pay_for(d, seat: int, location, **extra: int) -> None:
    """Give ``seat`` exactly the cost of ``location`` in its demand kind, plus ``extra`` resources."""
    amounts = dict.fromkeys(("fish", "artifact", "kelp", "metal"), 0)
    amounts[Res(DEMAND[location.flotilla]).name.lower()] += location.cost
    for k, n in extra.items():
        amounts[k] += n
    set_res(d, seat, **amounts)


def port_on(s, location) -> None:
    """Build a port on ``location`` (dock slot 0); the location effect is then pending."""
    build(s, Bld.PORT, location)


def test_every_effect_kind_in_the_data_has_a_scenario_here():
    assert {x.effect.kind for x in LOCATIONS} == TESTED_KINDS
    assert {"tribute", "discard", "opponent_gain"} == MANDATORY


# --- gain / cleanup: optional, USE or PASS ------------------------------------------------------------
@pytest.mark.parametrize("where", locations("gain"), ids=lambda x: f"loc{x.index}")
@pytest.mark.parametrize("use", [True, False])
def test_gain_gives_one_resource_of_its_kind_if_used(where, use):
    s = fresh(P0)
    d = s.d
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.EFFECT_USE, P0)
    assert s.legal_actions() == [PASS, USE]
    s.apply(USE if use else PASS)
    expected = [0, 0, 0, 0]
    expected[where.effect.resource] += where.effect.n if use else 0
    assert res(d, P0) == expected
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_gain_is_skipped_when_the_supply_has_none_of_its_kind():
    s = fresh(P0)
    d = s.d
    where = first_location("gain", resource=Res.FISH)
    d.demand = [Res.METAL, Res.ARTIFACT, Res.KELP, Res.FISH]  # this flotilla now demands metal
    set_res(d, P0, metal=where.cost)
    set_res(d, P1, fish=10)
    start(s)
    port_on(s, where)
    assert res(d, P0) == [0, 0, 0, 0]
    assert pending(s) == (Step.MAIN, P1)  # no fish to gain: no decision
    s.validate()


@pytest.mark.parametrize("where", locations("cleanup"), ids=lambda x: f"loc{x.index}")
@pytest.mark.parametrize("use", [True, False])
def test_cleanup_gives_its_cleanup_tokens_if_used(where, use):
    s = fresh(P0)
    d = s.d
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.EFFECT_USE, P0)
    assert s.legal_actions() == [PASS, USE]
    s.apply(USE if use else PASS)
    n = where.effect.n if use else 0
    assert d.cleanup == [n, 0] and d.cleanup_supply == 20 - n
    s.validate()


# --- gain_any: optional, one decision per resource ----------------------------------------------------
def test_gain_any_one_resource_of_any_supplied_kind():
    s = fresh(P0)
    d = s.d
    where = first_location("gain_any", n=1)
    set_res(d, P1, kelp=10)
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.EFFECT_KIND, P0)
    assert s.legal_actions() == [RES0 + Res.FISH, RES0 + Res.ARTIFACT, RES0 + Res.METAL, PASS]
    s.apply(RES0 + Res.METAL)
    assert res(d, P0) == [0, 0, 0, 1]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_gain_any_two_resources_are_chosen_one_by_one_and_may_stop_early():
    s = fresh(P0)
    d = s.d
    where = first_location("gain_any", n=2)
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.EFFECT_KIND, P0) and d.stack[-1][2] == 2
    s.apply(RES0 + Res.FISH)
    assert pending(s) == (Step.EFFECT_KIND, P0) and d.stack[-1][2] == 1
    assert s.legal_actions() == [*ALL_RES, PASS]
    s.apply(RES0 + Res.FISH)
    assert res(d, P0) == [2, 0, 0, 0] and pending(s) == (Step.MAIN, P1)

    s = fresh(P0)
    d = s.d
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    s.apply(RES0 + Res.KELP)
    s.apply(PASS)
    assert res(d, P0) == [0, 0, 1, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


def test_gain_any_can_be_passed_entirely():
    s = fresh(P0)
    d = s.d
    where = first_location("gain_any", n=2)
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    s.apply(PASS)
    assert res(d, P0) == [0, 0, 0, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


# --- mandatory: tribute, discard, opponent_gain -------------------------------------------------------
def test_tribute_gives_one_resource_of_a_held_kind_to_the_opponent_and_cannot_be_passed():
    s = fresh(P0)
    d = s.d
    where = first_location("tribute")
    pay_for(d, P0, where, artifact=1, metal=3)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.GIVE_KIND, P0)
    assert s.legal_actions() == [RES0 + Res.ARTIFACT, RES0 + Res.METAL]
    s.apply(RES0 + Res.METAL)
    assert res(d, P0) == [0, 1, 0, 2] and res(d, P1) == [0, 0, 0, 1]
    assert d.supply[Res.METAL] == 7
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_tribute_with_nothing_left_to_give_is_skipped():
    s = fresh(P0)
    d = s.d
    where = first_location("tribute")
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert res(d, P0) == [0, 0, 0, 0] and res(d, P1) == [0, 0, 0, 0]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_discard_returns_one_resource_of_a_held_kind_to_the_supply_and_cannot_be_passed():
    s = fresh(P0)
    d = s.d
    where = first_location("discard")
    pay_for(d, P0, where, kelp=2)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.GIVE_KIND, P0)
    assert s.legal_actions() == [RES0 + Res.KELP]
    s.apply(RES0 + Res.KELP)
    assert res(d, P0) == [0, 0, 1, 0] and res(d, P1) == [0, 0, 0, 0]
    assert d.supply[Res.KELP] == 9
    s.validate()


def test_opponent_gain_is_the_opponents_decision_of_any_supplied_kind():
    s = fresh(P0)
    d = s.d
    where = first_location("opponent_gain")
    pay_for(d, P0, where)
    set_res(d, P1, artifact=10)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.OPPONENT_GAIN, P1)
    assert s.legal_actions() == [RES0 + Res.FISH, RES0 + Res.KELP, RES0 + Res.METAL]  # no PASS
    s.apply(RES0 + Res.FISH)
    assert res(d, P1) == [1, 10, 0, 0] and res(d, P0) == [0, 0, 0, 0]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


# --- convert: optional --------------------------------------------------------------------------------
@pytest.mark.parametrize("where", locations("convert"), ids=lambda x: f"loc{x.index}")
def test_convert_gives_one_held_resource_for_n_of_another_kind(where):
    s = fresh(P0)
    d = s.d
    pay_for(d, P0, where, kelp=1)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.CONVERT_GIVE, P0)
    assert s.legal_actions() == [RES0 + Res.KELP, PASS]
    s.apply(RES0 + Res.KELP)
    assert pending(s) == (Step.CONVERT_TAKE, P0)
    assert s.legal_actions() == [RES0 + Res.FISH, RES0 + Res.ARTIFACT, RES0 + Res.METAL]  # not the kind given
    s.apply(RES0 + Res.FISH)
    assert res(d, P0) == [where.effect.n, 0, 0, 0]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_convert_takes_only_what_the_supply_has_and_can_be_passed():
    where = first_location("convert")
    s = fresh(P0)
    d = s.d
    pay_for(d, P0, where, kelp=1)
    set_res(d, P1, fish=9)  # 1 fish left
    start(s)
    port_on(s, where)
    s.apply(RES0 + Res.KELP)
    s.apply(RES0 + Res.FISH)
    assert res(d, P0) == [1, 0, 0, 0] and d.supply[Res.FISH] == 0 and d.supply[Res.KELP] == 10
    s.validate()

    s = fresh(P0)
    d = s.d
    pay_for(d, P0, where, kelp=1)
    start(s)
    port_on(s, where)
    s.apply(PASS)
    assert res(d, P0) == [0, 0, 1, 0] and pending(s) == (Step.MAIN, P1)


def test_convert_with_nothing_held_is_skipped():
    where = first_location("convert")
    s = fresh(P0)
    pay_for(s.d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


# --- refresh_specialist: optional ---------------------------------------------------------------------
def test_refresh_specialist_turns_one_of_your_spent_specialists_face_up():
    where = first_location("refresh_specialist")
    s = fresh(P0)
    d = s.d
    scout = give_spec(d, P0, "Scout", spent=True)
    engineer = give_spec(d, P0, "Engineer", spent=True)
    give_spec(d, P0, "Trawler")
    give_spec(d, P1, "Agent", spent=True)
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.REFRESH, P0)
    assert s.legal_actions() == [SPEC0 + scout, SPEC0 + engineer, PASS]
    s.apply(SPEC0 + engineer)
    assert d.spec_spent[engineer] == 0 and d.spec_spent[scout] == 1
    assert d.spec_spent[SPEC_BY_NAME["Agent"]] == 1
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_refresh_specialist_can_be_passed_and_is_skipped_without_spent_cards():
    where = first_location("refresh_specialist")
    s = fresh(P0)
    d = s.d
    scout = give_spec(d, P0, "Scout", spent=True)
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    s.apply(PASS)
    assert d.spec_spent[scout] == 1 and pending(s) == (Step.MAIN, P1)

    s = fresh(P0)
    pay_for(s.d, P0, where)
    give_spec(s.d, P0, "Scout")
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


# --- move_ship: optional, one own ship to any empty location ------------------------------------------
@pytest.mark.parametrize("where", locations("move_ship"), ids=lambda x: f"loc{x.index}")
def test_move_ship_moves_one_of_your_ships_to_any_empty_location(where):
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    place(d, P0, Bld.SHIPYARD, loc(0, 5))
    place(d, P1, Bld.SHIPYARD, loc(0, 4))
    put_ship(d, P0, loc(0, 0))
    put_ship(d, P0, loc(3, 0))
    put_ship(d, P1, loc(2, 1))
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.SHIP_SELECT, P0)
    assert s.legal_actions() == [la(loc(0, 0)), la(loc(3, 0)), PASS]
    s.apply(la(loc(3, 0)))
    assert pending(s) == (Step.SHIP_DEST, P0)
    empty = [
        LOC0 + i
        for i in range(NUM_LOCS)
        if i not in (loc(3, 5), loc(0, 5), loc(0, 4), loc(0, 0), loc(3, 0), loc(2, 1), where.index)
    ]
    assert s.legal_actions() == empty  # any empty location, not only the cheapest
    s.apply(la(loc(3, 4)))
    assert d.ship[loc(3, 4)] == P0 and d.ship[loc(3, 0)] == NO and d.ship.count(P0) == 2
    assert pending(s) == (Step.MAIN, P1)  # one ship only
    s.validate()


def test_move_ship_can_be_passed_and_is_skipped_without_own_ships():
    where = first_location("move_ship")
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, loc(0, 0))
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    s.apply(PASS)
    assert d.ship[loc(0, 0)] == P0 and pending(s) == (Step.MAIN, P1)

    s = fresh(P0)
    d = s.d
    place(d, P1, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P1, loc(0, 0))  # the opponent's ship is not yours to move
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


# --- swap_demand: optional, two unlocked tokens, the lock stays ---------------------------------------
@pytest.mark.parametrize("where", locations("swap_demand"), ids=lambda x: f"loc{x.index}")
def test_swap_demand_swaps_two_unlocked_demand_tokens_and_keeps_the_lock(where):
    s = fresh(P0)
    d = s.d
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    assert pending(s) == (Step.DEMAND_A, P0)
    unlocked = [f for f in range(4) if f != LOCKED]
    assert s.legal_actions() == [FLOT0 + f for f in unlocked] + [PASS]
    a, b = unlocked[0], unlocked[2]
    s.apply(FLOT0 + a)
    assert pending(s) == (Step.DEMAND_B, P0)
    assert s.legal_actions() == [FLOT0 + unlocked[1], FLOT0 + b]  # neither the locked nor the first one
    s.apply(FLOT0 + b)
    expected = list(DEMAND)
    expected[a], expected[b] = expected[b], expected[a]
    assert d.demand == expected and d.locked == LOCKED
    assert pending(s) == (Step.MAIN, P1)  # no lock decision: that is the column bonus
    s.validate()


def test_swap_demand_can_be_passed():
    where = first_location("swap_demand")
    s = fresh(P0)
    d = s.d
    pay_for(d, P0, where)
    start(s)
    port_on(s, where)
    s.apply(PASS)
    assert d.demand == list(DEMAND) and d.locked == LOCKED and pending(s) == (Step.MAIN, P1)
    s.validate()
