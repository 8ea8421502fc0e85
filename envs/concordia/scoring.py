"""Scoring by gods (seed: "Puan Hesaplama"): each god's criterion, capped per card, times the number of the
player's cards of that god (hand + discard pile); Minerva per specialist card; the Concordia card 7 VP.
Ties: the Praefectus Magnus holder, then whoever would receive it next (it passes to the right)."""

from __future__ import annotations

from .content import (
    CAP_JUPITER,
    CAP_MARS,
    CAP_MERCURIUS,
    CARDS,
    COLONISTS,
    CONCORDIA_VP,
    GOOD_VALUE,
    MINERVA_VP,
    NUM_GOODS,
    Act,
    God,
    Good,
)
from .state import BOARDS, NO, ConcordiaData, board_of, colonists_on_board

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


#: a seat's cards counted per god (Vesta, Jupiter, Saturnus, Mercurius, Mars), each count in a 5-bit field of one
#: small int (a god has at most 10 cards), and its specialists, one bit per good above them (one specialist card
#: per good): summing the codes of its cards counts them all at once
_FIELD = 5
_MASK = (1 << _FIELD) - 1
_SCORED_GODS = (God.VESTA, God.JUPITER, God.SATURNUS, God.MERCURIUS, God.MARS)
_JUPITER, _SATURNUS, _MERCURIUS, _MARS, _SPECIALISTS = (_FIELD * k for k in range(1, 6))
_CARD_CODE = tuple(
    (1 << _FIELD * _SCORED_GODS.index(c.god) if c.god in _SCORED_GODS else 0)
    + (1 << _SPECIALISTS + c.good if c.action == Act.SPECIALIST else 0)
    for c in CARDS
)
assert max(sum(1 for c in CARDS if c.god == god) for god in God) <= _MASK
assert sorted(c.good for c in CARDS if c.action == Act.SPECIALIST) == list(range(NUM_GOODS)), "one specialist per good"
#: per good: the Minerva points of its specialist per house of that good
_MINERVA = tuple(enumerate(MINERVA_VP))
_V0, _V1, _V2, _V3, _V4 = GOOD_VALUE
_BRICK = int(Good.BRICK)
#: per board and city: the bit of its province
_PROVINCE_BIT = tuple(tuple(1 << p for p in m.province_of) for m in BOARDS)


def seat_score(d: ConcordiaData, seat: int) -> int:
    """``seat_sheet(d, seat)[-1]`` (the total if the game ended now), from per-card codes and bit masks: the
    heuristic's lookahead and the per-step rewards score with it."""
    hand, pile = d.hand[seat], d.discard[seat]
    code = _CARD_CODE
    gods = 0
    for card in hand:
        gods += code[card]
    for card in pile:
        gods += code[card]
    total = CONCORDIA_VP if d.concordia == seat else 0
    vesta = gods & _MASK
    if vesta:
        base = seat * NUM_GOODS
        g0, g1, g2, g3, g4 = d.goods[base : base + NUM_GOODS]
        total += vesta * ((d.money[seat] + g0 * _V0 + g1 * _V1 + g2 * _V2 + g3 * _V3 + g4 * _V4) // 10)
    mars = gods >> _MARS & _MASK
    if mars:
        cb = seat * COLONISTS
        x = 2 * (COLONISTS - d.col[cb : cb + COLONISTS].count(NO))
        total += mars * (x if x < CAP_MARS else CAP_MARS)
    houses = d.houses[seat]
    if not houses:
        return total
    city_good, bit = d.city_good, _PROVINCE_BIT[d.board]
    per_good = [0] * NUM_GOODS
    provinces = 0
    for c in houses:
        per_good[city_good[c]] += 1
        provinces |= bit[c]
    specialists = gods >> _SPECIALISTS
    if specialists:
        for g, vp in _MINERVA:
            if specialists >> g & 1:
                total += vp * per_good[g]
    jupiter = gods >> _JUPITER & _MASK
    if jupiter:
        x = len(houses) - per_good[_BRICK]
        total += jupiter * (x if x < CAP_JUPITER else CAP_JUPITER)
    saturnus = gods >> _SATURNUS & _MASK
    if saturnus:
        x = bin(provinces).count("1")
        cap = BOARDS[d.board].saturnus_cap
        total += saturnus * (x if x < cap else cap)
    mercurius = gods >> _MERCURIUS & _MASK
    if mercurius:
        x = 2 * (NUM_GOODS - per_good.count(0))
        total += mercurius * (x if x < CAP_MERCURIUS else CAP_MERCURIUS)
    return total


def final_scores(d: ConcordiaData) -> list[int]:
    return [seat_score(d, s) for s in range(d.n)]


def tiebreak(d: ConcordiaData, seat: int) -> int:
    """Higher is better: the holder, then the seat to its right, and so on."""
    return d.n - (d.pm - seat) % d.n
