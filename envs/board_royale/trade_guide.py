"""A trade a searching seat's prior may overlook (IS-MCTS's ``guide`` hook, ``az:guide=W``).

Board Royale's shipped network imitates the heuristic, which never starts a trade, so its prior gives a trade
a fraction of a percent and a search cannot reach the few decisions an offer takes. This guide names one offer:
the best escape item or weapon on the Crafting Field the seat cannot pay for, short of at most :data:`MAX_ASKED`
cards, with :data:`KEEP` resources left after the trade and the craft, bought
for one card more than it asks (the heuristic accepts any offer that gives it more cards than it pays) from the
kinds the item does not need. It suggests the move that builds that offer at each of its decisions (start the
trade, the partner, each card given, done, each card asked, send) and nothing anywhere else; the search decides
whether the offer is worth making. Only the seat's own hand and public facts are read, so every determinization
gives the same suggestion.

:func:`suggest_tools` (``az:gname=tools``) also buys the cards for a draw tool (an Axe, a Fishing Rod: pay one
card, draw two, as often as the hand has room) the seat does not own yet (why: docs/lab-notes/az.md, twenty-first
session).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .actions import CARD0, SEAT0, TRADE, YES
from .content import CARD_TYPE, NUM_RES
from .escape import escape_points
from .heuristic import CRAFT_VALUE, owned_names
from .resources import K, hand_size, resources_of, room
from .state import NO, RoyaleData
from .steps import Step

if TYPE_CHECKING:
    from .game import BoardRoyaleState

#: the most cards an offer asks for
MAX_ASKED = 2
#: resources the seat keeps after the trade and the craft (a trade is for a hand with cards to spare)
KEEP = 6
#: the kinds of item worth a trade: the way out, and the blows that keep the other seats from it
CATEGORIES = frozenset({"escape", "weapon"})
#: :func:`suggest_tools`' further items: the tools whose use draws cards
DRAW_TOOLS = frozenset(t.name for t in CARD_TYPE if t.category == "tool" and t.effect == "draw")


class Offer(NamedTuple):
    """Whom to trade with and the resource counts given and asked, by kind."""

    partner: int
    give: tuple[int, ...]
    ask: tuple[int, ...]


def plan(d: RoyaleData, seat: int, tools: bool = False) -> Offer | None:
    """The offer that lets ``seat`` craft the best field item it cannot pay for now, or None (``tools``: a draw
    tool it does not own counts too)."""
    hand = d.hand[seat * K : seat * K + NUM_RES]
    partners = [s for s in range(d.n) if s != seat and d.alive[s] and room(d, s) >= 1]
    if not partners:
        return None
    partner = max(partners, key=lambda s: (hand_size(d, s), -s))  # the largest hand holds the most kinds
    total, points = resources_of(d, seat), escape_points(d, seat)
    owned = owned_names(d.item_owner, seat) if tools else set()
    best: tuple[float, Offer] | None = None
    for card in d.field:
        if card == NO:
            continue
        t = CARD_TYPE[card]
        if t.category not in CATEGORIES and not (tools and t.name in DRAW_TOOLS and t.name not in owned):
            continue
        cost = t.craft[:NUM_RES]
        ask = tuple(max(0, cost[k] - hand[k]) for k in range(NUM_RES))
        asked = sum(ask)
        if not 0 < asked <= MAX_ASKED or hand_size(d, partner) < asked:
            continue
        spare = [hand[k] - cost[k] if ask[k] == 0 else 0 for k in range(NUM_RES)]
        if sum(spare) < asked + 1 or total + asked - (asked + 1) - sum(cost) < KEEP:
            continue
        give = [0] * NUM_RES
        for _ in range(asked + 1):  # from the largest spare pile (ties: the lower kind)
            k = max(range(NUM_RES), key=lambda k: (spare[k] - give[k], -k))
            give[k] += 1
        value = CRAFT_VALUE[t.category] + t.escape_points - 0.3 * sum(cost)
        if t.escape_points and points + t.escape_points >= 10:
            value += 100.0
        if best is None or value > best[0]:
            best = (value, Offer(partner, tuple(give), ask))
    return best[1] if best else None


_GOING = frozenset({Step.TRADE_PARTNER, Step.TRADE_GIVE, Step.TRADE_ASK})
_STEPS = _GOING | {Step.ACTION}


def _next(counts: tuple[int, ...], offered: list[int]) -> int:
    """The next card kind of ``counts`` not yet in ``offered`` (as an action), or YES once all are."""
    for k in range(NUM_RES):
        if offered[k] < counts[k]:
            return CARD0 + k
    return YES


def suggest(state: BoardRoyaleState, seat: int, begin: bool = True, tools: bool = False) -> int | None:
    """The move of :func:`plan`'s offer at ``seat``'s pending decision, or None (no offer, not a trade decision,
    or an offer under way that is not the plan's). ``begin`` False: only an offer under way is continued (the
    Action Phase's "make a trade offer" is not suggested)."""
    d = state.d
    step, mover, other, _ = d.stack[-1]
    if mover != seat or step not in (_STEPS if begin else _GOING):
        return None
    offer = plan(d, seat, tools)
    if offer is None:
        return None
    move = _move(d, step, other, offer)
    return move if move is not None and move in d.legal else None


def suggest_tools(state: BoardRoyaleState, seat: int, begin: bool = True) -> int | None:
    """:func:`suggest` with the draw tools the seat does not own among the items worth a trade."""
    return suggest(state, seat, begin, tools=True)


def _move(d: RoyaleData, step: int, other: int, offer: Offer) -> int | None:
    if step == Step.ACTION:
        return TRADE
    if step == Step.TRADE_PARTNER:
        return SEAT0 + offer.partner
    if other != offer.partner or any(d.offer_give[NUM_RES:]) or d.offer_give_items or d.offer_ask_items:
        return None
    given = d.offer_give[:NUM_RES]
    if step == Step.TRADE_GIVE:
        if any(given[k] > offer.give[k] for k in range(NUM_RES)):
            return None
        return _next(offer.give, given)
    if list(given) != list(offer.give) or any(d.offer_ask[NUM_RES:]):
        return None
    asked = d.offer_ask[:NUM_RES]
    if any(asked[k] > offer.ask[k] for k in range(NUM_RES)):
        return None
    return _next(offer.ask, asked)
