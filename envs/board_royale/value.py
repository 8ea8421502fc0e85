"""A fitted cut-off value for Board Royale (IS-MCTS ``estimate=fitted`` and ``estimate=fitted2p``): who wins, from
public facts.

A conditional logit: each living seat gets a utility ``w . f(seat)`` from the features below, and its chance
to win is the softmax of the living seats' utilities. One weight vector per number of living seats (2, 3,
4 or more), since a card or an escape point is worth more with fewer rivals. The weights were fitted by
``scripts/fit_board_royale_value.py`` on positions of 4-player games between heuristic agents, labelled with
each game's winner, and are data (``data/value_model.json``, with how they were fitted and how well
they predict held-out games). ``fitted2p`` reads two living seats with weights fitted on 2-player games
(``data/value_model_2p.json``, ``scripts/fit_board_royale_value.py --players 2``), where both seats start with a
full hand, and keeps the 4-player weights for more. The rollouts of the search are played by the same
heuristic, so the value reads a cut-off position the way the rest of its rollout would most likely have gone.

Only what every seat knows enters: hand sizes, face-up items, escape points, turn order. A determinization
therefore cannot change the value of a position.
"""

from __future__ import annotations

import json
import math
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import numpy as np

from ..core.errors import MeepleZooError
from .content import CARD_TYPE, CARD_TYPE_INDEX, ESCAPE_SETS, NUM_KINDS
from .escape import escape_points
from .resources import hand_size
from .state import RoyaleData

#: the face-up item effects counted per seat (consumables only while unused)
EFFECTS = ("draw", "salvage", "hand_limit", "avoid", "reflect", "ambush", "discard", "steal")
#: one seat's features, in weight order
FEATURES = (
    "log_cards",  # log(1 + hand size): health, worth less with every card (no linear term, which the fit
    # used to bend the value down for large hands, beyond the games it was fitted on)
    "cards_le_2",
    "cards_le_4",
    "cards_le_7",
    "escape_points",
    "points_ge_7",  # the heuristics' first target from 7 points
    "points_ge_8",
    "points_ge_9",
    "set_items_1",  # items owned of the seat's most advanced Escape Set
    "set_items_2",
    "targeted",  # living opponents whose weakest rival this seat is (the heuristics' target rule)
    "targeted_ge_2",
    "order_0",  # the seat whose turn it is
    "order_1",  # the next living seat
    "order_2",
    *(f"items_{e}" for e in EFFECTS),
)
#: the weight blocks: 2, 3, and 4 or more living seats
BLOCKS = (2, 3, 4)
WEIGHTS_FILE = "value_model.json"
#: the model names (IS-MCTS ``estimate=NAME``) and their weights documents; a document fitted at a smaller table
#: holds fewer blocks, and the blocks it lacks come from ``fitted``'s
MODELS = {"fitted": WEIGHTS_FILE, "fitted2p": "value_model_2p.json"}

_EFFECT_OF = tuple((EFFECTS.index(t.effect) if t.effect in EFFECTS else -1, t.consumable) for t in CARD_TYPE)
_SET_TYPES = tuple(frozenset(s.types) for s in ESCAPE_SETS)
_CARD_POINTS = tuple(t.escape_points for t in CARD_TYPE)
_TYPE_OF = CARD_TYPE_INDEX
_K = NUM_KINDS
_ITEMS0 = FEATURES.index(f"items_{EFFECTS[0]}")


class ValueWeightsError(MeepleZooError):
    """The weights file does not match :data:`FEATURES` and :data:`BLOCKS`."""


def target_key(points: int, size: int, seat: int) -> tuple[bool, int, int]:
    """The heuristics' order of targets (smallest first): an escape threat of 7+ points, then the smallest hand,
    then the lowest seat."""
    return (points < 7, size, seat)


def targeted(alive: list[int], sizes: list[int], points: list[int]) -> list[int]:
    """Per seat, how many living rivals target it under :func:`target_key` (``alive``: the living seats)."""
    counts = [0] * len(sizes)
    for j in alive:
        rivals = [s for s in alive if s != j]
        if rivals:
            counts[min(rivals, key=lambda s: target_key(points[s], sizes[s], s))] += 1
    return counts


