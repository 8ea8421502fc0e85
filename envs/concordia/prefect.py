"""Prefect and the Praefectus Magnus (seed: "Prefekt (Prefect)", "Praefectus Magnus Kuralları").

Production in a province whose marker shows goods: the marker's good to the player (two with the Praefectus
Magnus, which then passes right and is always used when it can be), every house in the province produces
its city's good for its owner, the marker turns to its coin side. Cash: a sesterce per visible coin, all
markers back to goods.
"""

from __future__ import annotations

from .actions import CASH, PROVINCE0
from .content import BONUS_COINS
from .state import ConcordiaData, board_of
from .storehouse import gain, push_overflow


def legal(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    return [PROVINCE0 + p for p, up in enumerate(d.marker) if up] + [CASH]


def cash_value(d: ConcordiaData) -> int:
    return sum(BONUS_COINS[d.province_good[p]] for p, up in enumerate(d.marker) if not up)


def produce(d: ConcordiaData, seat: int, p: int) -> None:
    m = board_of(d)
    bonus = 1
    if seat == d.pm:  # must be used when it can ("kullanmak ZORUNDADIR"), then passes to the right
        bonus = 2
        d.pm = (d.pm - 1) % d.n
    gain(d, seat, d.province_good[p], bonus)
    for s in range(d.n):
        for c in d.houses[s]:
            if m.province_of[c] == p:
                gain(d, s, d.city_good[c])
    d.marker[p] = 0
    push_overflow(d, [(seat + k) % d.n for k in range(d.n)])


def apply(d: ConcordiaData, action: int, seat: int, a: int, b: int) -> None:
    if action == CASH:
        d.money[seat] += cash_value(d)
        d.marker = [1] * len(d.marker)
    else:
        produce(d, seat, action - PROVINCE0)
