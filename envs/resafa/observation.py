"""Observation vectors: what one player may know, seats relative to the viewer ("mine" first), in [0, 1].

Hidden and never shown: deck orders (action, workshop, bonus, sack, special decks), the other seats' action
hands (only which of their unplayed cards are left, as a set), the other seats' sack cards (only how many),
the face-down special cards (only the searcher sees them, while choosing), the special cards returned to the
box (unless the advanced setup variant is played: then they are public). The layout is fixed per player
count (:func:`layout`); always 4 seat blocks, empty for absent seats.
"""

from __future__ import annotations

from collections.abc import Callable
from math import inf
from typing import Any

import numpy as np

from ..core.layout import build_layout
from . import solo
from .actions import NUM_BOXES
from .content import content
from .geometry import CELLS, network, source_boxes
from .state import CATEGORIES, NO, NUM_ITEMS, POSTS_PER_CENTRE, YELLOW0, ResafaData
from .steps import NUM_DECISIONS, Step
from .tracks import face_down

C = content()
MAX_SEATS = 4
NUM_CARDS = YELLOW0 + len(C.specials)  # action card ids
NUM_SPEC = len(C.specials)
NUM_WS = len(C.workshops)
NUM_NODES = len(C.centres)
NUM_BONUS = len(C.bonus_cards)
NUM_SACK = len(C.sack_cards)
NUM_CB = len(C.canal_bonus_tiles)
NUM_TT = len(C.trading_tiles)
NUM_DESIGNS = len(C.canal_tiles)
SUPPLY_SIZE = NUM_ITEMS + 2 + 2 + 2 + 8 + 1 + 12  # items, gardens, tokens, workshop/bonus/sack/special decks
MAX_SOURCES = max(len(s.network.sources) for s in C.board_sides)

