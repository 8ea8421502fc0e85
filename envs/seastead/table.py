"""Seastead's table for one seat (``envs.core.table``): decks are counts, everything else is public.

``view`` is the same position shaped as the table (flotillas of locations, displays, player boards), with
every card and tile by its name; ``view.js`` (the browser's Seastead view) draws it.
"""

from __future__ import annotations

from typing import Any

from ..core.table import build_table
from .content import (
    BUILDING_NAMES,
    DECREES,
    DIVE_CARDS,
    DOCKS,
    LOCS_PER_FLOTILLA,
    NUM_FLOTILLAS,
    NUM_RES,
    RESOURCE_NAMES,
    SETUP,
    SPECIALISTS,
)
from .render import flotilla_name, half_text
from .state import BOSS_BUILDING, NO, SCORE_CATEGORIES, SeasteadData
from .tokens import loc_cost, loc_effect

PER_SEAT = ("res", "cleanup", "shortfall", "columns", "ships_boxed")
HIDDEN = ("dive_deck", "dock_deck", "spec_deck", "decree_deck")


def _effect(loc: int, d: SeasteadData) -> str:
    e = loc_effect(d, loc)
    what = e.kind.replace("_", " ")
    return f"{what} {e.n} {RESOURCE_NAMES[e.resource]}" if e.resource >= 0 else what


def _dock(dock_id: int) -> dict[str, Any] | None:
    if dock_id == NO:
        return None
    dock = DOCKS[dock_id]
    sections = [BUILDING_NAMES[s] if s >= 0 else None for s in dock.sections]
    return {"id": dock_id, "resource": RESOURCE_NAMES[dock.resource], "sections": sections, "points": dock.points}


def _specialist(sid: int, d: SeasteadData) -> dict[str, Any]:
    sp = SPECIALISTS[sid]
    return {"name": sp.name, "vp": sp.vp, "text": sp.text, "spent": bool(d.spec_spent[sid])}


def view(d: SeasteadData) -> dict[str, Any]:
    """The public position laid out as Seastead's table (names, not ids)."""
    flotillas = []
    for f in range(NUM_FLOTILLAS):
        locations = []
        for p in range(LOCS_PER_FLOTILLA):
            loc = f * LOCS_PER_FLOTILLA + p
            b = d.loc_bld[loc]
            building = "boss" if b == BOSS_BUILDING else BUILDING_NAMES[b] if b != NO else None
            locations.append(
                {
                    "cost": loc_cost(d, loc),
                    "effect": _effect(loc, d),
                    "owner": d.loc_owner[loc],
                    "building": building,
                    "ship": d.ship[loc],
                    "dock": _dock(d.dock_at[loc]),
                }
            )
        flotillas.append(
            {
                "name": flotilla_name(d, f),
                "side": "AB"[d.sides[f]],
                "demand": RESOURCE_NAMES[d.demand[f]],
                "locked": d.locked == f,
                "locations": locations,
            }
        )
    seats = 1 if d.solo else 2
    players = []
    for s in range(seats):
        players.append(
            {
                "resources": {RESOURCE_NAMES[k]: d.res[s * NUM_RES + k] for k in range(NUM_RES)},
                "cleanup": d.cleanup[s],
                "shortfall": d.shortfall[s],
                "buildings_left": {BUILDING_NAMES[t]: SETUP.buildings_per_type - d.built[s * 3 + t] for t in range(3)},
                "columns": d.columns[s],
                "ships_on_board": d.ship.count(s),
                "ships_boxed": d.ships_boxed[s],
                "specialists": [_specialist(i, d) for i, o in enumerate(d.spec_owner) if o == s],
            }
        )
    revealed = None
    if d.revealed != NO:
        revealed = [half_text(h) for h in DIVE_CARDS[d.revealed].halves]
    sheet = None
    if d.sheet:
        rows = [d.sheet[s * 6 : s * 6 + 6] for s in range(2)]
        sheet = {"categories": list(SCORE_CATEGORIES), "rows": rows, "seats": ["P0", "Boss" if d.solo else "P1"]}
    return {
        "round": d.round_no + 1,
        "first_player": d.first_player,
        "end_round": d.end_round + 1 if d.end_round != NO else None,
        "supply": {RESOURCE_NAMES[k]: d.supply[k] for k in range(NUM_RES)},
        "cleanup_supply": d.cleanup_supply,
        "flotillas": flotillas,
        "players": players,
        "dock_display": [_dock(x) for x in d.dock_display],
        "spec_display": [_specialist(x, d) if x != NO else None for x in d.spec_display],
        "revealed": revealed,
        "decks": {
            "dive deck": len(d.dive_deck),
            "dive discard": len(d.dive_discard),
            "docks": len(d.dock_deck),
            "specialists": len(d.spec_deck),
        },
        "decree": {"title": DECREES[d.decree].title, "text": DECREES[d.decree].text} if d.decree >= 0 else None,
        "decrees_drawn": [DECREES[x].title for x in d.decree_drawn],
        "sheet": sheet,
    }


def table(state: Any, seat: int | None) -> dict[str, Any]:
    names = [sp.name for sp in SPECIALISTS]
    res = list(RESOURCE_NAMES)
    t = build_table(
        state, seat, per_seat=PER_SEAT, hidden=HIDDEN, ids={"spec_display": names}, slots={"res": res, "supply": res}
    )
    t["view"] = view(state.d)
    return t