def block_of(living: int) -> int:
    """The weight block for ``living`` seats alive (2, 3, or 4 for 4 and more)."""
    return min(max(living, 2), BLOCKS[-1])


def seat_features(d: RoyaleData) -> list[list[float]]:
    """:data:`FEATURES` of every seat (eliminated seats too: the value ignores them)."""
    n = d.n
    alive = [s for s in range(n) if d.alive[s]]
    sizes = [hand_size(d, s) for s in range(n)]
    points = [escape_points(d, s) for s in range(n)]
    hunted = targeted(alive, sizes, points)
    items = [[0] * len(EFFECTS) for _ in range(n)]
    types: list[set[int]] = [set() for _ in range(n)]
    for card, seat in enumerate(d.item_owner):
        if 0 <= seat < n:
            effect, consumable = _EFFECT_OF[card]
            if effect >= 0 and not (consumable and d.item_used[card]):
                items[seat][effect] += 1
            types[seat].add(CARD_TYPE_INDEX[card])
    order, living = [0] * n, 0
    for k in range(n):  # living seats before each seat in turn order, from the active one
        s = (d.active + k) % n
        order[s] = living
        living += d.alive[s]
    rows = []
    for s in range(n):
        size, pts = sizes[s], points[s]
        best_set = max(len(t & types[s]) for t in _SET_TYPES)
        rows.append(
            [
                math.log1p(size),
                size <= 2,
                size <= 4,
                size <= 7,
                pts,
                pts >= 7,
                pts >= 8,
                pts >= 9,
                best_set == 1,
                best_set == 2,
                hunted[s],
                hunted[s] >= 2,
                order[s] == 0,
                order[s] == 1,
                order[s] == 2,
                *items[s],
            ]
        )
    return [[float(x) for x in row] for row in rows]


@cache
def weights(model: str = "fitted") -> dict[int, tuple[float, ...]]:
    """The fitted weights by block of ``model`` (:data:`MODELS`), from the package's data files (checked against
    :data:`FEATURES`)."""
    name = MODELS[model]
    text = resources.files("meeplezoo.envs.board_royale").joinpath("data", name).read_text()
    if model == "fitted":
        return parse_weights(json.loads(text))
    return {**weights("fitted"), **parse_weights(json.loads(text), blocks=(2,), name=name)}


def parse_weights(
    data: dict[str, Any], blocks: tuple[int, ...] = BLOCKS, name: str = WEIGHTS_FILE
) -> dict[int, tuple[float, ...]]:
    """The weight ``blocks`` of a weights document ``name``, or :class:`ValueWeightsError` naming what is wrong."""
    if list(data.get("features", [])) != list(FEATURES):
        raise ValueWeightsError(f"{name}: its features are not {list(FEATURES)}")
    found = data.get("weights", {})
    out = {}
    for block in blocks:
        w = found.get(str(block))
        if not isinstance(w, list) or len(w) != len(FEATURES) or not all(isinstance(x, float) for x in w):
            raise ValueWeightsError(f"{name}: weights[{block!r}] must be {len(FEATURES)} floats")
        out[block] = tuple(w)
    return out


def win_logits(state: Any) -> list[float]:
    """Each seat's utility (its chance to win is the softmax over living seats; eliminated seats get 0.0)."""
    return fast_logits(state.d)


def win_logits_2p(state: Any) -> list[float]:
    """:func:`win_logits` with two living seats read by the weights fitted on 2-player games (``fitted2p``)."""
    return fast_logits(state.d, "fitted2p")


