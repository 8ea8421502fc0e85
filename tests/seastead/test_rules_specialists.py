"""The 16 specialists: each one's timing window and exact effect (specialists.py, data/seastead.json).

Seed: "Uzman kartlarını dilediğiniz sırada 'harcayarak' (yüzünü kapatarak) tek seferlik yeteneklerini
kullanabilirsiniz; Yatırımcı (Investor) ve Ajan (Agent) kartları istisna olarak rakibinizin aksiyonuna tepki
olarak sıra sizde değilken de kullanılabilir." Windows (engine): dive cards while the dive card is shown
(``split``) or after the dive (``after``), build cards while choosing the location (``where``) or after the
build (``after``), "both" cards at the start (MAIN), the end (AFTER) and every decision of the own turn where
they can change something (``turn.BOTH_WINDOWS``: after the card is revealed, after paying, before a bonus).
"""

from __future__ import annotations

import pytest
from seastead_scenario import (
    P0,
    P1,
    attach_dock,
    card,
    first_location,
    fresh,
    give_spec,
    la,
    loc,
    on_top,
    pending,
    place,
    put_ship,
    res,
    set_cleanup,
    set_dock_display,
    set_res,
    set_spec_display,
    start,
)

from meeplezoo.envs.seastead.actions import BUILD0, DIVE, HALF0, LOC0, PASS, RES0, SLOT0, SPEC0, USE
from meeplezoo.envs.seastead.content import DOCKS, LOCATIONS, NUM_LOCS, SPEC_BY_NAME, SPECIALISTS, Bld, Res
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step

S = SPEC_BY_NAME
FISH2 = card({"fish": 2}, {"artifact": 1, "kelp": 1})
WILD2 = card({"wild": 2}, {"fish": 2, "kelp": 1})
METAL_WILD = card({"metal": 1, "wild": 1}, {"artifact": 1, "kelp": 2})
KELP2 = card({"kelp": 2}, {"fish": 1, "metal": 1})
GAIN_FISH = first_location("gain", resource=Res.FISH)  # Kelpwood (fish), cost 3
CLEANUP1 = first_location("cleanup", n=1)  # Kelpwood (fish), cost 4
ALL_RES = [RES0 + k for k in Res]
HALVES = [HALF0, HALF0 + 1]


def test_sixteen_specialists_with_their_kinds_and_timings():
    assert len(SPECIALISTS) == 16
    by_timing = {}
    for x in SPECIALISTS:
        by_timing.setdefault(x.timing, []).append(x.name)
    assert by_timing == {
        "split": ["Scout", "Trawler", "Prospector"],
        "after": ["Salvager", "Architect", "Wrecker", "Foreman"],
        "react_dive": ["Agent"],
        "where": ["Engineer", "Founder"],
        "react_build": ["Investor"],
        "any": ["Mechanic", "Trader", "Scavenger", "Patron", "Harbourmaster"],
    }
    assert {x.name for x in SPECIALISTS if x.kind == "dive"} == {"Scout", "Trawler", "Prospector", "Salvager", "Agent"}
    assert {x.name for x in SPECIALISTS if x.kind == "both"} == set(by_timing["any"])


def test_timing_windows_with_every_specialist_face_up():
    """Each window offers exactly its specialists; Agent and Investor are never played on one's own turn."""
    s = fresh(P0)
    d = s.d
    for x in SPECIALISTS:
        give_spec(d, P0, x.name)
    place(d, P0, Bld.PORT, loc(3, 0))
    attach_dock(d, DOCKS[0].id, loc(3, 0))
    place(d, P0, Bld.ACADEMY, loc(3, 1))
    place(d, P0, Bld.SHIPYARD, loc(3, 2))
    put_ship(d, P0, loc(3, 3))
    place(d, P1, Bld.ACADEMY, loc(2, 5))
    set_res(d, P0, fish=10)
    on_top(d, FISH2)
    start(s)
    spec = [SPEC0 + S[n] for n in ("Mechanic", "Trader", "Scavenger", "Patron", "Harbourmaster")]
    assert s.legal_actions() == [DIVE, *(BUILD0 + t for t in Bld), *spec]

    dive = s.clone()
    dive.apply(DIVE)
    assert dive.legal_actions() == [*HALVES, *(SPEC0 + S[n] for n in ("Scout", "Trawler", "Prospector")), *spec]
    dive.apply(HALF0)
    assert pending(dive) == (Step.AFTER, P0)
    assert dive.legal_actions() == [SPEC0 + S["Salvager"], *spec, PASS]

    s.apply(BUILD0 + Bld.PORT)
    where = [LOC0 + x.index for x in LOCATIONS if x.flotilla == 0 and d.loc_bld[x.index] == NO]
    assert s.legal_actions() == [*where, SPEC0 + S["Engineer"], SPEC0 + S["Founder"]]
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.AFTER, P0)
    after = [SPEC0 + S[n] for n in ("Architect", "Wrecker", "Foreman")]
    assert s.legal_actions() == [*after, *spec, PASS]
    s.validate()


