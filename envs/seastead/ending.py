"""The end of the game: the four end conditions, recorded the moment one first holds.

Seed: "Oyun sonu şu dört koşuldan biri gerçekleştiğinde tetiklenir ... Bu koşullardan biri gerçekleştiğinde
mevcut tur tamamlanır, ardından 1 tur daha oynanır". A condition can hold only for a moment (a flotilla filled
by a build and emptied again by the Architect in the same turn), so every place that can make one true calls
:func:`record_triggers` right away instead of waiting for the end of the turn.
"""

from __future__ import annotations

from .content import DIVE_CARDS, LOCS_PER_FLOTILLA, NUM_FLOTILLAS, SETUP, Deck
from .state import (
    NO,
    TRIGGER_CLEANUP_EXHAUSTED,
    TRIGGER_DEPTHS_VISIBLE,
    TRIGGER_FLOTILLA_FULL,
    TRIGGER_ONE_BUILDING_LEFT,
    SeasteadData,
)


def current_triggers(d: SeasteadData) -> int:
    """The end conditions that hold now (a bit each)."""
    t = 0
    bld = d.loc_bld
    if any(NO not in bld[f * LOCS_PER_FLOTILLA : (f + 1) * LOCS_PER_FLOTILLA] for f in range(NUM_FLOTILLAS)):
        t |= TRIGGER_FLOTILLA_FULL
    per_player = 3 * SETUP.buildings_per_type
    if max(sum(d.built[0:3]), sum(d.built[3:6])) >= per_player - 1:
        t |= TRIGGER_ONE_BUILDING_LEFT
    if d.dive_deck and DIVE_CARDS[d.dive_deck[-1]].deck == Deck.DEPTHS:
        t |= TRIGGER_DEPTHS_VISIBLE
    if d.cleanup_supply == 0:
        t |= TRIGGER_CLEANUP_EXHAUSTED
    return t


def record_triggers(d: SeasteadData) -> None:
    """Remember every condition that holds now; the first one sets the last round (this round + 1)."""
    t = current_triggers(d)
    if t:
        d.triggers |= t
        if d.end_round == NO:
            d.end_round = d.round_no + 1
