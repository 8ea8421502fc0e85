"""Board Royale's table for one seat (``envs.core.table``): other hands are sizes plus the cards this seat
knows of; the decks are counts; what other seats know is left out.

``view`` is the position shaped as the table: the crafting field, the piles, each player's face-up items
and hand (their own hand by card, the others' as a size and the cards this seat knows), a running trade
offer or attack, every card by its name.
"""

from __future__ import annotations

from typing import Any

from ..core.table import build_table
from .content import CARD_TYPE, KIND_NAMES, NUM_RES, RES_NAMES, RULES
from .content import NUM_KINDS as K
from .escape import escape_points
from .render import _WIN
from .state import NO, RoyaleData

PER_SEAT = ("hand", "alive", "elim_rank", "score", "hid_max")
HIDDEN = ("res_deck", "item_deck")


def _named(counts: list[int]) -> dict[str, int]:
    return {KIND_NAMES[k]: x for k, x in enumerate(counts) if x}


def _item(c: int, d: RoyaleData) -> dict[str, Any]:
    t = CARD_TYPE[c]
    cost = {RES_NAMES[k]: x for k, x in enumerate(t.craft) if x}
    use = {RES_NAMES[k]: x for k, x in enumerate(t.use) if x}
    return {
        "name": t.name,
        "category": t.category,
        "colour": t.colour,
        "craft": cost,
        "use": use,
        "escape_points": t.escape_points,
        "text": t.text,
        "used": bool(d.item_used[c]),
    }


def view(d: RoyaleData, seat: int | None) -> dict[str, Any]:
    """The position laid out as Board Royale's table, as ``seat`` (None: everything) may see it."""
    n = d.n
    players = []
    for s in range(n):
        hand = d.hand[s * K : (s + 1) * K]
        p: dict[str, Any] = {
            "alive": bool(d.alive[s]),
            "out_rank": d.elim_rank[s] if d.elim_rank[s] != NO else None,
            "escape_points": escape_points(d, s),
            "items": [_item(c, d) for c, o in enumerate(d.item_owner) if o == s],
            "hand_size": sum(hand),
        }
        if seat is None or s == seat:
            p["hand"] = _named(hand)
        else:
            kb = (seat * n + s) * K
            p["known"] = _named(d.known[kb : kb + K])
        players.append(p)
    trade = None
    if d.trade_with != NO:
        trade = {
            "with": d.trade_with,
            "give": _named(d.offer_give) | {CARD_TYPE[c].name: 1 for c in d.offer_give_items},
            "ask": _named(d.offer_ask) | {CARD_TYPE[c].name: 1 for c in d.offer_ask_items},
        }
    attack = None
    if d.blow_on != NO:
        joiners = [
            {"seat": d.joiners[i], "item": CARD_TYPE[d.joiners[i + 1]].name} for i in range(0, len(d.joiners), 2)
        ]
        attack = {"on": d.blow_on, "joiners": joiners}
    return {
        "round": d.round_no,
        "first_player": d.first_player,
        "field": [_item(c, d) if c != NO else None for c in d.field],
        "resource_deck": len(d.res_deck),
        "resource_discard": _named(d.res_discard),
        "item_deck": len(d.item_deck),
        "item_discard": [CARD_TYPE[c].name for c in d.item_discard],
        "loot": [CARD_TYPE[c].name for c in d.loot_items]
        + [KIND_NAMES[NUM_RES + k] for k, x in enumerate(d.loot_hidden) for _ in range(x)],
        "players": players,
        "trade": trade,
        "attack": attack,
        "winner": None if d.winner == NO else {"seat": d.winner, "how": _WIN[d.win_kind]},
    }


def table(state: Any, seat: int | None) -> dict[str, Any]:
    kinds = list(KIND_NAMES)
    slots = {"hand": kinds, "known_cards": kinds, "res_discard": kinds, "offer_give": kinds, "offer_ask": kinds}
    t = build_table(
        state, seat, per_seat=PER_SEAT, own=("hand", "hid_max"), hidden=HIDDEN, skip=("known",), slots=slots
    )
    if seat is not None:
        d, n = state.d, state.game.num_players
        for s in range(n):
            if s != seat:
                kb = (seat * n + s) * K
                t["players"][s]["known_cards"] = list(d.known[kb : kb + K])
    t["view"] = view(state.d, seat)
    t["chart"] = chart(state.d, state.game.config["elimination_only"])
    return t


def chart(d: RoyaleData, elimination_only: bool) -> dict[str, Any]:
    """What the Watch page plots per seat instead of the score (a final ranking, not a running count): the
    public escape points with the escape goal, or, in the elimination-only variant, cards in hand (health)."""
    if elimination_only:
        return {"label": "cards in hand", "values": [sum(d.hand[s * K : (s + 1) * K]) for s in range(d.n)]}
    goal = {"value": RULES.escape_points, "label": "escape"}
    return {"label": "escape points", "values": [escape_points(d, s) for s in range(d.n)], "goal": goal}
