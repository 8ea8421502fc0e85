"""Escape from the island: 10 Escape Points of crafted items, or a completed Escape Set, wins at once.

Seed: "Toplam 10 Kaçış Puanı (Escape Points) değerinde eşya toplayın veya bir Kaçış Seti (Escape Set)
tamamla. Bunu ilk başaran oyuncu oyunu anında kazanır - diğer oyuncular hala hayattayken bile." Escape items
lie face up like every crafted item, so the points below are public.
"""

from __future__ import annotations

from .content import CARD_TYPE, CARD_TYPE_INDEX, ESCAPE_CARDS, ESCAPE_SETS, RULES
from .state import WIN_ESCAPE_POINTS, WIN_ESCAPE_SET, RoyaleData

_ESCAPE_CARDS = tuple(sorted(ESCAPE_CARDS))
_POINTS = tuple((c, t.escape_points) for c, t in enumerate(CARD_TYPE) if t.escape_points)


def escape_points(d: RoyaleData, seat: int) -> int:
    owner = d.item_owner
    total = 0
    for c, points in _POINTS:  # a plain loop: faster than sum() over a generator
        if owner[c] == seat:
            total += points
    return total


def completed_set(d: RoyaleData, seat: int) -> int:
    """Index of an Escape Set ``seat`` has completed, or -1."""
    owner = d.item_owner
    owned = {CARD_TYPE_INDEX[c] for c in _ESCAPE_CARDS if owner[c] == seat}  # every set item is an escape item
    for i, s in enumerate(ESCAPE_SETS):
        if all(t in owned for t in s.types):
            return i
    return -1


def check_escape(d: RoyaleData, seat: int) -> bool:
    """If ``seat`` (alive) has escaped, end the game with ``seat`` the winner."""
    if d.winner >= 0 or not d.alive[seat]:
        return d.winner >= 0
    if escape_points(d, seat) >= RULES.escape_points:
        kind = WIN_ESCAPE_POINTS
    elif completed_set(d, seat) >= 0:
        kind = WIN_ESCAPE_SET
    else:
        return False
    d.winner = seat
    d.win_kind = kind
    for s in range(d.n):  # zero-sum survival points (elimination.py)
        if d.alive[s] and s != seat:
            d.score[s] -= 1
            d.score[seat] += 1
    d.stack.clear()
    return True
