"""Trading: offers built card by card between the active player and one other, answered by accept, refuse or
a counter offer.

Seed: "Oyuncular kendi turlarında diğer oyuncularla her türlü ticareti ve anlaşmayı yapabilir: kaynak karşılığı
kaynak, eşya karşılığı kaynak, koruma sözü karşılığı kaynak, gelecekteki iyilikler karşılığı eşya vb. Oyun
kuralları dahilinde kalmak kaydıyla her türlü anlaşma geçerlidir."

The active player picks a partner; the proposer adds, one decision each, what they give (any cards of their
hand, hidden items included, and any of their face-up items), then what they ask for (any card kinds, up to
the other's hand size, and any of the other's face-up items), and sends the offer. The other side accepts,
refuses, or counters: they build a new offer the same way, which the first side answers in turn, and so on.
Counter offers are bounded by an engine safety bound (:data:`RULES.max_counter_offers`, far above real
play) and end with the turn's futile exchanges (:mod:`.island`). The terms are public: offering a card shows
it (a hidden item offered is revealed to the table).
Promises ("koruma sözü", "gelecekteki iyilikler") are not binding in the rules, so the engine has nothing
to enforce: an offer may ask for nothing in return, which is how a promise is paid for. A trade never
leaves either side without resources nor above their hand limit. An offer cancelled, refused or countered is a
futile exchange, an accepted one is progress (:mod:`.island`).
"""

from __future__ import annotations

from .actions import CARD0, ITEM0, PASS, SEAT0, TRADE, YES
from .content import NUM_KINDS, NUM_RES, RULES
from .escape import check_escape
from .island import note_futile, note_progress
from .resources import K, hand_limit, hand_size, move_in, move_out, resources_of, show_at_least
from .state import NO, RoyaleData
from .steps import Step


def partners(d: RoyaleData, seat: int) -> list[int]:
    return [s for s in range(d.n) if s != seat and d.alive[s]]


def legal_partner(d: RoyaleData, seat: int, a: int, b: int) -> list[int]:
    return [SEAT0 + s for s in partners(d, seat)]


def apply_partner(d: RoyaleData, action: int, seat: int, a: int, b: int) -> None:
    partner = action - SEAT0
    d.trade_with = partner
    d.counters = 0
    _clear(d)
    d.stack.append((Step.TRADE_GIVE, seat, partner, 0))


def legal_give(d: RoyaleData, seat: int, other: int, b: int) -> list[int]:
    """Cancel, done, one more card of a kind in hand (never the last resource), or one more face-up item."""
    if not d.alive[other]:
        return []
    out = [PASS, YES]
    base = seat * K
    spare = resources_of(d, seat) - sum(d.offer_give[:NUM_RES]) > 1
    out += [CARD0 + k for k in range(K) if d.hand[base + k] > d.offer_give[k] and (k >= NUM_RES or spare)]
    out += [ITEM0 + c for c, owner in enumerate(d.item_owner) if owner == seat and c not in d.offer_give_items]
    return sorted(out)


def apply_give(d: RoyaleData, action: int, seat: int, other: int, b: int) -> None:
    if action == PASS:
        note_futile(d)
        end_trade(d)
    elif action == YES:
        d.stack.append((Step.TRADE_ASK, seat, other, 0))
    else:
        if action >= CARD0:
            kind = action - CARD0
            d.offer_give[kind] += 1
            show_at_least(d, seat, kind, d.offer_give[kind])  # the terms are public
        else:
            d.offer_give_items.append(action - ITEM0)
        d.stack.append((Step.TRADE_GIVE, seat, other, 0))


def legal_ask(d: RoyaleData, seat: int, other: int, b: int) -> list[int]:
    """Cancel, send (once the offer holds anything), one more card of any kind (at most the other's hand
    size in all), or one of the other's face-up items."""
    if not d.alive[other]:
        return []
    out = [PASS]
    if sum(d.offer_give) + sum(d.offer_ask) or d.offer_give_items or d.offer_ask_items:
        out.append(YES)
    if sum(d.offer_ask) < hand_size(d, other):
        out += [CARD0 + k for k in range(K)]
    out += [ITEM0 + c for c, owner in enumerate(d.item_owner) if owner == other and c not in d.offer_ask_items]
    return sorted(out)


