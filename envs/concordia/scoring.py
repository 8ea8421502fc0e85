"""Scoring by gods (seed: "Puan Hesaplama"): each god's criterion, capped per card, times the number of the
player's cards of that god (hand + discard pile); Minerva per specialist card; the Concordia card 7 VP.
Ties: the Praefectus Magnus holder, then whoever would receive it next (it passes to the right)."""

from __future__ import annotations

from .content import (
    CAP_JUPITER,
    CAP_MARS,
    CAP_MERCURIUS,
    CARDS,
    CONCORDIA_VP,
    GOOD_VALUE,
    MINERVA_VP,
    NUM_GOODS,
    Act,
    God,
    Good,
)
from .state import ConcordiaData, board_of, colonists_on_board

CATEGORIES = ("Vesta", "Jupiter", "Saturnus", "Mercurius", "Mars", "Minerva", "Concordia", "total")


def seat_sheet(d: ConcordiaData, seat: int) -> list[int]:
    """The 8 entries of :data:`CATEGORIES` for ``seat`` if the game ended now."""
    m = board_of(d)
    gods = [0] * 6
    minerva = 0
    houses = d.houses[seat]
    per_good = [0] * NUM_GOODS
    for c in houses:
        per_good[d.city_good[c]] += 1
    for pile in (d.hand[seat], d.discard[seat]):
        for card in pile:
            c = CARDS[card]
            gods[c.god] += 1
            if c.action == Act.SPECIALIST:
                minerva += MINERVA_VP[c.good] * per_good[c.good]
    base = seat * NUM_GOODS
    wealth = d.money[seat] + sum(d.goods[base + g] * GOOD_VALUE[g] for g in range(NUM_GOODS))
    vesta = gods[God.VESTA] * (wealth // 10)
    jupiter = gods[God.JUPITER] * min(CAP_JUPITER, len(houses) - per_good[Good.BRICK])
    provinces = len({m.province_of[c] for c in houses})
    saturnus = gods[God.SATURNUS] * min(m.saturnus_cap, provinces)
    kinds = sum(1 for x in per_good if x)
    mercurius = gods[God.MERCURIUS] * min(CAP_MERCURIUS, 2 * kinds)
    mars = gods[God.MARS] * min(CAP_MARS, 2 * colonists_on_board(d, seat))
    concordia = CONCORDIA_VP if d.concordia == seat else 0
    parts = [vesta, jupiter, saturnus, mercurius, mars, minerva, concordia]
    return [*parts, sum(parts)]


def final_scores(d: ConcordiaData) -> list[int]:
    return [seat_sheet(d, s)[-1] for s in range(d.n)]


def tiebreak(d: ConcordiaData, seat: int) -> int:
    """Higher is better: the holder, then the seat to its right, and so on."""
    return d.n - (d.pm - seat) % d.n
