"""Build: choose a type and a location, pay, then the building's and the location's effects; ships.

Seed: "1. Oyuncu tahtanızdan müsait bir bina seçersiniz ... ilgili satırdaki en soldaki müsait binayı almak
zorundasınız. 2. ... üzerinde bina bulunmayan herhangi bir konumu seçebilirsiniz ... 3. ... talep jetonunun
gösterdiği kaynak türünden, seçtiğiniz konumun üzerinde yazan sayı kadar. 4. ... bina türünün etkisini
uygularsınız ... 5. ... konum etkisini uygularsınız". Ships: "Oyundaki tüm gemiler ... 1 kaynak indirimi
sağlar ... Gemi Sahibinin Bonusu ... Gemi Hareketi".
"""

from __future__ import annotations

from .actions import BUILD0, LOC0, PASS, RES0, SLOT0, SPEC0, USE
from .content import DOCKS, LOCS_PER_FLOTILLA, NUM_FLOTILLAS, NUM_LOCS, NUM_RES, SETUP, Bld
from .ending import record_triggers
from .specialists import ENGINEER, FOUNDER, INVESTOR, face_up, play, plays
from .state import NO, SeasteadData
from .steps import Step
from .tokens import (
    VALUES_BY_SIDES,
    buildable_locations,
    decree_is,
    empty_locations,
    gain,
    gain_cleanup,
    has_empty_location,
    loc_cost,
    opponent,
    pay,
    ship_placements,
    supplied_kinds,
)

