"""Board Royale's observation encoder as it was first written and the value model's plain logits: the references
of the fast ones (``tests/board_royale/test_royale_fast_paths.py`` compares them byte for byte)."""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplezoo.envs.board_royale import value as value
from meeplezoo.envs.board_royale.observation import (
    _ANSWER,
    _ASK_ITEM,
    _COPIES,
    _FIELD,
    _GIVE_ITEM,
    _HIDE,
    _IDISC,
    _ITEM_STEPS,
    _KNOWN,
    _LOOT,
    _LOOT_NEXT,
    _MY_TURN,
    _OWNER,
    _PENDING,
    _POINTS,
    _PREP,
    _SCALARS,
    _SEAT,
    _TASK_ITEM,
    _TO_ACT,
    _TURN_OVER,
    _TYPE,
    _USED,
    _WIN_KIND,
    _WINNER,
    MAX_PLAYERS,
    NO,
    NUM_ITEM_CARDS,
    NUM_ITEM_TYPES,
    NUM_RES,
    NUM_SCALARS,
    OBS_SIZE,
    RULES,
    SEAT_FLAGS,
    STEAL,
    K,
    RoyaleData,
    Step,
    hand_limit,
    next_loot,
)


def observe_reference(d: RoyaleData, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """:func:`observe` the plain way, one entry at a time (the reference its tests compare it with)."""
    o = np.zeros(OBS_SIZE, np.float32) if out is None else out
    if out is not None:
        o[:] = 0.0
    n = d.n
    ones: list[int] = []
    rel = [(s - me) % n for s in range(n)]
    if d.stack:
        step, seat, a, b = d.stack[-1]
        ones.append(_PENDING + step)
        if seat == me:
            ones.append(_TO_ACT)
        ones.append(_SEAT + SEAT_FLAGS * rel[seat] + 3)
        if step == Step.JOIN:
            ones.append(_SEAT + SEAT_FLAGS * rel[b] + 4)
        elif step == Step.DEFEND:
            ones.append(_SEAT + SEAT_FLAGS * rel[seat] + 4)
        if step in _ITEM_STEPS:
            ones.append(_TASK_ITEM + (NUM_ITEM_TYPES if a == STEAL else _TYPE[a]))
        task_count = a if step == Step.HAND_DISCARD else 0
        if step == Step.LOOT_SPLIT:
            card = next_loot(d)
            ones.append(_LOOT_NEXT + (_TYPE[card] if card >= 0 else NUM_ITEM_TYPES + (-1 - card) - NUM_RES))
        elif step == Step.LOOT_ROOM:
            ones.append(_LOOT_NEXT + NUM_ITEM_TYPES + a - NUM_RES)
    else:
        task_count = 0
    if d.active == me:
        ones.append(_MY_TURN)
    if d.round_no == 0:
        ones.append(_PREP)
    if d.turn_over:
        ones.append(_TURN_OVER)
    alive, yes, no = d.alive, d.vote_yes, d.vote_no
    hand = d.hand
    sizes = [0.0] * MAX_PLAYERS
    points = [0] * MAX_PLAYERS
    out_rank = [0.0] * MAX_PLAYERS
    for s in range(n):
        r = rel[s]
        base = _SEAT + SEAT_FLAGS * r
        if alive[s]:
            ones.append(base)
        else:
            out_rank[r] = d.elim_rank[s] / 5.0
        if s == d.active:
            ones.append(base + 1)
        if s == d.first_player:
            ones.append(base + 2)
        if (yes >> s) & 1:
            ones.append(base + 5)
        if (no >> s) & 1:
            ones.append(base + 6)
        if s == d.trade_with:
            ones.append(base + 7)
        if (d.loot_takers >> s) & 1:
            ones.append(base + 9)
        sizes[r] = sum(hand[s * K : s * K + K]) / 24.0
    j = d.joiners
    for i in range(0, len(j), 2):
        ones.append(_SEAT + SEAT_FLAGS * rel[j[i]] + 8)
    owner = d.item_owner
    used = d.item_used
    for c in range(NUM_ITEM_CARDS):
        s = owner[c]
        if s >= 0:
            r = rel[s]
            ones.append(_OWNER + MAX_PLAYERS * c + r)
            if used[c]:
                ones.append(_USED + c)
            points[r] += _POINTS[c]
    ones += [_FIELD + NUM_ITEM_TYPES * i + _TYPE[c] for i, c in enumerate(d.field) if c != NO]
    if d.blow_on != NO:
        ones.append(_ANSWER + d.blow_kind)
    ones += [_GIVE_ITEM + c for c in d.offer_give_items]
    ones += [_ASK_ITEM + c for c in d.offer_ask_items]
    if d.winner != NO:
        ones.append(_WINNER + rel[d.winner])
        ones.append(_WIN_KIND + d.win_kind)
    o[ones] = 1.0
    mb = me * K
    scal = [
        *sizes,
        *(min(x / 10.0, 1.0) for x in points),
        *out_rank,
        *(min(x / 24.0, 1.0) for x in hand[mb : mb + K]),
        *(min(x / 30.0, 1.0) for x in d.res_discard),
        len(d.res_deck) / 149.0,
        len(d.item_deck) / NUM_ITEM_CARDS,
        len(d.item_discard) / NUM_ITEM_CARDS,
        min(d.round_no / 50.0, 1.0),
        min(d.turn_decisions / RULES.max_decisions_per_turn, 1.0),
        hand_limit(d, me) / 24.0,
        *(min(x / 10.0, 1.0) for x in d.offer_give),
        *(min(x / 10.0, 1.0) for x in d.offer_ask),
        min(task_count / 5.0, 1.0),
        d.blow_n / 6.0,
        d.counters / RULES.max_counter_offers,
    ]
    o[_SCALARS : _SCALARS + NUM_SCALARS] = scal
    known = d.known
    kb = me * n * K
    for s in range(n):
        if s != me:
            o[_HIDE + rel[s]] = min(d.hid_max[me * n + s] / 9.0, 1.0)
            row = known[kb + s * K : kb + s * K + K]
            if any(row):
                start = _KNOWN + K * rel[s]
                o[start : start + K] = [min(x / 10.0, 1.0) for x in row]
    for c in d.loot_items:
        o[_LOOT + _TYPE[c]] += 1.0 / _COPIES[_TYPE[c]]
    for h, x in enumerate(d.loot_hidden):
        o[_LOOT + NUM_ITEM_TYPES + h] = min(x / 4.0, 1.0)
    if d.item_discard:
        counts = [0] * NUM_ITEM_TYPES
        for c in d.item_discard:
            counts[_TYPE[c]] += 1
        o[_IDISC : _IDISC + NUM_ITEM_TYPES] = [x / y for x, y in zip(counts, _COPIES, strict=True)]
    return o


def reference_logits(d: RoyaleData, model: str = "fitted") -> list[float]:
    """``win_logits`` (``model`` "fitted2p": ``win_logits_2p``) the slow, plain way: ``w . f`` over
    :func:`seat_features` (the fast path's reference)."""
    living = sum(1 for a in d.alive if a)
    w = value.weights(model)[value.block_of(living)]
    rows = value.seat_features(d)
    return [sum(wi * fi for wi, fi in zip(w, row, strict=True)) if d.alive[s] else 0.0 for s, row in enumerate(rows)]


def reference_chances(state: Any) -> list[float]:
    """``win_chances`` through ``win_probabilities`` and :func:`reference_logits` (its reference)."""
    from meeplezoo.training.value_fit import win_probabilities

    u = np.array(reference_logits(state.d))[None, :, None]
    return win_probabilities(u, np.array([state.d.alive], bool), np.ones(1))[0].tolist()
