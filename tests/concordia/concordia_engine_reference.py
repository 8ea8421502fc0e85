"""Concordia engine code as it was before the fifth round of env-side cuts (reference copies): the tests in
``test_concordia_engine_fast.py`` check that the faster versions give the same results on positions reached by
play. The observation encoder, a colonist move's cost, the Mercator's and a turn's legal actions, the public
copy of a position."""

from __future__ import annotations

from collections import Counter

import numpy as np

from meeplezoo.envs.concordia import steps
from meeplezoo.envs.concordia.actions import MAX_TRADE, PASS, PLAY0, trade_action
from meeplezoo.envs.concordia.content import (
    CARDS,
    COLONISTS,
    COLONISTS_PER_KIND,
    GOOD_VALUE,
    MAX_HOUSES,
    NUM_CARDS,
    NUM_GOODS,
    STOREHOUSE,
)
from meeplezoo.envs.concordia.observation import (
    _COLONIST_SCALE,
    _GOODS_SCALE,
    _INV_STORE,
    SEAT_ONES,
    _static_ones,
    layout,
)
from meeplezoo.envs.concordia.scoring import seat_score
from meeplezoo.envs.concordia.state import BOARDS, NO, ConcordiaData, storehouse_used
from meeplezoo.envs.concordia.steps import NUM_DECISIONS
from meeplezoo.envs.core.chance import Chance, arrange_bands
from meeplezoo.envs.core.tasks import StackState

_DECK_OF = [c.deck for c in CARDS]
_BAND_OF = tuple(c.deck for c in CARDS)


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
        scal += [min(money[s], 200) / 200.0, *[_GOODS_SCALE[x] for x in goods]]
        scal += [
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
    bands = Counter(map(_DECK_OF.__getitem__, d.deck))
    scal += [
        min(points, 20) / 20.0,
        *[float(mask >> g & 1) for g in range(NUM_GOODS)],
        b / 2.0 if step == steps.TRADE else 0.0,
        b / 2.0 if step == steps.BUY else 0.0,
        a / 3.0 if step == steps.PAY_ANY else 0.0,
        float(a) if step == steps.BUY else 0.0,
        *[bands[k] / 8.0 for k in range(1, 6)],
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


def move_cost(d: ConcordiaData, i: int, pos: int, route: int) -> int:
    m = BOARDS[d.board]
    for cost, r in m.moves_land[pos] if i < COLONISTS_PER_KIND else m.moves_sea[pos]:
        if r == route:
            return cost
    raise ValueError(f"route {route} is not reachable")


_BUY = tuple(tuple(trade_action(g, False, c) for c in range(1, MAX_TRADE + 1)) for g in range(NUM_GOODS))
_SELL = tuple(tuple(trade_action(g, True, c) for c in range(1, MAX_TRADE + 1)) for g in range(NUM_GOODS))


def mercator_legal(d: ConcordiaData, seat: int, mask: int, done: int) -> list[int]:
    if done >= 2:
        return []
    free = STOREHOUSE - storehouse_used(d, seat)
    money = d.money[seat]
    base = seat * NUM_GOODS
    out: list[int] = []
    for g, have in enumerate(d.goods[base : base + NUM_GOODS]):
        if mask >> g & 1:
            continue
        buy = money // GOOD_VALUE[g]
        if buy > free:
            buy = free
        if buy > 0:
            out += _BUY[g][:buy]
        if have > 0:
            out += _SELL[g][:have]
    if out:
        out.append(PASS)
    return out


def legal_main(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    return [PLAY0 + c for c in d.hand[seat]]


def public_copy(state: StackState, player: int) -> StackState:
    """``StackState.public_copy`` with Concordia's resampling as it was: the deck sorted band by band."""
    s = state.clone()
    arrange_bands(s.d.deck, _BAND_OF, range(1, 6), None)
    s.d.chance = Chance(0, 0)
    state.machine.relegal(s.d)
    return s
