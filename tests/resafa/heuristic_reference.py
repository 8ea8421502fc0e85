"""The Resafa heuristic's evaluation as first written (before the speed-up of the s28 round): the reference
that ``tests/agents/test_resafa_heuristic.py`` compares the fast :func:`meeplezoo.envs.resafa.heuristic.evaluate`
with, value for value. Test code only."""

from __future__ import annotations

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
    Track,
    Trade,
)
from meeplezoo.envs.resafa.effects import EFFECTS, LISTS
from meeplezoo.envs.resafa.geometry import CELLS, GARDEN_CELLS, WORKSHOP_CELLS, move_cost
from meeplezoo.envs.resafa.heuristic import (
    _ENDGAME,
    _INSTANT,
    _OPEN_STRIP_BITS,
    _SPECIAL_VP,
    _TASK_VALUE,
    BONUS_CARD_VALUE,
    COIN_VALUE,
    CUBE_VALUE,
    ITEM_VALUE,
    SACK_VALUE,
    SC,
    STEP_VALUE,
    WORKSHOP_FUTURE,
    C,
)
from meeplezoo.envs.resafa.scoring import canals, counter, garden_tiles, row_value, workshops
from meeplezoo.envs.resafa.state import CENTRE_NODES, CITY, NO, NUM_ITEMS, ResafaData
from meeplezoo.envs.resafa.steps import Step
from meeplezoo.envs.resafa.workshops import face_of


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
