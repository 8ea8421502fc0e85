"""A seat's structured public view of a position (the table a browser draws), built from field lists.

Each game's ``table.py`` names its record fields: per-seat ones (split into player boards), hidden ones
(shown as a count only), own ones (shown to their seat, as a count to the others) and engine-internal ones
(left out). Every other field is public and goes to the board. Nothing hidden from ``seat`` is in the
result: ``tests/web`` checks it is the same for every ``state.determinize(seat, rng)``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

#: engine bookkeeping no table shows (chance, the task stack, cached legal actions)
INTERNAL = frozenset({"chance", "stack", "legal"})


def _plain(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return int(v) if isinstance(v, bool) or hasattr(v, "__index__") else v


def _size(v: Any) -> int:
    return sum(_size(x) for x in v) if isinstance(v, (list, tuple)) and v and isinstance(v[0], list) else len(v)


def build_table(
    state: Any,
    seat: int | None,
    *,
    per_seat: Collection[str] = (),
    hidden: Collection[str] = (),
    own: Collection[str] = (),
    skip: Collection[str] = (),
    ids: dict[str, list[str]] | None = None,
    slots: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The table of ``state`` as ``seat`` may see it (``seat=None``: everything, for the Watch page's full view).

    ``per_seat`` fields are lists of ``n`` entries or flat lists of ``n * k`` split in ``n`` chunks; an ``own``
    field must also be per seat. A ``hidden`` field shows its size only, even in the full view's ``hidden``
    marker (the full view shows it whole). ``ids`` names the values of a field (card ids -> card names),
    ``slots`` its positions (resource counts -> resource names): the page shows names, not numbers.
    """
    d = state.d
    n = state.game.num_players
    names = d.__slots__ if hasattr(d, "__slots__") else list(vars(d))
    players: list[dict[str, Any]] = [{} for _ in range(n)]
    board: dict[str, Any] = {}
    for name in names:
        if name in INTERNAL or name in skip:
            continue
        v = getattr(d, name)
        if name in hidden and seat is not None:
            board[name] = {"hidden": _size(v)}
            continue
        if name in per_seat:
            v = list(v)
            k = len(v) // n if v and not isinstance(v[0], list) and len(v) != n else None
            chunks = [v[i * k : (i + 1) * k] for i in range(n)] if k else v
            for s in range(n):
                c = chunks[s]
                if name in own and seat is not None and s != seat:
                    players[s][name] = {"hidden": _size(c) if isinstance(c, list) else 1}
                else:
                    players[s][name] = _plain(c)
            continue
        board[name] = _plain(v)
    terminal = state.is_terminal()
    return {
        "game": state.game.name,
        "seat": seat,
        "players": players,
        "board": board,
        "to_act": None if terminal else int(state.current_player()),
        "pending": None if terminal else state.pending(),
        "terminal": bool(terminal),
        "scores": [float(x) for x in state.scores()],
        "legend": {k: {"ids": list(v)} for k, v in (ids or {}).items()}
        | {k: {"slots": list(v)} for k, v in (slots or {}).items()},
    }
