"""One generic reader of the content JSON, driven by the frozen dataclasses it builds.

A dataclass is read from a JSON object: its fields are the object's keys, each read by the field's type
(``int``, ``bool``, ``str``, an ``IntEnum``, ``X | None``, ``tuple[X, ...]``, ``tuple[X, Y]``,
``frozenset[X]``, ``dict[K, V]``, another dataclass, a tagged union); a field with a default (or an
:class:`Absent` value, or ``None`` allowed) may be left out; any other key is an error. What the JSON spelling
adds to the Python type is ``Annotated`` metadata on the field: :class:`Range`, :class:`OneOf`, :class:`Keys`,
:class:`NonEmpty`, :class:`Absent`, :class:`Derived`. After a dataclass is built, its check (if the
:class:`Reader` has one for the class) validates it and may return a completed copy. Every error is one line
naming the path of the bad value: ``bonus_cards[0].effects[1] (gain).bundle: unknown field(s) ['gold']``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Tile:
...     id: Annotated[str, NonEmpty()]
...     cost: Annotated[int, Range(1, 5)] = 1
>>> r = Reader("demo", ValueError)
>>> r.read(Tile, {"id": "t1"}, "tiles[0]")
Tile(id='t1', cost=1)
>>> r.read(Tile, {"id": "t1", "cost": 9}, "tiles[0]")
Traceback (most recent call last):
ValueError: demo tiles[0].cost: expected an integer in 1..5, got 9
"""

from __future__ import annotations

import types
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import MISSING, Field, dataclass, fields, is_dataclass
from enum import IntEnum
from functools import cache
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints


@dataclass(frozen=True, slots=True)
class Range:
    """An integer from ``lo`` to ``hi`` (a field without one: 0..999)."""

    lo: int = 0
    hi: int = 999


@dataclass(frozen=True, slots=True)
class OneOf:
    """One of ``names``: a ``str`` field keeps the name, an ``int`` or ``IntEnum`` field gets its index."""

    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Keys:
    """A dict field's JSON keys: each of ``names`` required, or any of them when ``optional``."""

    names: tuple[str, ...]
    optional: bool = False


@dataclass(frozen=True, slots=True)
class NonEmpty:
    """A string that must not be empty (an id)."""


@dataclass(frozen=True, slots=True)
class Absent:
    """The value of a field the JSON leaves out, where the dataclass itself cannot have a default."""

    value: Any


@dataclass(frozen=True, slots=True)
class Derived:
    """A field never written in the JSON: ``value`` until the enclosing piece's check fills it in."""

    value: Any


#: a check run on each built piece of a class: it raises with ``where`` in the message, or returns the piece
#: (or a completed copy of it)
Check = Callable[[Any, str], Any]


