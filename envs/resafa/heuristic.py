"""A Resafa heuristic: one-step lookahead on a determinized copy with a hand-written evaluation.

Every legal action is applied to a copy of the position in which everything the agent cannot see is
resampled (so it never peeks), and the result is scored from its own seat by :func:`evaluate`: the points it
would score if the game ended now (end scoring included), plus the value of its assets (canal tiles still to
rain, items, workshops, track steps, held cards) and of the tasks of its own still on the stack (a workshop
paid for but not yet placed, steps to take, a production running), so paying for something is never a loss
on the way to having it. The decision logic is :func:`choose` (state-or-determinized-copy, seat).
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from ..core.manifest import SearchHooks
from .actions import DROP_SACK0, USE_BONUS0
from .canals import face as canal_face
from .cards import halves, main_possible
from .content import (
    Action,
    BonusCard,
    Build,
    Camel,
    Choice,
    ColourAction,
    Convert,
    ExtraAction,
    Gain,
    Post,
    Produce,
    Sack,
    Score,
    Track,
    Trade,
    content,
)
from .effects import EFFECTS, LISTS
from .game import ResafaState
from .geometry import CELLS, WORKSHOP_CELLS, source_boxes
from .scoring import counter
from .state import CITY, CODEC, NO, NUM_ITEMS, ResafaData
from .steps import Step
from .tracks import CARD_SPACES, can_step
from .trade import MOVE_COSTS
from .turn import LOOKAHEAD

if TYPE_CHECKING:
    from ...agents.view import SeatView


C = content()
SC = C.scoring
ITEM_VALUE = (1.0, 1.1, 1.2, 1.2)  # stone, marble, spice, amphora: fuel for builds and trades
COIN_VALUE = 0.45
STEP_VALUE = 0.9
BONUS_CARD_VALUE = 1.6
SACK_VALUE = 1.1
WORKSHOP_FUTURE = 2.5  # production to come, per workshop, at the start of the game
CUBE_VALUE = 3.0
_INSTANT = tuple(c.timing == "instant" for c in C.specials)
_ENDGAME = tuple(tuple(e for e in c.effects if isinstance(e, Score)) for c in C.specials)
_SPECIAL_VP = tuple(c.vp for c in C.specials)


def effect_value(e: object) -> float:
    """A rough worth of one printed effect."""
    if isinstance(e, Gain):
        b = e.bundle
        return b.vp + COIN_VALUE * b.coins + sum(v * w for v, w in zip(b.items, ITEM_VALUE, strict=True))
    if isinstance(e, Choice):
        return max(sum(effect_value(x) for x in option) for option in e.options)
    if isinstance(e, Track):
        return STEP_VALUE * e.n
    if isinstance(e, Sack):
        return SACK_VALUE * e.n
    if isinstance(e, BonusCard):
        return BONUS_CARD_VALUE * e.n
    if isinstance(e, ColourAction):
        return 1.4
    if isinstance(e, Produce):
        return 1.6 * e.n
    if isinstance(e, Build):
        return 3.0 if e.free else 2.0
    if isinstance(e, Trade | Post):
        return 2.0
    if isinstance(e, Camel):
        return 0.8 * e.n
    if isinstance(e, ExtraAction):
        return 2.5
    if isinstance(e, Convert):
        gain = effect_value(Gain(e.get)) - effect_value(Gain(e.pay))
        return max(0.0, gain) * e.n
    return 0.0


LIST_VALUE = [sum(effect_value(e) for e in t) for t in LISTS]
_BONUS_USE = [sum(effect_value(e) for e in c.effects) for c in C.bonus_cards]
_SACK_USE = [sum(effect_value(e) for e in c.effects) for c in C.sack_cards]

#: the value of one of the seat's own tasks still waiting on the stack
_TASK_VALUE = {
    Step.WS_FACE: 4.0,
    Step.WS_CELL: 4.0,
    Step.GARDEN_SQUARE: 2.5,
    Step.GARDEN_POS: 2.5,
    Step.CANAL_BOX: 3.0,
    Step.TRACK_PICK: STEP_VALUE,
    Step.STEP: STEP_VALUE,
    Step.BONUS_PICK: BONUS_CARD_VALUE,
    Step.COLOUR_OPT: 1.4,
    Step.COLOUR_ACTION: 1.4,
    Step.MAIN_ACTION: 3.0,
    Step.SPECIAL: 3.0,
    Step.SEARCH_PICK: 2.0,
    Step.EXTRA_ACTION: 2.5,
    Step.BUILD_OFFER: 2.0,
    Step.DEAL: 0.5,
    Step.MERCHANT_ROW: 1.5,
}


#: rains still to come by round number (rounds 1-6, and 7 once the game is over)
_RAINS_LEFT = tuple(sum(1 for r in (2, 4, 6) if r >= n) for n in range(8))


def rains_left(d: ResafaData) -> int:
    return _RAINS_LEFT[d.round_no]


#: per workshop tile and side (0 front, 1 back): its best room's worth (:func:`main_value`)
_BEST_ROOM = tuple(
    tuple(max(sum(effect_value(e) for e in room.effects) for room in f.rooms) for f in (t.front, t.back))
    for t in C.workshops
)
_EXTRA_PRODUCTION = tuple((t.front.extra_production, t.back.extra_production) for t in C.workshops)
_PRODUCTION, _WORKSHOP, _GARDEN, _CANAL, _TRADE = (
    int(a) for a in (Action.PRODUCTION, Action.WORKSHOP, Action.GARDEN, Action.CANAL, Action.TRADE)
)
_PROVISIONS = int(Action.PROVISIONS)


#: filled strips of a garden square that is not full (a 3-bit mask; a full square, 7, counts 0 here)
_OPEN_STRIP_BITS = tuple(0 if x == 7 else bin(x).count("1") for x in range(8))
#: the same as a ``bytes.translate`` table (a garden's masks as bytes, summed in C)
_OPEN_STRIP_TABLE = bytes(_OPEN_STRIP_BITS) + bytes(256 - len(_OPEN_STRIP_BITS))


def _canal_bonus(n: int) -> int:
    """What one more canal tile adds on the canal strip to a seat with ``n`` (not below 0)."""
    strip = dict(SC.canal_strip)
    return max(0, strip.get(n + 1, 0) - max((v for k, v in strip.items() if k <= n), default=0))


#: per canal tiles placed: :func:`_canal_bonus`
_CANAL_BONUS = tuple(_canal_bonus(n) for n in range(256))


def main_value(d: ResafaData, seat: int, action: int) -> float:
    """A static estimate of what doing main action ``action`` now is worth to ``seat``."""
    if action == _PROVISIONS:
        return 1.5
    if not main_possible(d, seat, action):
        return 0.0
    future = max(0.0, (6 - d.round_no) / 6.0)
    if action == _WORKSHOP:
        return 2.0 + WORKSHOP_FUTURE * future + 3.0 * future
    if action == _PRODUCTION:
        base = seat * CELLS
        tiles, sides = d.ws_tile, d.ws_face
        built = [(tiles[base + c], 1 if sides[base + c] else 0) for c in WORKSHOP_CELLS if tiles[base + c] != NO]
        best = sorted((_BEST_ROOM[t][side] for t, side in built), reverse=True)
        k = 2 + sum(_EXTRA_PRODUCTION[t][side] for t, side in built)
        return sum(best[:k])
    if action == _GARDEN:
        base = seat * CELLS
        full = max(bytes(d.g_strips[base : base + CELLS]).translate(_OPEN_STRIP_TABLE))  # 0 off the garden cells
        if full == 2:
            steps, vp = SC.garden_rewards[min(d.gardens_done[seat], len(SC.garden_rewards) - 1)]
            return 2.5 + STEP_VALUE * steps + vp
        return 2.2 if full == 1 else 1.8
    if action == _CANAL:
        return 1.5 + _RAINS_LEFT[d.round_no] * 1.3 + _CANAL_BONUS[d.canal_owner.count(seat)]
    if action == _TRADE:
        return trade_value(d, seat)
    return 1.0


#: per trading tile and side: the item it deals in and a unit's sale margin (:func:`trade_value`)
_SALE = tuple(
    tuple((deal.item, deal.sell.vp + COIN_VALUE * deal.sell.coins - ITEM_VALUE[deal.item]) for deal in t.sides)
    for t in C.trading_tiles
)


def trade_value(d: ResafaData, seat: int) -> float:
    """The best sale within reach (cargo, or storehouse goods loaded through Resafa), plus a post."""
    best = 0.5
    cap = C.camel_track[d.camel_step[seat]]
    here, coins, posts = d.camel_at[seat], d.coins[seat], d.post_owner
    carried, load, r = d.camel_item[seat], d.camel_load[seat], seat * NUM_ITEMS
    for n, direct, via_cost in MOVE_COSTS[here]:
        item, margin = _SALE[d.trade_tile[n]][d.trade_side[n]]
        have_camel = load if carried == item else 0
        have_store = d.store[r + item]
        for via, cost in ((False, direct), (True, via_cost)):
            if not via and (n == here or here == CITY):
                continue
            if cost > coins:
                continue
            units = min(cap, have_camel + have_store if via else have_camel)
            sale = units * margin
            post = 2.0 if seat not in posts[n * 4 : n * 4 + 4] and units else 0.0
            best = max(best, sale + post - COIN_VALUE * cost)
    return best


def colour_value(d: ResafaData, seat: int, colour: int) -> float:
    best = SACK_VALUE
    display = d.bonus_display
    if colour == NO:
        colours: tuple[int, ...] | range = range(4)
        shown = display.count(NO) < len(display)
    else:
        colours = (colour,)
        shown = display[colour * 3 : colour * 3 + 3].count(NO) < 3
    if shown:
        best = max(best, BONUS_CARD_VALUE)
    track, t = d.track, seat * 4
    for c in colours:
        if can_step(d, seat, c):
            card = 3.0 if track[t + c] + 1 in CARD_SPACES[c] else 0.0
            best = max(best, STEP_VALUE + card)
    return best


def card_value(d: ResafaData, seat: int, card: int) -> float:
    best = 0.0
    for h in halves(card):
        mains = range(6) if h.action is None else (int(h.action),)
        colours = range(4) if h.colour is None else (int(h.colour),)
        best = max(best, max(main_value(d, seat, m) for m in mains) + max(colour_value(d, seat, c) for c in colours))
    return best


#: per effect list and start: the worth of its effects from there on (summed in list order)
_LIST_REST = tuple(tuple(sum(effect_value(e) for e in t[b:]) for b in range(len(t) + 1)) for t in LISTS)
#: per effect id: :func:`effect_value`
_EFFECT_VALUE = tuple(effect_value(e) for e in EFFECTS)


def _effects_value(d: ResafaData, seat: int, a: int, b: int) -> float:
    rest = _LIST_REST[a]
    return rest[b] if b < len(rest) else 0


def _produce_value(d: ResafaData, seat: int, a: int, b: int) -> float:
    normal, free = divmod(a, 64)
    return 1.6 * (normal + free)


#: how :func:`pending_value` values each step that depends on the task or the position (the others:
#: ``_TASK_VALUE``, 0 when missing)
_PENDING = {
    int(Step.MAIN_ACTION): lambda d, seat, a, b: main_value(d, seat, a),
    int(Step.COLOUR_ACTION): lambda d, seat, a, b: colour_value(d, seat, a),
    int(Step.COLOUR_OPT): lambda d, seat, a, b: colour_value(d, seat, a),
    int(Step.ORDER): lambda d, seat, a, b: main_value(d, seat, d.main) + colour_value(d, seat, d.colour),
    int(Step.ORIENT): lambda d, seat, a, b: card_value(d, seat, d.card),
    int(Step.CARD_MAIN): lambda d, seat, a, b: 4.0,
    int(Step.CARD_COLOUR): lambda d, seat, a, b: 4.0,
    int(Step.EFFECTS): _effects_value,
    int(Step.PRODUCE): _produce_value,
    int(Step.CHOICE): lambda d, seat, a, b: _EFFECT_VALUE[a],
    int(Step.CONVERT): lambda d, seat, a, b: 0.3,
}
_PLAIN_TASK_VALUE = {int(k): v for k, v in _TASK_VALUE.items() if int(k) not in _PENDING}


def pending_value(d: ResafaData, seat: int) -> float:
    total = 0.0
    special, plain = _PENDING, _PLAIN_TASK_VALUE
    for step, s, a, b in d.stack:
        if s != seat:
            continue
        f = special.get(step)
        total += plain.get(step, 0.0) if f is None else f(d, seat, a, b)
    return total


#: per seat: the workshop cells of its board, as one getter
_WS_CELLS = tuple(itemgetter(*(seat * CELLS + c for c in WORKSHOP_CELLS)) for seat in range(4))
_GARDEN_ROW, _WORKSHOP_ROW, _CANAL_ROW = ((0, *SC.multiplier_rows[r]) for r in ("garden", "workshop", "canal"))
#: the canal strip's VP by canal tiles placed
_STRIP = tuple(max((vp for n, vp in SC.canal_strip.items() if k >= n), default=0) for k in range(256))
#: a canal tile's blue VP by design and side (None: a tile without that side)
_BLUE_VP = tuple(
    tuple(None if f is None else f.blue_vp for f in (canal_face(t, 0), canal_face(t, 1)))
    for t in range(len(C.canal_tiles))
)


def _owned(owners: list[int], seat: int) -> list[int]:
    """The indices holding ``seat`` in ``owners``, ascending."""
    out, i = [], -1
    for _ in range(owners.count(seat)):
        i = owners.index(seat, i + 1)
        out.append(i)
    return out


def _points(d: ResafaData, seat: int, specials: list[int], n_workshops: int, n_canals: int) -> float:
    """:func:`points`, given the seat's special cards, workshops and canal tiles."""
    rows = d.rows[seat * 3 : seat * 3 + 3]
    scarabs = min(d.scarabs[seat], len(SC.scarab_scale))
    total = float(d.vp[seat]) + (SC.scarab_scale[scarabs - 1] if scarabs else 0)
    total += _GARDEN_ROW[rows[0]] * (d.g_tiles[seat * 2] + d.g_tiles[seat * 2 + 1])
    total += _WORKSHOP_ROW[rows[1]] * n_workshops
    total += _CANAL_ROW[rows[2]] * n_canals
    total += _STRIP[n_canals]
    for i in specials:
        scores = _ENDGAME[i]
        total += _SPECIAL_VP[i] + (sum(e.points(counter(d, seat, e.counter)) for e in scores) if scores else 0)
    return total


