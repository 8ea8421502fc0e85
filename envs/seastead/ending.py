"""The end of the game: the four end conditions, recorded the moment one first holds.

Seed: "Oyun sonu şu dört koşuldan biri gerçekleştiğinde tetiklenir ... Bu koşullardan biri gerçekleştiğinde
mevcut tur tamamlanır, ardından 1 tur daha oynanır". A condition can hold only for a moment (a flotilla filled
by a build and emptied again by the Architect in the same turn), so every place that can make one true calls
:func:`record_triggers` right away instead of waiting for the end of the turn.

Condition (3) is the game's clock: every dive draws a card. In the solo mode the Depths stay in the box and the
emptied deck is reshuffled, so (filled in, docs/rules/seastead.md "Stalling and the decision cap") the clock
there is the reshuffled deck drawn to its end: it binds only when nothing else ends the game (no normal game
draws that far), and keeps a player who dives forever from stalling the game.
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

_IS_DEPTHS = tuple(c.deck == Deck.DEPTHS for c in DIVE_CARDS)
_ONE_LEFT = 3 * SETUP.buildings_per_type - 1  # buildings built when a player has one left


def current_triggers(d: SeasteadData) -> int:
    """The end conditions that hold now (a bit each)."""
    t = 0
    bld = d.loc_bld
    if len(bld) - bld.count(NO) >= LOCS_PER_FLOTILLA:  # enough buildings to fill a flotilla
        for f in range(0, NUM_FLOTILLAS * LOCS_PER_FLOTILLA, LOCS_PER_FLOTILLA):
            if NO not in bld[f : f + LOCS_PER_FLOTILLA]:
                t |= TRIGGER_FLOTILLA_FULL
                break
    b = d.built
    if b[0] + b[1] + b[2] >= _ONE_LEFT or b[3] + b[4] + b[5] >= _ONE_LEFT:
        t |= TRIGGER_ONE_BUILDING_LEFT
    if d.dive_deck:
        if _IS_DEPTHS[d.dive_deck[-1]]:
            t |= TRIGGER_DEPTHS_VISIBLE
    elif d.solo and d.dive_reshuffled:  # solo, no Depths: the reshuffled deck drawn to its end (filled in)
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