SEAT_SECTIONS = [
    ("scalars", 16),  # coins, vp, store x4, camel item x4, load, capacity step, hand, deck, unplayed, sacks
    ("camel_at", NUM_NODES),
    ("track", 4 * 11),
    ("played", NUM_CARDS),
    ("unplayed", NUM_CARDS),  # hand + deck as a set (public: the set minus the played cards)
    ("bonus_hand", NUM_BONUS),
    ("specials", 2 * NUM_SPEC),  # owned, used
    ("ws", CELLS * (NUM_WS + 5)),  # tile one-hot, back, rotation x4
    ("garden", CELLS * 5),  # orientation x2, strips x3
    ("tokens", 2 + 3 * 3 + 1),  # gate x2 (thermometer), rows 3x3, scarabs
    ("canal_placed", NUM_DESIGNS),
    ("counts", 3),  # gardens done, cubes taken, posts
]
SEAT_SLICES, SEAT_SIZE = build_layout(SEAT_SECTIONS)
_SECTIONS = [
    ("pending", NUM_DECISIONS),
    ("to_act", 1),
    ("players", 3),
    ("round", 7),
    ("first", MAX_SEATS),
    ("active", MAX_SEATS),
    ("task_colour", 5),
    ("task_deck", 12),
    ("task_cell", CELLS),
    ("task_box", NUM_BOXES),
    ("task_item", NUM_ITEMS),
    ("task_kind", 3),
    ("task_counts", 3),
    ("task_tile", NUM_WS),
    ("search", NUM_SPEC),  # the face-down cards the viewer is choosing among
    ("card", NUM_CARDS),
    ("half", 2),
    ("main", 6),
    ("colour", 4),
    ("my_hand", NUM_CARDS),
    ("my_deck", NUM_CARDS),
    ("my_sacks", NUM_SACK),
    ("seats", MAX_SEATS * SEAT_SIZE),
    ("supply", SUPPLY_SIZE),
    ("bonus_display", 12 * NUM_BONUS),
    ("ws_display", 6 * NUM_WS),
    ("spec_up", NUM_SPEC),
    ("spec_decks", 12 * 2),
    ("spec_box", NUM_SPEC),  # the special cards returned to the box: public only with the advanced setup
    ("canal", NUM_BOXES * (MAX_SEATS + NUM_DESIGNS + 1 + NUM_CB)),
    ("cubes", MAX_SOURCES * 3),
    ("cb_owner", NUM_CB * (MAX_SEATS + 1)),
    ("trade", NUM_NODES * (NUM_TT + 1)),
    ("posts", NUM_NODES * POSTS_PER_CENTRE * MAX_SEATS),
    ("sheet", MAX_SEATS * len(CATEGORIES)),
    ("solo", solo.OBS_SIZE),  # solo: Resafabot's public pieces (solo.observe); empty with 2-4 players
]
LAYOUT, OBS_SIZE = build_layout(_SECTIONS)
STATE_EXTRA = 2 * NUM_WS + 8 * NUM_BONUS + NUM_SACK + 12 * NUM_SPEC + MAX_SEATS * 2 * NUM_CARDS + MAX_SEATS * NUM_SACK
STATE_EXTRA += solo.HIDDEN_SIZE
STATE_SIZE = OBS_SIZE + STATE_EXTRA
_AT = {name: sl.start for name, sl in LAYOUT.items()}
_BOX_W = MAX_SEATS + NUM_DESIGNS + 1 + NUM_CB
_S = {name: sl.start for name, sl in SEAT_SLICES.items()}
_SC, _CAMEL, _TRACK = _S["scalars"], _S["camel_at"], _S["track"]
_PLAYED, _UNPLAYED, _BHAND, _SPECS = _S["played"], _S["unplayed"], _S["bonus_hand"], _S["specials"]
_WS, _GARDEN, _TOKENS, _CPLACED, _COUNTS = _S["ws"], _S["garden"], _S["tokens"], _S["canal_placed"], _S["counts"]
_WS_W = NUM_WS + 5
_STRIP_BITS = tuple(tuple(k for k in range(3) if (m >> k) & 1) for m in range(8))
_PENDING, _TO_ACT, _PLAYERS, _ROUND, _FIRST, _ACTIVE = (
    _AT[k] for k in ("pending", "to_act", "players", "round", "first", "active")
)
_CARD, _HALF, _MAIN, _COLOUR = (_AT[k] for k in ("card", "half", "main", "colour"))
_MY_HAND, _MY_DECK, _MY_SACKS = (_AT[k] for k in ("my_hand", "my_deck", "my_sacks"))
_SPEC_UP, _SPEC_DECKS, _SPEC_BOX = (_AT[k] for k in ("spec_up", "spec_decks", "spec_box"))
_TASK_CELL_A = {Step.WS_ROT}
_TASK_CELL_B = {Step.GARDEN_POS}
_TASK_COLOUR = {Step.COLOUR_OPT, Step.BONUS_PICK, Step.STEP}
_TASK_DECK = {Step.SPECIAL, Step.SEARCH_PICK}

#: the scaled values of the seat blocks, in the order :func:`observe` lists them (field by field, each for
#: every seat): (values per seat, offset in the seat block, divisor, cap)
_SEAT_VALUES = (
    (1, _SC, 30.0, 1.0),  # coins
    (1, _SC + 1, 200.0, 1.0),  # VP
    (NUM_ITEMS, _SC + 2, 10.0, 1.0),  # storehouse
    (1, _SC + 10, 6.0, inf),  # camel load
    (1, _SC + 11, 4.0, inf),  # camel capacity step
    (1, _SC + 12, 3.0, inf),  # action cards in hand
    (1, _SC + 13, 6.0, inf),  # in the deck
    (1, _SC + 14, 6.0, inf),  # unplayed (hand + deck)
    (1, _SC + 15, 5.0, 1.0),  # sack cards
    (1, _TOKENS + 11, 5.0, 1.0),  # scarabs placed
    (1, _COUNTS, 6.0, 1.0),  # gardens completed
    (1, _COUNTS + 1, 9.0, 1.0),  # water cubes taken
    (1, _COUNTS + 2, 9.0, inf),  # trading posts
)
#: then the supply section: items, garden tiles (small, large), merchant tokens (square, scarab), workshop
#: decks (I, II), the 8 bonus decks, the sack deck, the 12 special decks
_SUPPLY_DIVISORS = (22.0,) * NUM_ITEMS + (22.0, 17.0, 21.0, 20.0, 12.0, 14.0) + (9.0,) * 8
_SUPPLY_DIVISORS += (float(max(1, NUM_SACK)),) + (4.0,) * 12
assert len(_SUPPLY_DIVISORS) == SUPPLY_SIZE


