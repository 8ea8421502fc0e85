"""Observation vectors: what one player may know, from their seat ("mine" first), in [0, 1].

Everything in Concordia is public (hands and discard piles too, seed: "Kartların ve tahta konumun herkesçe
görülebildiği") except the order of the Forum deck; only how many cards of each numeral remain is shown.
The vector is written as one list of "ones" indices plus one block of scalars. The layout depends on the
configuration (players, map): :func:`layout` gives ``name -> slice``. Per-seat blocks are in seat order
starting with the viewer. Colonists: ``seat_route_colonists`` (seat x route) is 1 where that seat's colonist
stands (one per route; its kind is the route's), ``seat_city_colonists`` (seat x city x kind, land then sea)
counts the seat's colonists of that kind in the city, divided by the 3 of each kind.
:func:`state_vector` appends each card's depth in the deck (for critics).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..core.layout import build_layout
from . import steps
from .content import CARDS, COLONISTS, COLONISTS_PER_KIND, FORUM_SIZE, MAX_HOUSES, NUM_CARDS, NUM_GOODS, STOREHOUSE
from .scoring import seat_score
from .state import BOARDS, NO, ConcordiaData
from .steps import NUM_DECISIONS

SEAT_SCALARS = 16  # money, goods x5, storehouse, houses, colonists on board, land/sea in store, PM, Concordia,
# active, hand size, running score
TASK_SCALARS = 10 + 5  # points, trade mask x5, trades, bought, '?' left, Senator mode; deck bands x5
SEAT_ONES = 3 * NUM_CARDS  # hand, discard pile, top of the discard


class Layout:
    """Offsets of one configuration's observation."""

    def __init__(self, n: int, board: int) -> None:
        m = BOARDS[board]
        self.n, self.c, self.r, self.p = n, m.num_cities, m.num_routes, len(m.provinces)
        sections = [
            ("pending", NUM_DECISIONS),
            ("flags", 3),  # to act, Concordia taken, final turns
            ("seat_scalars", n * SEAT_SCALARS),
            ("task_scalars", TASK_SCALARS),
            ("task_colonist", COLONISTS),
            ("seat_cards", n * SEAT_ONES),
            ("seat_houses", n * self.c),
            ("seat_route_colonists", n * self.r),
            ("seat_city_colonists", n * self.c * 2),  # per seat, city and kind (land, sea): count / 3
            ("city_good", self.c * NUM_GOODS),
            ("marker", self.p),
            ("province_good", self.p * NUM_GOODS),
            ("forum", FORUM_SIZE * NUM_CARDS),
        ]
        self.slices, self.size = build_layout(sections)
        self.state_size = self.size + NUM_CARDS
        s = self.slices
        self.scal0 = s["seat_scalars"].start
        self.task0 = s["task_scalars"].start
        self.scalar_len = s["task_colonist"].start - self.scal0
        self.cards0 = s["seat_cards"].start
        self.houses0 = s["seat_houses"].start
        self.routes0 = s["seat_route_colonists"].start
        self.cities0 = s["seat_city_colonists"].start
        self.tcol0 = s["task_colonist"].start
        self.marker0 = s["marker"].start
        self.forum0 = s["forum"].start
        # the city goods and province goods are fixed per game but depend on the setup


@cache
def layout(n: int, board: int) -> Layout:
    return Layout(n, board)


_DECK_OF = tuple(c.deck for c in CARDS)
_NUM_BANDS = 6  # the starting cards (0) and the Forum decks I..V
assert max(_DECK_OF) < _NUM_BANDS
#: per trade mask: the goods traded, as floats
_MASK_BITS = tuple(tuple(float(mask >> g & 1) for g in range(NUM_GOODS)) for mask in range(1 << NUM_GOODS))


_STATIC: dict[tuple, np.ndarray] = {}
_INV_STORE = 1.0 / STOREHOUSE
#: goods count -> its scaled value (counts above 12 only while discarding; more than 255 cannot happen)
_GOODS_SCALE = [min(x, STOREHOUSE) * _INV_STORE for x in range(256)]
#: colonists of one kind in one city -> its scaled value
_COLONIST_SCALE = [x / COLONISTS_PER_KIND for x in range(COLONISTS_PER_KIND + 1)]


def _static_ones(L: Layout, d: ConcordiaData) -> np.ndarray:
    """The indices of the ones of the city tokens and province goods: fixed for a game, computed once per
    setup."""
    key = (L.n, L.c, tuple(d.city_good), tuple(d.province_good))
    ones = _STATIC.get(key)
    if ones is None:
        if len(_STATIC) > 4096:
            _STATIC.clear()
        cg = L.slices["city_good"].start
        pg = L.slices["province_good"].start
        at = [cg + c * NUM_GOODS + g for c, g in enumerate(d.city_good) if g != NO]
        at += [pg + p * NUM_GOODS + g for p, g in enumerate(d.province_good)]
        ones = np.array(at, np.intp)
        ones.flags.writeable = False
        _STATIC[key] = ones
    return ones


