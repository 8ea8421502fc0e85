"""Seastead's state: plain data in a slotted dataclass, with setup, cheap clone and (de)serialisation.

Per-seat lists are flat: ``res[seat * 4 + kind]``, ``built[seat * 3 + type]``. Locations are numbered
``flotilla * 6 + position``. Decks keep their top card at the end of the list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Chance
from ..core.records import RecordCodec
from .content import (
    DECREES,
    DEMAND_TOKENS,
    DIVE_CARDS,
    DOCKS,
    NUM_FLOTILLAS,
    NUM_LOCS,
    NUM_RES,
    SETUP,
    SOLO,
    SPEC_BY_NAME,
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
#: solo: condition (3) is the reshuffled dive deck drawn to its end (the Depths stay in the box)
SOLO_TRIGGER_NAMES = TRIGGER_NAMES | {TRIGGER_DEPTHS_VISIBLE: "the reshuffled dive deck is used up"}
SCORE_CATEGORIES = ("dock resources", "dock buildings", "locations", "specialists", "cleanup", "total")
BOSS = 1  # in the solo mode the Boss sits in seat 1: it never decides, its buildings are of type BOSS_BUILDING
BOSS_BUILDING = 3
RANDOM_DECREE = -2


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
    # variants: the side of each flotilla tile (0 = A, 1 = B); decrees (B sides); the solo mode
    sides: list[int] = field(default_factory=lambda: [0] * NUM_FLOTILLAS)
    decree: int = NO  # the decree in force
    decree_deck: list[int] = field(default_factory=list)  # top at the end
    decree_known: int = 0  # cards at the bottom of the decree deck everybody saw go there
    decree_drawn: list[int] = field(default_factory=list)  # the 2 drawn decrees waiting for the choice
    decree_out: list[int] = field(default_factory=list)  # replaced decrees, out of the game
    solo: int = 0
    boss_res: list[int] = field(default_factory=list)  # solo: resources the Boss has on each location, loc*4+k
    boss_visits: list[int] = field(default_factory=list)  # solo: deliveries each location received (0/1)
    legal: tuple[int, ...] = ()  # legal actions of the pending decision (derived, cached)


def setup(
    seed: int, sides: tuple[int, ...] = (0, 0, 0, 0), decree: int = RANDOM_DECREE, solo: bool = False
) -> SeasteadData:
    """The setup. Base game: A sides, 2 players. ``sides`` (0 = A, 1 = B per tile): with a B side a decree is
    in force from the start (``decree`` = its id, or RANDOM_DECREE). ``solo``: The Rebel Seastead (the Depths
    cards and 4 specialists leave the box; the Boss in seat 1 has nothing). Seed-silent choices are listed in
    docs/rules/seastead.md."""
    chance = Chance(seed)
    rng = chance.generator()
    # dive deck: Depths at the bottom, then Shelf, then Shallows on top, each subset shuffled
    deck: list[int] = []
    bands = (Deck.SHELF, Deck.SHALLOWS) if solo else (Deck.DEPTHS, Deck.SHELF, Deck.SHALLOWS)
    for d in bands:
        ids = [c.id for c in DIVE_CARDS if c.deck == d]
        deck += [ids[i] for i in rng.permutation(len(ids))]
    opening = deck.pop()  # the revealed Shallows card: its arrow names the first player
    first = 0 if solo else DIVE_CARDS[opening].arrow
    docks = [int(i) for i in rng.permutation(len(DOCKS))]
    specs = [int(i) for i in rng.permutation(len(SPECIALISTS))]
    if solo:
        removed = {SPEC_BY_NAME[n] for n in SOLO.removed_specialists}
        specs = [x for x in specs if x not in removed]
    demand = [DEMAND_TOKENS[i] for i in rng.permutation(len(DEMAND_TOKENS))]
    locked = int(rng.integers(len(demand)))
    start = list(SETUP.starting_resources)
    supply = [SETUP.resource_supply - 2 * start[k] for k in range(NUM_RES)]
    res = start * 2
    if solo:  # the Boss has no resources; its starting ones stay in the supply
        res = start + [0] * NUM_RES
        supply = [SETUP.resource_supply - start[k] for k in range(NUM_RES)]
    decree_deck: list[int] = []
    in_force = NO
    if any(sides):
        order = [int(i) for i in rng.permutation(len(DECREES))]
        in_force = order[-1] if decree == RANDOM_DECREE else decree
        decree_deck = [x for x in order if x != in_force]
    stack = [(int(Step.SOLO_EXTRA), 0, 0, 0)] if solo else [(int(Step.MAIN), first, 0, 0)]
    return SeasteadData(
        chance=chance,
        res=res,
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
        stack=stack,
        first_player=first,
        active=first,
        round_no=0,
        turns_in_round=0,
        end_round=NO,
        triggers=0,
        sides=list(sides),
        decree=in_force,
        decree_deck=decree_deck,
        solo=int(solo),
        boss_res=[0] * (NUM_LOCS * NUM_RES) if solo else [],
        boss_visits=[0] * NUM_LOCS if solo else [],
    )


CODEC = RecordCodec(SeasteadData, "seastead")