def test_spent_specialists_are_not_offered_and_playing_one_spends_it():
    s = fresh(P0)
    d = s.d
    scavenger = give_spec(d, P0, "Scavenger")
    give_spec(d, P0, "Patron", spent=True)
    start(s)
    assert s.legal_actions() == [DIVE, SPEC0 + scavenger]
    s.apply(SPEC0 + scavenger)
    assert d.spec_spent[scavenger] == 1 and d.spec_owner[scavenger] == P0
    assert s.legal_actions() == [DIVE]  # the turn goes on: still choose dive or build
    s.validate()


# --- dive specialists ---------------------------------------------------------------------------------
def test_scout_discards_the_revealed_card_and_reveals_the_next_one():
    s = fresh(P0)
    d = s.d
    scout = give_spec(d, P0, "Scout")
    on_top(d, KELP2, FISH2)
    start(s)
    assert s.legal_actions() == [DIVE]  # not a MAIN card
    s.apply(DIVE)
    assert d.revealed == FISH2 and s.legal_actions() == [*HALVES, SPEC0 + scout]
    s.apply(SPEC0 + scout)
    assert d.spec_spent[scout] == 1
    assert d.dive_discard[-1] == FISH2 and d.revealed == KELP2
    assert s.legal_actions() == HALVES
    s.apply(HALF0)
    assert res(d, P0) == [0, 0, 2, 0] and res(d, P1) == [1, 0, 0, 1]
    assert d.dive_discard[-2:] == [FISH2, KELP2] and pending(s) == (Step.MAIN, P1)
    s.validate()


@pytest.mark.parametrize(
    ("dive_card", "half", "mine", "theirs"),
    [
        (FISH2, 0, [3, 0, 0, 0], [0, 1, 1, 0]),
        (FISH2, 1, [0, 2, 2, 0], [2, 0, 0, 0]),
        (METAL_WILD, 0, [0, 0, 0, 2], [0, 1, 2, 0]),  # + 2 wilds for the active player
    ],
)
def test_trawler_adds_one_of_each_kind_shown_on_your_half(dive_card, half, mine, theirs):
    s = fresh(P0)
    d = s.d
    trawler = give_spec(d, P0, "Trawler")
    on_top(d, dive_card)
    start(s)
    s.apply(DIVE)
    s.apply(SPEC0 + trawler)
    assert d.spec_spent[trawler] == 1 and s.legal_actions() == HALVES
    s.apply(HALF0 + half)
    assert res(d, P0) == mine
    wilds = 0
    while pending(s) == (Step.DIVE_WILD, P0):
        s.apply(RES0 + Res.FISH)
        wilds += 1
    assert wilds == (2 if dive_card == METAL_WILD else 0)
    assert res(d, P1) == theirs
    s.validate()


