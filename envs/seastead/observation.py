"""Observation vectors: what one player may know, from their seat ("mine" first), in [0, 1].

The layout is fixed (:data:`LAYOUT`, name -> slice). Everything in Seastead is public except the order of
the dive, dock and specialist decks; only their sizes are shown. :func:`state_vector` appends the next
card of each deck for centralised critics.
"""

from __future__ import annotations

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


def observe(d: SeasteadData, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Write ``me``'s observation into ``out`` (or a new array) and return it."""
    o = np.zeros(OBS_SIZE, np.float32) if out is None else out
    if out is not None:
        o[:] = 0.0
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
    ones += [_TRIGGERS + i for i in range(4) if (t >> i) & 1]
    # scalars, one assignment
    scal = [min(d.round_no / 20.0, 1.0), d.cleanup_supply / 20.0, *(x / 10.0 for x in d.supply)]
    for seat in (me, opp):
        r = seat * NUM_RES
        bt = seat * 3
        scal += [
            *(x / 10.0 for x in d.res[r : r + NUM_RES]),
            min(d.cleanup[seat] / 20.0, 1.0),
            min(d.shortfall[seat] / 20.0, 1.0),
            *(x / 4.0 for x in d.built[bt : bt + 3]),
            d.columns[seat] / 4.0,
            d.ship.count(seat) / 4.0,
            d.ships_boxed[seat] / 4.0,
        ]
    deck = d.dive_deck
    band = [_BAND[c] for c in deck]
    scal += [band.count(0) / 4.0, band.count(1) / 12.0, band.count(2) / 4.0]
    scal += [len(d.dock_deck) / 12.0, len(d.spec_deck) / 16.0]
    o[_SCALARS : _SCALARS + len(scal)] = scal
    # specialists, buildings, ships, demand
    spent = d.spec_spent
    for sid, owner in enumerate(d.spec_owner):
        if owner != NO:
            ones.append((_SPEC_ME if owner == me else _SPEC_OPP) + 2 * sid + spent[sid])
    for loc, owner in enumerate(d.loc_owner):
        if d.loc_bld[loc] == BOSS_BUILDING:
            ones.append(_AT["boss_bld"] + loc)
        elif owner != NO:
            ones.append((_BLD_ME if owner == me else _BLD_OPP) + 3 * loc + d.loc_bld[loc])
    for loc, owner in enumerate(d.ship):
        if owner != NO:
            ones.append((_SHIP_ME if owner == me else _SHIP_OPP) + loc)
    ones += [_DEMAND + NUM_RES * f + k for f, k in enumerate(d.demand)]
    ones.append(_LOCKED + d.locked)
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
    ones += [_AT["sides"] + f for f, side in enumerate(d.sides) if side]
    if d.decree != NO:
        ones.append(_AT["decree"] + d.decree)
    ones += [_AT["decree_drawn"] + x for x in d.decree_drawn]
    ones += [_AT["decree_out"] + x for x in d.decree_out]
    if d.solo:
        ones.append(_AT["solo"])
        ones += [_AT["boss_visits"] + i for i, v in enumerate(d.boss_visits) if v]
        o[LAYOUT["boss_res"]] = [x / 10.0 for x in d.boss_res]
    o[_AT["decree_deck"]] = len(d.decree_deck) / len(DECREES)
    o[ones] = 1.0
    if any(d.sides):
        for f, side in enumerate(d.sides):
            part = slice(f * _PER_FLOTILLA, (f + 1) * _PER_FLOTILLA)
            o[_COST_SLICE][part] = _SIDE_COST[side][part]
            o[LAYOUT["effects"]].reshape(NUM_LOCS, -1)[part] = _SIDE_EFFECTS[side][part]
    else:
        o[_COST_SLICE] = _SIDE_COST[0]
        o[LAYOUT["effects"]] = _SIDE_EFFECTS[0].ravel()
    o[_DOCKS_SLICE] = _DOCK_TABLE[d.dock_at].ravel()
    o[_DOCK_DISPLAY_SLICE] = _DOCK_TABLE[d.dock_display].ravel()
    if d.sheet:
        o[LAYOUT["sheet"]] = [x / 100.0 for x in d.sheet[me * 6 : me * 6 + 6] + d.sheet[opp * 6 : opp * 6 + 6]]
    return o


def _task(ones: list[int], step: int, a: int, b: int) -> None:
    """The arguments of the pending decision: a location, flotillas, a resource kind, a count."""
    if (step in _TASK_LOC_A or step == Step.SHIP_PLACE) and a >= 0:
        ones.append(_TASK_LOC + a)
    elif step in _TASK_LOC_B:
        ones.append(_TASK_LOC + b)
    elif step == Step.SHIP_DEST:
        ones.append(_TASK_LOC + (b & 31))
    elif step == Step.DEMAND_B:
        ones.append(_TASK_FLOT + b)
    elif step == Step.DEMAND_LOCK:
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
