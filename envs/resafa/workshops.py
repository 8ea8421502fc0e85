"""Workshop construction and production.

Seed: "Oyuncu, atölye sergisindeki 3 seviye I atölyesi (3. turdan itibaren ayrıca 3 seviye II atölyesi)
arasından birini seçer ve 1 sikke + 1 taş ödeyerek inşa eder. Atölye ... başka bir atölyeye köşeden köşeye
çapraz değecek şekilde yerleştirilmelidir ... yerleştirmeden önce hangi yüzün açık olacağına karar
verilmelidir." Production: "2 farklı atölye karosunda birer oda ... Arka yüzü açık ... her biri için 1 ek
üretim aktivasyonu ... ek üretimler ... daha önce kullanılmış odalar dahil herhangi bir odada kullanılabilir."
"""

from __future__ import annotations

from .actions import CELL0, FACE0, PASS, ROOM0, ROT0, WS0
from .content import Level, content
from .economy import build_cost, can_pay, pay, triggered
from .effects import discount_of, push_effects
from .geometry import CELLS, DIAGONALS, WORKSHOP_CELLS
from .state import NO, ResafaData, S
from .steps import Step

C = content()
FREE_SHIFT = 64  # PRODUCE task a = normal * 64 + free


def face_of(d: ResafaData, seat: int, cell: int):
    t = C.workshops[d.ws_tile[seat * CELLS + cell]]
    return t.back if d.ws_face[seat * CELLS + cell] else t.front


def free_cells(d: ResafaData, seat: int) -> list[int]:
    """Empty workshop cells touching one of the seat's workshops corner to corner."""
    base = seat * CELLS
    tiles = d.ws_tile
    return [c for c in WORKSHOP_CELLS if tiles[base + c] == NO and any(tiles[base + x] != NO for x in DIAGONALS[c])]


def level2_open(d: ResafaData, seat: int) -> bool:
    """Seed: level II from round 3 and with 2 merchant tokens at the gate."""
    return d.round_no >= S.level2_round and d.gate[seat] >= S.level2_tokens


def has_free_cell(d: ResafaData, seat: int) -> bool:
    """Whether :func:`free_cells` has one (it stops at the first)."""
    base = seat * CELLS
    tiles = d.ws_tile[base : base + CELLS]
    for c in WORKSHOP_CELLS:
        if tiles[c] == NO:
            for x in DIAGONALS[c]:
                if tiles[x] != NO:
                    return True
    return False


def legal_ws_pick(d: ResafaData, seat: int, a: int, code: int) -> list[int]:
    if not has_free_cell(d, seat):
        return []
    if not can_pay(d, seat, build_cost(d, seat, S.workshop_cost, "workshop", discount_of(code))):
        return []
    n1 = S.workshop_display[0]
    out = [WS0 + i for i in range(n1) if d.ws_display[i] != NO]
    if level2_open(d, seat):
        out += [WS0 + i for i in range(n1, len(d.ws_display)) if d.ws_display[i] != NO]
    return out


def pick_possible(d: ResafaData, seat: int, code: int) -> bool:
    """Whether :func:`legal_ws_pick` has an action (it stops at the first)."""
    if not has_free_cell(d, seat):
        return False
    if not can_pay(d, seat, build_cost(d, seat, S.workshop_cost, "workshop", discount_of(code))):
        return False
    n1, shown = S.workshop_display[0], d.ws_display
    if shown[:n1].count(NO) < n1:
        return True
    return level2_open(d, seat) and shown[n1:].count(NO) < len(shown) - n1


def apply_ws_pick(d: ResafaData, action: int, seat: int, a: int, code: int) -> None:
    slot = action - WS0
    pay(d, seat, build_cost(d, seat, S.workshop_cost, "workshop", discount_of(code)))
    tile = d.ws_display[slot]
    level = 0 if slot < S.workshop_display[0] else 1
    d.ws_display[slot] = d.ws_decks[level].pop() if d.ws_decks[level] else NO  # refilled at once
    d.stack.append((Step.WS_FACE, seat, tile, 0))


def legal_ws_face(d: ResafaData, seat: int, tile: int, b: int) -> list[int]:
    return [FACE0, FACE0 + 1]


def apply_ws_face(d: ResafaData, action: int, seat: int, tile: int, b: int) -> None:
    d.stack.append((Step.WS_CELL, seat, tile, action - FACE0))


def legal_ws_cell(d: ResafaData, seat: int, tile: int, face: int) -> list[int]:
    return [CELL0 + c for c in free_cells(d, seat)]


def apply_ws_cell(d: ResafaData, action: int, seat: int, tile: int, face: int) -> None:
    cell = action - CELL0
    i = seat * CELLS + cell
    d.ws_tile[i] = tile
    d.ws_face[i] = face
    d.ws_rot[i] = 0
    t = C.workshops[tile]
    f = t.back if face else t.front
    for then in triggered(d, seat, "workshop"):
        push_effects(d, seat, then)
    if f.immediate and not face:  # level II front: the room's benefit is taken at once too
        for room in f.rooms:
            push_effects(d, seat, room.effects)
    if f.greens:
        d.stack.append((Step.WS_ROT, seat, cell, 0))


def legal_ws_rot(d: ResafaData, seat: int, cell: int, b: int) -> list[int]:
    return [ROT0 + r for r in range(4)]


def apply_ws_rot(d: ResafaData, action: int, seat: int, cell: int, b: int) -> None:
    d.ws_rot[seat * CELLS + cell] = action - ROT0


# --- production -----------------------------------------------------------------------------------------------
def workshops_of(d: ResafaData, seat: int) -> list[int]:
    base = seat * CELLS
    return [c for c in WORKSHOP_CELLS if d.ws_tile[base + c] != NO]


def production_possible(d: ResafaData, seat: int) -> bool:
    return bool(workshops_of(d, seat))


def start_production(d: ResafaData, seat: int) -> None:
    normal = 2 + sum(face_of(d, seat, c).extra_production for c in workshops_of(d, seat))
    d.stack.append((Step.PRODUCE, seat, normal * FREE_SHIFT, 0))
    for then in triggered(d, seat, "production"):
        push_effects(d, seat, then)


def legal_produce(d: ResafaData, seat: int, a: int, used: int) -> list[int]:
    normal, free = divmod(a, FREE_SHIFT)
    if not normal and not free:
        return []
    out = []
    for c in workshops_of(d, seat):
        if free or not (used >> c) & 1:
            out += [ROOM0 + 2 * c + r for r in range(len(face_of(d, seat, c).rooms))]
    return [*out, PASS] if out else []


def first_room(d: ResafaData, seat: int, a: int, used: int) -> list[int]:
    """The first of :func:`legal_produce`'s actions, or none (without listing the rest)."""
    normal, free = divmod(a, FREE_SHIFT)
    if normal or free:
        for c in workshops_of(d, seat):
            if (free or not (used >> c) & 1) and face_of(d, seat, c).rooms:
                return [ROOM0 + 2 * c]
    return []


def apply_produce(d: ResafaData, action: int, seat: int, a: int, used: int) -> None:
    if action == PASS:
        return
    normal, free = divmod(a, FREE_SHIFT)
    cell, room = divmod(action - ROOM0, 2)
    if normal and not (used >> cell) & 1:
        normal -= 1
        used |= 1 << cell
    else:
        free -= 1
    d.stack.append((Step.PRODUCE, seat, normal * FREE_SHIFT + free, used))
    push_effects(d, seat, face_of(d, seat, cell).rooms[room].effects)


def level_of_tile(tile: int) -> int:
    return int(C.workshops[tile].level)


__all__ = ["Level"]
