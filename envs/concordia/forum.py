"""The Forum: 7 face-up cards bought with the Senator (up to 2, card cost plus the surcharge under the
position, '?' = any good) or the Consul (1, card cost only); afterwards cards slide left and the deck
refills the row. Taking the last card when the deck is empty takes the Concordia card."""

from __future__ import annotations

from bisect import insort

from . import steps
from .actions import GOOD0, PASS, SLOT0
from .content import ANY, CARDS, FORUM_SIZE, NUM_GOODS, SURCHARGE
from .state import NO, ConcordiaData

SENATOR, CONSUL = 1, 0


def start(d: ConcordiaData, seat: int, mode: int) -> None:
    d.stack.append((steps.REFILL, seat, 0, 0))
    d.stack.append((steps.BUY, seat, mode, 0))


def price(card: int, slot: int, mode: int) -> tuple[list[int], int]:
    """(fixed goods, number of '?' goods) of buying ``card`` from ``slot``."""
    fixed = list(CARDS[card].cost)
    n_any = 0
    if mode == SENATOR:
        for g in SURCHARGE[slot]:
            if g == ANY:
                n_any += 1
            else:
                fixed.append(g)
    return fixed, n_any


def affordable(d: ConcordiaData, seat: int, fixed: list[int], n_any: int) -> bool:
    left = d.goods[seat * NUM_GOODS : seat * NUM_GOODS + NUM_GOODS]
    for g in fixed:
        left[g] -= 1
        if left[g] < 0:
            return False
    return sum(left) >= n_any


def _need(card: int, slot: int, mode: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """((good, count) of the fixed goods, goods in all with the '?') of buying ``card`` from ``slot``."""
    fixed, n_any = price(card, slot, mode)
    return tuple((g, fixed.count(g)) for g in sorted(set(fixed))), len(fixed) + n_any


#: per mode (Consul, Senator), slot and card: :func:`_need`, what :func:`affordable` checks
_NEEDS = tuple(
    tuple(tuple(_need(card, slot, mode) for card in range(len(CARDS))) for slot in range(FORUM_SIZE))
    for mode in (CONSUL, SENATOR)
)


def legal_buy(d: ConcordiaData, seat: int, mode: int, bought: int) -> list[int]:
    if bought >= (2 if mode == SENATOR else 1):
        return []
    base = seat * NUM_GOODS
    have = d.goods[base : base + NUM_GOODS]
    stock = sum(have)
    needs = _NEEDS[mode]
    out = []
    for slot, card in enumerate(d.forum):
        if card == NO:
            continue
        fixed, total = needs[slot][card]
        if stock < total:
            continue
        for g, k in fixed:
            if have[g] < k:
                break
        else:  # what affordable(d, seat, *price(card, slot, mode)) tells, from the table
            out.append(SLOT0 + slot)
    if out:
        out.append(PASS)
    return out


def _price(card: int, slot: int, mode: int) -> tuple[tuple[int, ...], int]:
    fixed, n_any = price(card, slot, mode)
    return tuple(fixed), n_any


#: per mode (Consul, Senator), slot and card: :func:`price` (the fixed goods as a tuple)
_PRICES = tuple(
    tuple(tuple(_price(card, slot, mode) for card in range(len(CARDS))) for slot in range(FORUM_SIZE))
    for mode in (CONSUL, SENATOR)
)


def apply_buy(d: ConcordiaData, action: int, seat: int, mode: int, bought: int) -> None:
    if action == PASS:
        return
    slot = action - SLOT0
    card = d.forum[slot]
    fixed, n_any = _PRICES[mode][slot][card]
    for g in fixed:
        d.goods[seat * NUM_GOODS + g] -= 1
    d.forum[slot] = NO
    insort(d.hand[seat], card)
    d.idle[seat] = 0  # a Forum card brings the end closer (:mod:`.stalling`)
    if not d.deck and d.concordia == NO and all(c == NO for c in d.forum):
        d.concordia = seat
    d.stack.append((steps.BUY, seat, mode, bought + 1))
    if n_any:
        base = seat * NUM_GOODS
        kinds = [g for g in range(NUM_GOODS) if d.goods[base + g]]
        if len(kinds) == 1:  # no choice: the '?' is paid with the only good left
            d.goods[base + kinds[0]] -= n_any
        else:
            d.stack.append((steps.PAY_ANY, seat, n_any, 0))


def legal_pay_any(d: ConcordiaData, seat: int, left: int, b: int) -> list[int]:
    base = seat * NUM_GOODS
    return [GOOD0 + g for g in range(NUM_GOODS) if d.goods[base + g]]


def apply_pay_any(d: ConcordiaData, action: int, seat: int, left: int, b: int) -> None:
    d.goods[seat * NUM_GOODS + action - GOOD0] -= 1
    if left > 1:
        d.stack.append((steps.PAY_ANY, seat, left - 1, 0))


def refill(d: ConcordiaData) -> None:
    """Cards slide left into the gaps, then the deck fills the row up to 7."""
    row = [c for c in d.forum if c != NO]
    while len(row) < FORUM_SIZE and d.deck:
        row.append(d.deck.pop())
    d.forum = row + [NO] * (FORUM_SIZE - len(row))
