"""Observation vectors: what one player may know, from their seat ("mine" first), in [0, 1].

The layout is fixed (:data:`LAYOUT`, name -> slice). Everything in Seastead is public except the order of
the dive, dock and specialist decks; only their sizes are shown. :func:`state_vector` appends the next
card of each deck for centralised critics.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..core.layout import build_layout
from .content import (
    DECREES,
    DIVE_CARDS,
    DOCKS,
    EFFECT_KINDS,
    NUM_FLOTILLAS,
    NUM_LOCS,
    NUM_RES,
    SIDE_COST,
    SIDE_LOCATIONS,
    SPECIALISTS,
)
from .state import BOSS_BUILDING, NO, SeasteadData
from .steps import NUM_DECISIONS, Step

NUM_SPECS = len(SPECIALISTS)
NUM_DIVE = len(DIVE_CARDS)
DOCK_FEATURES = 1 + NUM_RES + 4 * 3 + 1  # present, resource, sections x building type, points

NUM_SCALARS = 2 + NUM_RES + 2 * (NUM_RES + 2 + 3 + 3) + 5
_SECTIONS = [
    ("pending", NUM_DECISIONS),
    ("to_act", 1),
    ("my_turn", 1),
    ("i_started", 1),
    ("end_round_set", 1),
    ("final_round", 1),
    ("triggers", 4),
    # round, cleanup supply, supply x4; per seat (me, opp): resources x4, cleanup, shortfall, built x3,
    # columns, ships on board, ships boxed; deck sizes: shallows, shelf, depths, docks, specialists
    ("scalars", NUM_SCALARS),
    ("spec_me", 2 * NUM_SPECS),  # per specialist: face up, spent
    ("spec_opp", 2 * NUM_SPECS),
    ("bld_me", 3 * NUM_LOCS),  # per location: port, academy, shipyard
    ("bld_opp", 3 * NUM_LOCS),
    ("ship_me", NUM_LOCS),
    ("ship_opp", NUM_LOCS),
    ("cost", NUM_LOCS),
    ("docks", NUM_LOCS * DOCK_FEATURES),
    ("demand", NUM_FLOTILLAS * NUM_RES),
    ("locked", NUM_FLOTILLAS),
    ("dock_display", 3 * DOCK_FEATURES),
    ("spec_display", 3 * NUM_SPECS),
    ("revealed", NUM_DIVE),
    ("dive_discard", NUM_DIVE),
    ("active_half", 2),
    ("modifiers", 2 + NUM_RES + NUM_RES + 3),  # trawler, engineer, prospector kind, founder kind, build type
    ("built_loc", NUM_LOCS),
    ("task_loc", NUM_LOCS),
    ("task_flotilla", NUM_FLOTILLAS),
    ("task_kind", NUM_RES),
    ("task_count", 4),
    ("sheet", 12),
    # variants: tile sides, each location's effect kind, decrees (in force, drawn, out, deck size), solo Boss
    ("sides", NUM_FLOTILLAS),
    ("effects", NUM_LOCS * len(EFFECT_KINDS)),
    ("decree", len(DECREES)),
    ("decree_drawn", len(DECREES)),
    ("decree_out", len(DECREES)),
    ("decree_deck", 1),
    ("solo", 1),
    ("boss_bld", NUM_LOCS),
    ("boss_visits", NUM_LOCS),
    ("boss_res", NUM_LOCS * NUM_RES),
]
LAYOUT, OBS_SIZE = build_layout(_SECTIONS)
STATE_EXTRA = NUM_DIVE + len(DOCKS) + NUM_SPECS + len(DECREES)
STATE_SIZE = OBS_SIZE + STATE_EXTRA

# lookup tables, built once
_DOCK_TABLE = np.zeros((len(DOCKS) + 1, DOCK_FEATURES), np.float32)  # row -1 -> no dock
for _d in DOCKS:
    row = _DOCK_TABLE[_d.id]
    row[0] = 1.0
    row[1 + _d.resource] = 1.0
    for _i, _bt in enumerate(_d.sections):
        if _bt >= 0:
            row[1 + NUM_RES + 3 * _i + _bt] = 1.0
    row[-1] = _d.points / 3.0
_SIDE_COST = [np.array(c, np.float32) / 6.0 for c in SIDE_COST]
_SIDE_EFFECTS = []  # per side: the one-hot effect kind of every location
for _locs in SIDE_LOCATIONS:
    _e = np.zeros((NUM_LOCS, len(EFFECT_KINDS)), np.float32)
    for _loc in _locs:
        _e[_loc.index, EFFECT_KINDS.index(_loc.effect.kind)] = 1.0
    _SIDE_EFFECTS.append(_e)
_PER_FLOTILLA = NUM_LOCS // NUM_FLOTILLAS
_BAND = tuple(int(c.deck) for c in DIVE_CARDS)
_AT = {name: sl.start for name, sl in LAYOUT.items()}
_PENDING, _TO_ACT, _MY_TURN, _I_STARTED = _AT["pending"], _AT["to_act"], _AT["my_turn"], _AT["i_started"]
_END_SET, _FINAL_ROUND, _TRIGGERS = _AT["end_round_set"], _AT["final_round"], _AT["triggers"]
_SCALARS, _SPEC_ME, _SPEC_OPP = _AT["scalars"], _AT["spec_me"], _AT["spec_opp"]
_BLD_ME, _BLD_OPP, _SHIP_ME, _SHIP_OPP = _AT["bld_me"], _AT["bld_opp"], _AT["ship_me"], _AT["ship_opp"]
_DEMAND, _LOCKED, _SPEC_DISPLAY = _AT["demand"], _AT["locked"], _AT["spec_display"]
_REVEALED, _DISCARD, _ACTIVE_HALF = _AT["revealed"], _AT["dive_discard"], _AT["active_half"]
_MODIFIERS, _BUILT_LOC, _TASK_LOC = _AT["modifiers"], _AT["built_loc"], _AT["task_loc"]
_TASK_FLOT, _TASK_KIND, _TASK_COUNT = _AT["task_flotilla"], _AT["task_kind"], _AT["task_count"]
_COST_SLICE, _DOCKS_SLICE, _DOCK_DISPLAY_SLICE = LAYOUT["cost"], LAYOUT["docks"], LAYOUT["dock_display"]
# which task argument is a location / flotilla / kind / count, per step
_TASK_LOC_A = {Step.DOCK_CHOICE, Step.EFFECT_USE}
_TASK_LOC_B = {Step.BUILDING_DEST, Step.HARBOUR_SLOT}
_TASK_KIND_A = {Step.INVESTOR}
_TASK_KIND_B = {Step.CONVERT_TAKE, Step.TRADER_TO}
_TASK_COUNT_A = {Step.DIVE_WILD, Step.EFFECT_KIND, Step.CONVERT_GIVE, Step.CONVERT_TAKE}
# plain ints: an IntEnum member costs several times more to look up
_SHIP_PLACE, _SHIP_DEST = int(Step.SHIP_PLACE), int(Step.SHIP_DEST)
_DEMAND_B, _DEMAND_LOCK = int(Step.DEMAND_B), int(Step.DEMAND_LOCK)


def _static(sides: tuple[int, ...], solo: int) -> np.ndarray:
    """The part of an observation fixed for a whole game: location values and effects, tile sides, solo."""
    o = np.zeros(OBS_SIZE, np.float32)
    if any(sides):
        for f, side in enumerate(sides):
            part = slice(f * _PER_FLOTILLA, (f + 1) * _PER_FLOTILLA)
            o[_COST_SLICE][part] = _SIDE_COST[side][part]
            o[LAYOUT["effects"]].reshape(NUM_LOCS, -1)[part] = _SIDE_EFFECTS[side][part]
            if side:
                o[_AT["sides"] + f] = 1.0
    else:
        o[_COST_SLICE] = _SIDE_COST[0]
        o[LAYOUT["effects"]] = _SIDE_EFFECTS[0].ravel()
    if solo:
        o[_AT["solo"]] = 1.0
    return o


#: ``_STATIC[sides, solo]``, built once for every combination of tile sides
_STATIC = {
    (sides, solo): _static(sides, solo)
    for sides in itertools.product(range(len(_SIDE_COST)), repeat=NUM_FLOTILLAS)
    for solo in (0, 1)
}


def _dock_parts(row: np.ndarray, start: int) -> tuple[tuple[int, ...], tuple[tuple[int, float], ...]]:
    """A dock's feature row written at ``start``: the indices of its 1.0 entries, and the other nonzero ones."""
    ones = tuple(start + i for i in np.flatnonzero(row == 1.0).tolist())
    other = tuple((start + i, float(row[i])) for i in np.flatnonzero((row != 0.0) & (row != 1.0)).tolist())
    return ones, other


