"""The observation as first written (per-cell Python loops, before the speed-up of issue 10; with the solo
section of issue 12): the reference
that ``test_resafa_observation.py`` compares the fast :func:`meeplezoo.envs.resafa.observation.observe` with.
Test code only; it reads the layout tables from the real module, so both write the same sections."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.resafa import solo
from meeplezoo.envs.resafa.geometry import CELLS
from meeplezoo.envs.resafa.observation import (
    _AT,
    _BOX_W,
    _S,
    MAX_SEATS,
    NUM_BONUS,
    NUM_DESIGNS,
    NUM_SACK,
    NUM_TT,
    NUM_WS,
    OBS_SIZE,
    SEAT_SIZE,
    _task,
)
from meeplezoo.envs.resafa.state import CATEGORIES, NO, NUM_ITEMS, ResafaData


def reference_observe(d: ResafaData, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Write ``me``'s observation into ``out`` (or a new array) and return it."""
    o = np.zeros(OBS_SIZE, np.float32) if out is None else out
    if out is not None:
        o[:] = 0.0
    ones: list[int] = []
    vals: dict[int, float] = {}
    n = d.players
    rel = [(me + k) % n for k in range(n)]  # seat at relative position k
    pos = {s: k for k, s in enumerate(rel)}
    if n == 1:  # solo: Resafabot's canal tiles, posts and bonus tiles show as the next seat's
        pos[solo.BOT] = 1
        solo.observe(d, ones, vals, _AT["solo"])
    if d.stack:
        step, seat, a, b = d.stack[-1]
        ones.append(_AT["pending"] + step)
        if seat == me:
            ones.append(_AT["to_act"])
        _task(d, o, ones, step, seat, a, b, me)  # the pending decision: unchanged by the speed-up, shared
    if n > 1:  # solo: no one-hot here (the solo section says it)
        ones.append(_AT["players"] + n - 2)
    ones.append(_AT["round"] + min(d.round_no, 7) - 1)
    ones.append(_AT["first"] + pos[d.first])
    ones.append(_AT["active"] + pos[d.active])
    if d.card != NO:
        ones.append(_AT["card"] + d.card)
    if d.half != NO:
        ones.append(_AT["half"] + d.half)
    if d.main != NO:
        ones.append(_AT["main"] + d.main)
    if d.colour != NO:
        ones.append(_AT["colour"] + d.colour)
    ones += [_AT["my_hand"] + c for c in d.hand[me]]
    ones += [_AT["my_deck"] + c for c in d.deck[me]]
    ones += [_AT["my_sacks"] + c for c in d.sack_hand[me]]
    owned: list[list[int]] = [[] for _ in range(n)]
    for i, owner in enumerate(d.spec_owner):
        if owner != NO and owner < n:  # solo: the cards Resafabot removed are in the solo section
            owned[owner].append(i)
    for k, s in enumerate(rel):
        _seat(d, s, _AT["seats"] + k * SEAT_SIZE, ones, o, owned[s])
    # board
    at = _AT["supply"]
    sup = [x / 22.0 for x in d.supply] + [d.g_supply[0] / 22.0, d.g_supply[1] / 17.0]
    sup += [d.tokens[0] / 21.0, d.tokens[1] / 20.0, len(d.ws_decks[0]) / 12.0, len(d.ws_decks[1]) / 14.0]
    sup += [len(x) / 9.0 for x in d.bonus_decks] + [len(d.sack_deck) / max(1, NUM_SACK)]
    sup += [len(x) / 4.0 for x in d.spec_decks]
    o[at : at + len(sup)] = sup
    ones += [_AT["bonus_display"] + i * NUM_BONUS + c for i, c in enumerate(d.bonus_display) if c != NO]
    ones += [_AT["ws_display"] + i * NUM_WS + t for i, t in enumerate(d.ws_display) if t != NO]
    for k, deck in enumerate(d.spec_decks):
        if d.spec_up[k] and deck:
            ones.append(_AT["spec_up"] + deck[-1])
            ones.append(_AT["spec_decks"] + 2 * k)
        if len(deck) > d.spec_up[k]:
            ones.append(_AT["spec_decks"] + 2 * k + 1)
    if d.advanced:
        ones += [_AT["spec_box"] + c for box in d.spec_box for c in box]
    cb0 = _AT["canal"]
    design, side = d.canal_design, d.canal_side
    for box, owner in enumerate(d.canal_owner):
        if owner != NO:
            base = cb0 + box * _BOX_W
            ones += [base + pos[owner], base + MAX_SEATS + design[box]]
            if side[box]:
                ones.append(base + MAX_SEATS + NUM_DESIGNS)
    ones += [cb0 + box * _BOX_W + MAX_SEATS + NUM_DESIGNS + 1 + t for box, t in enumerate(d.cbonus_at) if t != NO]
    ones += [_AT["cubes"] + 3 * k + c for k, c in enumerate(d.cubes)]
    for t, owner in enumerate(d.cbonus_owner):
        if owner != NO:
            ones.append(_AT["cb_owner"] + t * (MAX_SEATS + 1) + pos[owner])
            if d.cbonus_used[t]:
                ones.append(_AT["cb_owner"] + t * (MAX_SEATS + 1) + MAX_SEATS)
    for node, tile in enumerate(d.trade_tile):
        if tile != NO:
            ones.append(_AT["trade"] + node * (NUM_TT + 1) + tile)
            if d.trade_side[node]:
                ones.append(_AT["trade"] + node * (NUM_TT + 1) + NUM_TT)
    ones += [_AT["posts"] + i * MAX_SEATS + pos[s] for i, s in enumerate(d.post_owner) if s != NO]
    if d.sheet:
        k = len(CATEGORIES)
        for j, s in enumerate(rel):
            for c in range(k):
                vals[_AT["sheet"] + j * k + c] = min(d.sheet[s * k + c] / 200.0, 1.0)
    o.put(ones, 1.0)
    if vals:
        o[list(vals)] = list(vals.values())
    return o


