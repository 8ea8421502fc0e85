"""Observation vectors: what one player may know, from their seat ("mine" first), in [0, 1].

Seats are relative: slot ``r`` is the seat ``r`` places clockwise from the viewer (slot 0 is the viewer),
padded to 6. Public: who is alive, every face-up item and its owner and uses this round, the crafting
field, escape points, hand *sizes*, the public Resource Discard Pile, deck sizes, the pending decision and
its arguments (attacking item, target, joiners, the blow under answer, trade terms, votes). Private: the viewer's
own hand and what the viewer knows about other hands (lower bounds from steals, trades, loot; upper bounds on
hidden items from when cards could have entered each hand). Nothing
reveals another hand, the deck order, or a card stolen between two other players.
:func:`state_vector` appends every hand and the top card of the Resource Deck for centralised critics.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.layout import build_layout
from .actions import MAX_PLAYERS
from .content import (
    CARD_TYPE,
    CARD_TYPE_INDEX,
    KIND_COUNTS,
    NUM_HIDDEN,
    NUM_ITEM_CARDS,
    NUM_ITEM_TYPES,
    NUM_KINDS,
    NUM_RES,
    RULES,
)
from .elimination import next_loot
from .resources import hand_limit
from .state import NO, STEAL, RoyaleData
from .steps import NUM_DECISIONS, Step

K = NUM_KINDS
SEAT_FLAGS = 10  # alive, active, first player, to decide now, target, vote yes, vote no, trading, joined, looter
NUM_SCALARS = 3 * MAX_PLAYERS + K + K + 3 + 3 + 2 * K + 3
_SECTIONS = [
    ("pending", NUM_DECISIONS),
    ("to_act", 1),
    ("my_turn", 1),
    ("preparation_round", 1),
    ("turn_over", 1),
    ("seat_flags", MAX_PLAYERS * SEAT_FLAGS),
    # per seat: hand size, escape points, rank if out; my hand by kind; discard pile by kind;
    # resource deck, item deck, item discard sizes; round, decisions this turn (over the safety bound), my hand limit;
    # offer give and ask by card kind; task count, counter-blow strength, counter offers
    ("scalars", NUM_SCALARS),
    ("known", MAX_PLAYERS * K),
    ("could_hide", MAX_PLAYERS),  # per seat: at most this many hidden items in its hand, as I can tell
    ("item_owner", NUM_ITEM_CARDS * MAX_PLAYERS),
    ("item_used", NUM_ITEM_CARDS),
    ("field", 4 * NUM_ITEM_TYPES),
    ("item_discard", NUM_ITEM_TYPES),
    ("task_item", NUM_ITEM_TYPES + 1),  # the item of the pending attack / use; last: a steal
    ("blow", 3),  # the blow under answer: avoided, the attack's blows, an ambush's counter-blow
    ("offer_give_item", NUM_ITEM_CARDS),
    ("offer_ask_item", NUM_ITEM_CARDS),
    ("loot", NUM_ITEM_TYPES + NUM_HIDDEN),  # loot waiting for a taker, by item type and hidden kind
    ("loot_next", NUM_ITEM_TYPES + NUM_HIDDEN),  # the loot card being dealt (or made room for)
    ("winner", MAX_PLAYERS),
    ("win_kind", 4),
]
LAYOUT, OBS_SIZE = build_layout(_SECTIONS)
STATE_EXTRA = MAX_PLAYERS * K + K
STATE_SIZE = OBS_SIZE + STATE_EXTRA

_AT = {name: sl.start for name, sl in LAYOUT.items()}
_PENDING, _TO_ACT, _MY_TURN, _PREP, _TURN_OVER = (
    _AT["pending"],
    _AT["to_act"],
    _AT["my_turn"],
    _AT["preparation_round"],
    _AT["turn_over"],
)
_SEAT, _SCALARS, _KNOWN = _AT["seat_flags"], _AT["scalars"], _AT["known"]
_HIDE = _AT["could_hide"]
_OWNER, _USED, _FIELD, _IDISC = _AT["item_owner"], _AT["item_used"], _AT["field"], _AT["item_discard"]
_TASK_ITEM, _ANSWER, _GIVE_ITEM, _ASK_ITEM = (
    _AT["task_item"],
    _AT["blow"],
    _AT["offer_give_item"],
    _AT["offer_ask_item"],
)
_WINNER, _WIN_KIND = _AT["winner"], _AT["win_kind"]
#: the entry counting this turn's decisions (the engine's safety bound): the game's ``observation_clock``; in
#: "scalars" it follows three per-seat figures, two per-kind counts, three pile sizes and the round
TURN_CLOCK = _SCALARS + 3 * MAX_PLAYERS + 2 * K + 3 + 1
_LOOT, _LOOT_NEXT = _AT["loot"], _AT["loot_next"]
_ITEM_STEPS = (Step.TARGET, Step.SALVAGE_KIND, Step.JOIN, Step.DEFEND)
_TARGET_B = (Step.JOIN,)
_TYPE = CARD_TYPE_INDEX
_POINTS = tuple(t.escape_points for t in CARD_TYPE)
_COPIES = [0] * NUM_ITEM_TYPES
for _t in CARD_TYPE_INDEX:
    _COPIES[_t] += 1
#: ``rel`` of every table size and viewer: the slot of each seat, counted clockwise from the viewer
_REL = {n: tuple(tuple((s - me) % n for s in range(n)) for me in range(n)) for n in range(1, MAX_PLAYERS + 1)}
_MOST = sum(KIND_COUNTS) + sum(_POINTS)  # above any count the observation scales (cards, escape points)
#: ``min(x / y, 1.0)`` for every count ``x`` that can occur: the scaled counts, read instead of computed
_BY10, _BY24, _BY30 = ([min(x / y, 1.0) for x in range(_MOST + 1)] for y in (10.0, 24.0, 30.0))
_HAND_DISCARD = int(Step.HAND_DISCARD)


def observe(d: RoyaleData, me: int, out: np.ndarray | None = None) -> np.ndarray:
    """Write ``me``'s observation into ``out`` (or a new array) and return it: the scaled counts are read from
    tables and the face-up items found by seat (``tests/board_royale/royale_reference.py`` keeps the plain
    first version, which the tests compare with this one byte for byte)."""
    o = np.zeros(OBS_SIZE, np.float32) if out is None else out
    if out is not None:
        o.fill(0.0)
    n = d.n
    rel = _REL[n][me]
    ones = _pending_ones(d, me, rel)
    task_count = d.stack[-1][2] if d.stack and d.stack[-1][0] == _HAND_DISCARD else 0
    if d.active == me:
        ones.append(_MY_TURN)
    if d.round_no == 0:
        ones.append(_PREP)
    if d.turn_over:
        ones.append(_TURN_OVER)
    sizes, out_rank = _seat_ones(d, rel, ones)
    owned, points = _face_up_items(tuple(d.item_owner), tuple(d.item_used), rel)
    ones += owned
    ones += _field_ones(tuple(d.field))
    if d.blow_on != NO:
        ones.append(_ANSWER + d.blow_kind)
    for c in d.offer_give_items:
        ones.append(_GIVE_ITEM + c)
    for c in d.offer_ask_items:
        ones.append(_ASK_ITEM + c)
    if d.winner != NO:
        ones.append(_WINNER + rel[d.winner])
        ones.append(_WIN_KIND + d.win_kind)
    o.put(ones, 1.0)
    mb = me * K
    o[_SCALARS : _SCALARS + NUM_SCALARS] = [
        *sizes,
        *points,
        *out_rank,
        *map(_BY24.__getitem__, d.hand[mb : mb + K]),
        *map(_BY30.__getitem__, d.res_discard),
        len(d.res_deck) / 149.0,
        len(d.item_deck) / NUM_ITEM_CARDS,
        len(d.item_discard) / NUM_ITEM_CARDS,
        min(d.round_no / 50.0, 1.0),
        min(d.turn_decisions / RULES.max_decisions_per_turn, 1.0),
        hand_limit(d, me) / 24.0,
        *map(_BY10.__getitem__, d.offer_give),
        *map(_BY10.__getitem__, d.offer_ask),
        min(task_count / 5.0, 1.0),
        d.blow_n / 6.0,
        d.counters / RULES.max_counter_offers,
    ]
    _write_knowledge(d, me, rel, o)
    if d.loot_items or d.item_discard or any(d.loot_hidden):
        _write_piles(d, o)
    return o


def _pending_ones(d: RoyaleData, me: int, rel: tuple[int, ...]) -> list[int]:
    """The entries set to 1 by the pending decision: its step, seats, item and loot card."""
    if not d.stack:
        return []
    step, seat, a, b = d.stack[-1]
    ones = [_PENDING + step, _SEAT + SEAT_FLAGS * rel[seat] + 3]
    if seat == me:
        ones.append(_TO_ACT)
    if step == Step.JOIN:
        ones.append(_SEAT + SEAT_FLAGS * rel[b] + 4)
    elif step == Step.DEFEND:
        ones.append(_SEAT + SEAT_FLAGS * rel[seat] + 4)
    if step in _ITEM_STEPS:
        ones.append(_TASK_ITEM + (NUM_ITEM_TYPES if a == STEAL else _TYPE[a]))
    if step == Step.LOOT_SPLIT:
        card = next_loot(d)
        ones.append(_LOOT_NEXT + (_TYPE[card] if card >= 0 else NUM_ITEM_TYPES + (-1 - card) - NUM_RES))
    elif step == Step.LOOT_ROOM:
        ones.append(_LOOT_NEXT + NUM_ITEM_TYPES + a - NUM_RES)
    return ones


def _seat_ones(d: RoyaleData, rel: tuple[int, ...], ones: list[int]) -> tuple[list[float], list[float]]:
    """Append the seat flags to ``ones``; return the hand sizes and ranks by slot."""
    alive, yes, no, looters, hand = d.alive, d.vote_yes, d.vote_no, d.loot_takers, d.hand
    sizes = [0.0] * MAX_PLAYERS
    out_rank = [0.0] * MAX_PLAYERS
    for s in range(d.n):
        r = rel[s]
        base = _SEAT + SEAT_FLAGS * r
        if alive[s]:
            ones.append(base)
        else:
            out_rank[r] = d.elim_rank[s] / 5.0
        sizes[r] = sum(hand[s * K : s * K + K]) / 24.0
        if yes or no or looters:
            if (yes >> s) & 1:
                ones.append(base + 5)
            if (no >> s) & 1:
                ones.append(base + 6)
            if (looters >> s) & 1:
                ones.append(base + 9)
    ones.append(_SEAT + SEAT_FLAGS * rel[d.active] + 1)
    ones.append(_SEAT + SEAT_FLAGS * rel[d.first_player] + 2)
    if d.trade_with != NO:
        ones.append(_SEAT + SEAT_FLAGS * rel[d.trade_with] + 7)
    j = d.joiners
    for i in range(0, len(j), 2):
        ones.append(_SEAT + SEAT_FLAGS * rel[j[i]] + 8)
    return sizes, out_rank


def _write_knowledge(d: RoyaleData, me: int, rel: tuple[int, ...], o: np.ndarray) -> None:
    """The "known" and "could_hide" sections: what ``me`` knows of the other hands (lower bounds by kind,
    upper bounds on hidden items), by slot."""
    n, known, hid_max = d.n, d.known, d.hid_max
    kb = me * n * K
    for s in range(n):
        if s != me:
            r = rel[s]
            o[_HIDE + r] = min(hid_max[me * n + s] / 9.0, 1.0)
            row = known[kb + s * K : kb + s * K + K]
            if any(row):
                o[_KNOWN + K * r : _KNOWN + K * r + K] = [_BY10[x] for x in row]


@lru_cache(maxsize=4096)
def _face_up_items(
    owner: tuple[int, ...], used: tuple[int, ...], rel: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """The entries set to 1 by the face-up items (owner slot, used this round) and each slot's escape points,
    scaled. A function of immutable arguments, so it is cached (they change far less often than a view)."""
    ones = []
    points = [0] * MAX_PLAYERS
    for c, s in enumerate(owner):
        if s >= 0:
            r = rel[s]
            ones.append(_OWNER + MAX_PLAYERS * c + r)
            if used[c]:
                ones.append(_USED + c)
            points[r] += _POINTS[c]
    return tuple(ones), tuple(min(x / 10.0, 1.0) for x in points)


@lru_cache(maxsize=1024)
def _field_ones(field: tuple[int, ...]) -> tuple[int, ...]:
    """The entries set to 1 by the crafting field (cached: the field changes only when an item is crafted)."""
    return tuple(_FIELD + NUM_ITEM_TYPES * i + _TYPE[c] for i, c in enumerate(field) if c != NO)


@lru_cache(maxsize=1024)
def _discard_section(discard: tuple[int, ...]) -> np.ndarray:
    """The "item_discard" section: the share of each item type's copies on the Item Discard Pile, as ``float32``
    (read-only: an array is copied into the observation faster than a tuple is converted)."""
    counts = [0] * NUM_ITEM_TYPES
    for c in discard:
        counts[_TYPE[c]] += 1
    section = np.array([x / y for x, y in zip(counts, _COPIES, strict=True)], np.float32)
    section.flags.writeable = False
    return section


def _write_piles(d: RoyaleData, o: np.ndarray) -> None:
    """Loot waiting for a taker and the Item Discard Pile by type."""
    for c in d.loot_items:
        o[_LOOT + _TYPE[c]] += 1.0 / _COPIES[_TYPE[c]]
    if any(d.loot_hidden):
        for h, x in enumerate(d.loot_hidden):
            o[_LOOT + NUM_ITEM_TYPES + h] = min(x / 4.0, 1.0)
    if d.item_discard:
        o[_IDISC : _IDISC + NUM_ITEM_TYPES] = _discard_section(tuple(d.item_discard))


def state_vector(d: RoyaleData, out: np.ndarray | None = None) -> np.ndarray:
    """Seat 0's observation plus every hand and the top card of the Resource Deck."""
    o = np.zeros(STATE_SIZE, np.float32) if out is None else out
    observe(d, 0, o[:OBS_SIZE])
    o[OBS_SIZE:] = 0.0
    o[OBS_SIZE : OBS_SIZE + d.n * K] = [min(x / 24.0, 1.0) for x in d.hand]
    if d.res_deck:
        o[OBS_SIZE + MAX_PLAYERS * K + d.res_deck[-1]] = 1.0
    return o