class _Memo:
    """``build(key, *lists)`` remembered for the last few distinct inputs. Inputs are compared by value (the
    flat int lists are copied when remembered, so any later change is a miss), which costs far less than
    rebuilding the part: for the parts of the table that change rarely."""

    __slots__ = ("build", "entries", "size")

    def __init__(self, build: Callable[..., np.ndarray], size: int = 8) -> None:
        self.build, self.size = build, size
        self.entries: list[tuple[Any, list[list[int]], np.ndarray]] = []

    def __call__(self, key: Any, lists: list[list[int]]) -> np.ndarray:
        entries = self.entries
        for i, (k, seen, result) in enumerate(entries):
            if k == key and seen == lists:
                if i:
                    entries.insert(0, entries.pop(i))
                return result
        result = self.build(key, *lists)
        result.flags.writeable = False
        entries.insert(0, (key, [x.copy() for x in lists], result))
        del entries[self.size :]
        return result


class _View:
    """Index tables of one viewer ``me`` at a table of ``n``: the relative position and block start of each
    absolute seat, and where the scaled values go (``slots``)."""

    __slots__ = ("base", "pos", "slots")

    def __init__(self, n: int, me: int) -> None:
        self.pos = tuple((s - me) % n for s in range(n))  # relative position of each seat ("mine" first)
        self.base = tuple(_AT["seats"] + p * SEAT_SIZE for p in self.pos)
        if n == 1:  # solo: Resafabot's canal tiles, posts and bonus tiles show as the next seat's
            self.pos += (1,)  # (solo.BOT == 1)
        slots: list[int] = []
        for width, offset, _, _ in _SEAT_VALUES:
            slots += [b + offset + k for b in self.base for k in range(width)]
        slots += range(_AT["supply"], _AT["supply"] + SUPPLY_SIZE)
        self.slots = np.array(slots, np.intp)


_VIEWS = {(n, me): _View(n, me) for n in range(1, MAX_SEATS + 1) for me in range(n)}