def test_prospector_turns_every_resource_of_your_half_into_one_kind():
    s = fresh(P0)
    d = s.d
    prospector = give_spec(d, P0, "Prospector")
    on_top(d, METAL_WILD)
    start(s)
    s.apply(DIVE)
    s.apply(SPEC0 + prospector)
    assert pending(s) == (Step.PROSPECTOR_KIND, P0)
    assert s.legal_actions() == ALL_RES
    s.apply(RES0 + Res.FISH)
    assert pending(s) == (Step.DIVE_SPLIT, P0) and s.legal_actions() == HALVES
    s.apply(HALF0)  # metal + wild -> 2 fish, no wild decision
    assert res(d, P0) == [2, 0, 0, 0] and res(d, P1) == [0, 1, 2, 0]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_salvager_after_a_dive_gives_a_cleanup_token_and_a_resource_of_choice():
    s = fresh(P0)
    d = s.d
    salvager = give_spec(d, P0, "Salvager")
    set_res(d, P1, metal=10)
    on_top(d, FISH2)
    start(s)
    s.apply(DIVE)
    assert s.legal_actions() == HALVES  # not during the dive itself
    s.apply(HALF0)
    assert pending(s) == (Step.AFTER, P0)
    assert s.legal_actions() == [SPEC0 + salvager, PASS]
    s.apply(SPEC0 + salvager)
    assert d.cleanup == [1, 0] and d.cleanup_supply == 19
    assert pending(s) == (Step.SALVAGER_KIND, P0)
    assert s.legal_actions() == [RES0 + Res.FISH, RES0 + Res.ARTIFACT, RES0 + Res.KELP]
    s.apply(RES0 + Res.KELP)
    assert res(d, P0) == [2, 0, 1, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


def test_salvager_is_not_offered_after_a_build():
    s = fresh(P0)
    d = s.d
    give_spec(d, P0, "Salvager")
    set_res(d, P0, fish=10)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


@pytest.mark.parametrize("use", [True, False])
def test_agent_is_the_opponents_reaction_to_the_split_and_swaps_the_halves(use):
    s = fresh(P0)
    d = s.d
    agent = give_spec(d, P1, "Agent")
    on_top(d, FISH2)
    start(s)
    s.apply(DIVE)
    assert s.legal_actions() == HALVES
    s.apply(HALF0)
    assert pending(s) == (Step.AGENT, P1)  # the non-active player decides
    assert s.legal_actions() == [PASS, USE]
    s.apply(USE if use else PASS)
    assert d.spec_spent[agent] == int(use)
    fish2, art_kelp = [2, 0, 0, 0], [0, 1, 1, 0]
    assert res(d, P0) == (art_kelp if use else fish2)
    assert res(d, P1) == (fish2 if use else art_kelp)
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_agent_is_not_offered_when_spent_or_on_its_owners_own_dive():
    s = fresh(P0)
    d = s.d
    give_spec(d, P1, "Agent", spent=True)
    on_top(d, FISH2)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0)
    assert pending(s) == (Step.MAIN, P1)

    s = fresh(P0)
    d = s.d
    give_spec(d, P0, "Agent")
    on_top(d, FISH2)
    start(s)
    assert s.legal_actions() == [DIVE]
    s.apply(DIVE)
    assert s.legal_actions() == HALVES
    s.apply(HALF0)
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


# --- build specialists --------------------------------------------------------------------------------
def test_engineer_makes_this_build_cost_2_less():
    s = fresh(P0)
    d = s.d
    engineer = give_spec(d, P0, "Engineer")
    set_res(d, P0, fish=1)
    start(s)
    assert s.legal_actions() == [DIVE, *(BUILD0 + t for t in Bld)]
    s.apply(BUILD0 + Bld.PORT)
    assert s.legal_actions() == [SPEC0 + engineer]
    s.apply(SPEC0 + engineer)
    assert d.spec_spent[engineer] == 1
    # 1 fish after the 2 off: Kelpwood (fish) up to cost 3, and every cost-2 location (free) of any flotilla
    affordable = [x for x in LOCATIONS if x.cost <= 2 or (x.flotilla == 0 and x.cost <= 3)]
    assert s.legal_actions() == [LOC0 + x.index for x in affordable]
    s.apply(la(GAIN_FISH))
    assert res(d, P0) == [0, 0, 0, 0] and d.supply[Res.FISH] == 10
    s.validate()


