"""Canal construction, water tanks, and rain scoring with the water flowing down the network.

Seed: "Oyuncu kişisel havuzundan bir kanal karosu seçer, karonun üzerinde yazan maliyeti öder ve karoyu su
ağında henüz kanal karosu bulunmayan HERHANGİ bir boşluğa yerleştirir ... Dikey olarak komşu karolar birbirine
bağlanmak zorundadır ... su küpünü kendi karosunun üzerine taşır". Rain: "önce inşa edilmiş kanallar, sonra
bu kanallardan akan su ... Birden fazla yön mümkünse rotayı, küpün üzerinde durduğu karoyu yerleştirmiş olan
oyuncu belirler ... Rotayı belirleyen oyuncu ... su küpünü kendi önüne alır."
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from .actions import BOX0, CANAL0, DIR0
from .content import content
from .economy import build_cost, can_pay, cost_after, discount, pay, triggered
from .effects import discount_of, push_effects
from .geometry import OPPOSITE, E, N, S, W, box_neighbour, box_neighbours, network, source_boxes
from .state import NO, ResafaData
from .state import S as SETUP
from .steps import Step

C = content()
NUM_DESIGNS = len(C.canal_tiles)
TANK_ROW_FROM_BOTTOM = 0  # water tanks only in the bottom row: the ends of the network (filled in)


def face(design: int, side: int):
    t = C.canal_tiles[design]
    return t.back if side else t.front


def exits_at(d: ResafaData, box: int) -> frozenset[int]:
    """The channel sides of a box: its canal tile's, else the printed network's."""
    if d.canal_owner[box] != NO:
        return face(d.canal_design[box], d.canal_side[box]).exits
    return network(d.players).boxes[box].printed


def tanks_of(d: ResafaData, seat: int) -> int:
    return sum(1 for b, o in enumerate(d.canal_owner) if o == seat and d.canal_side[b])


def posts_of(d: ResafaData, seat: int) -> int:
    return d.post_owner.count(seat)


def tank_allowed(d: ResafaData, seat: int) -> bool:
    """Seed: 2 completed garden squares AND 1 trading post; at most 2 tanks (only two tiles have the back)."""
    return (
        d.gardens_done[seat] >= SETUP.tank_gardens
        and posts_of(d, seat) >= SETUP.tank_posts
        and tanks_of(d, seat) < SETUP.max_water_tanks
    )


def fits(d: ResafaData, box: int, exits: frozenset[int], tank: bool) -> bool:
    """Empty box; vertically neighbouring tiles connect (S of the upper tile iff N of the lower)."""
    if d.canal_owner[box] != NO:
        return False
    if tank:
        net = network(d.players)
        if box // net.cols != net.rows - 1 - TANK_ROW_FROM_BOTTOM:
            return False
    nbs = box_neighbours(d.players)[box]
    up = nbs[N]
    if up >= 0 and d.canal_owner[up] != NO and ((S in exits_at(d, up)) != (N in exits)):
        return False
    down = nbs[S]
    return not (down >= 0 and d.canal_owner[down] != NO and ((N in exits_at(d, down)) != (S in exits)))


def legal_boxes(d: ResafaData, seat: int, design: int, side: int) -> list[int]:
    f = face(design, side)
    return [b for b in range(len(d.canal_owner)) if fits(d, b, f.exits, f.tank)]


def tile_cost(d: ResafaData, seat: int, design: int, side: int, code: int):
    return build_cost(d, seat, face(design, side).cost, "canal", discount_of(code))


#: per design and side: (the face's cost, whether it has a N channel, a S channel, a tank; None: no such side)
_FACE_FIT = tuple(
    tuple(None if f is None else (f.cost, N in f.exits, S in f.exits, f.tank) for f in (face(t, 0), face(t, 1)))
    for t in range(NUM_DESIGNS)
)


@cache
def _box_ties(players: int) -> tuple[tuple[int, int, int, bool], ...]:
    """Per box: ``(box, box above, box below, in the tank row)`` (-1: off the network)."""
    net, nbs = network(players), box_neighbours(players)
    row = net.rows - 1 - TANK_ROW_FROM_BOTTOM
    return tuple((b, nbs[b][N], nbs[b][S], b // net.cols == row) for b in range(net.rows * net.cols))


def fits_somewhere(d: ResafaData, has_n: bool, has_s: bool, tank: bool) -> bool:
    """:func:`_any_box` for a face with (or without) N and S channels and a tank, in one loop."""
    owner = d.canal_owner
    for b, up, down, tank_row in _box_ties(d.players):
        if owner[b] != NO or (tank and not tank_row):
            continue
        if up >= 0 and owner[up] != NO and (S in exits_at(d, up)) != has_n:
            continue
        if down >= 0 and owner[down] != NO and (N in exits_at(d, down)) != has_s:
            continue
        return True
    return False


def canal_picks(d: ResafaData, seat: int, code: int) -> Iterator[int]:
    """Each canal tile (design and side) ``seat`` can pay for and place, in action order (the discount and the
    tank rule read once)."""
    base, placed = seat * NUM_DESIGNS, d.canal_placed
    off, build = discount(d, seat, "canal"), discount_of(code)
    tank = None
    for t in range(NUM_DESIGNS):
        if placed[base + t]:
            continue
        for side, fit in enumerate(_FACE_FIT[t]):
            if fit is None:
                continue
            if side:
                if tank is None:
                    tank = tank_allowed(d, seat)
                if not tank:
                    continue
            if not can_pay(d, seat, cost_after(fit[0], off, build)):
                continue
            if fits_somewhere(d, fit[1], fit[2], fit[3]):
                yield CANAL0 + 2 * t + side


def legal_canal_pick(d: ResafaData, seat: int, a: int, code: int) -> list[int]:
    return list(canal_picks(d, seat, code))


def apply_canal_pick(d: ResafaData, action: int, seat: int, a: int, code: int) -> None:
    t, side = divmod(action - CANAL0, 2)
    pay(d, seat, tile_cost(d, seat, t, side, code))
    d.stack.append((Step.CANAL_BOX, seat, 2 * t + side, 0))


def legal_canal_box(d: ResafaData, seat: int, ts: int, b: int) -> list[int]:
    t, side = divmod(ts, 2)
    return [BOX0 + x for x in legal_boxes(d, seat, t, side)]


def apply_canal_box(d: ResafaData, action: int, seat: int, ts: int, b: int) -> None:
    box = action - BOX0
    t, side = divmod(ts, 2)
    d.canal_owner[box] = seat
    d.canal_placed[seat * NUM_DESIGNS + t] = 1
    d.canal_design[box] = t
    d.canal_side[box] = side
    for k, src in enumerate(source_boxes(d.players)):
        if src == box and d.cubes[k] == 0:
            d.cubes[k] = 1  # the cube moves onto the tile, even if the channel does not reach the source
    tile = d.cbonus_at[box]
    if tile != NO:
        d.cbonus_at[box] = NO
        d.cbonus_owner[tile] = seat  # kept: used at once or later through a "use" action
    for then in triggered(d, seat, "canal"):
        push_effects(d, seat, then)
    push_effects(d, seat, network(d.players).boxes[box].effects)


#: Resafabot's water at a branch (solo): down first, then east, then west
FLOW_ORDER = (S, E, W)


def flow_side(sides: list[int]) -> int:
    """Where Resafabot's water goes at a branch (it chooses like the player who placed the tile would)."""
    return next(s for s in FLOW_ORDER if s in sides)


