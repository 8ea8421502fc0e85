"""Mercator (seed: "Tüccar (Mercator)"): 3 sesterces (5 with a bought Mercator), then trade up to two
different goods kinds at the storehouse prices, buying limited by free storehouse slots."""

from __future__ import annotations

from .actions import MAX_TRADE, PASS, decode_trade, trade_action
from .content import GOOD_VALUE, NUM_GOODS, STOREHOUSE
from .state import ConcordiaData, storehouse_used
from .steps import Step


def start(d: ConcordiaData, seat: int, amount: int) -> None:
    d.money[seat] += amount
    d.stack.append((Step.TRADE, seat, 0, 0))


def legal(d: ConcordiaData, seat: int, mask: int, done: int) -> list[int]:
    if done >= 2:
        return []
    free = STOREHOUSE - storehouse_used(d, seat)
    money = d.money[seat]
    out = []
    for g in range(NUM_GOODS):
        if mask >> g & 1:
            continue
        have = d.goods[seat * NUM_GOODS + g]
        buy = min(free, money // GOOD_VALUE[g], MAX_TRADE)
        out.extend(trade_action(g, False, c) for c in range(1, buy + 1))
        out.extend(trade_action(g, True, c) for c in range(1, min(have, MAX_TRADE) + 1))
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
    d.stack.append((Step.TRADE, seat, mask | 1 << g, done + 1))