#: ``_DOCK_AT[position][dock]``: the dock's features at a location (``position`` < NUM_LOCS) or in a
#: display slot (``NUM_LOCS + slot``), from :data:`_DOCK_TABLE`
_DOCK_AT = [
    [_dock_parts(_DOCK_TABLE[dock], start) for dock in range(len(DOCKS))]
    for start in [_AT["docks"] + DOCK_FEATURES * loc for loc in range(NUM_LOCS)]
    + [_AT["dock_display"] + DOCK_FEATURES * slot for slot in range(3)]
]
_BOSS_BLD, _BOSS_VISITS, _BOSS_RES = _AT["boss_bld"], _AT["boss_visits"], LAYOUT["boss_res"]
_DECREE, _DECREE_DRAWN, _DECREE_OUT = _AT["decree"], _AT["decree_drawn"], _AT["decree_out"]
_DECREE_DECK, _SHEET = _AT["decree_deck"], LAYOUT["sheet"]
_SPEC_FIRST = tuple(range(0, 2 * NUM_SPECS, 2))  # 2 * sid
_BLD_FIRST = tuple(range(0, 3 * NUM_LOCS, 3))  # 3 * loc
#: ``_SEAT_AT[me]``: where the specialists, buildings and ships of seat 0 and of seat 1 start, seen by ``me``
_SEAT_AT = (
    ((_SPEC_ME, _SPEC_OPP), (_BLD_ME, _BLD_OPP), (_SHIP_ME, _SHIP_OPP)),
    ((_SPEC_OPP, _SPEC_ME), (_BLD_OPP, _BLD_ME), (_SHIP_OPP, _SHIP_ME)),
)


