"""Plain-data game records: a slotted dataclass of ints, tuples and lists of ints, plus a Chance.

A game keeps its whole position in one such record. This module gives every game the same cheap clone
(each list copied, everything else shared because it is immutable) and the same validated JSON codec, so
no game writes its own. Supported field types: ``int``, ``tuple[int, ...]`` (derived caches, not saved),
``list[int]``, ``list[tuple[int, ...]]`` (e.g. a task stack), ``list[list[int]]`` (e.g. one hand per seat)
and ``Chance``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from .chance import Chance
from .errors import CorruptStateError


class RecordCodec:
    """Clone and (de)serialise one record class. ``derived`` fields are recomputed, never saved."""

    def __init__(self, cls: type, game_name: str, derived: tuple[str, ...] = ("legal",)) -> None:
        self.cls = cls
        self.game_name = game_name
        types = {f.name: str(f.type) for f in fields(cls)}
        self.derived = tuple(n for n in derived if n in types)
        self.list_fields = tuple(n for n, t in types.items() if t.startswith("list["))
        self.tuple_lists = tuple(n for n, t in types.items() if t.startswith("list[tuple"))
        #: entries per tuple of a ``list[tuple[int, int, ...]]`` field (None for ``tuple[int, ...]``): a saved
        #: task of the wrong width would fail to unpack only when it reaches the top of the stack
        self.tuple_width = {n: _tuple_width(types[n]) for n in self.tuple_lists}
        self.nested = tuple(n for n, t in types.items() if t.startswith("list[list"))
        self.flat = tuple(n for n in self.list_fields if n not in self.nested)
        self.chance_fields = tuple(n for n, t in types.items() if t == "Chance")
        self.plain_fields = tuple(n for n in types if n not in self.list_fields and n not in self.chance_fields)
        self.saved = tuple(n for n in types if n not in self.derived)
        self.clone = self._compile_clone()

    def sharing_clone(self, shared: tuple[str, ...] = (), shallow: tuple[str, ...] = ()) -> Any:
        """A clone function like :attr:`clone` but for the list fields ``shared`` (left shared with the record)
        and the nested ones ``shallow`` (the outer list copied, the inner ones shared): for a lookahead that
        changes only some of them and copies those itself before it does (e.g. one seat's hand)."""
        unknown = set(shared) - set(self.list_fields) | set(shallow) - set(self.nested)
        if unknown:
            raise ValueError(f"{self.game_name}: not list fields (shared) or nested ones (shallow): {sorted(unknown)}")
        return self._compile_clone(frozenset(shared), frozenset(shallow))

    def _compile_clone(self, shared: frozenset[str] = frozenset(), shallow: frozenset[str] = frozenset()) -> Any:
        """``clone(rec)``: a new record with every list copied (nested lists too), everything else shared
        (immutable) and the Chance copied. Compiled once per record class from its field names: plain
        attribute stores instead of ``getattr``/``setattr`` by name, several times faster (clones are the
        bulk of an agent's lookahead)."""
        lines = ["def clone(rec):", "    new = _new(_cls)"]
        deep = [n for n in self.nested if n not in shallow]
        lines += [f"    new.{n} = rec.{n}.copy()" for n in (*self.flat, *shallow) if n not in shared]  # faster than [:]
        lines += [f"    new.{n} = list(map(_copy, rec.{n}))" for n in deep if n not in shared]
        lines += [f"    new.{n} = rec.{n}" for n in (*self.plain_fields, *sorted(shared))]
        lines += [f"    new.{n} = rec.{n}.copy()" for n in self.chance_fields]
        lines.append("    return new")
        scope: dict[str, Any] = {"_new": object.__new__, "_cls": self.cls, "_copy": list.copy}
        exec("\n".join(lines), scope)  # the field names of a dataclass: identifiers
        return scope["clone"]

    def to_dict(self, rec: Any) -> dict[str, Any]:
        """JSON-able data; lists are copies, so editing the result never edits the record."""
        out: dict[str, Any] = {}
        for name in self.saved:
            value = getattr(rec, name)
            if name in self.chance_fields:
                value = value.to_dict()
            elif name in self.tuple_lists:
                value = [list(t) for t in value]
            elif name in self.nested:
                value = [inner[:] for inner in value]
            elif name in self.list_fields:
                value = value[:]
            out[name] = value
        return out

    def from_dict(self, raw: Any) -> Any:
        """Rebuild a record, checking the field set and every value's type (CorruptStateError)."""
        g = self.game_name
        expected = set(self.saved)
        if not isinstance(raw, dict) or set(raw) != expected:
            got = set(raw) if isinstance(raw, dict) else set()
            missing, extra = sorted(expected - got), sorted(got - expected)
            raise CorruptStateError(f"{g}: saved state fields differ: missing {missing}, unexpected {extra}")
        kw: dict[str, Any] = {}
        for name in self.saved:
            value = raw[name]
            if name in self.chance_fields:
                kw[name] = Chance.from_dict(value)
            elif name in self.tuple_lists or name in self.nested:
                if not isinstance(value, list) or not all(
                    isinstance(t, list) and all(is_int(x) for x in t) for t in value
                ):
                    raise CorruptStateError(f"{g}: field {name!r} must be a list of integer lists, got {value!r}")
                width = self.tuple_width.get(name)
                if width is not None and any(len(t) != width for t in value):
                    bad = next(t for t in value if len(t) != width)
                    raise CorruptStateError(f"{g}: field {name!r} must hold {width}-integer entries, got {bad!r}")
                kw[name] = [tuple(t) for t in value] if name in self.tuple_lists else [list(t) for t in value]
            elif name in self.list_fields:
                if not isinstance(value, list) or not all(is_int(x) for x in value):
                    raise CorruptStateError(f"{g}: field {name!r} must be a list of integers, got {value!r}")
                kw[name] = list(value)
            else:
                if not is_int(value):
                    raise CorruptStateError(f"{g}: field {name!r} must be an integer, got {value!r}")
                kw[name] = value
        return self.cls(**kw)


def _tuple_width(annotation: str) -> int | None:
    """The fixed width of ``list[tuple[int, int, ...]]`` (None for a variable-width ``tuple[int, ...]``)."""
    inner = annotation[len("list[tuple[") : annotation.rindex("]]")]
    return None if "..." in inner else len(inner.split(","))


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)