def observe(d: ResafaData, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Write ``me``'s observation into ``out`` (or a new array) and return it.

    Three scatters: the one-hot entries that change turn by turn, the scaled values, and the one-hot entries
    of the parts of the table that change rarely (:func:`_table`, from memoized parts)."""
    if out is None:
        o = np.zeros(OBS_SIZE, np.float32)
    else:
        o = out
        o.fill(0.0)
    n = d.players
    key = (n, me)
    view = _VIEWS[key]
    pos = view.pos
    ones = [_ROUND + min(d.round_no, 7) - 1, _FIRST + pos[d.first], _ACTIVE + pos[d.active]]
    solo_values: dict[int, float] = {}
    if n > 1:
        ones.append(_PLAYERS + n - 2)
    else:  # solo: no one-hot for the player count (the solo section says it)
        solo.observe(d, ones, solo_values, _AT["solo"])
    if d.stack:
        step, seat, a, b = d.stack[-1]
        ones.append(_PENDING + step)
        if seat == me:
            ones.append(_TO_ACT)
        _task(d, o, ones, step, seat, a, b, me)
    if d.card != NO:
        ones.append(_CARD + d.card)
    if d.half != NO:
        ones.append(_HALF + d.half)
    if d.main != NO:
        ones.append(_MAIN + d.main)
    if d.colour != NO:
        ones.append(_COLOUR + d.colour)
    hand, deck = d.hand, d.deck
    ones += [_MY_HAND + c for c in hand[me]]
    ones += [_MY_DECK + c for c in deck[me]]
    ones += [_MY_SACKS + c for c in d.sack_hand[me]]
    track, camel_at, camel_item, played, bonus_hand = d.track, d.camel_at, d.camel_item, d.played, d.bonus_hand
    for s, b in enumerate(view.base):
        t, tr = b + _TRACK, s * 4
        ones += (b + _CAMEL + camel_at[s], t + track[tr], t + 11 + track[tr + 1])
        ones += (t + 22 + track[tr + 2], t + 33 + track[tr + 3])
        if camel_item[s] != NO:
            ones.append(b + _SC + 6 + camel_item[s])
        ones += [b + _PLAYED + c for c in played[s]]
        ones += [b + _UNPLAYED + c for c in hand[s]]
        ones += [b + _UNPLAYED + c for c in deck[s]]
        ones += [b + _BHAND + c for c in bonus_hand[s]]
    o.put(ones, 1.0)
    counts = [
        *d.coins, *d.vp, *d.store, *d.camel_load, *d.camel_step, *map(len, hand), *map(len, deck),
        *[len(h) + len(k) for h, k in zip(hand, deck, strict=True)], *map(len, d.sack_hand), *d.scarabs,
        *d.gardens_done, *d.cubes_taken, *map(d.post_owner.count, range(n)),
        *d.supply, *d.g_supply, *d.tokens, *map(len, d.ws_decks), *map(len, d.bonus_decks), len(d.sack_deck),
        *map(len, d.spec_decks),
    ]  # fmt: skip
    o[view.slots] = _VALUES(n, [counts])
    o.put(_table(d, key), 1.0)
    if d.sheet:
        k = len(CATEGORIES)
        at = _AT["sheet"]
        for j in range(n):
            s = (me + j) % n
            o[at + j * k : at + j * k + k] = [min(x / 200.0, 1.0) for x in d.sheet[s * k : s * k + k]]
    if solo_values:
        o[list(solo_values)] = list(solo_values.values())
    return o


def _scales(n: int) -> tuple[np.ndarray, np.ndarray]:
    divisors: list[float] = []
    caps: list[float] = []
    for width, _, divisor, cap in _SEAT_VALUES:
        divisors += [divisor] * (n * width)
        caps += [cap] * (n * width)
    return np.array(divisors + list(_SUPPLY_DIVISORS)), np.array(caps + [inf] * SUPPLY_SIZE)


_SCALES = {n: _scales(n) for n in range(1, MAX_SEATS + 1)}


def _values(n: int, counts: list[int]) -> np.ndarray:
    """The scaled values: ``counts`` (as :func:`observe` lists them) over their divisors, capped."""
    divisors, caps = _SCALES[n]
    return np.minimum(np.array(counts, np.float64) / divisors, caps).astype(np.float32)


_VALUES = _Memo(_values, size=2)  # the values change often: only the last two are worth a look


def _table(d: ResafaData, key: tuple[int, int]) -> np.ndarray:
    """The one-hot entries of the parts of the table that change rarely: player areas, canals, trade and
    tokens, cards on offer and held. Remembered whole (most positions change none of them) and by part."""
    lists = [
        *(d.ws_tile, d.ws_face, d.ws_rot, d.g_orient, d.g_strips),
        *(d.canal_owner, d.canal_design, d.canal_side, d.cbonus_at, d.cubes, d.cbonus_owner, d.cbonus_used),
        *(d.trade_tile, d.trade_side, d.post_owner, d.gate, d.rows, d.canal_placed),
        *(d.bonus_display, d.ws_display, d.spec_owner, d.spec_used, d.spec_up),
        *d.spec_decks,
        *(d.spec_box if d.advanced else ()),
    ]
    return _TABLE((key, d.advanced), lists)


def _joined(key: tuple[tuple[int, int], int], *lists: list[int]) -> np.ndarray:
    view = key[0]
    return np.concatenate(
        (
            _AREAS(view, list(lists[:5])),
            _CANALS(view, list(lists[5:12])),
            _TRADE(view, list(lists[12:18])),
            _CARDS(key, list(lists[18:])),
        )
    )


def _areas(key: tuple[int, int], tile, face, rot, orient, strips) -> np.ndarray:
    """The workshops and gardens of every player area."""
    ones: list[int] = []
    for s, base in enumerate(_VIEWS[key].base):
        off = s * CELLS
        wb, gb = base + _WS, base + _GARDEN
        for c in range(CELLS):
            t = tile[off + c]
            if t != NO:
                cb = wb + c * _WS_W
                ones += (cb + t, cb + NUM_WS + 1 + rot[off + c])
                if face[off + c]:
                    ones.append(cb + NUM_WS)
            g = orient[off + c]
            if g != NO:
                ones.append(gb + c * 5 + g)
                ones += [gb + c * 5 + 2 + k for k in _STRIP_BITS[strips[off + c]]]
    return np.array(ones, np.intp)


def _canals(key: tuple[int, int], owner, design, side, cbonus_at, cubes, cbonus_owner, cbonus_used) -> np.ndarray:
    """The canal network: tiles, bonus tiles, water cubes, who holds the bonus tiles."""
    pos = _VIEWS[key].pos
    ones: list[int] = []
    cb0 = _AT["canal"]
    for box, who in enumerate(owner):
        if who != NO:
            at = cb0 + box * _BOX_W
            ones += (at + pos[who], at + MAX_SEATS + design[box])
            if side[box]:
                ones.append(at + MAX_SEATS + NUM_DESIGNS)
    ones += [cb0 + box * _BOX_W + MAX_SEATS + NUM_DESIGNS + 1 + t for box, t in enumerate(cbonus_at) if t != NO]
    ones += [_AT["cubes"] + 3 * k + c for k, c in enumerate(cubes)]
    for t, who in enumerate(cbonus_owner):
        if who != NO:
            ones.append(_AT["cb_owner"] + t * (MAX_SEATS + 1) + pos[who])
            if cbonus_used[t]:
                ones.append(_AT["cb_owner"] + t * (MAX_SEATS + 1) + MAX_SEATS)
    return np.array(ones, np.intp)


def _trade(key: tuple[int, int], trade_tile, trade_side, posts, gate, rows, canal_placed) -> np.ndarray:
    """The trade map (tiles, sides, trading posts) and each seat's merchant tokens and canal tiles placed."""
    view = _VIEWS[key]
    pos = view.pos
    ones: list[int] = []
    for node, tile in enumerate(trade_tile):
        if tile != NO:
            ones.append(_AT["trade"] + node * (NUM_TT + 1) + tile)
            if trade_side[node]:
                ones.append(_AT["trade"] + node * (NUM_TT + 1) + NUM_TT)
    ones += [_AT["posts"] + i * MAX_SEATS + pos[s] for i, s in enumerate(posts) if s != NO]
    for s, b in enumerate(view.base):
        tb = b + _TOKENS
        ones += [tb + k for k in range(gate[s])]
        ones += [tb + 2 + 3 * row + k for row in range(3) for k in range(rows[s * 3 + row])]
        ones += [b + _CPLACED + t for t in range(NUM_DESIGNS) if canal_placed[s * NUM_DESIGNS + t]]
    return np.array(ones, np.intp)


def _cards(key: tuple[tuple[int, int], int], bonus_display, ws_display, spec_owner, spec_used, spec_up, *decks):
    """The bonus card and workshop displays, the special decks (face-up cards, which decks have cards), the
    special cards each seat holds, and (advanced setup only) the special cards returned to the box.
    ``decks``: the 12 special decks, then (advanced setup only) the 12 boxes."""
    view, advanced = _VIEWS[key[0]], key[1]
    base = view.base
    ones = [_AT["bonus_display"] + i * NUM_BONUS + c for i, c in enumerate(bonus_display) if c != NO]
    ones += [_AT["ws_display"] + i * NUM_WS + t for i, t in enumerate(ws_display) if t != NO]
    for k, cards in enumerate(decks[:12]):
        up = spec_up[k]
        if up and cards:
            ones += (_SPEC_UP + cards[-1], _SPEC_DECKS + 2 * k)
        if len(cards) > up:
            ones.append(_SPEC_DECKS + 2 * k + 1)
    if advanced:
        ones += [_SPEC_BOX + c for box in decks[12:] for c in box]
    for i, s in enumerate(spec_owner):
        if s != NO and s < len(base):  # solo: the cards Resafabot removed are in the solo section
            ones.append(base[s] + _SPECS + 2 * i)
            if spec_used[i]:
                ones.append(base[s] + _SPECS + 2 * i + 1)
    return np.array(ones, np.intp)


_AREAS, _CANALS, _TRADE, _CARDS = _Memo(_areas), _Memo(_canals), _Memo(_trade), _Memo(_cards)
_TABLE = _Memo(_joined)


def _task(d: ResafaData, o: np.ndarray, ones: list[int], step: int, seat: int, a: int, b: int, me: int) -> None:
    """The pending decision's arguments (all public, except a search's candidates: the searcher's only)."""
    if step in _TASK_COLOUR:
        ones.append(_AT["task_colour"] + (a if a != NO else 4))
    elif step in _TASK_DECK:
        ones.append(_AT["task_deck"] + a)
        if step == Step.SEARCH_PICK and seat == me:
            ones += [_AT["search"] + c for c in face_down(d, a)]
    elif step in _TASK_CELL_A:
        ones.append(_AT["task_cell"] + a)
    elif step in _TASK_CELL_B:
        ones.append(_AT["task_cell"] + b)
    elif step in (Step.FLOW, Step.FLOW_RUN):
        ones.append(_AT["task_box"] + a)
    elif step == Step.LOAD_COUNT:
        ones.append(_AT["task_item"] + a)
    elif step in (Step.DEAL_COUNT, Step.MERCHANT_ROW) or step in (Step.GARDEN_SQUARE, Step.GARDEN_POS):
        ones.append(_AT["task_kind"] + a)
    elif step in (Step.WS_FACE, Step.WS_CELL):
        ones.append(_AT["task_tile"] + a)
        if step == Step.WS_CELL:
            ones.append(_AT["task_kind"] + 2 * b)
    if step == Step.PRODUCE:
        normal, free = divmod(a, 64)
        o[_AT["task_counts"]] = min(normal / 8.0, 1.0)
        o[_AT["task_counts"] + 1] = min(free / 8.0, 1.0)
    elif step == Step.CONVERT:
        o[_AT["task_counts"] + 2] = min(b / 8.0, 1.0)


def state_vector(d: ResafaData, out: np.ndarray | None = None) -> np.ndarray:
    """Seat 0's observation plus every hidden order: decks, hands and sack cards of all seats."""
    o = np.zeros(STATE_SIZE, np.float32) if out is None else out
    observe(d, 0, o[:OBS_SIZE])
    o[OBS_SIZE:] = 0.0
    at = OBS_SIZE
    ones: list[int] = []
    for k in range(2):
        if d.ws_decks[k]:
            ones.append(at + k * NUM_WS + d.ws_decks[k][-1])
    at += 2 * NUM_WS
    for k in range(8):
        if d.bonus_decks[k]:
            ones.append(at + k * NUM_BONUS + d.bonus_decks[k][-1])
    at += 8 * NUM_BONUS
    if d.sack_deck:
        ones.append(at + d.sack_deck[-1])
    at += NUM_SACK
    for k in range(12):
        ones += [at + k * NUM_SPEC + c for c in d.spec_decks[k]]
    at += 12 * NUM_SPEC
    for s in range(d.players):
        ones += [at + s * 2 * NUM_CARDS + c for c in d.hand[s]]
        if d.deck[s]:
            ones.append(at + s * 2 * NUM_CARDS + NUM_CARDS + d.deck[s][-1])
    at += MAX_SEATS * 2 * NUM_CARDS
    for s in range(d.players):
        ones += [at + s * NUM_SACK + c for c in d.sack_hand[s]]
    at += MAX_SEATS * NUM_SACK
    if d.players == 1:
        solo.hidden_vector(d, ones, at)
    o[ones] = 1.0
    return o


__all__ = ["network", "source_boxes"]