def test_founder_pays_the_build_in_one_kind_of_your_choice():
    s = fresh(P0)
    d = s.d
    founder = give_spec(d, P0, "Founder")
    set_res(d, P0, fish=1, kelp=3)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    assert s.legal_actions() == [loc(2, 0) + LOC0, loc(2, 1) + LOC0, loc(2, 2) + LOC0, SPEC0 + founder]
    s.apply(SPEC0 + founder)
    assert pending(s) == (Step.FOUNDER_KIND, P0)
    assert s.legal_actions() == [RES0 + Res.KELP]  # 1 fish pays nowhere
    s.apply(RES0 + Res.KELP)
    assert s.legal_actions() == [LOC0 + x.index for x in LOCATIONS if x.cost <= 3]
    s.apply(la(GAIN_FISH))  # Kelpwood demands fish; paid in kelp
    assert res(d, P0) == [1, 0, 0, 0] and d.supply[Res.KELP] == 10
    s.validate()


def test_founder_and_engineer_together():
    s = fresh(P0)
    d = s.d
    founder = give_spec(d, P0, "Founder")
    engineer = give_spec(d, P0, "Engineer")
    set_res(d, P0, metal=2)
    place(d, P1, Bld.PORT, loc(3, 0))  # metal pays nowhere cheap enough without the Founder
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    assert s.legal_actions() == [SPEC0 + engineer, SPEC0 + founder]
    s.apply(SPEC0 + founder)
    s.apply(RES0 + Res.METAL)
    s.apply(SPEC0 + engineer)
    target = next(x for x in LOCATIONS if x.cost == 4 and d.loc_bld[x.index] == NO)
    s.apply(la(target))
    assert res(d, P0) == [0, 0, 0, 0] and d.supply[Res.METAL] == 10
    s.validate()


@pytest.mark.parametrize("use", [True, False])
def test_investor_is_the_opponents_reaction_taking_2_of_the_kind_paid(use):
    s = fresh(P0)
    d = s.d
    investor = give_spec(d, P1, "Investor")
    set_res(d, P0, fish=GAIN_FISH.cost)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    assert pending(s) == (Step.INVESTOR, P1)  # right after the payment, before the building effect
    assert s.legal_actions() == [PASS, USE]
    s.apply(USE if use else PASS)
    assert res(d, P1) == ([2, 0, 0, 0] if use else [0, 0, 0, 0])
    assert d.spec_spent[investor] == int(use)
    assert pending(s) == (Step.DOCK_CHOICE, P0)
    s.validate()


def test_investor_takes_the_kind_paid_with_the_founder():
    s = fresh(P0)
    d = s.d
    give_spec(d, P1, "Investor")
    founder = give_spec(d, P0, "Founder")
    set_res(d, P0, kelp=3)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(SPEC0 + founder)
    s.apply(RES0 + Res.KELP)
    s.apply(la(GAIN_FISH))
    assert pending(s) == (Step.INVESTOR, P1) and d.stack[-1][2] == Res.KELP
    s.apply(USE)
    assert res(d, P1) == [0, 0, 2, 0] and d.supply[Res.KELP] == 8
    s.validate()


def test_investor_takes_only_what_the_supply_has():
    s = fresh(P0)
    d = s.d
    give_spec(d, P1, "Investor")
    engineer = give_spec(d, P0, "Engineer")
    set_res(d, P0, fish=1)
    set_res(d, P1, fish=9)  # no fish in the supply until P0 pays
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(SPEC0 + engineer)
    s.apply(la(GAIN_FISH))  # 3 - 2 = 1 fish paid
    s.apply(USE)
    assert res(d, P1) == [10, 0, 0, 0] and d.supply[Res.FISH] == 0
    s.validate()


def test_investor_is_not_offered_for_its_owners_own_build():
    s = fresh(P0)
    d = s.d
    give_spec(d, P0, "Investor")
    set_res(d, P0, fish=10)
    start(s)
    assert s.legal_actions() == [DIVE, *(BUILD0 + t for t in Bld)]
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    assert pending(s) == (Step.DOCK_CHOICE, P0)
    s.validate()


def build_port_then_after(s) -> None:
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.AFTER, P0)


