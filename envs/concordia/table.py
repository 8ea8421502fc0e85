"""Concordia's table for one seat (``envs.core.table``): the draw deck is a count, the rest is public.

``view`` is the position shaped as the table: the map (cities with their goods, houses and colonists,
routes with their colonists, provinces with their bonus markers), the Forum, the player boards, every card
by its name. ``fixed`` is the board itself (city names and places, routes), the same all game.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..core.table import build_table
from .content import CARDS, COLONISTS, GOOD_NAMES, NUM_GOODS, SURCHARGE
from .render import KIND
from .scoring import CATEGORIES, seat_sheet
from .state import NO, ConcordiaData, board_of

PER_SEAT = ("money", "goods", "col", "hand", "discard", "houses")
HIDDEN = ("deck",)


@cache
def _positions() -> dict[str, dict[str, list[int]]]:
    """City positions on the board image (data/map_layout.json)."""
    return json.loads(resources.files(__package__).joinpath("data/map_layout.json").read_text(encoding="utf-8"))


def fixed(d: ConcordiaData) -> dict[str, Any]:
    """The board: cities (name, province, letter, place), routes (two cities, land or sea), provinces."""
    m = board_of(d)
    xy = _positions()[m.name]
    cities = [
        {"name": c, "province": m.provinces[m.province_of[i]], "letter": m.letter[i], "x": xy[c][0], "y": xy[c][1]}
        for i, c in enumerate(m.cities)
    ]
    return {"map": m.name, "cities": cities, "routes": [[a, b, KIND[k]] for a, b, k in m.routes]}


def _card(c: int, slot: int | None = None) -> dict[str, Any]:
    card = CARDS[c]
    cost = [GOOD_NAMES[g] for g in card.cost]
    if slot is not None:
        cost += ["any good" if g < 0 else GOOD_NAMES[g] for g in SURCHARGE[slot]]
    numeral = ("start", "I", "II", "III", "IV", "V")[card.deck]
    return {"name": card.name, "god": card.god.name.capitalize(), "deck": numeral, "cost": cost}


def view(d: ConcordiaData) -> dict[str, Any]:
    """The public position laid out as Concordia's table (names, not ids)."""
    m = board_of(d)
    nc = m.num_cities
    cities: list[dict[str, Any]] = [
        {"good": GOOD_NAMES[d.city_good[c]] if d.city_good[c] != NO else None, "houses": [], "colonists": []}
        for c in range(nc)
    ]
    routes: list[dict[str, Any] | None] = [None] * m.num_routes
    players = []
    for s in range(d.n):
        store = {"land": 0, "sea": 0}
        for i in range(COLONISTS):
            pos = d.col[s * COLONISTS + i]
            kind = KIND[i // (COLONISTS // 2)]
            if pos == NO:
                store[kind] += 1
            elif pos < nc:
                cities[pos]["colonists"].append({"seat": s, "kind": kind})
            else:
                routes[pos - nc] = {"seat": s, "kind": kind}
        for c in d.houses[s]:
            cities[c]["houses"].append(s)
        players.append(
            {
                "money": d.money[s],
                "goods": {GOOD_NAMES[g]: d.goods[s * NUM_GOODS + g] for g in range(NUM_GOODS)},
                "storehouse_colonists": store,
                "houses": len(d.houses[s]),
                "hand": [_card(c) for c in d.hand[s]],
                "discard": [_card(c) for c in d.discard[s]],
                "praefectus_magnus": d.pm == s,
                "concordia": d.concordia == s,
            }
        )
    show = bool(d.intermediate) or not d.stack
    sheet = {"categories": list(CATEGORIES), "rows": [seat_sheet(d, s) for s in range(d.n)]} if show else None
    provinces = [
        {"name": p, "good": GOOD_NAMES[d.province_good[i]], "bonus": "goods" if d.marker[i] else "coin"}
        for i, p in enumerate(m.provinces)
    ]
    return {
        "turn": d.turns + 1,
        "cities": cities,
        "routes": routes,
        "provinces": provinces,
        "forum": [_card(c, i) if c != NO else None for i, c in enumerate(d.forum)],
        "deck": len(d.deck),
        "players": players,
        "sheet": sheet,
    }


def table(state: Any, seat: int | None) -> dict[str, Any]:
    cards = [c.name for c in CARDS]
    goods = list(GOOD_NAMES)
    ids = {"hand": cards, "discard": cards, "forum": cards, "city_good": goods, "province_good": goods}
    t = build_table(state, seat, per_seat=PER_SEAT, hidden=HIDDEN, ids=ids, slots={"goods": goods})
    t["view"] = view(state.d)
    t["fixed"] = fixed(state.d)
    return t
