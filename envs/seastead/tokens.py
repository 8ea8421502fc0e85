"""Supplies and board queries shared by the rules: resources, cleanup tokens, free locations, ships, the dive deck.

Seed: "Ortak arzda alacağınız kadar jeton yoksa, yalnızca mevcut olanı alırsınız; gerisi kaybolur." and
"alacağınız kadar [temizlik] jeton yoksa, eksik kalan miktarı skor bloğuna not edersiniz".
"""

from __future__ import annotations

from itertools import product

from .actions import LOC0, RES0
from .content import (
    DECREE_BY_NAME,
    LOCS_PER_FLOTILLA,
    NUM_FLOTILLAS,
    NUM_LOCS,
    NUM_RES,
    SIDE_COST,
    SIDE_LOCATIONS,
    Effect,
)
from .ending import record_triggers
from .state import NO, SeasteadData


def loc_cost(d: SeasteadData, loc: int) -> int:
    """The value printed on a location (its build cost and its points), on the side its tile shows."""
    return SIDE_COST[d.sides[loc // LOCS_PER_FLOTILLA]][loc]


#: every location's printed value for each combination of tile sides, built once from the data
VALUES_BY_SIDES: dict[tuple[int, ...], tuple[int, ...]] = {
    sides: tuple(SIDE_COST[sides[loc // LOCS_PER_FLOTILLA]][loc] for loc in range(NUM_LOCS))
    for sides in product(range(len(SIDE_COST)), repeat=NUM_FLOTILLAS)
}


def loc_values(d: SeasteadData) -> tuple[int, ...]:
    """``loc_cost`` of every location at once (a table lookup on the tile sides)."""
    return VALUES_BY_SIDES[tuple(d.sides)]


def loc_effect(d: SeasteadData, loc: int) -> Effect:
    return SIDE_LOCATIONS[d.sides[loc // LOCS_PER_FLOTILLA]][loc].effect


def decree_is(d: SeasteadData, name: str) -> bool:
    """Whether the decree ``name`` is in force (B sides only; see data/seastead.json ``decrees``)."""
    return d.decree == DECREE_BY_NAME[name]


def gain(d: SeasteadData, seat: int, kind: int, n: int) -> int:
    """Take up to ``n`` of ``kind`` from the supply; the rest is lost. Returns how many were taken."""
    taken = min(n, d.supply[kind])
    d.supply[kind] -= taken
    d.res[seat * NUM_RES + kind] += taken
    return taken


def pay(d: SeasteadData, seat: int, kind: int, n: int) -> None:
    """Return ``n`` resources of ``kind`` to the supply (the caller checked the player has them)."""
    d.res[seat * NUM_RES + kind] -= n
    d.supply[kind] += n


def gain_cleanup(d: SeasteadData, seat: int, n: int) -> None:
    """Take ``n`` cleanup tokens; what the supply lacks is recorded as shortfall on the score pad."""
    taken = min(n, d.cleanup_supply)
    d.cleanup_supply -= taken
    d.cleanup[seat] += taken
    d.shortfall[seat] += n - taken
    if d.cleanup_supply == 0:
        record_triggers(d)


def held_kinds(d: SeasteadData, seat: int) -> list[int]:
    """``RES`` actions for the kinds ``seat`` holds at least one of."""
    base = seat * NUM_RES
    return [RES0 + k for k in range(NUM_RES) if d.res[base + k] > 0]


def supplied_kinds(d: SeasteadData, exclude: int = NO) -> list[int]:
    """``RES`` actions for the kinds the supply still has (optionally without one kind)."""
    return [RES0 + k for k in range(NUM_RES) if d.supply[k] > 0 and k != exclude]


def empty_locations(d: SeasteadData) -> list[int]:
    """Locations with neither building nor ship (seed: a ship goes to "üzerinde ne bina ne gemi olan")."""
    return [i for i in range(NUM_LOCS) if d.loc_bld[i] == NO and d.ship[i] == NO]


def has_empty_location(d: SeasteadData) -> bool:
    """Some location has neither building nor ship (a ship can be placed or moved)."""
    return any(b == NO and s == NO for b, s in zip(d.loc_bld, d.ship, strict=True))


def buildable_locations(d: SeasteadData) -> list[int]:
    """Locations with no building (a ship there is allowed)."""
    return [i for i in range(NUM_LOCS) if d.loc_bld[i] == NO]


def ship_placements(d: SeasteadData) -> list[int]:
    """``LOC`` actions for normal ship placement: the cheapest empty location(s) of each flotilla."""
    out: list[int] = []
    bld, ship = d.loc_bld, d.ship
    for f in range(NUM_FLOTILLAS):
        cost = SIDE_COST[d.sides[f]]
        low = -1
        cheapest: list[int] = []
        for i in range(f * LOCS_PER_FLOTILLA, (f + 1) * LOCS_PER_FLOTILLA):
            if bld[i] == NO and ship[i] == NO:
                c = cost[i]
                if c < low or low < 0:
                    low = c
                    cheapest = [LOC0 + i]
                elif c == low:
                    cheapest.append(LOC0 + i)
        out += cheapest
    return out


def opponent(seat: int) -> int:
    return 1 - seat


def dive_deck_ready(d: SeasteadData) -> bool:
    """A dive card can be revealed (from the deck, or after reshuffling the discard pile)."""
    return bool(d.dive_deck) or bool(d.dive_discard)


def reveal(d: SeasteadData) -> None:
    """Turn over the top dive card; an empty deck is first rebuilt from the shuffled discard pile. Here, below
    both, because a dive and the Scout specialist reveal."""
    if not d.dive_deck:
        rng = d.chance.generator()
        d.dive_deck = [d.dive_discard[i] for i in rng.permutation(len(d.dive_discard))]
        d.dive_discard = []
        d.dive_reshuffled = 1
    d.revealed = d.dive_deck.pop()
    record_triggers(d)  # a Depths card back may show now
