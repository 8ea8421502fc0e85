"""Observation layouts: named slices of one flat vector, built once per game configuration.

>>> slices, size = build_layout([("pending", 3), ("scalars", 2)])
>>> slices["scalars"], size
(slice(3, 5, None), 5)
"""

from __future__ import annotations

from collections.abc import Iterable


def build_layout(sections: Iterable[tuple[str, int]]) -> tuple[dict[str, slice], int]:
    """Consecutive slices for ``(name, size)`` sections, in order, and the total length."""
    slices: dict[str, slice] = {}
    off = 0
    for name, size in sections:
        if name in slices:
            raise ValueError(f"observation section {name!r} appears twice")
        slices[name] = slice(off, off + size)
        off += size
    return slices, off
