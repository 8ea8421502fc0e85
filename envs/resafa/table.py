"""Resafa's table for one seat (``envs.core.table``): other hands and sacks are sizes, draw piles counts."""

from __future__ import annotations

from typing import Any

from ..core.table import build_table

PER_SEAT = (
    "coins",
    "vp",
    "store",
    "camel_at",
    "camel_item",
    "camel_load",
    "camel_step",
    "track",
    "hand",
    "deck",
    "played",
    "bonus_hand",
    "sack_hand",
    "spec_known",
)
OWN = ("hand", "sack_hand", "deck")
HIDDEN = ("sack_deck", "ws_decks", "bonus_decks", "spec_decks", "spec_box", "bot_canals")


def table(state: Any, seat: int | None) -> dict[str, Any]:
    t = build_table(state, seat, per_seat=PER_SEAT, own=OWN, hidden=HIDDEN)
    if seat is not None:  # own draw pile: its size only (its order is unknown to its owner too)
        t["players"][seat]["deck"] = {"hidden": len(state.d.deck[seat])}
    if seat is not None and state.d.players == 1:  # solo deck: the face-up top card, the rest a set
        deck = state.d.bot_deck
        t["board"]["bot_deck"] = {"top": deck[-1], "below": sorted(deck[:-1])}
    return t
