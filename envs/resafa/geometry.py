"""Resafa's geometry: the player area (diagonal workshops, garden squares of three strips, green bonuses),
the canal network (placement, water flow) and the trade map (road costs). Pure functions and tables; the
printed data (boxes, roads, tiles) comes from :mod:`.content`.

Player area: a 5 x 5 grid, cell ``row * 5 + col``. Workshops stand on cells with ``row + col`` even and touch
corner to corner; the cells between them (``row + col`` odd) are garden squares. A square holds three strips,
horizontal (top, middle, bottom) or vertical (left, middle, right) as its first tile decides. Sides are
0 N, 1 E, 2 S, 3 W; a tile edge is cut in three thirds numbered clockwise.

>>> WORKSHOP_CELLS[:3], START_CELLS
((0, 2, 4), (6, 12))
>>> strip_covering(0, 3, 1), strip_covering(1, 0, 2)   # horizontal: W side middle third; vertical: N right
(1, 2)
"""

from __future__ import annotations

from functools import cache

from .content import CanalNetwork, content

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = ("N", "E", "S", "W")
OPPOSITE = (S, W, N, E)
DELTA = ((-1, 0), (0, 1), (1, 0), (0, -1))

SIZE = 5
CELLS = SIZE * SIZE
START_CELLS = (1 * SIZE + 1, 2 * SIZE + 2)
WORKSHOP_CELLS = tuple(c for c in range(CELLS) if (c // SIZE + c % SIZE) % 2 == 0)
GARDEN_CELLS = tuple(c for c in range(CELLS) if (c // SIZE + c % SIZE) % 2 == 1)
HORIZONTAL, VERTICAL = 0, 1
FULL = 0b111


def neighbour(cell: int, side: int) -> int:
    """The cell next to ``cell`` across ``side``, or -1 off the area."""
    r, c = divmod(cell, SIZE)
    dr, dc = DELTA[side]
    r, c = r + dr, c + dc
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1


def _diagonals(cell: int) -> tuple[int, ...]:
    r, c = divmod(cell, SIZE)
    return tuple(
        (r + dr) * SIZE + c + dc for dr in (-1, 1) for dc in (-1, 1) if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )


DIAGONALS = tuple(_diagonals(cell) for cell in range(CELLS))


def strip_covering(orient: int, side: int, third: int) -> int:
    """Which strip of a square (oriented ``orient``) covers ``third`` of its ``side``.

    Thirds are absolute: columns left to right on the N/S sides, rows top to bottom on the E/W sides."""
    if orient == HORIZONTAL:
        return 0 if side == N else 2 if side == S else third
    return 0 if side == W else 2 if side == E else third


def strip_sides(orient: int, strip: int) -> tuple[int, ...]:
    """The sides of the square a strip touches (for the 'touches a workshop' rule)."""
    return tuple(s for s in range(4) if any(strip_covering(orient, s, t) == strip for t in range(3)))


STRIP_SIDES = tuple(tuple(strip_sides(o, k) for k in range(3)) for o in (HORIZONTAL, VERTICAL))


def _touch_cells(cell: int, orient: int, mask: int) -> tuple[int, ...]:
    sides = {s for k in range(3) if (mask >> k) & 1 for s in STRIP_SIDES[orient][k]}
    return tuple(sorted(nb for s in sides if (nb := neighbour(cell, s)) >= 0))


#: TOUCH[cell][orient][mask]: the cells a tile on strips ``mask`` of square ``cell`` borders
TOUCH = tuple(tuple(tuple(_touch_cells(c, o, m) for m in range(8)) for o in (0, 1)) for c in range(CELLS))


def green_target(ws_cell: int, side: int, slot: int, rot: int) -> tuple[int, int, int] | None:
    """Where a green bonus printed at (``side``, ``slot``) of a workshop rotated ``rot`` quarter turns
    clockwise lies: ``(garden cell, side of that square, absolute third)``, or None off the area."""
    s = (side + rot) % 4
    g = neighbour(ws_cell, s)
    if g < 0:
        return None
    third = slot if s in (N, E) else 2 - slot  # clockwise thirds run W->E on N, N->S on E, E->W on S, S->N on W
    return g, OPPOSITE[s], third


def placements(orient: int, filled: int, large: bool) -> list[tuple[int, int]]:
    """``(orientation, strip mask)`` placements of a tile in a square. ``orient`` -1 = empty square: the first
    tile lies along an edge (top/bottom if horizontal, left/right if vertical)."""
    width = 2 if large else 1
    out = []
    for o in (HORIZONTAL, VERTICAL) if orient < 0 else (orient,):
        for start in range(3 - width + 1):
            mask = (FULL >> (3 - width)) << start
            if mask & filled:
                continue
            if orient < 0 and not (mask & 1 or mask & 4):
                continue  # first tile at the top/bottom (left/right) edge, never in the middle alone
            out.append((o, start))
    return out


def strip_mask(start: int, large: bool) -> int:
    return (0b11 if large else 0b1) << start


# --- the canal network ---------------------------------------------------------------------------------------


@cache
def network(players: int) -> CanalNetwork:
    return content().side_for(players).network


@cache
def box_neighbours(players: int) -> tuple[tuple[int, int, int, int], ...]:
    """Per box, its neighbour box across N, E, S, W (-1 off the network)."""
    net = network(players)
    return tuple(tuple(box_neighbour(net, b, s) for s in range(4)) for b in range(net.rows * net.cols))


def box_neighbour(net: CanalNetwork, box: int, side: int) -> int:
    r, c = divmod(box, net.cols)
    dr, dc = DELTA[side]
    r, c = r + dr, c + dc
    return r * net.cols + c if 0 <= r < net.rows and 0 <= c < net.cols else -1


@cache
def source_boxes(players: int) -> tuple[int, ...]:
    """The box next to each water source, in source order."""
    net = network(players)
    return tuple(s.row * net.cols + s.col for s in net.sources)


# --- the trade map -------------------------------------------------------------------------------------------


@cache
def trade_map() -> tuple[int, tuple[tuple[int, ...], ...], int]:
    """``(Resafa's node, all-pairs road costs, spur cost)``; nodes are indices of ``content().centres``."""
    c = content()
    ids = [x.id for x in c.centres]
    n = len(ids)
    inf = 10**6
    dist = [[0 if i == j else inf for j in range(n)] for i in range(n)]
    spur = 0
    for road in c.roads:
        a, b = ids.index(road.a), ids.index(road.b)
        dist[a][b] = dist[b][a] = min(dist[a][b], road.cost)
        if road.resafa_spur:
            spur = road.cost
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if dist[i][k] + dist[k][j] < dist[i][j]:
                    dist[i][j] = dist[i][k] + dist[k][j]
    city = next(i for i, x in enumerate(c.centres) if x.colour == "city")
    return city, tuple(tuple(row) for row in dist), spur


def move_cost(here: int, dest: int, via_resafa: bool) -> int:
    """Coins for moving the camel from node ``here`` to centre ``dest`` (seed: one coin per road segment; the
    segment just below Resafa is paid once for the round trip when the route passes through Resafa)."""
    city, dist, spur = trade_map()
    if not via_resafa or here == city:
        return dist[here][dest]
    return dist[here][city] + dist[city][dest] - spur
