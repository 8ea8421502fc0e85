"""The table a browser draws for one seat: the game's own (its manifest's ``table``), or a generic one.

A game that ships no table function gets :func:`generic_table`: every field of the record, built from what the
seat knows only. For a seat it starts from ``state.public_copy(seat)`` (the position as the seat knows it: what
it cannot see in a canonical order), so nothing hidden can reach it; a field that differs between that copy and
determinizations of it is one the seat cannot see, and shows as a count (``{"hidden": n}``), or, for a list
with one entry per seat (``n`` lists, or ``n`` chunks of a flat list) where the seat's own entry is fixed, on the
player boards with the other seats' entries as counts. The full view (``seat=None``, the Watch page's) shows everything.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from .. import games
from ..envs.core.manifest import load
from ..envs.core.table import INTERNAL, build_table

#: determinizations compared with the public copy to find what a seat cannot see (fixed seeds: the same fields
#: for every call, so a seat's table depends on what it knows only)
SAMPLES = 3


@cache
def _table_function(ref: str) -> Callable[[Any, int | None], dict[str, Any]]:
    return load(ref)


def table_of(state: Any, seat: int | None) -> dict[str, Any]:
    """The structured table of ``state`` for ``seat`` (None: everything): the game's own table function (its
    manifest's ``table``), else :func:`generic_table`."""
    ref = games.manifest(state.game.name).table
    return _table_function(ref)(state, seat) if ref else generic_table(state, seat)


def plain(v: Any) -> Any:
    """A record value as JSON data: numpy arrays and tuples as lists, sets sorted, enums and numpy ints as int."""
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, list | tuple):
        return [plain(x) for x in v]
    if isinstance(v, set | frozenset):
        return sorted(plain(x) for x in v)
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, bool | np.bool_):
        return int(v)
    if hasattr(v, "__index__"):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


def count(v: Any) -> int:
    """How many things a hidden value holds: a list's items (a list of lists: all their items), else 1."""
    if isinstance(v, list):
        return sum(count(x) if isinstance(x, list) else 1 for x in v)
    return 1


def _fields(state: Any) -> dict[str, Any]:
    d = state.d
    names = d.__slots__ if hasattr(d, "__slots__") else list(vars(d))
    return {name: plain(getattr(d, name)) for name in names if name not in INTERNAL}


def _seat_entries(value: Any, n: int) -> list[Any] | None:
    """A per-seat list's entries (``n`` lists, or a flat list of ``n * k`` in ``n`` chunks), else None."""
    if not isinstance(value, list) or not value or len(value) % n:
        return None
    if len(value) == n:
        return value if all(isinstance(x, list) for x in value) else None
    if any(isinstance(x, list) for x in value):
        return None
    k = len(value) // n
    return [value[i * k : (i + 1) * k] for i in range(n)]


def unseen_fields(public: Any, seat: int) -> tuple[set[str], set[str]]:
    """The fields ``seat`` cannot see, judged on the public copy ``public``: per-seat lists whose own entry is
    fixed while other entries vary (the seat sees its own), and fields hidden whole."""
    n = public.game.num_players
    mine = _fields(public)
    own: set[str] = set()
    hidden: set[str] = set()
    for k in range(SAMPLES):
        other = _fields(public.determinize(seat, np.random.default_rng(k)))
        for name, value in mine.items():
            if other[name] == value or name in hidden:
                continue
            entries, others = _seat_entries(value, n), _seat_entries(other[name], n)
            if entries is not None and others is not None and entries[seat] == others[seat]:
                own.add(name)
            else:
                hidden.add(name)
    return own - hidden, hidden


def generic_table(state: Any, seat: int | None) -> dict[str, Any]:
    """Every field of ``state``'s record as ``seat`` may see it (None: everything), for a game with no table of
    its own; see the module docstring."""
    if seat is None:
        t = build_table(state, None)
        t["board"] = {k: plain(v) for k, v in t["board"].items()}
        return t
    public = state.public_copy(seat)
    own, hidden = unseen_fields(public, seat)
    fields = _fields(public)
    t = build_table(public, seat, per_seat=own, own=own, skip=set(fields) - own)
    for name, value in fields.items():
        if name in hidden:
            t["board"][name] = {"hidden": count(value)}
        elif name not in own:
            t["board"][name] = value
    t["players"] = [{k: plain(v) for k, v in p.items()} for p in t["players"]]
    return t
