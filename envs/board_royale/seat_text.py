"""What a seat holds, in words, where the table's picture leaves it out: the manifest's ``own_cards``."""

from __future__ import annotations

from typing import Any

from .content import KIND_NAMES, NUM_KINDS


def own_cards(view: Any, state: Any) -> str:
    """The acting seat's hand (``view.seat``), read from ``state``, a determinization of that seat's view (its own
    hand is known to it, so every determinization holds the same one): ``your hand: Wood 2, Stone 1``."""
    hand = state.d.hand[view.seat * NUM_KINDS : (view.seat + 1) * NUM_KINDS]
    return "your hand: " + (", ".join(f"{KIND_NAMES[k]} {c}" for k, c in enumerate(hand) if c) or "empty")


__all__ = ["own_cards"]
