"""Concordia's table for one seat (``envs.core.table``): the draw deck is a count, the rest is public."""

from __future__ import annotations

from typing import Any

from ..core.table import build_table
from .content import CARDS, GOOD_NAMES

PER_SEAT = ("money", "goods", "col", "hand", "discard", "houses")
HIDDEN = ("deck",)


def table(state: Any, seat: int | None) -> dict[str, Any]:
    cards = [c.name for c in CARDS]
    goods = list(GOOD_NAMES)
    ids = {"hand": cards, "discard": cards, "forum": cards, "city_good": goods, "province_good": goods}
    return build_table(state, seat, per_seat=PER_SEAT, hidden=HIDDEN, ids=ids, slots={"goods": goods})
