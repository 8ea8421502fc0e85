"""Helpers for the Concordia rule scenarios: build a position by hand, then play actions on it.

A scenario starts from :func:`fresh`, edits ``s.d`` with the helpers below (they only move pieces between the
places the engine keeps them, so ``s.validate()`` still holds), calls :func:`start` (the seat's turn begins
with the given decision on the stack) and asserts exact outcomes.
"""

from __future__ import annotations

from meeplezoo.envs.concordia import ConcordiaGame, ConcordiaState
from meeplezoo.envs.concordia.actions import PLAY0
from meeplezoo.envs.concordia.content import CARDS, COLONISTS, NUM_GOODS, Act, Good
from meeplezoo.envs.concordia.state import NO, board_of
from meeplezoo.envs.concordia.steps import Step

P0, P1, P2, P3 = 0, 1, 2, 3
B, F, T, W, C = Good.BRICK, Good.FOOD, Good.TOOL, Good.WINE, Good.CLOTH


def fresh(n: int = 2, board: str = "italia", seed: int = 0, **config) -> ConcordiaState:
    return ConcordiaGame(num_players=n, map=board, **config).new_state(seed)


def city(s: ConcordiaState, name: str) -> int:
    return board_of(s.d).cities.index(name)


def route(s: ConcordiaState, a: str, b: str, kind: int | None = None) -> int:
    m = board_of(s.d)
    x, y = city(s, a), city(s, b)
    for r, (p, q, k) in enumerate(m.routes):
        if {p, q} == {x, y} and (kind is None or k == kind):
            return r
    raise KeyError(f"no route {a}-{b}")


def province(s: ConcordiaState, name: str) -> int:
    return board_of(s.d).provinces.index(name)


def set_goods(s: ConcordiaState, seat: int, brick=0, food=0, tool=0, wine=0, cloth=0) -> None:
    s.d.goods[seat * NUM_GOODS : seat * NUM_GOODS + NUM_GOODS] = [brick, food, tool, wine, cloth]


def goods(s: ConcordiaState, seat: int) -> list[int]:
    return s.d.goods[seat * NUM_GOODS : seat * NUM_GOODS + NUM_GOODS]


def set_city_good(s: ConcordiaState, name: str, good: int) -> None:
    """Give the city the token of ``good`` (scenarios fix the tokens they rely on)."""
    goods_ = list(s.d.city_good)
    goods_[city(s, name)] = good
    s.d.city_good = goods_


def add_house(s: ConcordiaState, seat: int, name: str) -> None:
    c = city(s, name)
    s.d.houses[seat].append(c)
    s.d.city_houses[c] += 1


def put_colonist(s: ConcordiaState, seat: int, i: int, *, city_name: str | None = None, on: tuple | None = None):
    """Put colonist ``i`` (0-2 land, 3-5 sea) of ``seat`` in a city, on a route (``on=(a, b)``) or in store."""
    d = s.d
    m = board_of(d)
    k = seat * COLONISTS + i
    old = d.col[k]
    if old != NO and old >= m.num_cities:
        d.route_occ[old - m.num_cities] = NO
    if on is not None:
        r = route(s, *on, kind=0 if i < 3 else 1)
        d.col[k] = m.num_cities + r
        d.route_occ[r] = k
    elif city_name is not None:
        d.col[k] = city(s, city_name)
    else:
        d.col[k] = NO


def card_id(action: Act, deck: int = 0, **match) -> int:
    for c in CARDS:
        if c.action == action and c.deck == deck and all(getattr(c, k) == v for k, v in match.items()):
            return c.id
    raise KeyError(action)


def give_card(s: ConcordiaState, seat: int, card: int) -> None:
    """Move a for-sale card from the deck or the Forum into ``seat``'s hand."""
    d = s.d
    if card in d.deck:
        d.deck.remove(card)
    elif card in d.forum:
        d.forum[d.forum.index(card)] = d.deck.pop() if d.deck else NO
    d.hand[seat] = sorted(d.hand[seat] + [card])


def discard(s: ConcordiaState, seat: int, card: int) -> None:
    s.d.hand[seat].remove(card)
    s.d.discard[seat].append(card)


def start(s: ConcordiaState, seat: int, step: Step = Step.MAIN, a: int = 0, b: int = 0) -> None:
    d = s.d
    d.active = seat
    d.stack = [(int(step), seat, a, b)]
    if step != Step.MAIN:
        d.stack.insert(0, (int(Step.END_TURN), seat, 0, 0))
    s.refresh()


def play(s: ConcordiaState, card: int) -> None:
    s.apply(PLAY0 + card)


TRIBUNE, ARCHITECT, PREFECT, PREFECT2, MERCATOR, DIPLOMAT, SENATOR = range(7)