_FLOTILLA = tuple(loc // LOCS_PER_FLOTILLA for loc in range(NUM_LOCS))


def build_cost(d: SeasteadData, loc: int, engineer: bool) -> int:
    """Location value, minus 1 for a ship there, minus 2 for the Engineer; never below 0. Decrees: Guild Tax
    (+1), Open Moorings (a ship gives 2), Stone Foundations (values 2 and 3 cost 1 less)."""
    value = loc_cost(d, loc)
    cost = value - 2 * engineer
    if d.ship[loc] != NO:
        cost -= 2 if decree_is(d, "open_moorings") else 1
    if d.decree != NO:
        cost += decree_is(d, "guild_tax") - (decree_is(d, "stone_foundations") and value <= 3)
    return max(0, cost)


def clear_boss_goods(d: SeasteadData, loc: int) -> None:
    """Solo: a building put on a location holding the Boss's resources sends them back to the supply."""
    if d.solo:
        base = loc * NUM_RES
        for k in range(NUM_RES):
            d.supply[k] += d.boss_res[base + k]
            d.boss_res[base + k] = 0
        d.boss_visits[loc] = 0


def pay_kind(d: SeasteadData, loc: int) -> int:
    return d.founder if d.founder != NO else d.demand[loc // LOCS_PER_FLOTILLA]


#: ``_BASE_COST[sides][engineer]``: every location's build cost without a ship or a decree
_BASE_COST = {
    sides: tuple(tuple(max(0, v - 2 * eng) for v in values) for eng in (0, 1))
    for sides, values in VALUES_BY_SIDES.items()
}


def build_costs(d: SeasteadData, engineer: bool) -> list[int]:
    """:func:`build_cost` of every location at once (a table lookup, then 1 less where a ship is)."""
    if d.decree != NO:
        return [build_cost(d, loc, engineer) for loc in range(NUM_LOCS)]
    costs = list(_BASE_COST[tuple(d.sides)][1 if engineer else 0])
    ship = d.ship
    if ship.count(NO) != NUM_LOCS:
        for loc, owner in enumerate(ship):
            if owner != NO and costs[loc]:  # max(0, c - 1) == max(0, max(0, c) - 1)
                costs[loc] -= 1
    return costs


def _budgets(d: SeasteadData, seat: int, any_kind: bool) -> list[int]:
    """What ``seat`` can pay per flotilla: its count of the kind paid there (the Founder's, else the
    flotilla's demand token); with ``any_kind`` its largest count of any kind."""
    held = d.res[seat * NUM_RES : seat * NUM_RES + NUM_RES]
    if any_kind:
        held = [max(held)] * NUM_RES
    return [held[d.founder]] * NUM_FLOTILLAS if d.founder != NO else [held[k] for k in d.demand]


def affordable(d: SeasteadData, seat: int, engineer: bool, any_kind: bool = False) -> list[int]:
    """Free locations ``seat`` can pay for (the demanded kind, or the Founder's); with ``any_kind`` (a Founder
    still to be played) a location is affordable when any one kind covers its cost."""
    budget = _budgets(d, seat, any_kind)
    bld = d.loc_bld
    costs = build_costs(d, engineer)
    return [loc for loc in range(NUM_LOCS) if bld[loc] == NO and costs[loc] <= budget[_FLOTILLA[loc]]]


def can_build(d: SeasteadData, seat: int) -> bool:
    """A legal build location exists, counting the Engineer and Founder the player could still play."""
    eng = bool(d.engineer) or face_up(d, seat, ENGINEER)
    budget = _budgets(d, seat, d.founder == NO and face_up(d, seat, FOUNDER))
    bld = d.loc_bld
    costs = build_costs(d, eng)
    # affordable(...) is not empty: stop at the first location
    return any(bld[loc] == NO and costs[loc] <= budget[_FLOTILLA[loc]] for loc in range(NUM_LOCS))


def start_build(d: SeasteadData, seat: int, btype: int) -> None:
    d.build_type = btype
    d.stack += [(Step.END_TURN, seat, 0, 0), (Step.AFTER, seat, 1, 0), (Step.BUILD_WHERE, seat, 0, 0)]


def legal_where(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    out = [LOC0 + loc for loc in affordable(d, seat, bool(d.engineer))]
    return out + plays(d, seat, "where")


def apply_where(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    if action >= SPEC0:
        d.stack.append((Step.BUILD_WHERE, seat, a, b))
        play(d, seat, action - SPEC0)
        return
    loc = action - LOC0
    btype = d.build_type
    kind = pay_kind(d, loc)
    pay(d, seat, kind, build_cost(d, loc, bool(d.engineer)))
    d.built[seat * 3 + btype] += 1
    d.loc_owner[loc] = seat
    d.loc_bld[loc] = btype
    d.built_loc = loc
    clear_boss_goods(d, loc)
    record_triggers(d)  # a flotilla just filled, or one building left
    d.stack += [
        (Step.COLUMN_CHECK, seat, 0, 0),
        (Step.ROW_CHECK, seat, btype, 0),
        (Step.SHIP_DISPLACED, seat, loc, 0),
        (Step.LOCATION_EFFECT, seat, loc, 0),
        (Step.BUILDING_EFFECT, seat, loc, 0),
    ]
    opp = opponent(seat)
    if not d.solo and face_up(d, opp, INVESTOR):
        d.stack.append((Step.INVESTOR, opp, kind, 0))


def legal_founder(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    """Kinds that pay for at least one location (with the Engineer if it is active or still playable)."""
    eng = bool(d.engineer) or face_up(d, seat, ENGINEER)
    bld = d.loc_bld
    costs = build_costs(d, eng)
    cheapest = min((costs[loc] for loc in range(NUM_LOCS) if bld[loc] == NO), default=None)
    if cheapest is None:
        return []
    return [RES0 + k for k in range(NUM_RES) if d.res[seat * NUM_RES + k] >= cheapest]


def apply_founder(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    d.founder = action - RES0


def legal_use_pass(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return [USE, PASS]


def apply_investor(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    if action == USE:
        d.spec_spent[INVESTOR] = 1
        gain(d, seat, a, 2)


def run_building_effect(d: SeasteadData, seat: int, loc: int, b: int) -> None:
    """Port: a dock tile; academy: a specialist; shipyard: a ship (or a cleanup token if no room)."""
    btype = d.loc_bld[loc]
    if btype == Bld.PORT:
        if any(x != NO for x in d.dock_display):
            d.stack.append((Step.DOCK_CHOICE, seat, loc, 0))
    elif btype == Bld.ACADEMY:
        if decree_is(d, "scholars_stipend"):
            gain_cleanup(d, seat, 1)
        if any(x != NO for x in d.spec_display):
            d.stack.append((Step.SPECIALIST_CHOICE, seat, 0, 0))
    elif has_empty_location(d):
        d.stack.append((Step.SHIP_PLACE, seat, NO, 0))
    else:
        d.ships_boxed[seat] += 1
        gain_cleanup(d, seat, boxed_ship_tokens(d))


def boxed_ship_tokens(d: SeasteadData) -> int:
    """Cleanup tokens for a ship that goes back to the box (Salvage Rights: 2)."""
    return 2 if decree_is(d, "salvage_rights") else 1


def legal_display(display: list[int]) -> list[int]:
    return [SLOT0 + i for i, x in enumerate(display) if x != NO]


def legal_dock_choice(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return legal_display(d.dock_display)


def apply_dock_choice(d: SeasteadData, action: int, seat: int, loc: int, b: int) -> None:
    slot = action - SLOT0
    d.dock_at[loc] = d.dock_display[slot]
    d.dock_display[slot] = d.dock_deck.pop() if d.dock_deck else NO
    if decree_is(d, "dockmasters_guild"):
        gain(d, seat, DOCKS[d.dock_at[loc]].resource, 1)


def legal_specialist_choice(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return legal_display(d.spec_display)


def apply_specialist_choice(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    slot = action - SLOT0
    d.spec_owner[d.spec_display[slot]] = seat
    d.spec_display[slot] = d.spec_deck.pop() if d.spec_deck else NO


def legal_ship_place(d: SeasteadData, seat: int, src: int, b: int) -> list[int]:
    if src == NO and decree_is(d, "shipwrights_charter"):  # a new ship: any empty location
        return [LOC0 + i for i in empty_locations(d)]
    return ship_placements(d)


def apply_ship_place(d: SeasteadData, action: int, seat: int, src: int, b: int) -> None:
    if src != NO:
        d.ship[src] = NO
    d.ship[action - LOC0] = seat


def run_ship_displaced(d: SeasteadData, seat: int, loc: int, no_bonus: int) -> None:
    """After a build on a ship (or a building moved onto one) its owner must move it by placement rules."""
    owner = d.ship[loc]
    if owner == NO:
        return
    if has_empty_location(d):
        d.stack.append((Step.SHIP_PLACE, owner, loc, 0))
    else:
        d.ship[loc] = NO
        d.ships_boxed[owner] += 1
        gain_cleanup(d, owner, boxed_ship_tokens(d))
    if owner != seat and not no_bonus:
        for _ in range(2 if decree_is(d, "harbour_dues") else 1):
            d.stack.append((Step.OWNER_BONUS, owner, 0, 0))


def legal_owner_bonus(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    """Optional (seed: "dilediğiniz 1 kaynağı ücretsiz alabilirsiniz"): any supplied kind, or PASS."""
    kinds = supplied_kinds(d)
    return [*kinds, PASS] if kinds else []


def apply_gain_one(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    if action != PASS:
        gain(d, seat, action - RES0, 1)


# --- Architect and Wrecker: move an academy or shipyard (never a port) --------------------------------
def legal_building_select(d: SeasteadData, seat: int, who: int, b: int) -> list[int]:
    owner = seat if who == 0 else opponent(seat)
    if not buildable_locations(d):
        return []
    return [
        LOC0 + i for i in range(NUM_LOCS) if d.loc_owner[i] == owner and d.loc_bld[i] in (Bld.ACADEMY, Bld.SHIPYARD)
    ]


def apply_building_select(d: SeasteadData, action: int, seat: int, who: int, b: int) -> None:
    d.stack.append((Step.BUILDING_DEST, seat, who, action - LOC0))


def legal_building_dest(d: SeasteadData, seat: int, who: int, src: int) -> list[int]:
    return [LOC0 + i for i in buildable_locations(d)]


def apply_building_dest(d: SeasteadData, action: int, seat: int, who: int, src: int) -> None:
    dest = action - LOC0
    d.loc_owner[dest], d.loc_bld[dest] = d.loc_owner[src], d.loc_bld[src]
    d.loc_owner[src] = d.loc_bld[src] = NO
    clear_boss_goods(d, dest)
    record_triggers(d)  # the building may complete a flotilla
    d.stack.append((Step.SHIP_DISPLACED, seat, dest, 1))


# --- ship moves (location effect, Mechanic, shipyard row bonus) ----------------------------------------
def legal_ship_select(d: SeasteadData, seat: int, purpose: int, moved: int) -> list[int]:
    if not has_empty_location(d):
        return []
    own = [LOC0 + i for i in range(NUM_LOCS) if d.ship[i] == seat and not (moved >> i) & 1]
    return [*own, PASS] if own else []


def apply_ship_select(d: SeasteadData, action: int, seat: int, purpose: int, moved: int) -> None:
    if action != PASS:
        d.stack.append((Step.SHIP_DEST, seat, purpose, (action - LOC0) | (moved << 5)))


def legal_ship_dest(d: SeasteadData, seat: int, purpose: int, b: int) -> list[int]:
    return [LOC0 + i for i in empty_locations(d)]


def apply_ship_dest(d: SeasteadData, action: int, seat: int, purpose: int, b: int) -> None:
    src, moved = b & 31, b >> 5
    dest = action - LOC0
    d.ship[src] = NO
    d.ship[dest] = seat
    if purpose == 2:  # shipyard row bonus: any number of ships, one by one, each once
        d.stack.append((Step.SHIP_SELECT, seat, 2, moved | (1 << dest)))


def legal_build_types(d: SeasteadData, seat: int) -> list[int]:
    """Building types with one left on the player's board, when a legal location exists for a build."""
    left = [BUILD0 + t for t in range(3) if d.built[seat * 3 + t] < SETUP.buildings_per_type]
    return left if left and can_build(d, seat) else []
