"""A Resafa heuristic: one-step lookahead on a determinized copy with a hand-written evaluation.

Every legal action is applied to a copy of the position in which everything the agent cannot see is
resampled (so it never peeks), and the result is scored from its own seat by :func:`evaluate`: the points it
would score if the game ended now (end scoring included), plus the value of its assets (canal tiles still to
rain, items, workshops, track steps, held cards) and of the tasks of its own still on the stack (a workshop
paid for but not yet placed, steps to take, a production running), so paying for something is never a loss
on the way to having it. The decision logic is :func:`choose` (state-or-determinized-copy, seat).
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.resafa.actions import DROP_SACK0, USE_BONUS0
from meeplezoo.envs.resafa.canals import face as canal_face
from meeplezoo.envs.resafa.cards import halves, main_possible
from meeplezoo.envs.resafa.content import (
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
from meeplezoo.envs.resafa.effects import EFFECTS, LISTS
from meeplezoo.envs.resafa.game import ResafaState
from meeplezoo.envs.resafa.geometry import CELLS, GARDEN_CELLS, WORKSHOP_CELLS, move_cost
from meeplezoo.envs.resafa.scoring import canals, counter, garden_tiles, row_value, workshops
from meeplezoo.envs.resafa.state import CENTRE_NODES, CITY, NO, NUM_ITEMS, ResafaData
from meeplezoo.envs.resafa.steps import Step
from meeplezoo.envs.resafa.workshops import face_of

from .view import SeatView

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


def rains_left(d: ResafaData) -> int:
    return sum(1 for r in (2, 4, 6) if r >= d.round_no)


def main_value(d: ResafaData, seat: int, action: int) -> float:
    """A static estimate of what doing main action ``action`` now is worth to ``seat``."""
    if action == Action.PROVISIONS:
        return 1.5
    if not main_possible(d, seat, action):
        return 0.0
    future = max(0.0, (6 - d.round_no) / 6.0)
    if action == Action.WORKSHOP:
        return 2.0 + WORKSHOP_FUTURE * future + 3.0 * future
    if action == Action.PRODUCTION:
        base = seat * CELLS
        best = sorted(
            (
                max(sum(effect_value(e) for e in room.effects) for room in face_of(d, seat, c).rooms)
                for c in WORKSHOP_CELLS
                if d.ws_tile[base + c] != NO
            ),
            reverse=True,
        )
        k = 2 + sum(face_of(d, seat, c).extra_production for c in WORKSHOP_CELLS if d.ws_tile[base + c] != NO)
        return sum(best[:k])
    if action == Action.GARDEN:
        base = seat * CELLS
        full = max((bin(d.g_strips[base + c]).count("1") for c in GARDEN_CELLS if d.g_strips[base + c] != 7), default=0)
        if full == 2:
            steps, vp = SC.garden_rewards[min(d.gardens_done[seat], len(SC.garden_rewards) - 1)]
            return 2.5 + STEP_VALUE * steps + vp
        return 2.2 if full == 1 else 1.8
    if action == Action.CANAL:
        n = canals(d, seat)
        strip = dict(SC.canal_strip)
        bonus = strip.get(n + 1, 0) - max((v for k, v in strip.items() if k <= n), default=0)
        return 1.5 + rains_left(d) * 1.3 + max(0, bonus)
    if action == Action.TRADE:
        return trade_value(d, seat)
    return 1.0


def trade_value(d: ResafaData, seat: int) -> float:
    """The best sale within reach (cargo, or storehouse goods loaded through Resafa), plus a post."""
    best = 0.5
    cap = C.camel_track[d.camel_step[seat]]
    here = d.camel_at[seat]
    for n in CENTRE_NODES:
        deal = C.trading_tiles[d.trade_tile[n]].sides[d.trade_side[n]]
        have_camel = d.camel_load[seat] if d.camel_item[seat] == deal.item else 0
        have_store = d.store[seat * NUM_ITEMS + deal.item]
        for via in (False, True):
            if not via and (n == here or here == CITY):
                continue
            cost = move_cost(here, n, via)
            if cost > d.coins[seat]:
                continue
            units = min(cap, have_camel + have_store if via else have_camel)
            sale = units * (deal.sell.vp + COIN_VALUE * deal.sell.coins - ITEM_VALUE[deal.item])
            post = 2.0 if seat not in d.post_owner[n * 4 : n * 4 + 4] and units else 0.0
            best = max(best, sale + post - COIN_VALUE * cost)
    return best


def colour_value(d: ResafaData, seat: int, colour: int) -> float:
    from meeplezoo.envs.resafa.tracks import CARD_SPACES, can_step

    colours = range(4) if colour == NO else (colour,)
    best = SACK_VALUE
    if any(x != NO and (colour == NO or i // 3 == colour) for i, x in enumerate(d.bonus_display)):
        best = max(best, BONUS_CARD_VALUE)
    for c in colours:
        if can_step(d, seat, c):
            card = 3.0 if d.track[seat * 4 + c] + 1 in CARD_SPACES[c] else 0.0
            best = max(best, STEP_VALUE + card)
    return best


def card_value(d: ResafaData, seat: int, card: int) -> float:
    best = 0.0
    for h in halves(card):
        mains = range(6) if h.action is None else (int(h.action),)
        colours = range(4) if h.colour is None else (int(h.colour),)
        best = max(best, max(main_value(d, seat, m) for m in mains) + max(colour_value(d, seat, c) for c in colours))
    return best


def pending_value(d: ResafaData, seat: int) -> float:
    total = 0.0
    for step, s, a, b in d.stack:
        if s != seat:
            continue
        if step == Step.MAIN_ACTION:
            total += main_value(d, seat, a)
        elif step in (Step.COLOUR_ACTION, Step.COLOUR_OPT):
            total += colour_value(d, seat, a)
        elif step == Step.ORDER:
            total += main_value(d, seat, d.main) + colour_value(d, seat, d.colour)
        elif step == Step.ORIENT:
            total += card_value(d, seat, d.card)
        elif step in (Step.CARD_MAIN, Step.CARD_COLOUR):
            total += 4.0
        elif step == Step.EFFECTS:
            effects = LISTS[a]
            total += sum(effect_value(e) for e in effects[b:])
        elif step == Step.PRODUCE:
            normal, free = divmod(a, 64)
            total += 1.6 * (normal + free)
        elif step in (Step.CHOICE, Step.CONVERT):
            total += effect_value(EFFECTS[a]) if step == Step.CHOICE else 0.3
        else:
            total += _TASK_VALUE.get(step, 0.0)
    return total


def points(d: ResafaData, seat: int) -> float:
    """What the end scoring would give now (the seed's list), without the score sheet."""
    rows = d.rows[seat * 3 : seat * 3 + 3]
    scarabs = min(d.scarabs[seat], len(SC.scarab_scale))
    total = float(d.vp[seat]) + (SC.scarab_scale[scarabs - 1] if scarabs else 0)
    total += row_value(rows[0], "garden") * garden_tiles(d, seat)
    total += row_value(rows[1], "workshop") * workshops(d, seat)
    n_canals = canals(d, seat)
    total += row_value(rows[2], "canal") * n_canals
    total += max((vp for n, vp in SC.canal_strip.items() if n_canals >= n), default=0)
    for i, o in enumerate(d.spec_owner):
        if o == seat:
            total += _SPECIAL_VP[i] + sum(e.points(counter(d, seat, e.counter)) for e in _ENDGAME[i])
    return total


#: filled strips of a garden square that is not full (a 3-bit mask; a full square, 7, counts 0 here)
_OPEN_STRIP_BITS = tuple(0 if x == 7 else bin(x).count("1") for x in range(8))


def evaluate(d: ResafaData, seat: int) -> float:
    """Points now plus the worth of the seat's assets and pending tasks."""
    late = d.round_no >= 6
    value = points(d, seat)
    r = seat * NUM_ITEMS
    store = d.store[r : r + NUM_ITEMS]
    goods = store[2] + store[3] + (d.camel_load[seat] if d.camel_item[seat] in (2, 3) else 0)
    value += goods * (1.0 if late else 1.4)
    rest = store[0] + store[1] + (d.camel_load[seat] if d.camel_item[seat] in (0, 1) else 0)
    value += (rest + d.coins[seat]) / 5.0 if late else sum(v * w for v, w in zip(store[:2], ITEM_VALUE, strict=False))
    if not late:
        value += COIN_VALUE * d.coins[seat]
    rains = rains_left(d)
    if rains:
        for b, o in enumerate(d.canal_owner):
            if o == seat:
                value += rains * (1 + canal_face(d.canal_design[b], d.canal_side[b]).blue_vp)
        for k, state in enumerate(d.cubes):
            if state == 1:
                from meeplezoo.envs.resafa.geometry import source_boxes

                if d.canal_owner[source_boxes(d.players)[k]] == seat:
                    value += CUBE_VALUE
    future = max(0.0, (6 - d.round_no) / 6.0)
    base = seat * CELLS
    value += WORKSHOP_FUTURE * future * sum(1 for c in WORKSHOP_CELLS if d.ws_tile[base + c] != NO)
    value += future * (STEP_VALUE * sum(d.track[seat * 4 : seat * 4 + 4]) + 0.5 * d.camel_step[seat])
    value += future * 2.0 * min(d.gate[seat], 2)
    value += 0.8 * sum(map(_OPEN_STRIP_BITS.__getitem__, d.g_strips[base : base + CELLS]))
    value += BONUS_CARD_VALUE * len(d.bonus_hand[seat]) + SACK_VALUE * len(d.sack_hand[seat])
    value += 1.5 * sum(1 for t, o in enumerate(d.cbonus_owner) if o == seat and not d.cbonus_used[t])
    value += 2.5 * sum(1 for i, o in enumerate(d.spec_owner) if o == seat and _INSTANT[i] and not d.spec_used[i])
    return value + pending_value(d, seat)


def choose(state: ResafaState, seat: int, rng: np.random.Generator) -> int:
    """The greedy choice of ``seat`` in ``state`` (a determinized copy: this never looks at hidden parts it
    should not, and it is not changed)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    best, best_value = [], -1e9
    for action in legal:
        s = state.clone()
        s.apply(action)
        v = evaluate(s.d, seat)
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

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        return self.choose(view.determinize(self.rng))

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