def _workshops(d: ResafaData, seat: int) -> int:
    return len(WORKSHOP_CELLS) - _WS_CELLS[seat](d.ws_tile).count(NO)


def points(d: ResafaData, seat: int) -> float:
    """What the end scoring would give now (the seed's list), without the score sheet."""
    return _points(d, seat, _owned(d.spec_owner, seat), _workshops(d, seat), d.canal_owner.count(seat))


def evaluate(d: ResafaData, seat: int) -> float:
    """Points now plus the worth of the seat's assets and pending tasks."""
    round_no = d.round_no
    late = round_no >= 6
    spec_owner = d.spec_owner
    specials = _owned(spec_owner, seat) if seat in spec_owner else []
    workshops = _workshops(d, seat)
    owner = d.canal_owner
    n_canals = owner.count(seat)
    value = _points(d, seat, specials, workshops, n_canals)
    r = seat * NUM_ITEMS
    store = d.store[r : r + NUM_ITEMS]
    item, load = d.camel_item[seat], d.camel_load[seat]
    goods = store[2] + store[3] + (load if item in (2, 3) else 0)
    value += goods * (1.0 if late else 1.4)
    coins = d.coins[seat]
    if late:
        value += (store[0] + store[1] + (load if item in (0, 1) else 0) + coins) / 5.0
    else:
        value += store[0] * ITEM_VALUE[0] + store[1] * ITEM_VALUE[1]
        value += COIN_VALUE * coins
    rains = _RAINS_LEFT[round_no]
    if rains:
        design, side, b = d.canal_design, d.canal_side, -1
        for _ in range(n_canals):  # the seat's canal tiles, in box order
            b = owner.index(seat, b + 1)
            value += rains * (1 + _BLUE_VP[design[b]][side[b]])
        if 1 in d.cubes:
            sources = source_boxes(d.players)
            for k, state in enumerate(d.cubes):
                if state == 1 and owner[sources[k]] == seat:
                    value += CUBE_VALUE
    future = max(0.0, (6 - round_no) / 6.0)
    base = seat * CELLS
    value += WORKSHOP_FUTURE * future * workshops
    value += future * (STEP_VALUE * sum(d.track[seat * 4 : seat * 4 + 4]) + 0.5 * d.camel_step[seat])
    value += future * 2.0 * min(d.gate[seat], 2)
    value += 0.8 * sum(bytes(d.g_strips[base : base + CELLS]).translate(_OPEN_STRIP_TABLE))
    value += BONUS_CARD_VALUE * len(d.bonus_hand[seat]) + SACK_VALUE * len(d.sack_hand[seat])
    # (a seat without canal bonus tiles or special cards adds 1.5 * 0 and 2.5 * 0 here: 0.0, skipped)
    tiles = d.cbonus_owner
    if seat in tiles:
        used = d.cbonus_used
        value += 1.5 * sum(1 for t in _owned(tiles, seat) if not used[t])
    if specials:
        used = d.spec_used
        value += 2.5 * sum(1 for i in specials if _INSTANT[i] and not used[i])
    return value + pending_value(d, seat)