def test_architect_moves_your_academy_or_shipyard_not_a_port_and_the_ship_there_moves_without_bonus():
    s = fresh(P0)
    d = s.d
    architect = give_spec(d, P0, "Architect")
    place(d, P0, Bld.ACADEMY, loc(3, 0))
    place(d, P0, Bld.SHIPYARD, loc(3, 1))
    place(d, P0, Bld.PORT, loc(3, 2))
    place(d, P1, Bld.ACADEMY, loc(2, 0))
    place(d, P1, Bld.SHIPYARD, loc(2, 1))
    put_ship(d, P1, loc(1, 3))
    set_res(d, P0, fish=GAIN_FISH.cost)
    start(s)
    build_port_then_after(s)
    assert s.legal_actions() == [SPEC0 + architect, PASS]
    s.apply(SPEC0 + architect)
    assert pending(s) == (Step.BUILDING_SELECT, P0)
    assert s.legal_actions() == [la(loc(3, 0)), la(loc(3, 1))]  # own academy and shipyard only
    s.apply(la(loc(3, 1)))
    assert pending(s) == (Step.BUILDING_DEST, P0)
    built = {loc(3, 0), loc(3, 1), loc(3, 2), loc(2, 0), loc(2, 1), GAIN_FISH.index}
    assert s.legal_actions() == [LOC0 + i for i in range(NUM_LOCS) if i not in built]  # ships allowed
    s.apply(la(loc(1, 3)))
    assert d.loc_bld[loc(1, 3)] == Bld.SHIPYARD and d.loc_owner[loc(1, 3)] == P0
    assert d.loc_bld[loc(3, 1)] == NO and d.loc_owner[loc(3, 1)] == NO
    assert d.built[0:3] == [2, 1, 1]  # a move, not a build
    # P1's ship must move by normal placement; no owner's bonus and nothing paid
    assert pending(s) == (Step.SHIP_PLACE, P1)
    s.apply(s.legal_actions()[0])
    assert d.ship.count(P1) == 1 and d.ship[loc(1, 3)] == NO
    assert res(d, P0) == [0, 0, 0, 0] and res(d, P1) == [0, 0, 0, 0]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_wrecker_moves_an_opponents_academy_or_shipyard_and_your_own_ship_there_moves_without_bonus():
    s = fresh(P0)
    d = s.d
    wrecker = give_spec(d, P0, "Wrecker")
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, loc(1, 3))
    place(d, P1, Bld.ACADEMY, loc(2, 0))
    place(d, P1, Bld.SHIPYARD, loc(2, 1))
    place(d, P1, Bld.PORT, loc(2, 2))
    set_res(d, P0, fish=GAIN_FISH.cost)
    start(s)
    build_port_then_after(s)
    s.apply(SPEC0 + wrecker)
    assert s.legal_actions() == [la(loc(2, 0)), la(loc(2, 1))]  # the opponent's, not the port
    s.apply(la(loc(2, 0)))
    s.apply(la(loc(1, 3)))
    assert d.loc_owner[loc(1, 3)] == P1 and d.loc_bld[loc(1, 3)] == Bld.ACADEMY
    assert pending(s) == (Step.SHIP_PLACE, P0)  # own ship, moved by its owner
    s.apply(la(loc(0, 0)))
    assert d.ship[loc(0, 0)] == P0 and d.ship[loc(1, 3)] == NO
    assert res(d, P0) == [0, 0, 0, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


def test_architect_and_wrecker_are_not_offered_without_a_movable_building():
    s = fresh(P0)
    d = s.d
    give_spec(d, P0, "Architect")
    give_spec(d, P0, "Wrecker")
    place(d, P1, Bld.PORT, loc(2, 2))
    set_res(d, P0, fish=GAIN_FISH.cost)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.MAIN, P1)  # only ports on the board: nothing to move
    s.validate()