_SC, _CAMEL, _TRACK = _S["scalars"], _S["camel_at"], _S["track"]
_PLAYED, _UNPLAYED, _BHAND, _SPECS = _S["played"], _S["unplayed"], _S["bonus_hand"], _S["specials"]
_WS, _GARDEN, _TOKENS, _CPLACED, _COUNTS = _S["ws"], _S["garden"], _S["tokens"], _S["canal_placed"], _S["counts"]
_WS_W = NUM_WS + 5
_STRIP_BITS = tuple(tuple(k for k in range(3) if (m >> k) & 1) for m in range(8))


def _seat(d: ResafaData, s: int, base: int, ones: list[int], o: np.ndarray, owned: list[int]) -> None:
    r = s * NUM_ITEMS
    st = d.store
    hand, deck = d.hand[s], d.deck[s]
    item = d.camel_item[s]
    at = base + _SC
    o[at : at + 16] = (
        min(d.coins[s] / 30.0, 1.0),
        min(d.vp[s] / 200.0, 1.0),
        min(st[r] / 10.0, 1.0),
        min(st[r + 1] / 10.0, 1.0),
        min(st[r + 2] / 10.0, 1.0),
        min(st[r + 3] / 10.0, 1.0),
        item == 0,
        item == 1,
        item == 2,
        item == 3,
        d.camel_load[s] / 6.0,
        d.camel_step[s] / 4.0,
        len(hand) / 3.0,
        len(deck) / 6.0,
        (len(hand) + len(deck)) / 6.0,
        min(len(d.sack_hand[s]) / 5.0, 1.0),
    )
    tr = d.track
    t0 = base + _TRACK
    ones += [base + _CAMEL + d.camel_at[s], t0 + tr[s * 4], t0 + 11 + tr[s * 4 + 1]]
    ones += [t0 + 22 + tr[s * 4 + 2], t0 + 33 + tr[s * 4 + 3]]
    ones += [base + _PLAYED + c for c in d.played[s]]
    ones += [base + _UNPLAYED + c for c in hand]
    ones += [base + _UNPLAYED + c for c in deck]
    ones += [base + _BHAND + c for c in d.bonus_hand[s]]
    sb = base + _SPECS
    used = d.spec_used
    for i in owned:
        ones.append(sb + 2 * i)
        if used[i]:
            ones.append(sb + 2 * i + 1)
    off = s * CELLS
    wb = base + _WS
    rot, face = d.ws_rot, d.ws_face
    for c, t in enumerate(d.ws_tile[off : off + CELLS]):
        if t != NO:
            cb = wb + c * _WS_W
            ones += [cb + t, cb + NUM_WS + 1 + rot[off + c]]
            if face[off + c]:
                ones.append(cb + NUM_WS)
    gb0 = base + _GARDEN
    strips = d.g_strips
    for c, g in enumerate(d.g_orient[off : off + CELLS]):
        if g != NO:
            gb = gb0 + c * 5
            ones.append(gb + g)
            ones += [gb + 2 + k for k in _STRIP_BITS[strips[off + c]]]
    tb = base + _TOKENS
    ones += [tb + k for k in range(d.gate[s])]
    rows = d.rows
    ones += [tb + 2 + 3 * row + k for row in range(3) for k in range(rows[s * 3 + row])]
    o[tb + 11] = min(d.scarabs[s] / 5.0, 1.0)
    cp = d.canal_placed
    ones += [base + _CPLACED + t for t in range(NUM_DESIGNS) if cp[s * NUM_DESIGNS + t]]
    cb = base + _COUNTS
    o[cb : cb + 3] = (min(d.gardens_done[s] / 6.0, 1.0), min(d.cubes_taken[s] / 9.0, 1.0), d.post_owner.count(s) / 9.0)
