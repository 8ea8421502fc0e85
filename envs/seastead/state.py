"""Seastead's state: plain data in a slotted dataclass, with setup, cheap clone and (de)serialisation.

Per-seat lists are flat: ``res[seat * 4 + kind]``, ``built[seat * 3 + type]``. Locations are numbered
``flotilla * 6 + position``. Decks keep their top card at the end of the list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Chance
from ..core.records import RecordCodec
from .content import (
    DEMAND_TOKENS,
    DIVE_CARDS,
    DOCKS,
    NUM_LOCS,
    NUM_RES,
    SETUP,
    SPECIALISTS,
    Deck,
)
from .steps import Step

NO = -1
# end triggers (seed: "Oyun Bitiş Koşulları"), a bit each
TRIGGER_FLOTILLA_FULL = 1
TRIGGER_ONE_BUILDING_LEFT = 2
TRIGGER_DEPTHS_VISIBLE = 4
TRIGGER_CLEANUP_EXHAUSTED = 8
TRIGGER_NAMES = {
    TRIGGER_FLOTILLA_FULL: "a flotilla is full",
    TRIGGER_ONE_BUILDING_LEFT: "a player has 1 building left",
    TRIGGER_DEPTHS_VISIBLE: "a Depths card is visible on the dive deck",
    TRIGGER_CLEANUP_EXHAUSTED: "the cleanup supply is exhausted",
}
SCORE_CATEGORIES = ("dock resources", "dock buildings", "locations", "specialists", "cleanup", "total")


@dataclass(slots=True, eq=False)
class SeasteadData:
    """Every fact of a Seastead position. Lists are copied on clone; ints and tuples are shared."""

    chance: Chance
    res: list[int]
    supply: list[int]
    cleanup: list[int]
    cleanup_supply: int
    shortfall: list[int]
    built: list[int]
    columns: list[int]
    loc_owner: list[int]
    loc_bld: list[int]
    ship: list[int]
    ships_boxed: list[int]
    dock_at: list[int]
    demand: list[int]
    locked: int
    dive_deck: list[int]
    dive_discard: list[int]
    revealed: int
    dock_deck: list[int]
    dock_display: list[int]
    spec_deck: list[int]
    spec_display: list[int]
    spec_owner: list[int]
    spec_spent: list[int]
    stack: list[tuple[int, int, int, int]]
    first_player: int
    active: int
    round_no: int
    turns_in_round: int
    end_round: int
    triggers: int
    #: 1 once the dive deck was rebuilt from the shuffled discard pile: its band order is no longer public
    dive_reshuffled: int = 0
    # this turn's context
    mine_half: int = NO
    trawler: int = 0
    prospector: int = NO
    engineer: int = 0
    founder: int = NO
    build_type: int = NO
    built_loc: int = NO
    played: int = 0  # bitmask of specialists played this turn (a refreshed one waits for the next turn)
    sheet: list[int] = field(default_factory=list)  # 2 x 6 score sheet, filled at the end
    legal: tuple[int, ...] = ()  # legal actions of the pending decision (derived, cached)


def setup(seed: int) -> SeasteadData:
    """The base-game setup (A sides, 2 players). Seed-silent choices are listed in docs/rules/seastead.md."""
    chance = Chance(seed)
    rng = chance.generator()
    # dive deck: Depths at the bottom, then Shelf, then Shallows on top, each subset shuffled
    deck: list[int] = []
    for d in (Deck.DEPTHS, Deck.SHELF, Deck.SHALLOWS):
        ids = [c.id for c in DIVE_CARDS if c.deck == d]
        deck += [ids[i] for i in rng.permutation(len(ids))]
    opening = deck.pop()  # the revealed Shallows card: its arrow names the first player
    first = DIVE_CARDS[opening].arrow
    docks = [int(i) for i in rng.permutation(len(DOCKS))]
    specs = [int(i) for i in rng.permutation(len(SPECIALISTS))]
    demand = [DEMAND_TOKENS[i] for i in rng.permutation(len(DEMAND_TOKENS))]
    locked = int(rng.integers(len(demand)))
    start = list(SETUP.starting_resources)
    supply = [SETUP.resource_supply - 2 * start[k] for k in range(NUM_RES)]
    return SeasteadData(
        chance=chance,
        res=start * 2,
        supply=supply,
        cleanup=[0, 0],
        cleanup_supply=SETUP.cleanup_supply,
        shortfall=[0, 0],
        built=[0] * 6,
        columns=[0, 0],
        loc_owner=[NO] * NUM_LOCS,
        loc_bld=[NO] * NUM_LOCS,
        ship=[NO] * NUM_LOCS,
        ships_boxed=[0, 0],
        dock_at=[NO] * NUM_LOCS,
        demand=[int(d) for d in demand],
        locked=locked,
        dive_deck=[int(c) for c in deck],
        dive_discard=[int(opening)],
        revealed=NO,
        dock_deck=docks[SETUP.dock_display :],
        dock_display=docks[: SETUP.dock_display],
        spec_deck=specs[SETUP.specialist_display :],
        spec_display=specs[: SETUP.specialist_display],
        spec_owner=[NO] * len(SPECIALISTS),
        spec_spent=[0] * len(SPECIALISTS),
        stack=[(int(Step.MAIN), first, 0, 0)],
        first_player=first,
        active=first,
        round_no=0,
        turns_in_round=0,
        end_round=NO,
        triggers=0,
    )


CODEC = RecordCodec(SeasteadData, "seastead")
