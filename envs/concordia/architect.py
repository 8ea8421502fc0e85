"""Architect: move colonists, then build houses (seed: "Mimar (Architect)").

Movement points = own colonists on the board, shared freely. A decision picks a colonist, the next one a
route of its kind within the points left: the cost is the shortest path (precomputed in :mod:`content`),
passing over occupied routes; the destination must be free ("bir kolonist ... başka bir kolonistin
bulunduğu çizgide duramaz"). Houses are then built one city at a time, in cities next to own colonists.
"""

from __future__ import annotations

from functools import lru_cache

from . import steps
from .actions import CITY0, COLONIST0, PASS, ROUTE0
from .content import COLONISTS, COLONISTS_PER_KIND, HOUSE_GOODS, HOUSE_MONEY, MAX_HOUSES, NUM_GOODS
from .state import BOARDS, NO, ConcordiaData, colonists_on_board

#: per board, per colonist position: the cities next to it (the city itself, or a route's two ends); the
#: extra last entry, ``()``, is what position ``NO`` (-1, in the storehouse) reads
POSITION_CITIES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple((c,) for c in range(m.num_cities)) + tuple((a, b) for a, b, _ in m.routes) + ((),) for m in BOARDS
)


def start(d: ConcordiaData, seat: int) -> None:
    d.stack.append((steps.BUILD, seat, 0, 0))
    d.stack.append((steps.MOVE_PICK, seat, colonists_on_board(d, seat), 0))


def _moves(d: ConcordiaData, i: int, pos: int):
    m = BOARDS[d.board]
    return m.moves_land[pos] if i < COLONISTS_PER_KIND else m.moves_sea[pos]


#: per board, kind (land, sea) and position: ``{route: cost}`` of its moves (``MapInfo.moves_land`` /
#: ``moves_sea`` as a dict)
_MOVE_COST = tuple(
    tuple(tuple({r: cost for cost, r in moves} for moves in table) for table in (m.moves_land, m.moves_sea))
    for m in BOARDS
)


def legal_pick(d: ConcordiaData, seat: int, points: int, b: int) -> list[int]:
    out = []
    base = seat * COLONISTS
    occ, col = d.route_occ, d.col
    m = BOARDS[d.board]
    land, sea = m.moves_land, m.moves_sea
    for i in range(COLONISTS):
        pos = col[base + i]
        if pos == NO:
            continue
        for cost, r in land[pos] if i < COLONISTS_PER_KIND else sea[pos]:
            if cost > points:
                break
            if occ[r] == NO:
                out.append(COLONIST0 + i)
                break
    if out:
        out.append(PASS)
    return out


def apply_pick(d: ConcordiaData, action: int, seat: int, points: int, b: int) -> None:
    if action != PASS:
        d.stack.append((steps.MOVE_DEST, seat, points, action - COLONIST0))


def legal_dest(d: ConcordiaData, seat: int, points: int, i: int) -> list[int]:
    out = []
    occ = d.route_occ
    for cost, r in _moves(d, i, d.col[seat * COLONISTS + i]):
        if cost > points:
            break
        if occ[r] == NO:
            out.append(ROUTE0 + r)
    return out


def move_cost(d: ConcordiaData, i: int, pos: int, route: int) -> int:
    cost = _MOVE_COST[d.board][i >= COLONISTS_PER_KIND][pos].get(route)
    if cost is None:
        raise ValueError(f"route {route} is not reachable")
    return cost


def apply_dest(d: ConcordiaData, action: int, seat: int, points: int, i: int) -> None:
    m = BOARDS[d.board]
    r = action - ROUTE0
    k = seat * COLONISTS + i
    pos = d.col[k]
    cost = _MOVE_COST[d.board][i >= COLONISTS_PER_KIND][pos][r]  # move_cost(d, i, pos, r) of a legal move
    if pos >= m.num_cities:
        d.route_occ[pos - m.num_cities] = NO
    d.col[k] = m.num_cities + r
    d.route_occ[r] = k
    d.stack.append((steps.MOVE_PICK, seat, points - cost, 0))


def house_cost(d: ConcordiaData, city: int) -> tuple[int, tuple[int, ...]]:
    """(sesterces, goods): the money cost times the houses in the city after building."""
    g = d.city_good[city]
    return HOUSE_MONEY[g] * (d.city_houses[city] + 1), HOUSE_GOODS[g]


#: per good: (good, count) of the goods a house in a city of that good needs
_HOUSE_NEED = tuple(tuple((x, need.count(x)) for x in sorted(set(need))) for need in HOUSE_GOODS)


def neighbour_cities(d: ConcordiaData, seat: int) -> set[int]:
    """Cities next to the seat's colonists: both ends of a route, or the city a colonist stands in."""
    ends = POSITION_CITIES[d.board]
    out: set[int] = set()
    for pos in d.col[seat * COLONISTS : seat * COLONISTS + COLONISTS]:
        out.update(ends[pos])
    return out


@lru_cache(maxsize=1 << 16)
def _cities_next_to(board: int, cols: tuple[int, ...]) -> tuple[int, ...]:
    ends = POSITION_CITIES[board]
    return tuple(sorted({c for pos in cols for c in ends[pos]}))


def sorted_neighbour_cities(d: ConcordiaData, seat: int) -> tuple[int, ...]:
    """``sorted(neighbour_cities(d, seat))``, cached by board and colonist positions (moves are rarer than
    the builds and lookahead evaluations that ask)."""
    return _cities_next_to(d.board, tuple(d.col[seat * COLONISTS : seat * COLONISTS + COLONISTS]))


def can_afford(d: ConcordiaData, seat: int, money: int, goods: tuple[int, ...]) -> bool:
    if d.money[seat] < money:
        return False
    base = seat * NUM_GOODS
    return all(d.goods[base + g] >= goods.count(g) for g in goods)


def legal_build(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    mine = d.houses[seat]
    if len(mine) >= MAX_HOUSES:
        return []
    roma = BOARDS[d.board].roma
    money = d.money[seat]
    base = seat * NUM_GOODS
    have = d.goods[base : base + NUM_GOODS]
    city_good, city_houses = d.city_good, d.city_houses
    out = []
    for c in sorted_neighbour_cities(d, seat):
        if c == roma or c in mine:
            continue
        g = city_good[c]
        if money < HOUSE_MONEY[g] * (city_houses[c] + 1):
            continue
        for x, k in _HOUSE_NEED[g]:
            if have[x] < k:
                break
        else:  # can_afford(d, seat, *house_cost(d, c)), the goods counted once per good
            out.append(CITY0 + c)
    if out:
        out.append(PASS)
    return out


def build(d: ConcordiaData, seat: int, city: int) -> None:
    """Pay and place the house; the 15th house takes the Concordia card (seed: "15. evini kurarak")."""
    money, goods = house_cost(d, city)
    d.money[seat] -= money
    for g in goods:
        d.goods[seat * NUM_GOODS + g] -= 1
    d.houses[seat].append(city)
    d.city_houses[city] += 1
    d.idle[seat] = 0  # a house brings the end closer (:mod:`.stalling`)
    if len(d.houses[seat]) == MAX_HOUSES and d.concordia == NO:
        d.concordia = seat


def apply_build(d: ConcordiaData, action: int, seat: int, a: int, b: int) -> None:
    if action != PASS:
        build(d, seat, action - CITY0)
        d.stack.append((steps.BUILD, seat, 0, 0))