def test_foreman_applies_the_location_effect_once_more():
    s = fresh(P0)
    d = s.d
    foreman = give_spec(d, P0, "Foreman")
    set_res(d, P0, fish=CLEANUP1.cost)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(CLEANUP1))
    s.apply(SLOT0)
    s.apply(USE)
    assert d.cleanup == [1, 0] and pending(s) == (Step.AFTER, P0)
    assert s.legal_actions() == [SPEC0 + foreman, PASS]
    s.apply(SPEC0 + foreman)
    assert pending(s) == (Step.EFFECT_USE, P0)
    s.apply(USE)
    assert d.cleanup == [2, 0] and d.spec_spent[foreman] == 1
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_a_specialist_refreshed_this_turn_waits_for_the_next_turn():
    """Filled-in rule (docs/rules/seastead.md): the Foreman repeating a refresh location effect may turn
    itself face up again, but it is not offered again this turn, so a turn cannot loop forever."""
    s = fresh(P0)
    d = s.d
    foreman = give_spec(d, P0, "Foreman")
    refresh = first_location("refresh_specialist")
    set_res(d, P0, **{Res(d.demand[refresh.flotilla]).name.lower(): refresh.cost})
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(refresh))
    s.apply(SLOT0)  # dock tile
    assert pending(s) == (Step.AFTER, P0)  # nothing spent yet, so the refresh effect was skipped
    s.apply(SPEC0 + foreman)
    assert pending(s) == (Step.REFRESH, P0) and s.legal_actions() == [SPEC0 + foreman, PASS]
    s.apply(SPEC0 + foreman)
    assert d.spec_spent[foreman] == 0
    assert pending(s) == (Step.MAIN, P1)  # the AFTER window closed: no playable specialist left this turn
    s.validate()


# --- "both" specialists -------------------------------------------------------------------------------
def test_mechanic_moves_one_of_your_ships_to_any_empty_location():
    s = fresh(P0)
    d = s.d
    mechanic = give_spec(d, P0, "Mechanic")
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, loc(0, 0))
    start(s)
    assert s.legal_actions() == [DIVE, SPEC0 + mechanic]
    s.apply(SPEC0 + mechanic)
    assert pending(s) == (Step.SHIP_SELECT, P0)
    assert s.legal_actions() == [la(loc(0, 0)), PASS]
    s.apply(la(loc(0, 0)))
    assert s.legal_actions() == [LOC0 + i for i in range(NUM_LOCS) if i not in (loc(0, 0), loc(3, 5))]
    s.apply(la(loc(1, 5)))
    assert d.ship[loc(1, 5)] == P0 and d.ship[loc(0, 0)] == NO
    assert pending(s) == (Step.MAIN, P0) and s.legal_actions() == [DIVE]
    s.validate()


def test_mechanic_needs_a_ship():
    s = fresh(P0)
    give_spec(s.d, P0, "Mechanic")
    start(s)
    assert s.legal_actions() == [DIVE]
    s.validate()


def test_trader_exchanges_all_of_one_kind_as_far_as_the_supply_has_it():
    s = fresh(P0)
    d = s.d
    trader = give_spec(d, P0, "Trader")
    set_res(d, P0, fish=3, kelp=1)
    set_res(d, P1, artifact=8)  # 2 artifacts in the supply
    start(s)
    s.apply(SPEC0 + trader)
    assert pending(s) == (Step.TRADER_FROM, P0)
    assert s.legal_actions() == [RES0 + Res.FISH, RES0 + Res.KELP]
    s.apply(RES0 + Res.FISH)
    assert pending(s) == (Step.TRADER_TO, P0)
    assert s.legal_actions() == [RES0 + Res.ARTIFACT, RES0 + Res.KELP, RES0 + Res.METAL]
    s.apply(RES0 + Res.ARTIFACT)
    assert res(d, P0) == [1, 2, 1, 0] and d.supply == [9, 0, 9, 10]
    assert pending(s) == (Step.MAIN, P0)
    s.validate()


def test_trader_exchanges_every_resource_of_the_kind():
    s = fresh(P0)
    d = s.d
    trader = give_spec(d, P0, "Trader")
    set_res(d, P0, fish=4)
    start(s)
    s.apply(SPEC0 + trader)
    s.apply(RES0 + Res.FISH)
    s.apply(RES0 + Res.METAL)
    assert res(d, P0) == [0, 0, 0, 4]
    assert BUILD0 + Bld.PORT in s.legal_actions()  # Lanternreef demands metal: a build is now possible
    s.validate()


def test_scavenger_takes_two_cleanup_tokens_and_records_a_shortfall():
    s = fresh(P0)
    d = s.d
    scavenger = give_spec(d, P0, "Scavenger")
    start(s)
    s.apply(SPEC0 + scavenger)
    assert d.cleanup == [2, 0] and d.cleanup_supply == 18 and d.shortfall == [0, 0]

    s = fresh(P0)
    d = s.d
    scavenger = give_spec(d, P0, "Scavenger")
    set_cleanup(d, P1, 19)
    start(s)
    s.apply(SPEC0 + scavenger)
    assert d.cleanup == [1, 19] and d.cleanup_supply == 0 and d.shortfall == [1, 0]
    s.validate()