def observe(d: SeasteadData, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Write ``me``'s observation into ``out`` (or a new array) and return it."""
    static = _STATIC[tuple(d.sides), d.solo]
    if out is None:
        o = static.copy()
    else:
        o = out
        o[:] = static
    opp = 1 - me
    ones: list[int] = []  # indices set to 1.0
    if d.stack:
        step, seat, a, b = d.stack[-1]
        ones.append(_PENDING + step)
        if seat == me:
            ones.append(_TO_ACT)
        _task(ones, step, a, b)
    if d.active == me:
        ones.append(_MY_TURN)
    if d.first_player == me:
        ones.append(_I_STARTED)
    if d.end_round != NO:
        ones.append(_END_SET)
        if d.round_no == d.end_round:
            ones.append(_FINAL_ROUND)
    t = d.triggers
    if t:
        ones += [_TRIGGERS + i for i in range(4) if (t >> i) & 1]
    o[_SCALARS : _SCALARS + NUM_SCALARS] = _scalars(d, me, opp)
    # specialists, buildings, ships, demand
    spec_at = _SEAT_AT[me][0]
    owner = d.spec_owner
    if owner.count(NO) != NUM_SPECS:
        ones += [spec_at[w] + i + x for i, w, x in zip(_SPEC_FIRST, owner, d.spec_spent, strict=True) if w != NO]
    board_ones, board_values = _board(d, me)
    ones += board_ones
    for i, x in board_values:
        o[i] = x
    if d.solo:
        ones += [_BOSS_VISITS + i for i, v in enumerate(d.boss_visits) if v]
        o[_BOSS_RES] = [x / 10.0 for x in d.boss_res]
    demand = d.demand
    ones += [_DEMAND + demand[0], _DEMAND + NUM_RES + demand[1], _DEMAND + 2 * NUM_RES + demand[2]]
    ones += [_DEMAND + 3 * NUM_RES + demand[3], _LOCKED + d.locked]
    ones += [_SPEC_DISPLAY + NUM_SPECS * i + x for i, x in enumerate(d.spec_display) if x != NO]
    if d.revealed != NO:
        ones.append(_REVEALED + d.revealed)
    ones += [_DISCARD + c for c in d.dive_discard]
    if d.mine_half != NO:
        ones.append(_ACTIVE_HALF + d.mine_half)
    if d.trawler:
        ones.append(_MODIFIERS)
    if d.engineer:
        ones.append(_MODIFIERS + 1)
    if d.prospector != NO:
        ones.append(_MODIFIERS + 2 + d.prospector)
    if d.founder != NO:
        ones.append(_MODIFIERS + 2 + NUM_RES + d.founder)
    if d.build_type != NO:
        ones.append(_MODIFIERS + 2 + 2 * NUM_RES + d.build_type)
    if d.built_loc != NO:
        ones.append(_BUILT_LOC + d.built_loc)
    if d.decree != NO:
        ones.append(_DECREE + d.decree)
    if d.decree_drawn:
        ones += [_DECREE_DRAWN + x for x in d.decree_drawn]
    if d.decree_out:
        ones += [_DECREE_OUT + x for x in d.decree_out]
    if d.decree_deck:
        o[_DECREE_DECK] = len(d.decree_deck) / len(DECREES)
    o.put(ones, 1.0)  # (faster than o[ones] = 1.0)
    if d.sheet:
        o[_SHEET] = [x / 100.0 for x in d.sheet[me * 6 : me * 6 + 6] + d.sheet[opp * 6 : opp * 6 + 6]]
    return o


def _board(d: SeasteadData, me: int) -> tuple[tuple[int, ...], tuple[tuple[int, float], ...]]:
    """The buildings, ships and dock tiles (on the board and in the display) as seen by ``me``: the indices
    set to 1.0, and the other values."""
    owner, bld, ship, dock_at, display = d.loc_owner, d.loc_bld, d.ship, d.dock_at, d.dock_display
    _spec_at, bld_at, ship_at = _SEAT_AT[me]
    ones: list[int] = []
    if d.solo:
        for loc, w in enumerate(owner):
            if bld[loc] == BOSS_BUILDING:
                ones.append(_BOSS_BLD + loc)
            elif w != NO:
                ones.append((_BLD_ME if w == me else _BLD_OPP) + 3 * loc + bld[loc])
    else:
        ones += [bld_at[w] + i + x for i, w, x in zip(_BLD_FIRST, owner, bld, strict=True) if w != NO]
    if ship.count(NO) != NUM_LOCS:
        ones += [ship_at[w] + loc for loc, w in enumerate(ship) if w != NO]
    values: list[tuple[int, float]] = []
    for pos, dock in enumerate(dock_at + display):
        if dock != NO:
            dock_ones, other = _DOCK_AT[pos][dock]
            ones += dock_ones
            values += other
    return tuple(ones), tuple(values)


def _scalars(d: SeasteadData, me: int, opp: int) -> list[float]:
    """The scalars section: round, supplies, each seat's counts (mine first), deck sizes."""
    supply = d.supply
    band = [_BAND[x] for x in d.dive_deck]
    return [
        min(d.round_no / 20.0, 1.0),
        d.cleanup_supply / 20.0,
        supply[0] / 10.0,
        supply[1] / 10.0,
        supply[2] / 10.0,
        supply[3] / 10.0,
        *_seat_scalars(d, me),
        *_seat_scalars(d, opp),
        band.count(0) / 4.0,
        band.count(1) / 12.0,
        band.count(2) / 4.0,
        len(d.dock_deck) / 12.0,
        len(d.spec_deck) / 16.0,
    ]


def _seat_scalars(d: SeasteadData, seat: int) -> tuple[float, ...]:
    """One seat's counts in the scalars section: resources, clean-up and shortfall, buildings, columns, ships."""
    res, built = d.res, d.built
    r, b = seat * NUM_RES, seat * 3
    return (
        res[r] / 10.0,
        res[r + 1] / 10.0,
        res[r + 2] / 10.0,
        res[r + 3] / 10.0,
        min(d.cleanup[seat] / 20.0, 1.0),
        min(d.shortfall[seat] / 20.0, 1.0),
        built[b] / 4.0,
        built[b + 1] / 4.0,
        built[b + 2] / 4.0,
        d.columns[seat] / 4.0,
        d.ship.count(seat) / 4.0,
        d.ships_boxed[seat] / 4.0,
    )


def _task(ones: list[int], step: int, a: int, b: int) -> None:
    """The arguments of the pending decision: a location, flotillas, a resource kind, a count."""
    if (step in _TASK_LOC_A or step == _SHIP_PLACE) and a >= 0:
        ones.append(_TASK_LOC + a)
    elif step in _TASK_LOC_B:
        ones.append(_TASK_LOC + b)
    elif step == _SHIP_DEST:
        ones.append(_TASK_LOC + (b & 31))
    elif step == _DEMAND_B:
        ones.append(_TASK_FLOT + b)
    elif step == _DEMAND_LOCK:
        ones += [_TASK_FLOT + a, _TASK_FLOT + b]
    if step in _TASK_KIND_A:
        ones.append(_TASK_KIND + a)
    elif step in _TASK_KIND_B:
        ones.append(_TASK_KIND + b)
    if step in _TASK_COUNT_A:
        ones.append(_TASK_COUNT + min(a, 4) - 1)


def state_vector(d: SeasteadData, out: np.ndarray | None = None) -> np.ndarray:
    """Seat 0's observation plus the top card of the dive, dock and specialist decks."""
    o = np.zeros(STATE_SIZE, np.float32) if out is None else out
    observe(d, 0, o[:OBS_SIZE])
    o[OBS_SIZE:] = 0.0
    if d.dive_deck:
        o[OBS_SIZE + d.dive_deck[-1]] = 1.0
    if d.dock_deck:
        o[OBS_SIZE + NUM_DIVE + d.dock_deck[-1]] = 1.0
    if d.spec_deck:
        o[OBS_SIZE + NUM_DIVE + len(DOCKS) + d.spec_deck[-1]] = 1.0
    if d.decree_deck:
        o[OBS_SIZE + NUM_DIVE + len(DOCKS) + NUM_SPECS + d.decree_deck[-1]] = 1.0
    return o
