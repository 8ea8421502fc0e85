"""Paying and gaining: items (storehouse, supply-limited), coins (unlimited change), VP; costs less the
permanent discounts of special cards; hand counts; the permanent effects a seat owns; trigger events."""

from __future__ import annotations

from .content import Build, Bundle, Discount, HandLimit, Post, Trigger, content
from .state import NO, NUM_ITEMS, ResafaData, S

C = content()
_PERMANENT = tuple(
    tuple(e for e in card.effects if isinstance(e, Discount | Trigger | HandLimit))
    if card.timing == "permanent"
    else ()
    for card in C.specials
)
_HAS_PERMANENT = tuple(i for i, p in enumerate(_PERMANENT) if p)


def permanents(d: ResafaData, seat: int) -> list:
    """The permanent effects (discount, trigger, hand limit) of the special cards ``seat`` owns."""
    out = []
    owner = d.spec_owner
    if seat not in owner:  # no special card yet (a quick scan in C)
        return out
    for i in _HAS_PERMANENT:
        if owner[i] == seat:
            out.extend(_PERMANENT[i])
    return out


def discount(d: ResafaData, seat: int, target: str) -> Bundle:
    """The sum of ``seat``'s permanent discounts on ``target``."""
    if seat not in d.spec_owner:  # no special card, no discount (the common case: a quick scan in C)
        return _NOTHING
    parts = [e.bundle for e in permanents(d, seat) if isinstance(e, Discount) and e.target == target]
    return _sum(parts)


_NOTHING = Bundle()


def _sum(parts: list[Bundle]) -> Bundle:
    if not parts:
        return _NOTHING
    return Bundle(*(sum(getattr(p, k) for p in parts) for k in ("stone", "marble", "spice", "amphora", "coins", "vp")))


def less(cost: Bundle, off: Bundle) -> Bundle:
    """``cost`` minus ``off``, never below 0."""
    if off is _NOTHING and min(cost.stone, cost.marble, cost.spice, cost.amphora, cost.coins, cost.vp) >= 0:
        return cost  # nothing off: the same amounts (a Bundle is frozen)
    return Bundle(
        max(0, cost.stone - off.stone),
        max(0, cost.marble - off.marble),
        max(0, cost.spice - off.spice),
        max(0, cost.amphora - off.amphora),
        max(0, cost.coins - off.coins),
        max(0, cost.vp - off.vp),
    )


def build_cost(d: ResafaData, seat: int, base: Bundle, target: str, build: Build | Post | None) -> Bundle:
    """What a build costs: ``base`` less permanent discounts and the Build effect's discount (free: 0)."""
    if build is not None and getattr(build, "free", False):
        return Bundle()
    return cost_after(base, discount(d, seat, target), build)


def cost_after(base: Bundle, off: Bundle, build: Build | Post | None) -> Bundle:
    """:func:`build_cost` given the permanent discount ``off`` (read once for several builds of one target)."""
    if build is not None and getattr(build, "free", False):
        return Bundle()
    cost = less(base, off)
    return less(cost, build.discount) if build is not None else cost


def can_pay(d: ResafaData, seat: int, cost: Bundle) -> bool:
    r = seat * NUM_ITEMS
    st = d.store
    return (
        st[r] >= cost.stone
        and st[r + 1] >= cost.marble
        and st[r + 2] >= cost.spice
        and st[r + 3] >= cost.amphora
        and d.coins[seat] >= cost.coins
        and d.vp[seat] >= cost.vp
    )


def pay(d: ResafaData, seat: int, cost: Bundle) -> None:
    r = seat * NUM_ITEMS
    for k, v in enumerate(cost.items):
        if v:
            d.store[r + k] -= v
            d.supply[k] += v
    d.coins[seat] -= cost.coins
    d.vp[seat] -= cost.vp


def gain(d: ResafaData, seat: int, b: Bundle) -> None:
    """Gain items into the storehouse (as many as the supply has), coins and VP."""
    r = seat * NUM_ITEMS
    for k, v in enumerate(b.items):
        if v:
            got = min(v, d.supply[k])
            d.store[r + k] += got
            d.supply[k] -= got
    d.coins[seat] += b.coins
    d.vp[seat] += b.vp


def hand_count(d: ResafaData, seat: int) -> int:
    """Cards counting toward the hand limit: action, bonus and sack cards (not special cards)."""
    return len(d.hand[seat]) + len(d.bonus_hand[seat]) + len(d.sack_hand[seat])


def hand_limit(d: ResafaData, seat: int) -> int:
    return S.hand_limit + sum(e.n for e in permanents(d, seat) if isinstance(e, HandLimit))


def triggered(d: ResafaData, seat: int, event: str) -> list[tuple]:
    """The ``then`` effect lists of ``seat``'s triggers on ``event``."""
    return [e.then for e in permanents(d, seat) if isinstance(e, Trigger) and e.on == event]


def items_total(d: ResafaData, seat: int, item: int) -> int:
    """An item in the storehouse plus on the camel."""
    extra = d.camel_load[seat] if d.camel_item[seat] == item else 0
    return d.store[seat * NUM_ITEMS + item] + extra


def camel_capacity(d: ResafaData, seat: int) -> int:
    return C.camel_track[d.camel_step[seat]]


__all__ = ["NO"]