def test_patron_gives_one_of_each_kind_you_have_none_of():
    s = fresh(P0)
    d = s.d
    patron = give_spec(d, P0, "Patron")
    set_res(d, P0, fish=2, kelp=1)
    set_res(d, P1, metal=10)
    start(s)
    s.apply(SPEC0 + patron)
    assert res(d, P0) == [2, 1, 1, 0]  # no metal left in the supply
    assert d.spec_spent[patron] == 1
    s.validate()


def test_patron_is_not_offered_when_it_would_give_nothing():
    s = fresh(P0)
    d = s.d
    give_spec(d, P0, "Patron")
    set_res(d, P0, fish=1, artifact=1, kelp=1)
    set_res(d, P1, metal=10)
    start(s)
    assert s.legal_actions() == [DIVE]
    s.validate()


def test_harbourmaster_exchanges_the_dock_of_your_port_with_one_from_the_display():
    s = fresh(P0)
    d = s.d
    harbour = give_spec(d, P0, "Harbourmaster")
    place(d, P0, Bld.PORT, loc(3, 0))
    place(d, P1, Bld.PORT, loc(2, 0))
    set_dock_display(d, [1, 2, 3])
    attach_dock(d, 0, loc(3, 0))
    attach_dock(d, 4, loc(2, 0))
    start(s)
    s.apply(SPEC0 + harbour)
    assert pending(s) == (Step.HARBOUR_PORT, P0)
    assert s.legal_actions() == [la(loc(3, 0))]  # own ports with a dock only
    s.apply(la(loc(3, 0)))
    assert s.legal_actions() == [SLOT0, SLOT0 + 1, SLOT0 + 2]
    s.apply(SLOT0 + 1)
    assert d.dock_at[loc(3, 0)] == 2 and d.dock_display == [1, 0, 3] and d.dock_at[loc(2, 0)] == 4
    assert pending(s) == (Step.MAIN, P0)
    s.validate()


def test_harbourmaster_needs_a_dock_of_your_own():
    s = fresh(P0)
    d = s.d
    give_spec(d, P0, "Harbourmaster")
    place(d, P1, Bld.PORT, loc(2, 0))
    attach_dock(d, 4, loc(2, 0))
    place(d, P0, Bld.ACADEMY, loc(3, 0))
    start(s)
    assert s.legal_actions() == [DIVE]
    s.validate()


def test_both_specialists_can_also_end_a_dive_turn():
    s = fresh(P0)
    d = s.d
    scavenger = give_spec(d, P0, "Scavenger")
    on_top(d, FISH2)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0)
    assert pending(s) == (Step.AFTER, P0) and s.legal_actions() == [SPEC0 + scavenger, PASS]
    s.apply(SPEC0 + scavenger)
    assert d.cleanup == [2, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


# --- a specialist taken this turn ----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Scavenger", "Foreman", "Architect"])
def test_a_specialist_taken_with_an_academy_can_be_played_the_same_turn(name):
    s = fresh(P0)
    d = s.d
    set_spec_display(d, [name, "Scout", "Trawler"])
    set_res(d, P0, fish=GAIN_FISH.cost)
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    assert d.spec_owner[S[name]] == P0
    s.apply(PASS)
    assert pending(s) == (Step.AFTER, P0)
    assert s.legal_actions() == [SPEC0 + S[name], PASS]
    s.apply(SPEC0 + S[name])
    assert d.spec_spent[S[name]] == 1
    s.validate()


# --- "both" specialists at any moment of the own turn (issue 7 item 11) ---------------------------------
def test_both_specialist_between_paying_and_the_port_row_bonus_changes_what_the_bonus_counts():
    """Seed FAQ: face-up specialists "sıranız geldiğinde dilediğiniz sırada" - e.g. after paying for the last
    port and before its row bonus counts your resources. The Patron gives 1 kelp that the bonus then counts."""
    s = fresh(P0)
    d = s.d
    patron = give_spec(d, P0, "Patron")
    kelp_dock = next(x.id for x in DOCKS if x.resource == Res.KELP)
    for p in range(3):
        place(d, P0, Bld.PORT, loc(3, p))
    attach_dock(d, kelp_dock, loc(3, 0))
    set_res(d, P0, fish=GAIN_FISH.cost)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))  # paid: P0 holds nothing now
    assert pending(s) == (Step.DOCK_CHOICE, P0) and SPEC0 + patron in s.legal_actions()
    s.apply(SLOT0)
    assert pending(s) == (Step.EFFECT_USE, P0) and s.legal_actions() == [SPEC0 + patron, PASS, USE]
    s.apply(PASS)
    assert pending(s) == (Step.ROW_PORT, P0)
    assert s.legal_actions() == [la(GAIN_FISH), la(loc(3, 0)), SPEC0 + patron, PASS]
    s.apply(SPEC0 + patron)
    assert res(d, P0) == [1, 1, 1, 1] and d.spec_spent[patron] == 1
    assert pending(s) == (Step.ROW_PORT, P0)  # the bonus still waits, and the card is not offered again
    assert s.legal_actions() == [la(GAIN_FISH), la(loc(3, 0)), PASS]
    s.apply(la(loc(3, 0)))
    assert d.cleanup[P0] == 1  # the kelp from the Patron counted
    s.validate()