class Reader:
    """Reads JSON values into typed values; errors are ``error(f"{prefix} {where}: {problem}")``.

    ``tagged``: name -> dataclass, the members of the union type ``union`` (a JSON object whose ``tag`` key
    names the member; ``member`` is what the error messages call one); ``enum_names``: the JSON names of an
    IntEnum's members (default: the lower-case member names); ``checks``: per dataclass, a :data:`Check`;
    ``bare``: dataclasses of one field written as that field's value alone (a production room is its effect
    list).
    """

    def __init__(
        self,
        prefix: str,
        error: type[Exception],
        tagged: Mapping[str, type] | None = None,
        *,
        union: Any = None,
        tag: str = "kind",
        member: str = "member",
        enum_names: Mapping[type, tuple[str, ...]] | None = None,
        checks: Mapping[type, Check] | None = None,
        bare: frozenset[type] = frozenset(),
    ) -> None:
        self.prefix, self.error = prefix, error
        self.tagged, self.union, self.tag, self.member = dict(tagged or {}), union, tag, member
        self.enum_names = dict(enum_names or {})
        self.checks = dict(checks or {})
        self.bare = bare
        self._hints: dict[type, dict[str, Any]] = {}
        self._plans: dict[type, _Plan] = {}

    def fail(self, where: str, problem: str) -> Exception:
        """The one-line error for the value at ``where``."""
        return self.error(f"{self.prefix} {where}: {problem}")

    # --- values ------------------------------------------------------------------------------------------------
    def read(self, tp: Any, raw: Any, where: str) -> Any:
        """``raw`` (parsed JSON) as a value of type ``tp`` (see the module docstring)."""
        tp, meta, origin, args = _shape(tp)
        if self.union is not None and tp == self.union:
            return self.read_tagged(raw, where)
        if origin in (Union, types.UnionType):
            inner = [a for a in args if a is not type(None)]
            if raw is None and len(inner) < len(args):
                return None
            if len(inner) != 1:  # beyond ``X | None``, only the tagged union is read
                raise TypeError(f"{self.prefix}: no JSON reading for the union {tp!r} ({where})")
            return self.read(inner[0], raw, where)
        if tp is bool:
            if not isinstance(raw, bool):
                raise self.fail(where, "expected true/false")
            return raw
        if tp is int and OneOf not in meta:
            rng = meta.get(Range, Range())
            if isinstance(raw, bool) or not isinstance(raw, int) or not rng.lo <= raw <= rng.hi:
                raise self.fail(where, f"expected an integer in {rng.lo}..{rng.hi}, got {raw!r}")
            return raw
        if tp is int or tp is str or (isinstance(tp, type) and issubclass(tp, IntEnum)):
            return self._read_name(tp, meta, raw, where)
        if origin is tuple or origin is frozenset:
            return self._read_sequence(origin, args, raw, where)
        if origin is dict:
            return self._read_dict(args, meta.get(Keys), raw, where)
        if is_dataclass(tp):
            return self.read_object(tp, raw, where)
        raise TypeError(f"{self.prefix}: no JSON reading for the type {tp!r} ({where})")

    def _read_name(self, tp: Any, meta: dict[type, Any], raw: Any, where: str) -> Any:
        """A string field, or an int/IntEnum field spelled by name."""
        names = meta[OneOf].names if OneOf in meta else self.enum_names.get(tp)
        if names is None and issubclass(tp, IntEnum):
            names = tuple(m.name.lower() for m in tp)
        if names is not None:
            if not isinstance(raw, str) or raw not in names:
                raise self.fail(where, f"{raw!r} is not one of {list(names)}")
            return raw if tp is str else tp(names.index(raw))
        if not isinstance(raw, str) or (NonEmpty in meta and not raw):
            raise self.fail(where, f"expected a {'non-empty id ' if NonEmpty in meta else ''}string, got {raw!r}")
        return raw

    def _read_sequence(self, origin: type, args: tuple, raw: Any, where: str) -> Any:
        """A JSON list as ``tuple[X, ...]``, a fixed ``tuple[X, Y, ...]`` or ``frozenset[X]``."""
        if not isinstance(raw, list):
            raise self.fail(where, f"expected a list, got {type(raw).__name__}")
        if origin is frozenset:
            return frozenset(self.read(args[0], x, f"{where}[{i}]") for i, x in enumerate(raw))
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(self.read(args[0], x, f"{where}[{i}]") for i, x in enumerate(raw))
        if len(raw) != len(args):
            raise self.fail(where, f"expected a list of exactly {len(args)}, got {len(raw)}")
        return tuple(self.read(t, x, f"{where}[{i}]") for i, (t, x) in enumerate(zip(args, raw, strict=True)))

    def _read_dict(self, args: tuple, keys: Keys | None, raw: Any, where: str) -> dict:
        """A JSON object as ``dict[K, V]`` (an int key written as a string); its keys from ``keys``."""
        if not isinstance(raw, dict):
            raise self.fail(where, f"expected an object, got {type(raw).__name__}")
        if keys is not None:
            self._check_keys(raw, keys.names, () if keys.optional else keys.names, where)
        key_type, value_type = args
        if key_type is int and not all(k.isdigit() for k in raw):
            raise self.fail(where, f"the keys must be whole numbers, got {sorted(raw)}")
        return {key_type(k): self.read(value_type, v, f"{where}.{k}") for k, v in raw.items()}

    def _check_keys(self, raw: dict, allowed: Collection[str], required: Sequence[str], where: str) -> None:
        unknown = raw.keys() - allowed
        if unknown:
            raise self.fail(where, f"unknown field(s) {sorted(unknown)}")
        missing = [k for k in required if k not in raw]
        if missing:
            raise self.fail(where, f"missing field(s) {missing}")

    # --- pieces ------------------------------------------------------------------------------------------------
    def read_object(self, cls: type, raw: Any, where: str) -> Any:
        """A dataclass from its JSON object (or, for a ``bare`` class, from its one field's value); then its
        check."""
        plan = self._plan(cls)
        if cls in self.bare:
            (only,) = plan.fields
            piece = cls(self.read(only.tp, raw, where))
        else:
            if not isinstance(raw, dict):
                raise self.fail(where, f"expected an object, got {type(raw).__name__}")
            self._check_keys(raw, plan.written, plan.required, where)
            args = {
                f.name: self.read(f.tp, raw[f.name], f"{where}.{f.name}") if f.name in raw else f.absent()
                for f in plan.fields
            }
            piece = cls(**args)
        check = self.checks.get(cls)
        return piece if check is None else check(piece, where)

    def read_tagged(self, raw: Any, where: str) -> Any:
        """A member of the tagged union: ``{tag: name, fields...}``; its path reads ``where (name)``."""
        if not isinstance(raw, dict) or self.tag not in raw:
            raise self.fail(where, f"{_article(self.member)} {self.member} needs a {self.tag!r}")
        name = raw[self.tag]
        if not isinstance(name, str) or name not in self.tagged:
            raise self.fail(where, f"unknown {self.member} {self.tag} {name!r}")
        body = {k: v for k, v in raw.items() if k != self.tag}
        return self.read_object(self.tagged[name], body, f"{where} ({name})")

    def _plan(self, cls: type) -> _Plan:
        """How each field of ``cls`` is read (worked out once per class)."""
        if cls not in self._plans:
            hints = self.hints(cls)
            each = tuple(_Field.of(f, hints[f.name]) for f in fields(cls))
            written = frozenset(f.name for f in each if f.written)
            self._plans[cls] = _Plan(each, written, tuple(f.name for f in each if f.required))
        return self._plans[cls]

    def hints(self, cls: type) -> dict[str, Any]:
        """The resolved field types of ``cls``, ``Annotated`` metadata kept (read once per class)."""
        if cls not in self._hints:
            self._hints[cls] = get_type_hints(cls, include_extras=True)
        return self._hints[cls]


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _unwrap(tp: Any) -> tuple[Any, dict[type, Any]]:
    """A type without its ``Annotated`` metadata, and that metadata by marker class."""
    if get_origin(tp) is Annotated:
        base, *extra = get_args(tp)
        return base, {type(m): m for m in extra}
    return tp, {}


