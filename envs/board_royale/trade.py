"""Trading: structured offers of resource cards and face-up items between the active player and one other.

Seed: "Oyuncular kendi turlarında diğer oyuncularla her türlü ticareti ve anlaşmayı yapabilir: kaynak karşılığı
kaynak, eşya karşılığı kaynak, koruma sözü karşılığı kaynak, gelecekteki iyilikler karşılığı eşya vb."

An offer is built in small decisions: what the active player gives (up to 3 resource cards and 1 item), then
what they ask for (up to 3 resource cards and 1 of the partner's items); the partner accepts or declines.
At most one offer per partner per turn. Promises ("koruma sözü", "gelecekteki iyilikler") are not binding in
the rules, so the engine has nothing to enforce: an offer may ask for nothing in return, which is how a
promise is paid for. A trade never leaves either side without resources nor above their hand limit.
Hidden items are not traded (offering one would reveal it).
"""

from __future__ import annotations

from .actions import CARD0, ITEM0, PASS, SEAT0, YES
from .content import NUM_RES
from .escape import check_escape
from .resources import K, hand_limit, hand_size, move_in, move_out, resources_of
from .state import NO, RoyaleData
from .steps import Step


def partners(d: RoyaleData, seat: int) -> list[int]:
    return [s for s in range(d.n) if s != seat and d.alive[s] and not (d.offered >> s) & 1]


def legal_partner(d: RoyaleData, seat: int, a: int, b: int) -> list[int]:
    return [SEAT0 + s for s in partners(d, seat)]


def apply_partner(d: RoyaleData, action: int, seat: int, a: int, b: int) -> None:
    partner = action - SEAT0
    d.offered |= 1 << partner
    d.offer_give = [0] * NUM_RES
    d.offer_ask = [0] * NUM_RES
    d.offer_give_item = d.offer_ask_item = NO
    d.stack.append((Step.TRADE_GIVE, seat, partner, 0))


def legal_give(d: RoyaleData, seat: int, partner: int, b: int) -> list[int]:
    out = [PASS, YES]
    if sum(d.offer_give) < 3:
        base = seat * K
        # never offer the last resource card
        spare = resources_of(d, seat) - sum(d.offer_give) > 1
        out += [CARD0 + k for k in range(NUM_RES) if spare and d.hand[base + k] > d.offer_give[k]]
    if d.offer_give_item == NO:
        out += [ITEM0 + c for c, owner in enumerate(d.item_owner) if owner == seat]
    return out


def apply_give(d: RoyaleData, action: int, seat: int, partner: int, b: int) -> None:
    if action == PASS:
        _clear(d)
    elif action == YES:
        d.stack.append((Step.TRADE_ASK, seat, partner, 0))
    else:
        if action >= CARD0:
            d.offer_give[action - CARD0] += 1
        else:
            d.offer_give_item = action - ITEM0
        d.stack.append((Step.TRADE_GIVE, seat, partner, 0))


def legal_ask(d: RoyaleData, seat: int, partner: int, b: int) -> list[int]:
    out = [PASS]
    if sum(d.offer_give) + sum(d.offer_ask) or d.offer_give_item != NO or d.offer_ask_item != NO:
        out.append(YES)
    if sum(d.offer_ask) < 3:
        out += [CARD0 + k for k in range(NUM_RES)]
    if d.offer_ask_item == NO:
        out += [ITEM0 + c for c, owner in enumerate(d.item_owner) if owner == partner]
    return out


def apply_ask(d: RoyaleData, action: int, seat: int, partner: int, b: int) -> None:
    if action == PASS:
        _clear(d)
    elif action == YES:
        d.stack.append((Step.TRADE_ANSWER, partner, seat, 0))
    else:
        if action >= CARD0:
            d.offer_ask[action - CARD0] += 1
        else:
            d.offer_ask_item = action - ITEM0
        d.stack.append((Step.TRADE_ASK, seat, partner, 0))


def acceptable(d: RoyaleData, offerer: int, partner: int) -> bool:
    """The partner holds what is asked, keeps a resource, and both respect their hand limits (the offerer
    keeping a resource was checked when the offer was made). Only what the partner can see is used."""
    base = partner * K
    if any(d.hand[base + k] < d.offer_ask[k] for k in range(NUM_RES)):
        return False
    give, ask = sum(d.offer_give), sum(d.offer_ask)
    if resources_of(d, partner) - ask + give < 1:
        return False
    limits = _limits_after(d, offerer, partner)
    return hand_size(d, partner) - ask + give <= limits[1] and hand_size(d, offerer) - give + ask <= limits[0]


def _limits_after(d: RoyaleData, offerer: int, partner: int) -> tuple[int, int]:
    """Both hand limits once the offered items have changed hands (a Backpack may move)."""
    owner = d.item_owner
    give, ask = d.offer_give_item, d.offer_ask_item
    if give != NO:
        owner[give] = partner
    if ask != NO:
        owner[ask] = offerer
    limits = hand_limit(d, offerer), hand_limit(d, partner)
    if give != NO:
        owner[give] = offerer
    if ask != NO:
        owner[ask] = partner
    return limits


def legal_answer(d: RoyaleData, seat: int, offerer: int, b: int) -> list[int]:
    return [PASS, YES] if acceptable(d, offerer, seat) else [PASS]


def apply_answer(d: RoyaleData, action: int, seat: int, offerer: int, b: int) -> None:
    if action == YES:
        for k in range(NUM_RES):  # the terms are public, so every card changing hands is seen
            for _ in range(d.offer_give[k]):
                move_out(d, offerer, k, public=True)
                move_in(d, seat, k, public=True)
            for _ in range(d.offer_ask[k]):
                move_out(d, seat, k, public=True)
                move_in(d, offerer, k, public=True)
        if d.offer_give_item != NO:
            d.item_owner[d.offer_give_item] = seat
        if d.offer_ask_item != NO:
            d.item_owner[d.offer_ask_item] = offerer
        _clear(d)
        if not check_escape(d, offerer):
            check_escape(d, seat)
        return
    _clear(d)


def _clear(d: RoyaleData) -> None:
    d.offer_give = [0] * NUM_RES
    d.offer_ask = [0] * NUM_RES
    d.offer_give_item = d.offer_ask_item = NO