def observe(d: ConcordiaData, viewer: int, out: np.ndarray | None = None) -> np.ndarray:
    L = layout(d.n, d.board)
    if out is None:
        out = np.zeros(L.size, np.float32)
    else:
        out[:] = 0.0
    n, nc = d.n, L.c
    stack = d.stack
    if stack:
        step, seat, a, b = stack[-1]
        ones = [step, NUM_DECISIONS] if seat == viewer else [step]
    else:
        step = seat = a = b = -1
        ones = []
    if d.concordia != NO:
        ones += (NUM_DECISIONS + 1, NUM_DECISIONS + 2)
    scal: list[float] = []
    show_score = d.intermediate or not stack
    money, all_goods, col, hands, piles, houses = d.money, d.goods, d.col, d.hand, d.discard, d.houses
    pm, conc, active = d.pm, d.concordia, d.active
    in_city: dict[int, int] = {}  # index in seat_city_colonists -> colonists
    for k in range(n):
        s = (viewer + k) % n
        g0 = s * NUM_GOODS
        goods = all_goods[g0 : g0 + NUM_GOODS]
        cols = col[s * COLONISTS : s * COLONISTS + COLONISTS]
        store_land = cols[:COLONISTS_PER_KIND].count(NO)
        store_sea = cols[COLONISTS_PER_KIND:].count(NO)
        used = sum(goods) + store_land + store_sea
        hand = hands[s]
        x0, x1, x2, x3, x4 = goods
        scal += [
            min(money[s], 200) / 200.0,
            _GOODS_SCALE[x0],
            _GOODS_SCALE[x1],
            _GOODS_SCALE[x2],
            _GOODS_SCALE[x3],
            _GOODS_SCALE[x4],
            min(used, STOREHOUSE) * _INV_STORE,  # over 12 only while discarding
            len(houses[s]) / MAX_HOUSES,
            (COLONISTS - store_land - store_sea) / COLONISTS,
            store_land / COLONISTS_PER_KIND,
            store_sea / COLONISTS_PER_KIND,
            1.0 if pm == s else 0.0,
            1.0 if conc == s else 0.0,
            1.0 if active == s else 0.0,
            len(hand) / NUM_CARDS,
            min(seat_score(d, s), 200) / 200.0 if show_score else 0.0,
        ]
        cb = L.cards0 + k * SEAT_ONES
        ones += [cb + c for c in hand]
        pile = piles[s]
        if pile:
            cb += NUM_CARDS
            ones += [cb + c for c in pile]
            ones.append(cb + NUM_CARDS + pile[-1])
        hb = L.houses0 + k * nc
        ones += [hb + c for c in houses[s]]
        rb = L.routes0 + k * L.r - nc
        ccb = L.cities0 + k * 2 * nc
        for i, pos in enumerate(cols):
            if pos >= nc:
                ones.append(rb + pos)
            elif pos != NO:
                at = ccb + 2 * pos + (i >= COLONISTS_PER_KIND)
                in_city[at] = in_city.get(at, 0) + 1
    # task arguments
    points = a if step == steps.MOVE_PICK or step == steps.MOVE_DEST else 0
    mask = a if step == steps.TRADE else 0
    bands = [0] * _NUM_BANDS  # the Forum deck's cards per numeral
    for c in d.deck:
        bands[_DECK_OF[c]] += 1
    scal.append(min(points, 20) / 20.0)
    scal += _MASK_BITS[mask]
    scal += [
        b / 2.0 if step == steps.TRADE else 0.0,
        b / 2.0 if step == steps.BUY else 0.0,
        a / 3.0 if step == steps.PAY_ANY else 0.0,
        float(a) if step == steps.BUY else 0.0,
        bands[1] / 8.0,
        bands[2] / 8.0,
        bands[3] / 8.0,
        bands[4] / 8.0,
        bands[5] / 8.0,
    ]
    if step == steps.MOVE_DEST:
        ones.append(L.tcol0 + b)
    mk = L.marker0
    ones += [mk + p for p, up in enumerate(d.marker) if up]
    fb = L.forum0
    ones += [fb + i * NUM_CARDS + c for i, c in enumerate(d.forum) if c != NO]
    out[np.fromiter(ones, np.intp, len(ones))] = 1.0
    out[_static_ones(L, d)] = 1.0
    out[L.scal0 : L.scal0 + L.scalar_len] = scal
    for at, count in in_city.items():
        out[at] = _COLONIST_SCALE[count]
    return out


def state_vector(d: ConcordiaData, out: np.ndarray | None = None) -> np.ndarray:
    L = layout(d.n, d.board)
    if out is None:
        out = np.zeros(L.state_size, np.float32)
    observe(d, d.active, out[: L.size])
    extra = out[L.size :]
    extra[:] = 0.0
    depth = len(d.deck)
    for i, c in enumerate(d.deck):  # top card (end of the list) gets 1.0
        extra[c] = (i + 1) / depth
    return out