def _shape(tp: Any) -> tuple[Any, dict[type, Any], Any, tuple]:
    """``(type, metadata, origin, args)`` of an annotation (worked out once per hashable annotation)."""
    try:
        return _cached_shape(tp)
    except TypeError:  # metadata holding an unhashable value
        base, meta = _unwrap(tp)
        return base, meta, get_origin(base), get_args(base)


@cache
def _cached_shape(tp: Any) -> tuple[Any, dict[type, Any], Any, tuple]:
    base, meta = _unwrap(tp)
    return base, meta, get_origin(base), get_args(base)


@dataclass(frozen=True, slots=True)
class _Field:
    """How one dataclass field is read: its annotation, whether the JSON writes it, and its value when left out
    (a Derived or Absent value, the dataclass default, None where None is allowed; else it is required)."""

    name: str
    tp: Any
    written: bool
    required: bool
    value: Any  # when left out (a ``factory`` field: made anew each time)
    factory: Callable[[], Any] | None

    @staticmethod
    def of(f: Field, tp: Any) -> _Field:
        base, meta = _unwrap(tp)
        value, factory = MISSING, None
        for marker in (Absent, Derived):
            if marker in meta:
                value = meta[marker].value
        if value is MISSING and f.default is not MISSING:
            value = f.default
        elif value is MISSING and f.default_factory is not MISSING:
            factory = f.default_factory
        elif value is MISSING and get_origin(base) in (Union, types.UnionType) and type(None) in get_args(base):
            value = None
        required = value is MISSING and factory is None
        return _Field(f.name, tp, Derived not in meta, required, value, factory)

    def absent(self) -> Any:
        return self.factory() if self.factory is not None else self.value


@dataclass(frozen=True, slots=True)
class _Plan:
    """How a dataclass is read: its fields in order, the JSON keys it takes, the keys it needs."""

    fields: tuple[_Field, ...]
    written: frozenset[str]
    required: tuple[str, ...]
