"""A Concordia heuristic: a one-turn lookahead on a determinized copy with a hand-written evaluation.

The card to play (and the Diplomat's target) is chosen by playing each candidate on a copy of the position as
the seat knows it (the view's public state: the Forum deck in a canonical order, so the agent never peeks;
its choice never depends on the deck, which a test checks against determinizations), finishing the turn with
the rule-based choices below, and evaluating the result from the agent's seat: the score as if the game ended now
plus estimates of what houses, colonists, cards, goods and money will still bring. The other decisions of a
turn are rule-based (move colonists next to cities where a house can be built, build the house that adds
the most, produce where the agent's houses are, trade towards a building stock, buy the most useful card).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.manifest import SearchHooks
from .actions import (
    CASH,
    CITY0,
    COLONIST0,
    GOOD0,
    PASS,
    PLACE0,
    PLAY0,
    PROVINCE0,
    ROUTE0,
    SEAT0,
    SLOT0,
    TAX,
    trade_action,
)
from .architect import house_cost, move_cost, sorted_neighbour_cities
from .content import (
    CARDS,
    COLONISTS,
    COLONISTS_PER_KIND,
    DECKS,
    GOOD_VALUE,
    HOUSE_GOODS,
    HOUSE_MONEY,
    MAX_HOUSES,
    NUM_GOODS,
    STOREHOUSE,
    Act,
    God,
    MapInfo,
)
from .game import ConcordiaState
from .prefect import cash_value
from .scoring import seat_score, seat_sheet
from .state import (
    BOARDS,
    CODEC,
    NO,
    ConcordiaData,
    board_of,
    colonists_on_board,
    storehouse_used,
)
from .steps import (
    BUILD,
    BUY,
    COLONIST_CHOICE,
    COLONIST_MORE,
    DIPLOMAT,
    MAIN,
    MOVE_DEST,
    MOVE_PICK,
    OVERFLOW,
    PAY_ANY,
    PREFECT,
    TRADE,
    TRIBUNE_PLACE,
)
from .turn import apply_action

if TYPE_CHECKING:
    from ...agents.view import SeatView

#: the goods stock the trades aim at (enough for two houses of most kinds)
TARGET = (3, 2, 2, 1, 1)
HOUSE_VALUE = 6.0
COLONIST_VALUE = 2.5
CARD_VALUE = 2.0
HAND_VALUE = 0.4
GOODS_WEIGHT = 0.3
READY_VALUE = 1.5
MONEY_WEIGHT = 0.1


#: per good and stock: the good's term of :func:`evaluate` (stocks up to the storehouse's size and a margin)
_GOODS_TERM = tuple(
    tuple(
        GOOD_VALUE[g] * (GOODS_WEIGHT * min(have, TARGET[g]) + MONEY_WEIGHT * (have - min(have, TARGET[g])))
        for have in range(4 * STOREHOUSE)
    )
    for g in range(NUM_GOODS)
)
_T0, _T1, _T2, _T3, _T4 = _GOODS_TERM
#: per good: the goods a house in a city of that good needs, as a bit mask (one of each, checked here)
_HOUSE_NEED = tuple(sum(1 << x for x in need) for need in HOUSE_GOODS)
assert all(len(set(need)) == len(need) for need in HOUSE_GOODS), "a house needs one of each of its goods"


def _city_value(good: int, new_province: bool, new_good: bool, affordable: bool) -> float:
    """How much the seat wants a house in a city of ``good`` (see :func:`_city_values`)."""
    value = 1.0 + 0.2 * good
    if new_province:
        value += 0.6
    if new_good:
        value += 0.4
    if affordable:
        value += 1.0
    return value


#: per good, per bits (1: new province, 2: new good, 4: affordable now): :func:`_city_value`
_CITY_VALUE = tuple(
    tuple(_city_value(g, bool(bits & 1), bool(bits & 2), bool(bits & 4)) for bits in range(8)) for g in range(NUM_GOODS)
)

#: per board: Roma
_ROMA = tuple(m.roma for m in BOARDS)
#: per board: the cities a house may stand in (all but Roma) with their provinces, and each city's province
_CANDIDATES = tuple(tuple((c, m.province_of[c]) for c in range(m.num_cities) if c != m.roma) for m in BOARDS)
_PROVINCE_OF = tuple(m.province_of for m in BOARDS)
assert all(x > 0 for x in HOUSE_MONEY), "affordable: money >= cost * (houses + 1) as houses < money // cost"


def evaluate(d: ConcordiaData, seat: int) -> float:
    """Score if the game ended now, plus the potential of houses, colonists, cards, goods and money."""
    total = float(seat_score(d, seat))
    base = seat * NUM_GOODS
    g0, g1, g2, g3, g4 = d.goods[base : base + NUM_GOODS]
    money = d.money[seat]
    if g0 < _TERMS and g1 < _TERMS and g2 < _TERMS and g3 < _TERMS and g4 < _TERMS:
        potential = MONEY_WEIGHT * money + _T0[g0] + _T1[g1] + _T2[g2] + _T3[g3] + _T4[g4]  # summed in that order
    else:
        potential = MONEY_WEIGHT * money
        for g, have in enumerate((g0, g1, g2, g3, g4)):
            useful = min(have, TARGET[g])
            potential += GOOD_VALUE[g] * (GOODS_WEIGHT * useful + MONEY_WEIGHT * (have - useful))
    # what houses, colonists and cards will still bring (kept after the trigger too, so that ending the game
    # is judged by the Concordia card and the score alone)
    hand = len(d.hand[seat])
    cb = seat * COLONISTS
    missing = (g0 < 1) | (g1 < 1) << 1 | (g2 < 1) << 2 | (g3 < 1) << 3 | (g4 < 1) << 4  # _missing(d, seat)
    potential += HOUSE_VALUE * len(d.houses[seat])
    potential += COLONIST_VALUE * (COLONISTS - d.col[cb : cb + COLONISTS].count(NO))  # colonists_on_board
    potential += CARD_VALUE * (hand + len(d.discard[seat]))
    potential += HAND_VALUE * hand
    potential += READY_VALUE * _count_ready(d, seat, money, missing)
    return total + potential


#: the stocks :data:`_GOODS_TERM` covers (a storehouse holds 12; more only while a seat discards)
_TERMS = 4 * STOREHOUSE


def _missing(d: ConcordiaData, seat: int) -> int:
    """The goods the seat has none of, as a bit mask (a house of good ``g`` is stocked when
    ``not _HOUSE_NEED[g] & missing``)."""
    base = seat * NUM_GOODS
    g0, g1, g2, g3, g4 = d.goods[base : base + NUM_GOODS]
    return (g0 < 1) | (g1 < 1) << 1 | (g2 < 1) << 2 | (g3 < 1) << 3 | (g4 < 1) << 4


def _ready(d: ConcordiaData, seat: int) -> int:
    """Cities next to own colonists where a house could be paid now (at most 3 count)."""
    return _count_ready(d, seat, d.money[seat], _missing(d, seat))


def _count_ready(d: ConcordiaData, seat: int, money: int, missing: int) -> int:
    """:func:`_ready` given the seat's money and :func:`_missing`."""
    roma = _ROMA[d.board]
    mine = d.houses[seat]
    city_good, city_houses = d.city_good, d.city_houses
    n = 0
    for c in sorted_neighbour_cities(d, seat):
        if c == roma or c in mine:
            continue
        g = city_good[c]
        if not _HOUSE_NEED[g] & missing and money >= HOUSE_MONEY[g] * (city_houses[c] + 1):
            n += 1
            if n == 3:
                break
    return n


