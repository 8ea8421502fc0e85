"""Mercator (seed: "Tüccar (Mercator)"): 3 sesterces (5 with a bought Mercator), then trade up to two
different goods kinds at the storehouse prices, buying limited by free storehouse slots."""

from __future__ import annotations

from . import steps
from .actions import MAX_TRADE, PASS, decode_trade, trade_action
from .content import COLONISTS, GOOD_VALUE, NUM_GOODS, STOREHOUSE
from .state import NO, ConcordiaData


def start(d: ConcordiaData, seat: int, amount: int) -> None:
    d.money[seat] += amount
    d.stack.append((steps.TRADE, seat, 0, 0))


#: per good, the actions buying (selling) 1, 2, ... MAX_TRADE of it: a trade of up to n is a prefix
_BUY = tuple(tuple(trade_action(g, False, c) for c in range(1, MAX_TRADE + 1)) for g in range(NUM_GOODS))
_SELL = tuple(tuple(trade_action(g, True, c) for c in range(1, MAX_TRADE + 1)) for g in range(NUM_GOODS))


def legal(d: ConcordiaData, seat: int, mask: int, done: int) -> list[int]:
    if done >= 2:
        return []
    base = seat * NUM_GOODS
    goods = d.goods[base : base + NUM_GOODS]
    cb = seat * COLONISTS
    free = STOREHOUSE - sum(goods) - d.col[cb : cb + COLONISTS].count(NO)  # STOREHOUSE - storehouse_used(d, seat)
    money = d.money[seat]
    out: list[int] = []
    for g, have in enumerate(goods):
        if mask >> g & 1:
            continue
        buy = money // GOOD_VALUE[g]
        if buy > free:
            buy = free
        if buy > 0:  # min(free, money // value); the slice caps it at MAX_TRADE
            out += _BUY[g][:buy]
        if have > 0:
            out += _SELL[g][:have]
    if out:
        out.append(PASS)
    return out


def apply(d: ConcordiaData, action: int, seat: int, mask: int, done: int) -> None:
    if action == PASS:
        return
    g, sell, count = decode_trade(action)
    value = GOOD_VALUE[g] * count
    if sell:
        d.goods[seat * NUM_GOODS + g] -= count
        d.money[seat] += value
    else:
        d.goods[seat * NUM_GOODS + g] += count
        d.money[seat] -= value
    d.stack.append((steps.TRADE, seat, mask | 1 << g, done + 1))
