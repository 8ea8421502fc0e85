"""The storehouse: 12 slots, each a good or a colonist; goods and money gained and paid.

Seed: "Her oyuncunun 12 gözlü kişisel deposu; her göz 1 mal ya da 1 kolonist tutar." Goods and sesterces are
unlimited ("mallar oyunda sınırsız kabul edilir"). A gain that overfills the storehouse asks its owner to
discard goods until 12 slots are used (filled in, see docs/rules/concordia.md).
"""

from __future__ import annotations

from . import steps
from .actions import GOOD0
from .content import NUM_GOODS, STOREHOUSE
from .state import ConcordiaData, storehouse_used


def gain(d: ConcordiaData, seat: int, good: int, n: int = 1) -> None:
    d.goods[seat * NUM_GOODS + good] += n


def push_overflow(d: ConcordiaData, seats) -> None:
    """Ask every listed seat whose storehouse is over 12 to discard (last pushed decides first)."""
    for s in reversed(list(seats)):
        if storehouse_used(d, s) > STOREHOUSE:
            d.stack.append((steps.OVERFLOW, s, 0, 0))


def legal_overflow(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    if storehouse_used(d, seat) <= STOREHOUSE:
        return []
    base = seat * NUM_GOODS
    return [GOOD0 + g for g in range(NUM_GOODS) if d.goods[base + g]]


def apply_overflow(d: ConcordiaData, action: int, seat: int, a: int, b: int) -> None:
    d.goods[seat * NUM_GOODS + action - GOOD0] -= 1
    if storehouse_used(d, seat) > STOREHOUSE:
        d.stack.append((steps.OVERFLOW, seat, 0, 0))
