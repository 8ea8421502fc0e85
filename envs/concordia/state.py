"""Concordia's state: plain data in a slotted dataclass, with setup, cheap clone and (de)serialisation.

Per-seat numbers are flat lists: ``goods[seat * 5 + good]``, ``col[seat * 6 + i]`` (colonist ``i``: 0-2 land,
3-5 sea; its position is ``NO`` in the storehouse, a city ``c``, or ``C + r`` on route ``r``). Hands, discard
piles (top card last) and houses are one list per seat. The Forum deck keeps its top card at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Chance
from ..core.records import RecordCodec
from .content import (
    CITY_TOKENS,
    COLONISTS,
    COLONISTS_PER_KIND,
    DECKS,
    FORUM_SIZE,
    MAPS,
    NUM_GOODS,
    START_GOODS,
    STARTING_HAND,
    MapInfo,
)
from .steps import Step

NO = -1
BOARDS: tuple[MapInfo, ...] = (MAPS["italia"], MAPS["imperium"])
BOARD_INDEX = {"italia": 0, "imperium": 1}


@dataclass(slots=True, eq=False)
class ConcordiaData:
    """Every fact of a Concordia position."""

    chance: Chance
    n: int
    board: int  # 0 Italia, 1 Imperium
    intermediate: int  # 1: running scores are shown
    money: list[int]
    goods: list[int]
    col: list[int]
    route_occ: list[int]  # per route: seat * 6 + colonist, or NO
    hand: list[list[int]]
    discard: list[list[int]]
    houses: list[list[int]]
    city_houses: list[int]
    city_good: list[int]  # NO for Roma
    province_good: list[int]
    marker: list[int]  # 1: goods side up, 0: coin side up
    deck: list[int]
    forum: list[int]  # 7 slots, NO when empty
    pm: int  # Praefectus Magnus holder
    concordia: int  # Concordia card holder or NO
    active: int
    turns: int
    idle: list[int]  # per seat: its turns since its last house or Forum card (the stall limit, :mod:`.stalling`)
    stack: list[tuple[int, int, int, int]]
    final: list[int] = field(default_factory=list)  # final scores, filled at the end
    legal: tuple[int, ...] = ()  # legal actions of the pending decision (derived, cached)


def board_of(d: ConcordiaData) -> MapInfo:
    return BOARDS[d.board]


def setup(seed: int, n: int, board: int, intermediate: bool) -> ConcordiaData:
    """Seed: "Oyun Hazırlığı" (tokens per letter, markers, decks I..N, 7 Forum cards, money, storehouse)."""
    m = BOARDS[board]
    chance = Chance(seed)
    rng = chance.generator()
    city_good = [NO] * m.num_cities
    for letter, tokens in CITY_TOKENS.items():
        cities = [c for c in range(m.num_cities) if m.letter[c] == letter]
        if not cities:  # the D tokens are not used on Italia
            continue
        for c, j in zip(cities, rng.permutation(len(tokens)), strict=True):
            city_good[c] = int(tokens[j])
    province_good = [max(city_good[c] for c in cities) for cities in m.province_cities]
    deck: list[int] = []
    for k in range(n, 0, -1):  # deck I on top (end of the list)
        ids = DECKS[k]
        deck += [ids[i] for i in rng.permutation(len(ids))]
    forum = [deck.pop() for _ in range(FORUM_SIZE)]
    col = []
    for _ in range(n):
        col += [m.roma, NO, NO, m.roma, NO, NO]
    route_occ = [NO] * m.num_routes
    return ConcordiaData(
        chance=chance,
        n=n,
        board=board,
        intermediate=int(intermediate),
        money=[5 + s for s in range(n)],
        goods=list(START_GOODS) * n,
        col=col,
        route_occ=route_occ,
        hand=[list(STARTING_HAND) for _ in range(n)],
        discard=[[] for _ in range(n)],
        houses=[[] for _ in range(n)],
        city_houses=[0] * m.num_cities,
        city_good=city_good,
        province_good=province_good,
        marker=[1] * len(m.provinces),
        deck=deck,
        forum=forum,
        pm=n - 1,
        concordia=NO,
        active=0,
        turns=0,
        idle=[0] * n,
        stack=[(int(Step.MAIN), 0, 0, 0)],
    )


CODEC = RecordCodec(ConcordiaData, "concordia")


def storehouse_used(d: ConcordiaData, seat: int) -> int:
    """Goods plus colonists still in the storehouse (seed: "her göz 1 mal ya da 1 kolonist tutar")."""
    base = seat * COLONISTS
    return sum(d.goods[seat * NUM_GOODS : seat * NUM_GOODS + NUM_GOODS]) + d.col[base : base + COLONISTS].count(NO)


def colonists_on_board(d: ConcordiaData, seat: int) -> int:
    base = seat * COLONISTS
    return COLONISTS - d.col[base : base + COLONISTS].count(NO)


def colonist_kind(i: int) -> int:
    return 0 if i < COLONISTS_PER_KIND else 1
