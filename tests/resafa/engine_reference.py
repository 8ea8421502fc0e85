"""Resafa engine code as it was before the s29 round's fast paths (``tests/resafa/test_engine_fast.py``
compares the package with it on positions reached by legal play). Test code only."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from test_hidden_fast import reference_resample

from meeplezoo.envs.core import Chance
from meeplezoo.envs.resafa.actions import CANAL0, MOVE0, OPT0, SIZE0
from meeplezoo.envs.resafa.canals import NUM_DESIGNS, face, fits, tank_allowed
from meeplezoo.envs.resafa.cards import OPT_BONUS, OPT_SACK, OPT_STEP
from meeplezoo.envs.resafa.content import Bundle, Colour, Discount, content
from meeplezoo.envs.resafa.economy import _sum, can_pay, less, permanents
from meeplezoo.envs.resafa.effects import discount_of
from meeplezoo.envs.resafa.gardens import _COST, _TARGET, LARGE, SMALL, _touches
from meeplezoo.envs.resafa.geometry import (
    CELLS,
    DIAGONALS,
    FULL,
    GARDEN_CELLS,
    WORKSHOP_CELLS,
    move_cost,
    placements,
    strip_mask,
)
from meeplezoo.envs.resafa.state import CENTRE_NODES, CITY, NO, ResafaData, S
from meeplezoo.envs.resafa.tracks import LAST, LEVELS, level

C = content()


def can_step(d: ResafaData, seat: int, colour: int) -> bool:
    pos = d.track[seat * 4 + colour]
    if pos >= LAST[colour]:
        return False
    nxt = LEVELS[colour][pos + 1]
    if colour == Colour.PINK or nxt == LEVELS[colour][pos] or nxt == 0:
        return True
    others = sum(1 for c in range(3) if c != colour and level(d, seat, c) >= nxt)
    return others < S.level_limits[nxt]


def discount(d: ResafaData, seat: int, target: str) -> Bundle:
    parts = [e.bundle for e in permanents(d, seat) if isinstance(e, Discount) and e.target == target]
    return _sum(parts)


def build_cost(d: ResafaData, seat: int, base: Bundle, target: str, build) -> Bundle:
    if build is not None and getattr(build, "free", False):
        return Bundle()
    cost = less(base, discount(d, seat, target))
    return less(cost, build.discount) if build is not None else cost


def _any_box(d: ResafaData, design: int, side: int) -> bool:
    f = face(design, side)
    return any(fits(d, b, f.exits, f.tank) for b in range(len(d.canal_owner)))


def canal_picks(d: ResafaData, seat: int, code: int) -> Iterator[int]:
    base = seat * NUM_DESIGNS
    for t in range(NUM_DESIGNS):
        if d.canal_placed[base + t]:
            continue
        for side in (0, 1):
            if side and (C.canal_tiles[t].back is None or not tank_allowed(d, seat)):
                continue
            cost = build_cost(d, seat, face(t, side).cost, "canal", discount_of(code))
            if can_pay(d, seat, cost) and _any_box(d, t, side):
                yield CANAL0 + 2 * t + side


def legal_positions(d: ResafaData, seat: int, cell: int, size: int) -> list[tuple[int, int]]:
    i = seat * CELLS + cell
    orient, filled = d.g_orient[i], d.g_strips[i]
    if filled == FULL:
        return []
    out = []
    for o, start in placements(orient, filled, size == LARGE):
        mask = strip_mask(start, size == LARGE)
        if _touches(d, seat, cell, o, mask, filled):
            out.append((o, start))
    return out


def garden_sizes(d: ResafaData, seat: int, sizes: int, code: int) -> Iterator[int]:
    for size in (SMALL, LARGE):
        if not (sizes >> size) & 1 or not d.g_supply[size]:
            continue
        if not can_pay(d, seat, build_cost(d, seat, _COST[size], _TARGET[size], discount_of(code))):
            continue
        if any(legal_positions(d, seat, c, size) for c in GARDEN_CELLS):
            yield SIZE0 + size


def moves(d: ResafaData, seat: int, road_discount: int) -> Iterator[int]:
    here = d.camel_at[seat]
    coins = d.coins[seat]
    off = road_discount + discount(d, seat, "road").coins
    for n in CENTRE_NODES:
        if here != CITY and n != here and max(0, move_cost(here, n, False) - off) <= coins:
            yield MOVE0 + 2 * n
        if max(0, move_cost(here, n, True) - off) <= coins:
            yield MOVE0 + 2 * n + 1


def has_free_cell(d: ResafaData, seat: int) -> bool:
    base = seat * CELLS
    tiles = d.ws_tile
    return any(tiles[base + c] == NO and any(tiles[base + x] != NO for x in DIAGONALS[c]) for c in WORKSHOP_CELLS)


def legal_colour_opt(d: ResafaData, seat: int, colour: int, b: int) -> list[int]:
    out = []
    shown = d.bonus_display if colour == NO else d.bonus_display[colour * 3 : colour * 3 + 3]
    if any(x != NO for x in shown):
        out.append(OPT0 + OPT_BONUS)
    if any(can_step(d, seat, c) for c in ((colour,) if colour != NO else range(4))):
        out.append(OPT0 + OPT_STEP)
    if d.sack_deck or d.sack_discard:
        out.append(OPT0 + OPT_SACK)
    return out


def determinize(state, player: int, rng: np.random.Generator):
    """``StackState.determinize`` with the reference resampling (``test_hidden_fast.reference_resample``):
    clone, fresh chance, resample, re-read the legal actions."""
    s = state.clone()
    s.d.chance = Chance.fresh(rng)
    reference_resample(s.d, player, rng)
    s.machine.relegal(s.d)
    return s


def public_copy(state, player: int):
    """``StackState.public_copy`` with the reference resampling."""
    s = state.clone()
    reference_resample(s.d, player, None)
    s.d.chance = Chance(0, 0)
    s.machine.relegal(s.d)
    return s
