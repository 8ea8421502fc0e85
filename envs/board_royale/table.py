"""Board Royale's table for one seat (``envs.core.table``): other hands are sizes plus the cards this seat
knows of; the decks are counts; what other seats know is left out."""

from __future__ import annotations

from typing import Any

from ..core.table import build_table
from .content import KIND_NAMES
from .content import NUM_KINDS as K

PER_SEAT = ("hand", "alive", "elim_rank", "score", "hid_max")
HIDDEN = ("res_deck", "item_deck")


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
    return t
