"""The Concordia heuristic and the engine parts it leans on as first written (reference copies): the tests check
that the faster versions in the package give the same numbers and choices on positions reached by play."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.concordia.actions import (
    CASH,
    CITY0,
    COLONIST0,
    GOOD0,
    PASS,
    PLACE0,
    PLAY0,
    PROVINCE0,
    ROUTE0,
    SLOT0,
    TAX,
    trade_action,
)
from meeplezoo.envs.concordia.architect import can_afford, house_cost, move_cost
from meeplezoo.envs.concordia.content import (
    CARDS,
    COLONISTS,
    COLONISTS_PER_KIND,
    FORUM_SIZE,
    GOOD_VALUE,
    HOUSE_GOODS,
    MAX_HOUSES,
    NUM_GOODS,
    STOREHOUSE,
    Act,
    God,
    MapInfo,
)
from meeplezoo.envs.concordia.forum import SENATOR, affordable, price
from meeplezoo.envs.concordia.game import ConcordiaState
from meeplezoo.envs.concordia.prefect import cash_value
from meeplezoo.envs.concordia.scoring import seat_sheet
from meeplezoo.envs.concordia.state import CODEC, NO, ConcordiaData, board_of, colonists_on_board, storehouse_used
from meeplezoo.envs.concordia.steps import Step
from meeplezoo.envs.concordia.turn import apply_action
from meeplezoo.envs.core.chance import arrange


def neighbour_cities(d: ConcordiaData, seat: int) -> set[int]:
    """Cities next to the seat's colonists: both ends of a route, or the city a colonist stands in."""
    m = board_of(d)
    out = set()
    n_c = m.num_cities
    for pos in d.col[seat * COLONISTS : seat * COLONISTS + COLONISTS]:
        if pos == NO:
            continue
        if pos >= n_c:
            a, b, _ = m.routes[pos - n_c]
            out.add(a)
            out.add(b)
        else:
            out.add(pos)
    return out