# --- rain -----------------------------------------------------------------------------------------------------
def canal_points(d: ResafaData, seat: int) -> int:
    """1 VP per placed canal tile plus the blue VP printed on them."""
    pts = 0
    for b, o in enumerate(d.canal_owner):
        if o == seat:
            pts += C.scoring.rain_per_canal + face(d.canal_design[b], d.canal_side[b]).blue_vp
    return pts


def run_rain(d: ResafaData, seat: int, a: int, b: int) -> None:
    """Canal points for everyone, then each activated cube flows (in source order)."""
    for s in range(d.players):
        d.vp[s] += canal_points(d, s)
    sources = source_boxes(d.players)
    for k in range(len(sources) - 1, -1, -1):
        if d.cubes[k] == 1:
            box = sources[k]
            d.cubes[k] = 2
            chooser = d.canal_owner[box]
            if chooser < d.players:
                d.cubes_taken[chooser] += 1
            else:  # solo: Resafabot's cube (it chooses its way, flow_side)
                d.bot_cubes += 1
            d.stack.append((Step.FLOW_RUN, chooser, box, 1 << box))
            _score_passage(d, box)
    for s in range(d.players):
        for then in triggered(d, s, "rain"):
            push_effects(d, s, then)


def _score_passage(d: ResafaData, box: int) -> None:
    owner = d.canal_owner[box]
    if owner != NO and owner < d.players:  # solo: Resafabot scores nothing
        d.vp[owner] += C.scoring.rain_per_passage + face(d.canal_design[box], d.canal_side[box]).blue_vp


def flow_exits(d: ResafaData, box: int, visited: int) -> list[int]:
    """Sides the water may leave ``box`` by: never back up; into a box whose channel meets it; out of the
    bottom edge (the water leaves the network). A box is never entered twice."""
    net = network(d.players)
    out = []
    for side in (E, S, W):
        if side not in exits_at(d, box):
            continue
        nb = box_neighbour(net, box, side)
        if nb < 0:
            if side == S:
                out.append(side)
            continue
        if (visited >> nb) & 1 or OPPOSITE[side] not in exits_at(d, nb):
            continue
        out.append(side)
    return out


def run_flow(d: ResafaData, seat: int, box: int, visited: int) -> None:
    """Follow the only way on its own; where two or more ways open, the chooser decides (FLOW)."""
    net = network(d.players)
    while True:
        exits = flow_exits(d, box, visited)
        if not exits:
            return
        if len(exits) > 1 and seat < d.players:
            d.stack.append((Step.FLOW, seat, box, visited))
            return
        nb = box_neighbour(net, box, exits[0] if len(exits) == 1 else flow_side(exits))
        if nb < 0:
            return  # out of the bottom of the network
        _score_passage(d, nb)
        box, visited = nb, visited | (1 << nb)


def legal_flow(d: ResafaData, seat: int, box: int, visited: int) -> list[int]:
    exits = flow_exits(d, box, visited)
    return [DIR0 + s for s in exits] if len(exits) > 1 else []


def apply_flow(d: ResafaData, action: int, seat: int, box: int, visited: int) -> None:
    nb = box_neighbour(network(d.players), box, action - DIR0)
    if nb < 0:
        return  # out of the network
    _score_passage(d, nb)
    d.stack.append((Step.FLOW_RUN, seat, nb, visited | (1 << nb)))