def fast_logits(d: RoyaleData, model: str = "fitted") -> list[float]:
    """``w . f`` over :func:`seat_features` bit for bit (``tests/board_royale/royale_reference.py`` keeps that plain
    form): the same float additions in feature order, skipping the zero
    features (adding ``w * 0.0`` to a sum that starts at ``0.0`` never changes it), with the face-up items'
    features of every seat read from a cache (:func:`_item_facts`)."""
    n, alive, hand, active = d.n, d.alive, d.hand, d.active
    facts = _item_facts(tuple(d.item_owner), tuple(d.item_used), n)
    sizes = [sum(hand[s * _K : s * _K + _K]) for s in range(n)]
    keys = [(facts[s][0] < 7, sizes[s], s) for s in range(n) if alive[s]]  # target_key of the living seats
    block = block_of(len(keys))
    w = weights(model)[block]
    hunted = _hunted(keys, n)
    out = [0.0] * n
    order = 0
    for k in range(n):  # the living seats in turn order from the active seat
        s = (active + k) % n
        if not alive[s]:
            continue
        pts, best_set, items = facts[s]
        u = _size_terms(model, block, sizes[s])
        if pts:
            u += w[4] * pts
            if pts >= 7:
                u += w[5]
                if pts >= 8:
                    u += w[6]
                    if pts >= 9:
                        u += w[7]
        if best_set == 1:
            u += w[8]
        elif best_set == 2:
            u += w[9]
        h = hunted[s]
        if h:
            u += w[10] * h
            if h >= 2:
                u += w[11]
        if order <= 2:
            u += w[12 + order]
        for i, count in items:
            u += w[i] * count
        out[s] = u
        order += 1
    return out


def _hunted(keys: list[tuple[bool, int, int]], n: int) -> list[int]:
    """:func:`targeted` from the living seats' target keys: every seat targets the smallest key but its own, so
    the smallest is targeted by all the others and the second smallest by the smallest."""
    hunted = [0] * n
    if len(keys) >= 2:
        first, second = sorted(keys)[:2]
        hunted[first[2]] = len(keys) - 1
        hunted[second[2]] = 1
    return hunted


@lru_cache(maxsize=4096)
def _item_facts(owner: tuple[int, ...], used: tuple[int, ...], n: int) -> tuple[tuple[int, int, tuple], ...]:
    """Per seat: escape points, items of its most advanced Escape Set, and the ``(feature, count)`` pairs of
    its item effects (consumables only while unused), in feature order. Cached: its arguments are immutable."""
    owned: list[list[int]] = [[] for _ in range(n)]
    for c, s in enumerate(owner):  # one pass over the cards for every seat
        if s >= 0:
            owned[s].append(c)
    out = []
    for cards in owned:
        counts = [0] * len(EFFECTS)
        for c in cards:
            effect, consumable = _EFFECT_OF[c]
            if effect >= 0 and not (consumable and used[c]):
                counts[effect] += 1
        types = {_TYPE_OF[c] for c in cards}
        items = tuple((_ITEMS0 + e, count) for e, count in enumerate(counts) if count)
        out.append((sum(_CARD_POINTS[c] for c in cards), max(len(t & types) for t in _SET_TYPES), items))
    return tuple(out)


@cache
def _size_terms(model: str, block: int, size: int) -> float:
    """The partial utility of the hand-size features (the first four), added in feature order from 0.0."""
    w = weights(model)[block]
    u = 0.0 + w[0] * math.log1p(size)
    for i, limit in ((1, 2), (2, 4), (3, 7)):
        if size <= limit:
            u += w[i]
    return u


def win_chances(state: Any) -> list[float]:
    """Each seat's chance to win (0 for eliminated seats): the softmax of :func:`win_logits` over living seats
    (:func:`meeplezoo.training.value_fit.win_probabilities`' float operations, in Python but for ``numpy.exp``:
    the same floats)."""
    alive = state.d.alive
    logits = fast_logits(state.d)
    if all(alive):  # the usual case
        top = max(logits)
        shifted = [x - top for x in logits]
    else:
        top = max([x for x, a in zip(logits, alive, strict=True) if a], default=-math.inf)
        shifted = [x - top if a else -math.inf for x, a in zip(logits, alive, strict=True)]
    e = np.exp(shifted).tolist()
    total = sum(e)  # numpy's sum of up to 7 floats adds them one by one, in order, like this
    return [x / total for x in e]


#: IS-MCTS ``estimate=fitted`` and ``fitted2p``: the utilities are log-odds, so the softmax's scale is 1
ESTIMATE_SCALE = 1.0