def apply_ask(d: RoyaleData, action: int, seat: int, other: int, b: int) -> None:
    if action == PASS:
        note_futile(d)
        end_trade(d)
    elif action == YES:
        d.stack.append((Step.TRADE_ANSWER, other, seat, 0))
    else:
        if action >= CARD0:
            d.offer_ask[action - CARD0] += 1
        else:
            d.offer_ask_items.append(action - ITEM0)
        d.stack.append((Step.TRADE_ASK, seat, other, 0))


def acceptable(d: RoyaleData, proposer: int, other: int) -> bool:
    """``other`` holds what is asked, both keep a resource, and both respect their hand limits (the proposer
    holds what they give: they built the offer from their hand). Only what ``other`` can see is used."""
    base = other * K
    if any(d.hand[base + k] < d.offer_ask[k] for k in range(K)):
        return False
    give_res, ask_res = sum(d.offer_give[:NUM_RES]), sum(d.offer_ask[:NUM_RES])
    if resources_of(d, other) - ask_res + give_res < 1 or resources_of(d, proposer) - give_res + ask_res < 1:
        return False
    give, ask = sum(d.offer_give), sum(d.offer_ask)
    limits = _limits_after(d, proposer, other)
    return hand_size(d, other) - ask + give <= limits[1] and hand_size(d, proposer) - give + ask <= limits[0]


def _limits_after(d: RoyaleData, proposer: int, other: int) -> tuple[int, int]:
    """Both hand limits once the offered items have changed hands (a Backpack may move)."""
    owner = d.item_owner
    for c in d.offer_give_items:
        owner[c] = other
    for c in d.offer_ask_items:
        owner[c] = proposer
    limits = hand_limit(d, proposer), hand_limit(d, other)
    for c in d.offer_give_items:
        owner[c] = proposer
    for c in d.offer_ask_items:
        owner[c] = other
    return limits


def legal_answer(d: RoyaleData, seat: int, proposer: int, b: int) -> list[int]:
    """Refuse, accept (if possible), or counter (under the safety bound, and until the futile bound ends the turn)."""
    if not d.alive[proposer]:
        return []
    out = [PASS]
    if acceptable(d, proposer, seat):
        out.append(YES)
    if d.counters < RULES.max_counter_offers and not d.turn_over:  # no counter once the futile bound is hit
        out.append(TRADE)
    return out


def apply_answer(d: RoyaleData, action: int, seat: int, proposer: int, b: int) -> None:
    if action == TRADE:  # a counter offer: the roles swap
        note_futile(d)
        d.counters += 1
        _clear(d)
        d.stack.append((Step.TRADE_GIVE, seat, proposer, 0))
        return
    if action == YES:
        note_progress(d)
        for k in range(NUM_KINDS):  # the terms are public, so every card changing hands is seen
            for _ in range(d.offer_give[k]):
                move_out(d, proposer, k, public=True)
                move_in(d, seat, k, public=True)
            for _ in range(d.offer_ask[k]):
                move_out(d, seat, k, public=True)
                move_in(d, proposer, k, public=True)
        for c in d.offer_give_items:
            d.item_owner[c] = seat
        for c in d.offer_ask_items:
            d.item_owner[c] = proposer
        end_trade(d)
        if not check_escape(d, d.active):
            check_escape(d, seat if seat != d.active else proposer)
        return
    note_futile(d)
    end_trade(d)


def end_trade(d: RoyaleData) -> None:
    _clear(d)
    d.trade_with = NO
    d.counters = 0


def _clear(d: RoyaleData) -> None:
    d.offer_give = [0] * NUM_KINDS
    d.offer_ask = [0] * NUM_KINDS
    d.offer_give_items = []
    d.offer_ask_items = []