def test_both_specialist_after_the_dive_card_is_revealed():
    """A "both" card can be played after seeing the dive card and before splitting it (the Trader here)."""
    s = fresh(P0)
    d = s.d
    trader = give_spec(d, P0, "Trader")
    set_res(d, P0, fish=2)
    on_top(d, KELP2)
    start(s)
    s.apply(DIVE)
    assert s.legal_actions() == [*HALVES, SPEC0 + trader]
    s.apply(SPEC0 + trader)
    s.apply(RES0 + Res.FISH)
    s.apply(RES0 + Res.METAL)
    assert pending(s) == (Step.DIVE_SPLIT, P0) and s.legal_actions() == HALVES
    s.apply(HALF0)
    assert res(d, P0) == [0, 0, 2, 2] and res(d, P1) == [1, 0, 0, 1]
    s.validate()


def test_both_specialist_played_at_the_academy_row_bonus_can_then_be_refreshed():
    """At the academy row bonus (turn a spent card face up) a face-up "both" card is played, not refreshed;
    once spent it is among the cards the bonus may refresh (it waits for the next turn to be played again)."""
    s = fresh(P0)
    d = s.d
    scavenger = give_spec(d, P0, "Scavenger")
    salvager = give_spec(d, P0, "Salvager", spent=True)
    for p in range(3):
        place(d, P0, Bld.ACADEMY, loc(3, p))
    set_res(d, P0, fish=GAIN_FISH.cost)
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.REFRESH, P0) and s.legal_actions() == [SPEC0 + salvager, SPEC0 + scavenger, PASS]
    s.apply(SPEC0 + scavenger)  # face up: played
    assert d.cleanup[P0] == 2 and d.spec_spent[scavenger] == 1
    assert pending(s) == (Step.REFRESH, P0)
    s.apply(SPEC0 + scavenger)  # spent: refreshed
    assert d.spec_spent[scavenger] == 0 and d.spec_spent[salvager] == 1
    assert pending(s) == (Step.MAIN, P1)  # nothing else to play this turn: the refreshed card waits
    s.validate()


def test_both_specialists_are_never_offered_in_the_opponents_decisions_or_while_choosing_the_location():
    s = fresh(P0)
    d = s.d
    patron = give_spec(d, P1, "Patron")
    give_spec(d, P0, "Scavenger")
    on_top(d, WILD2)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0 + 1)  # P1 gets the two wilds: their choice during P0's turn
    assert pending(s) == (Step.DIVE_WILD, P1) and SPEC0 + patron not in s.legal_actions()
    s2 = fresh(P0)
    give_spec(s2.d, P0, "Scavenger")
    set_res(s2.d, P0, fish=GAIN_FISH.cost)
    start(s2)
    s2.apply(BUILD0 + Bld.PORT)
    assert pending(s2) == (Step.BUILD_WHERE, P0)
    assert all(not SPEC0 <= a < PASS for a in s2.legal_actions())