def legal_build(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    mine = d.houses[seat]
    if len(mine) >= MAX_HOUSES:
        return []
    roma = board_of(d).roma
    out = []
    for c in sorted(neighbour_cities(d, seat)):
        if c == roma or c in mine:
            continue
        money, goods = house_cost(d, c)
        if can_afford(d, seat, money, goods):
            out.append(CITY0 + c)
    if out:
        out.append(PASS)
    return out


def legal_buy(d: ConcordiaData, seat: int, mode: int, bought: int) -> list[int]:
    if bought >= (2 if mode == SENATOR else 1):
        return []
    out = []
    for slot in range(FORUM_SIZE):
        card = d.forum[slot]
        if card != NO and affordable(d, seat, *price(card, slot, mode)):
            out.append(SLOT0 + slot)
    if out:
        out.append(PASS)
    return out


def resample_hidden(d: ConcordiaData, rng: np.random.Generator | None) -> None:
    """Reshuffle (or sort) the Forum deck within its numbered bands (the numerals on the card backs are
    public)."""
    deck = d.deck
    for band in range(1, 6):
        pos = [i for i, c in enumerate(deck) if CARDS[c].deck == band]
        if len(pos) < 2:
            continue
        for i, card in zip(pos, arrange([deck[i] for i in pos], rng), strict=True):
            deck[i] = card


#: the goods stock the trades aim at (enough for two houses of most kinds)
TARGET = (3, 2, 2, 1, 1)
HOUSE_VALUE = 6.0
COLONIST_VALUE = 2.5
CARD_VALUE = 2.0
HAND_VALUE = 0.4
GOODS_WEIGHT = 0.3
READY_VALUE = 1.5
MONEY_WEIGHT = 0.1


def evaluate(d: ConcordiaData, seat: int) -> float:
    """Score if the game ended now, plus the potential of houses, colonists, cards, goods and money."""
    total = float(seat_sheet(d, seat)[-1])
    base = seat * NUM_GOODS
    potential = MONEY_WEIGHT * d.money[seat]
    for g in range(NUM_GOODS):
        have = d.goods[base + g]
        useful = min(have, TARGET[g])
        potential += GOOD_VALUE[g] * (GOODS_WEIGHT * useful + MONEY_WEIGHT * (have - useful))
    # what houses, colonists and cards will still bring (kept after the trigger too, so that ending the game
    # is judged by the Concordia card and the score alone)
    potential += HOUSE_VALUE * len(d.houses[seat])
    potential += COLONIST_VALUE * colonists_on_board(d, seat)
    potential += CARD_VALUE * (len(d.hand[seat]) + len(d.discard[seat]))
    potential += HAND_VALUE * len(d.hand[seat])
    potential += READY_VALUE * _ready(d, seat)
    return total + potential


def _ready(d: ConcordiaData, seat: int) -> int:
    """Cities next to own colonists where a house could be paid now."""
    m = board_of(d)
    n = 0
    base = seat * NUM_GOODS
    for c in neighbour_cities(d, seat):
        if c == m.roma or c in d.houses[seat]:
            continue
        money, need = house_cost(d, c)
        if d.money[seat] >= money and all(d.goods[base + x] >= need.count(x) for x in need):
            n += 1
    return min(n, 3)


def _city_values(d: ConcordiaData, seat: int) -> list[float]:
    """How much the seat wants a house in each city (0 where it cannot have one)."""
    m = board_of(d)
    mine = d.houses[seat]
    provinces = {m.province_of[h] for h in mine}
    goods = {d.city_good[h] for h in mine}
    money, base = d.money[seat], seat * NUM_GOODS
    have = d.goods[base : base + NUM_GOODS]
    # the goods a house needs depend on the city's good only: checked once per good
    stocked = [all(have[x] >= need.count(x) for x in need) for need in HOUSE_GOODS]
    out = []
    for c in range(m.num_cities):
        if c == m.roma or c in mine:
            out.append(0.0)
            continue
        g = d.city_good[c]
        value = 1.0 + 0.2 * g
        if m.province_of[c] not in provinces:
            value += 0.6
        if g not in goods:
            value += 0.4
        if stocked[g] and money >= house_cost(d, c)[0]:
            value += 1.0
        out.append(value)
    return out


def _pos_value(m: MapInfo, pos: int, cities: list[float]) -> float:
    """How much the seat wants a colonist at ``pos`` on map ``m`` (``cities``: its :func:`_city_values`): on
    a route, the better end city plus a fifth of the other."""
    if pos == NO or pos < m.num_cities:
        return 0.0
    a, b, _ = m.routes[pos - m.num_cities]
    va, vb = cities[a], cities[b]
    return max(va, vb) + 0.2 * min(va, vb)


def _best_move(d: ConcordiaData, seat: int, points: int, only: int = -1) -> tuple[float, int, int]:
    """(gain, colonist, route) of the best single colonist move within ``points``."""
    m = board_of(d)
    routes = m.routes
    best = (0.05, -1, -1)
    cities = _city_values(d, seat)
    for i in range(COLONISTS):
        if only >= 0 and i != only:
            continue
        pos = d.col[seat * COLONISTS + i]
        if pos == NO:
            continue
        here = _pos_value(m, pos, cities)
        moves = m.moves_land[pos] if i < COLONISTS_PER_KIND else m.moves_sea[pos]
        for cost, r in moves:
            if cost > points:
                break
            if d.route_occ[r] != NO:
                continue
            a, b, _ = routes[r]  # _pos_value(m, nc + r, cities), inlined: this loop is the heuristic's hottest
            va, vb = cities[a], cities[b]
            gain = (va + 0.2 * vb if va >= vb else vb + 0.2 * va) - here - 0.02 * cost
            if gain > best[0]:
                best = (gain, i, r)
    return best


def _card_value(d: ConcordiaData, seat: int, card: int) -> float:
    c = CARDS[card]
    if c.action == Act.SPECIALIST:
        return 1.0 + 1.5 * sum(1 for h in d.houses[seat] if d.city_good[h] == c.good)
    value = {Act.ARCHITECT: 3.0, Act.PREFECT: 2.5, Act.MERCATOR: 2.5, Act.COLONIST: 2.0, Act.CONSUL: 2.5}.get(
        c.action, 2.0
    )
    if c.god == God.JUPITER:
        value += 0.15 * len(d.houses[seat])
    elif c.god == God.SATURNUS:
        value += 0.25 * len({board_of(d).province_of[h] for h in d.houses[seat]})
    elif c.god == God.MARS:
        value += 0.3 * colonists_on_board(d, seat)
    elif c.god == God.MERCURIUS:
        value += 0.3 * len({d.city_good[h] for h in d.houses[seat]})
    return value


def rule_choice(d: ConcordiaData, step: int, seat: int, a: int, b: int, legal: tuple[int, ...]) -> int:
    """The rule-based choice for every decision but the card to play."""
    base = seat * NUM_GOODS
    if step == Step.MOVE_PICK:
        _, i, _ = _best_move(d, seat, a)
        return COLONIST0 + i if i >= 0 and COLONIST0 + i in legal else PASS
    if step == Step.MOVE_DEST:
        _, i, r = _best_move(d, seat, a, only=b)
        if r >= 0 and ROUTE0 + r in legal:
            return ROUTE0 + r
        pos = d.col[seat * COLONISTS + b]
        return min(legal, key=lambda x: move_cost(d, b, pos, x - ROUTE0))
    if step == Step.BUILD:
        cities = [x for x in legal if x != PASS]
        values = _city_values(d, seat)
        return max(cities, key=lambda x: values[x - CITY0] - 0.05 * house_cost(d, x - CITY0)[0])
    if step == Step.PREFECT:
        m = board_of(d)
        best, choice = -1.0, CASH
        cash = cash_value(d)
        for x in legal:
            if x == CASH:
                continue
            p = x - PROVINCE0
            mine = GOOD_VALUE[d.province_good[p]] * (2 if d.pm == seat else 1)
            for s in range(d.n):
                for c in d.houses[s]:
                    if m.province_of[c] == p:
                        mine += GOOD_VALUE[d.city_good[c]] * (1.0 if s == seat else -0.3)
            if mine > best:
                best, choice = mine, x
        return CASH if cash > best else choice
    if step == Step.TRADE:
        return _trade(d, seat, a, legal)
    if step == Step.BUY:
        slots = [x for x in legal if x != PASS]
        return max(slots, key=lambda x: _card_value(d, seat, d.forum[x - SLOT0]) - 0.1 * (x - SLOT0))
    if step in (Step.PAY_ANY, Step.OVERFLOW):
        goods = [x for x in legal]
        return max(goods, key=lambda x: d.goods[base + x - GOOD0] - TARGET[x - GOOD0] - 0.1 * (x - GOOD0))
    if step in (Step.COLONIST_CHOICE, Step.COLONIST_MORE, Step.TRIBUNE_PLACE):
        places = [x for x in legal if PLACE0 <= x < TAX]
        if places and colonists_on_board(d, seat) < 6:
            # land colonists first; in Roma (most routes) unless an own house city is better placed
            return places[0]
        return TAX if TAX in legal else PASS
    if step == Step.DIPLOMAT:
        return legal[0]
    return legal[0]


def _trade(d: ConcordiaData, seat: int, mask: int, legal: tuple[int, ...]) -> int:
    base = seat * NUM_GOODS
    have = d.goods[base : base + NUM_GOODS]
    # sell the most valuable surplus
    surplus = [(GOOD_VALUE[g] * (have[g] - TARGET[g]), g) for g in range(NUM_GOODS) if have[g] > TARGET[g]]
    free = STOREHOUSE - storehouse_used(d, seat)
    if surplus and (d.money[seat] < 12 or free < 3):
        _, g = max(surplus)
        act = trade_action(g, True, have[g] - TARGET[g])
        if act in legal:
            return act
    money = d.money[seat] - 6  # keep a little for house money
    for g in sorted(range(NUM_GOODS), key=lambda g: (have[g] - TARGET[g], -g)):
        want = min(TARGET[g] + (2 if d.money[seat] > 40 else 0) - have[g], free, money // GOOD_VALUE[g])
        if want > 0:
            act = trade_action(g, False, want)
            if act in legal:
                return act
    return PASS


def finish_turn(d: ConcordiaData, seat: int) -> None:
    """Play the rest of the seat's turn with the rule-based choices (stops at another seat's decision)."""
    while d.stack:
        step, who, a, b = d.stack[-1]
        if who != seat or step == Step.MAIN or step == Step.DIPLOMAT:
            return
        apply_action(d, rule_choice(d, step, seat, a, b, d.legal))


class ReferenceAgent:
    """One-turn lookahead for the card to play, rule-based choices inside the turn."""

    name = "heuristic"

    def __init__(self, seed=None) -> None:
        self.seed = seed  # unused: the choice is deterministic (kept for the agent factory's signature)

    def choose(self, state: ConcordiaState) -> int:
        """The action for the seat to move in ``state``, a state the agent may see whole (the view's public
        state, or a determinization; the Forum deck's order never changes the choice). Also the rollout policy
        of IS-MCTS."""
        d = state.d
        step, seat, a, b = d.stack[-1]
        legal = d.legal
        if len(legal) == 1:
            return legal[0]
        if step not in (Step.MAIN, Step.DIPLOMAT):
            return rule_choice(d, step, seat, a, b, legal)
        base = d
        best, choice = -1e18, legal[0]
        seen = set()
        for action in legal:
            if step == Step.MAIN:
                card = CARDS[action - PLAY0]
                key = (card.action, card.amount, card.good)
                if key in seen:
                    continue
                seen.add(key)
            trial = _clone(base)
            apply_action(trial, action)
            finish_turn(trial, seat)
            if trial.stack and trial.stack[-1][0] == Step.DIPLOMAT and trial.stack[-1][1] == seat:
                value = max(self._diplomat_value(trial, seat, x) for x in trial.legal)
            else:
                value = evaluate(trial, seat)
            if step == Step.MAIN and CARDS[action - PLAY0].action == Act.TRIBUNE:
                value -= 0.8 * max(0, 4 - len(d.discard[seat]))
            if value > best:
                best, choice = value, action
        return choice

    def _diplomat_value(self, d: ConcordiaData, seat: int, action: int) -> float:
        trial = _clone(d)
        apply_action(trial, action)
        finish_turn(trial, seat)
        return evaluate(trial, seat)


def _clone(d: ConcordiaData) -> ConcordiaData:
    return CODEC.clone(d)