def _city_values(d: ConcordiaData, seat: int) -> list[float]:
    """How much the seat wants a house in each city (0 where it cannot have one)."""
    mine = d.houses[seat]
    board = d.board
    province_of, city_good, city_houses = _PROVINCE_OF[board], d.city_good, d.city_houses
    provinces = {province_of[h] for h in mine}
    goods = {city_good[h] for h in mine}
    money = d.money[seat]
    missing = _missing(d, seat)
    # per good: its values by (new province, affordable) with its new-good bit set, and the houses a city of it
    # may hold for a house there to be affordable now (money >= HOUSE_MONEY * (houses + 1), goods in stock)
    rows = []
    caps = []
    for g in range(NUM_GOODS):
        value, new_good = _CITY_VALUE[g], (g not in goods) << 1
        rows.append((value[new_good], value[new_good | 1], value[new_good | 4], value[new_good | 5]))
        caps.append(0 if _HOUSE_NEED[g] & missing else money // HOUSE_MONEY[g])
    out = [0.0] * len(province_of)
    for c, p in _CANDIDATES[board]:
        g = city_good[c]
        out[c] = rows[g][(p not in provinces) | (city_houses[c] < caps[g]) << 1]
    for c in mine:  # the seat's own cities: none
        out[c] = 0.0
    return out


def _pos_value(m: MapInfo, pos: int, cities: list[float]) -> float:
    """How much the seat wants a colonist at ``pos`` on map ``m`` (``cities``: its :func:`_city_values`): on
    a route, the better end city plus a fifth of the other."""
    if pos == NO or pos < m.num_cities:
        return 0.0
    a, b, _ = m.routes[pos - m.num_cities]
    va, vb = cities[a], cities[b]
    return max(va, vb) + 0.2 * min(va, vb)


#: per board, per kind of colonist (land, sea) and position: its moves ``(cost, route, end a, end b, cost
#: penalty)`` by cost (``MapInfo.moves_land`` / ``moves_sea`` with the route's ends and ``0.02 * cost``)
_MOVES = tuple(
    tuple(
        tuple(tuple((cost, r, m.routes[r][0], m.routes[r][1], 0.02 * cost) for cost, r in moves) for moves in table)
        for table in (m.moves_land, m.moves_sea)
    )
    for m in BOARDS
)


def _best_move(
    d: ConcordiaData, seat: int, points: int, only: int = -1, cities: list[float] | None = None
) -> tuple[float, int, int]:
    """(gain, colonist, route) of the best single colonist move within ``points`` (``cities``: the seat's
    :func:`_city_values`, computed when not given)."""
    m = board_of(d)
    land, sea = _MOVES[d.board]
    best, best_i, best_r = 0.05, -1, -1
    if cities is None:
        cities = _city_values(d, seat)
    occ = d.route_occ
    col = d.col
    base = seat * COLONISTS
    for i in range(COLONISTS) if only < 0 else (only,):
        pos = col[base + i]
        if pos == NO:
            continue
        here = _pos_value(m, pos, cities)
        for cost, r, a, b, penalty in land[pos] if i < COLONISTS_PER_KIND else sea[pos]:
            if cost > points:
                break
            if occ[r] != NO:
                continue
            va, vb = cities[a], cities[b]  # _pos_value(m, nc + r, cities), inlined: the heuristic's hottest loop
            gain = (va + 0.2 * vb if va >= vb else vb + 0.2 * va) - here - penalty
            if gain > best:
                best, best_i, best_r = gain, i, r
    return best, best_i, best_r


#: per card id: the good of a specialist (-1 for other cards), the value of another card before its god's
#: bonus, and its god
_SPECIALIST_GOOD = tuple(c.good if c.action == Act.SPECIALIST else -1 for c in CARDS)
_CARD_BASE = tuple(
    {Act.ARCHITECT: 3.0, Act.PREFECT: 2.5, Act.MERCATOR: 2.5, Act.COLONIST: 2.0, Act.CONSUL: 2.5}.get(c.action, 2.0)
    for c in CARDS
)
_CARD_GOD = tuple(int(c.god) for c in CARDS)
_JUPITER, _SATURNUS, _MARS, _MERCURIUS = int(God.JUPITER), int(God.SATURNUS), int(God.MARS), int(God.MERCURIUS)


def _card_value(d: ConcordiaData, seat: int, card: int) -> float:
    good = _SPECIALIST_GOOD[card]
    if good >= 0:
        return 1.0 + 1.5 * sum(1 for h in d.houses[seat] if d.city_good[h] == good)
    value = _CARD_BASE[card]
    god = _CARD_GOD[card]
    if god == _JUPITER:
        value += 0.15 * len(d.houses[seat])
    elif god == _SATURNUS:
        value += 0.25 * len({board_of(d).province_of[h] for h in d.houses[seat]})
    elif god == _MARS:
        value += 0.3 * colonists_on_board(d, seat)
    elif god == _MERCURIUS:
        value += 0.3 * len({d.city_good[h] for h in d.houses[seat]})
    return value


Values = list[float] | None


def _move_pick(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    _, i, _ = _best_move(d, seat, a, cities=values)
    return COLONIST0 + i if i >= 0 and COLONIST0 + i in legal else PASS


def _move_dest(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    _, _, r = _best_move(d, seat, a, only=b, cities=values)
    if r >= 0 and ROUTE0 + r in legal:
        return ROUTE0 + r
    pos = d.col[seat * COLONISTS + b]
    return min(legal, key=lambda x: move_cost(d, b, pos, x - ROUTE0))


def _build(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    cities = [x for x in legal if x != PASS]
    if values is None:
        values = _city_values(d, seat)
    return max(cities, key=lambda x: values[x - CITY0] - 0.05 * house_cost(d, x - CITY0)[0])


def _prefect(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    province_of, city_good = board_of(d).province_of, d.city_good
    cash = cash_value(d)
    bonus = 2 if d.pm == seat else 1
    # per province offered: its good (twice with the Praefectus Magnus), plus the goods its houses give the
    # seat, less 0.3 of what they give the others (added seat by seat, house by house)
    mine = {x - PROVINCE0: GOOD_VALUE[d.province_good[x - PROVINCE0]] * bonus for x in legal if x != CASH}
    for s in range(d.n):
        weight = 1.0 if s == seat else -0.3
        for c in d.houses[s]:
            p = province_of[c]
            if p in mine:
                mine[p] += GOOD_VALUE[city_good[c]] * weight
    best, choice = -1.0, CASH
    for x in legal:
        if x != CASH and mine[x - PROVINCE0] > best:
            best, choice = mine[x - PROVINCE0], x
    return CASH if cash > best else choice


def _trade_rule(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    return _trade(d, seat, a, legal)


def _buy(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    slots = [x for x in legal if x != PASS]
    return max(slots, key=lambda x: _card_value(d, seat, d.forum[x - SLOT0]) - 0.1 * (x - SLOT0))


def _good(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    base = seat * NUM_GOODS
    goods = [x for x in legal]
    return max(goods, key=lambda x: d.goods[base + x - GOOD0] - TARGET[x - GOOD0] - 0.1 * (x - GOOD0))


def _place(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    places = [x for x in legal if PLACE0 <= x < TAX]
    if places and colonists_on_board(d, seat) < 6:
        # land colonists first; in Roma (most routes) unless an own house city is better placed
        return places[0]
    return TAX if TAX in legal else PASS


def _first(d: ConcordiaData, seat: int, a: int, b: int, legal: tuple[int, ...], values: Values) -> int:
    return legal[0]


#: the rule of each decision: ``rule(d, seat, a, b, legal, city_values)``
_RULES = {
    MOVE_PICK: _move_pick,
    MOVE_DEST: _move_dest,
    BUILD: _build,
    PREFECT: _prefect,
    TRADE: _trade_rule,
    BUY: _buy,
    PAY_ANY: _good,
    OVERFLOW: _good,
    COLONIST_CHOICE: _place,
    COLONIST_MORE: _place,
    TRIBUNE_PLACE: _place,
}


def rule_choice(
    d: ConcordiaData,
    step: int,
    seat: int,
    a: int,
    b: int,
    legal: tuple[int, ...],
    values: list[float] | None = None,
) -> int:
    """The rule-based choice for every decision but the card to play (``values``: the seat's
    :func:`_city_values` when the caller has them, for the Architect's decisions)."""
    return _RULES.get(step, _first)(d, seat, a, b, legal, values)


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
    for _, minus_g in sorted([(have[g] - TARGET[g], -g) for g in range(NUM_GOODS)]):  # by (have - target, -g)
        g = -minus_g
        want = min(TARGET[g] + (2 if d.money[seat] > 40 else 0) - have[g], free, money // GOOD_VALUE[g])
        if want > 0:
            act = trade_action(g, False, want)
            if act in legal:
                return act
    return PASS


#: the Architect's decisions: :func:`_city_values` is an input of their rule-based choices
_ARCHITECT_STEPS = frozenset((MOVE_PICK, MOVE_DEST, BUILD))
#: the decisions of the lookahead (the card to play, the Diplomat's target), the others' are rule-based
_CARD_CHOICES = frozenset((MAIN, DIPLOMAT))
#: colonist moves: they change no input of :func:`_city_values` (houses, money, goods)
_MOVE_STEPS = frozenset((MOVE_PICK, MOVE_DEST))


def finish_turn(d: ConcordiaData, seat: int) -> None:
    """Play the rest of the seat's turn with the rule-based choices (stops at another seat's decision)."""
    values = None  # the seat's city values, kept while only colonists move
    picked = (-1, -1, -1)  # (points, colonist, route) of the last colonist picked by the rules
    while d.stack:
        step, who, a, b = d.stack[-1]
        if who != seat or step in _CARD_CHOICES:
            return
        legal = d.legal
        if step in _ARCHITECT_STEPS:
            if values is None:
                values = _city_values(d, seat)
            if step == MOVE_PICK:
                _, i, r = _best_move(d, seat, a, cities=values)
                action = COLONIST0 + i if i >= 0 and COLONIST0 + i in legal else PASS
                picked = (a, i, r)
            elif step == MOVE_DEST and picked[:2] == (a, b) and ROUTE0 + picked[2] in legal:
                # the route the pick found: :func:`_move_dest`'s choice (the best move of the colonist picked
                # for its best move, on the same position and points)
                action = ROUTE0 + picked[2]
            else:
                action = rule_choice(d, step, seat, a, b, legal, values)
        else:
            action = rule_choice(d, step, seat, a, b, legal)
        apply_action(d, action)
        if step not in _MOVE_STEPS:
            values = None
        if step != MOVE_PICK:
            picked = (-1, -1, -1)


class ConcordiaHeuristicAgent:
    """One-turn lookahead for the card to play, rule-based choices inside the turn."""

    name = "heuristic"
    owns_its_views = True  # its act takes its view apart (copy=False) and hands it to no one
    #: how the lookahead scores the position after the seat's turn (``score(d, seat)``, higher is better)
    score = staticmethod(evaluate)

    def __init__(self, seed=None) -> None:
        self.seed = seed  # unused: the choice is deterministic (kept for the agent factory's signature)

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        # it reads only what the seat knows: no resampling needed; the copy is the agent's own
        return self._choose(view.public_state(copy=False).d, owned=True)

    def choose(self, state: ConcordiaState) -> int:
        """The action for the seat to move in ``state``, a state the agent may see whole (the view's public
        state, or a determinization; the Forum deck's order never changes the choice). Also the rollout policy
        of IS-MCTS."""
        return self._choose(state.d, owned=False)

    def _choose(self, d: ConcordiaData, owned: bool) -> int:
        """:meth:`choose` on the record ``d``; when ``owned``, the caller gives ``d`` away and the last trial
        is played on it instead of on a copy."""
        step, seat, a, b = d.stack[-1]
        legal = d.legal
        if len(legal) == 1:
            return legal[0]
        if step not in _CARD_CHOICES:
            return rule_choice(d, step, seat, a, b, legal)
        # evaluate() after the seat's turn, per card effect (action, sesterces, good): cards of one effect
        # lead to the same position up to which card lies in the hand or the discard pile, which no rule-based
        # choice nor evaluate() reads (the pile's length and the cards held are the same), so a Diplomat
        # copying an effect scores as playing it
        effects: dict[tuple[int, int, int], float] = {}
        trials = _first_of_each_effect(legal, d, step)
        penalty = 0.8 * max(0, 4 - len(d.discard[seat]))  # a Tribune's, read before ``d`` may be played on
        best, choice = -1e18, legal[0]
        last = len(trials) - 1
        score = self.score
        for k, (action, key) in enumerate(trials):
            in_place = owned and k == last  # ``d`` is not read after its last trial
            if step == MAIN and key[0] == _DIPLOMAT:
                value = _diplomat_trial(d, seat, action, effects, in_place, score)
            else:
                value = effects.get(key)  # a Diplomat's trial may have valued the effect as a copy
                if value is None:
                    value = effects[key] = _value_after(d, seat, action, in_place, score)
            if step == MAIN and key[0] == _TRIBUNE:
                value -= penalty
            if value > best:
                best, choice = value, action
        return choice


#: per card id: its effect (action, Mercator sesterces, specialist good), all that playing it does
_EFFECT = tuple((int(c.action), c.amount, c.good) for c in CARDS)
_DIPLOMAT, _TRIBUNE = int(Act.DIPLOMAT), int(Act.TRIBUNE)


def _first_of_each_effect(
    legal: tuple[int, ...], d: ConcordiaData, step: int
) -> list[tuple[int, tuple[int, int, int]]]:
    """``(action, effect)`` of the first legal action of each effect: the cards to play (``MAIN``) or the
    Diplomat's targets (their top discards)."""
    out = []
    seen = set()
    for action in legal:
        key = _EFFECT[action - PLAY0] if step == MAIN else _EFFECT[d.discard[action - SEAT0][-1]]
        if key not in seen:
            seen.add(key)
            out.append((action, key))
    return out


def _diplomat_trial(
    d: ConcordiaData,
    seat: int,
    action: int,
    effects: dict[tuple[int, int, int], float],
    in_place: bool,
    score: Callable[[ConcordiaData, int], float] = evaluate,
) -> float:
    """The value of playing the Diplomat ``action``: the best copy (or the card alone, with no target); played
    on ``d`` itself when ``in_place``."""
    trial = d if in_place else _trial_copy(d, seat)
    apply_action(trial, action)
    finish_turn(trial, seat)
    if not (trial.stack and trial.stack[-1][0] == DIPLOMAT and trial.stack[-1][1] == seat):
        return score(trial, seat)
    targets = _first_of_each_effect(trial.legal, trial, DIPLOMAT)
    new = [(x, key) for x, key in targets if key not in effects]
    for k, (x, key) in enumerate(new):
        effects[key] = _value_after(trial, seat, x, k == len(new) - 1, score)  # the trial is ours: the last in place
    return max(effects[key] for _, key in targets)


def _value_after(
    d: ConcordiaData,
    seat: int,
    action: int,
    in_place: bool = False,
    score: Callable[[ConcordiaData, int], float] = evaluate,
) -> float:
    """``score`` (:func:`evaluate`) after ``action`` and the rest of the seat's turn played by the rules (played
    on ``d`` itself when ``in_place``)."""
    trial = d if in_place else _trial_copy(d, seat)
    apply_action(trial, action)
    finish_turn(trial, seat)
    return score(trial, seat)


#: ``CODEC.clone`` sharing what a seat's own turn never changes: the city and province goods (dealt at the
#: set-up) and the final scores (set once, never edited) whole, the other seats' hands, discard piles and houses
#: (a turn changes the lists of its own seat only; :func:`_trial_copy` copies those)
_SHARING_CLONE = CODEC.sharing_clone(
    shared=("city_good", "province_good", "final"), shallow=("hand", "discard", "houses")
)


def _trial_copy(d: ConcordiaData, seat: int) -> ConcordiaData:
    """A copy of ``d`` to play the rest of ``seat``'s turn on (:func:`finish_turn`): :data:`_SHARING_CLONE`, and
    ``seat``'s own hand, discard pile and houses copied."""
    t = _SHARING_CLONE(d)
    t.hand[seat], t.discard[seat], t.houses[seat] = d.hand[seat][:], d.discard[seat][:], d.houses[seat][:]
    return t


#: a typical margin between seats in ``estimate_scores`` units (IS-MCTS's cut-off softmax temperature)
ESTIMATE_SCALE = 8.0


#: per number of players: the Forum cards of the game (the decks I to that number)
_FOR_SALE = tuple(sum(len(DECKS[k]) for k in range(1, n + 1)) for n in range(len(DECKS)))


def game_left(d: ConcordiaData) -> float:
    """Roughly how much of the game is still to come, 1 at the start and 0 at the end: the Forum cards
    still for sale (the game ends when the row is bought out) or the houses the leading builder still needs
    (it ends at the 15th house), whichever runs out first; 0 once the Concordia card is taken."""
    if d.concordia != NO:
        return 0.0
    for_sale = len(d.deck) + len(d.forum) - d.forum.count(NO)
    houses = max(map(len, d.houses))
    return min(for_sale / _FOR_SALE[d.n], (MAX_HOUSES - houses) / MAX_HOUSES)


def projected_score(d: ConcordiaData, seat: int) -> float:
    """The seat's final score projected from now: its score if the game ended now (the gods' scoring of the
    cards, houses, colonists and wealth it holds now), plus what its houses, colonists, cards, goods and money
    will still bring (:func:`evaluate`'s potential) in proportion to the game left; the true score at the
    end."""
    now = float(seat_sheet(d, seat)[-1])
    return now + game_left(d) * (evaluate(d, seat) - now)


def estimate_scores(state: ConcordiaState) -> list[float]:
    """Each seat's estimated final score, for IS-MCTS cut-offs: :func:`evaluate` (the win rates of
    :mod:`meeplezoo.bench.mcts` were measured with it). :func:`projected_score` predicts the winner of heuristic
    self-play better (winner log-loss, late game, 2p 0.53 vs 0.65, 4p 0.89 vs 1.04 at scale 8) but is not
    yet measured as the cut-off."""
    return [evaluate(state.d, s) for s in range(state.d.n)]


def rollout_choice(state: ConcordiaState, py: random.Random) -> int:
    """IS-MCTS's cheap rollout policy (``rollout=fast``): a random card (and Diplomat target), the rule-based
    choices inside the turn."""
    d = state.d
    legal = d.legal
    if len(legal) == 1:
        return legal[0]
    step, seat, a, b = d.stack[-1]
    if step in _CARD_CHOICES:
        return legal[int(py.random() * len(legal))]
    return rule_choice(d, step, seat, a, b, legal)


#: what IS-MCTS asks of the game (its manifest names it)
SEARCH = SearchHooks(estimate=estimate_scores, scale=ESTIMATE_SCALE, rollout=rollout_choice)
