"""Garden construction, green bonuses and garden-square completion rewards.

Seed: "küçük bahçe 1 taş, büyük bahçe 1 sikke + 1 taş. Yerleştirilen karo en az bir atölyeye ya da başka bir
bahçe karosuna değmelidir. İlk karo yatay ya da dikey olabilir ... Bir bahçe karesi 1 büyük + 1 küçük karoyla
ya da 3 küçük karoyla tamamlanabilir. Karo yerleştirildiğinde, komşu atölye karolarındaki yeşil bonuslardan
bağlanabilenler hemen kazanılır. Aynı karedeki ikinci (ya da üçüncü) karo yerleştirildiğinde, bahçeler
üzerinden bağlanan tüm yeşil bonuslar tetiklenir."
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import CELL0, GPOS0, SIZE0
from .content import content
from .economy import build_cost, can_pay, pay, triggered
from .effects import discount_of, push_effects
from .geometry import (
    CELLS,
    FULL,
    GARDEN_CELLS,
    TOUCH,
    green_target,
    neighbour,
    placements,
    strip_covering,
    strip_mask,
)
from .state import NO, ResafaData, S
from .steps import Step
from .workshops import face_of

C = content()
SMALL, LARGE = 0, 1
SIZES_OF = {"garden_small": 1, "garden_large": 2, "garden": 3}
_TARGET = ("garden_small", "garden_large")
_COST = (S.garden_cost["small"], S.garden_cost["large"])


#: per square orientation + 1 (0: empty), filled strips and size: ``(orientation, first strip, strip mask)`` of
#: each placement (:func:`~.geometry.placements`)
_PLACES = tuple(
    tuple(
        tuple(
            tuple((o, st, strip_mask(st, size == LARGE)) for o, st in placements(orient, filled, size == LARGE))
            for size in (SMALL, LARGE)
        )
        for filled in range(FULL + 1)
    )
    for orient in (NO, 0, 1)
)


def legal_positions(d: ResafaData, seat: int, cell: int, size: int) -> list[tuple[int, int]]:
    """``(orientation, first strip)`` of every legal placement of a tile of ``size`` in square ``cell``."""
    i = seat * CELLS + cell
    orient, filled = d.g_orient[i], d.g_strips[i]
    if filled == FULL:
        return []
    return [(o, st) for o, st, mask in _PLACES[orient + 1][filled][size] if _touches(d, seat, cell, o, mask, filled)]


def any_position(d: ResafaData, seat: int, size: int) -> bool:
    """Whether a tile of ``size`` has a legal placement in one of ``seat``'s squares (:func:`legal_positions`
    of every square, stopping at the first)."""
    base = seat * CELLS
    orients, strips, tiles = d.g_orient, d.g_strips, d.ws_tile
    for c in GARDEN_CELLS:
        filled = strips[base + c]
        if filled == FULL:
            continue
        touch = TOUCH[c]
        for o, _, mask in _PLACES[orients[base + c] + 1][filled][size]:
            if filled and ((mask << 1) | (mask >> 1)) & filled:
                return True
            for w in touch[o][mask]:
                if tiles[base + w] != NO:
                    return True
    return False


def _touches(d: ResafaData, seat: int, cell: int, orient: int, mask: int, filled: int) -> bool:
    """The tile touches a workshop (a side it covers borders one) or another garden tile of the square."""
    if filled and ((mask << 1) | (mask >> 1)) & filled:
        return True
    base = seat * CELLS
    tiles = d.ws_tile
    return any(tiles[base + w] != NO for w in TOUCH[cell][orient][mask])


def legal_squares(d: ResafaData, seat: int, size: int) -> list[int]:
    return [c for c in GARDEN_CELLS if legal_positions(d, seat, c, size)]


def garden_sizes(d: ResafaData, seat: int, sizes: int, code: int) -> Iterator[int]:
    """Each garden tile size (of the ``sizes`` bitmask) ``seat`` can pay for and place."""
    for size in (SMALL, LARGE):
        if not (sizes >> size) & 1 or not d.g_supply[size]:
            continue
        if not can_pay(d, seat, build_cost(d, seat, _COST[size], _TARGET[size], discount_of(code))):
            continue
        if any_position(d, seat, size):
            yield SIZE0 + size


def legal_garden_size(d: ResafaData, seat: int, sizes: int, code: int) -> list[int]:
    return list(garden_sizes(d, seat, sizes, code))


def apply_garden_size(d: ResafaData, action: int, seat: int, sizes: int, code: int) -> None:
    size = action - SIZE0
    pay(d, seat, build_cost(d, seat, _COST[size], _TARGET[size], discount_of(code)))
    d.stack.append((Step.GARDEN_SQUARE, seat, size, 0))


def legal_garden_square(d: ResafaData, seat: int, size: int, b: int) -> list[int]:
    return [CELL0 + c for c in legal_squares(d, seat, size)]


def apply_garden_square(d: ResafaData, action: int, seat: int, size: int, b: int) -> None:
    d.stack.append((Step.GARDEN_POS, seat, size, action - CELL0))


def legal_garden_pos(d: ResafaData, seat: int, size: int, cell: int) -> list[int]:
    return [GPOS0 + 3 * o + s for o, s in legal_positions(d, seat, cell, size)]


def apply_garden_pos(d: ResafaData, action: int, seat: int, size: int, cell: int) -> None:
    o, start = divmod(action - GPOS0, 3)
    place(d, seat, cell, size, o, start)


def place(d: ResafaData, seat: int, cell: int, size: int, orient: int, start: int) -> None:
    """Lay the tile; then the connected green bonuses, the completion reward and triggers (in that order)."""
    i = seat * CELLS + cell
    d.g_orient[i] = orient
    d.g_strips[i] |= strip_mask(start, size == LARGE)
    d.g_supply[size] -= 1
    d.g_tiles[seat * 2 + size] += 1
    st = d.stack
    if d.g_strips[i] == FULL:
        done = d.gardens_done[seat]
        d.gardens_done[seat] += 1
        rewards = C.scoring.garden_rewards
        steps, vp = rewards[min(done, len(rewards) - 1)]
        d.vp[seat] += vp
        for then in triggered(d, seat, "garden_complete"):
            push_effects(d, seat, then)
        for _ in range(steps):
            st.append((Step.TRACK_PICK, seat, 0, 0))
    for then in triggered(d, seat, "garden"):
        push_effects(d, seat, then)
    for effects in connected_greens(d, seat, cell):
        push_effects(d, seat, effects)


def connected_greens(d: ResafaData, seat: int, cell: int) -> list[tuple]:
    """The green bonuses around square ``cell`` whose third of the edge a garden tile of the square covers."""
    i = seat * CELLS + cell
    orient, filled = d.g_orient[i], d.g_strips[i]
    if orient == NO:
        return []
    base = seat * CELLS
    out = []
    for side in range(4):
        w = neighbour(cell, side)
        if w < 0 or d.ws_tile[base + w] == NO:
            continue
        rot = d.ws_rot[base + w]
        for green in face_of(d, seat, w).greens:
            target = green_target(w, green.side, green.slot, rot)
            if target is None or target[0] != cell:
                continue
            _, g_side, third = target
            if (filled >> strip_covering(orient, g_side, third)) & 1:
                out.append(green.effects)
    return out
