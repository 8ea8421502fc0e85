"""Seastead's table for one seat (``envs.core.table``): decks are counts, everything else is public."""

from __future__ import annotations

from typing import Any

from ..core.table import build_table
from .content import RESOURCE_NAMES, SPECIALISTS

PER_SEAT = ("res", "cleanup", "shortfall", "columns", "ships_boxed")
HIDDEN = ("dive_deck", "dock_deck", "spec_deck", "decree_deck")


def table(state: Any, seat: int | None) -> dict[str, Any]:
    names = [sp.name for sp in SPECIALISTS]
    res = list(RESOURCE_NAMES)
    return build_table(
        state, seat, per_seat=PER_SEAT, hidden=HIDDEN, ids={"spec_display": names}, slots={"res": res, "supply": res}
    )