def choose(state: ResafaState, seat: int, rng: np.random.Generator) -> int:
    """The greedy choice of ``seat`` in ``state`` (a determinized copy: this never looks at hidden parts it
    should not, and it is not changed)."""
    return _choose(state, seat, rng, keep=True)


def _choose(state: ResafaState, seat: int, rng: np.random.Generator, keep: bool) -> int:
    """:func:`choose`; with ``keep`` False ``state`` is the agent's own and plays the last legal action itself
    (one clone less). Each action is applied by the lookahead machine (the same positions as the game's)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    best, best_value = [], -1e9
    apply, clone = LOOKAHEAD.apply, CODEC.clone  # the lookahead reads records only: no State around them
    last, d = legal[-1], state.d
    for action in legal:
        c = d if not keep and action == last else clone(d)
        apply(c, action)
        v = evaluate(c, seat)
        if action >= USE_BONUS0 and action < DROP_SACK0:
            v -= 0.3  # keep a card for a better moment unless it clearly pays now
        if v > best_value + 1e-9:
            best, best_value = [action], v
        elif v > best_value - 1e-9:
            best.append(action)
    return int(best[rng.integers(len(best))]) if len(best) > 1 else best[0]


class ResafaHeuristicAgent:
    """Greedy one-step lookahead agent for Resafa (beats random play in well over 95% of 2-player games)."""

    name = "heuristic"
    owns_its_views = True  # its act takes its view apart (copy=False) and hands it to no one

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = view.determinize(self.rng, copy=False)  # a disposable view's own copy: one clone less
        return _choose(state, state.current_player(), self.rng, keep=False)  # the last lookahead may play on it

    def choose(self, state: ResafaState) -> int:
        """The action for the seat to move in ``state``, a state the agent may see whole (a determinization:
        what the seat cannot see already resampled). Also the rollout policy of IS-MCTS."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return choose(state, state.current_player(), self.rng)


__all__ = ["ESTIMATE_SCALE", "ResafaHeuristicAgent", "choose", "estimate_scores", "evaluate"]


#: a typical margin between seats in ``estimate_scores`` units (IS-MCTS's cut-off softmax temperature)
ESTIMATE_SCALE = 8.0


def estimate_scores(state: ResafaState) -> list[float]:
    """Each seat's estimated final score, for IS-MCTS cut-offs."""
    return [evaluate(state.d, s) for s in range(state.d.players)]


#: what IS-MCTS asks of the game (its manifest names it)
SEARCH = SearchHooks(estimate=estimate_scores, scale=ESTIMATE_SCALE)
