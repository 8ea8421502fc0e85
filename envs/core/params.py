"""One typed parameter system for game configs, agent specs and training configs.

A :class:`Param` declares a name, a type, a default and a help line (and optionally choices and bounds). Text
typed by a person (``--set KEY=VALUE``, ``mcts:forced=y``) is read by :meth:`Param.read`; values that already have
a type (a TOML file, Python keywords) are checked by :meth:`Param.check`. Both read bools and numbers one way and
fail with one error format, :class:`ParamError`: ``WHERE: KEY takes WHAT, not VALUE``.

Calls are written as OpenSpiel writes ``load_game("name(k=v)")``; MeepleZoo also takes ``name:k=v`` (agent specs):

>>> parse_call("mcts(iters=400, forced=y)")
('mcts', {'iters': '400', 'forced': 'y'})
>>> parse_call("ppo:models/a.zip")
('ppo', {'': 'models/a.zip'})
>>> Param("forced", bool, False).read("y"), Param("iters", int, 300, minimum=1).read("1_000")
(True, 1000)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import MeepleZooError

TRUE = frozenset({"true", "1", "yes", "y", "on"})
FALSE = frozenset({"false", "0", "no", "n", "off"})
NONE = frozenset({"none", "null"})


class ParamError(MeepleZooError, ValueError):
    """A value that a parameter does not take, an unknown key or a malformed call (one line)."""


def read_bool(text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ValueError("true or false (also 1/0, yes/no, y/n, on/off)")


def read_int(text: str) -> int:
    try:
        return int(text.strip().replace("_", ""))
    except ValueError:
        raise ValueError("a whole number") from None


def read_float(text: str) -> float:
    try:
        value = float(text.strip().replace("_", ""))
    except ValueError:
        raise ValueError("a number") from None
    if not math.isfinite(value):
        raise ValueError("a finite number")
    return value


def read_any(text: str) -> Any:
    """A value of a parameter declared without a type (default None): None, a number, or the text."""
    word = text.strip()
    if word.lower() in NONE:
        return None
    for reader in (read_int, read_float):
        try:
            return reader(word)
        except ValueError:
            pass
    return word


_READERS = {bool: read_bool, int: read_int, float: read_float, str: lambda text: text.strip()}


def type_name(kind: type | None, element: type | None = None) -> str:
    if kind is list:
        return f"a list of {type_name(element)}" if element else "a list"
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text", None: "a value"}.get(
        kind, kind.__name__ if kind else "a value"
    )


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter: name, type (bool, int, float, str, list, or None for any), default and a help line.

    ``choices`` restricts the values; ``minimum``/``maximum`` bound a number (inclusive); ``element`` is a list's
    element type. ``optional`` lets a typed parameter also be None (written ``none``).
    """

    name: str
    type: type | None
    default: Any
    help: str = ""
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    element: type | None = None
    optional: bool = False

    def read(self, text: str, where: str = "") -> Any:
        """``text`` (as a person typed it) as this parameter's value; :class:`ParamError` naming what is wrong."""
        if not isinstance(text, str):
            return self.check(text, where)
        if self.optional and text.strip().lower() in NONE:
            return None
        try:
            if self.type is None:
                value = read_any(text)
            elif self.type is list:
                reader = _READERS.get(self.element or str, _READERS[str])
                items = text.strip().strip("[]").split(",")
                value = [reader(item) for item in items if item.strip()]
            else:
                value = _READERS[self.type](text)
        except ValueError:
            raise self.error(where, text) from None
        return self._in_bounds(value, where, text)

    def check(self, value: Any, where: str = "") -> Any:
        """``value`` (already typed: TOML, Python) checked against this parameter: the type (an int is a fine
        float, a bool is not a number), the choices and bounds; floats come back as float."""
        if value is None and (self.optional or self.type is None):
            return None
        if not self._fits(value):
            raise self.error(where, value)
        if self.type is float:
            value = float(value)
        elif self.type is list:
            value = list(value)
        return self._in_bounds(value, where, value)

    def _fits(self, value: Any) -> bool:
        kind = self.type
        if kind is None:
            return True
        if kind is bool:
            return isinstance(value, bool)
        if kind is float:
            return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        if kind is int:
            return isinstance(value, int) and not isinstance(value, bool)
        if kind is list:
            return isinstance(value, list | tuple) and all(_fits_element(v, self.element) for v in value)
        return isinstance(value, kind)

    def _in_bounds(self, value: Any, where: str, shown: Any) -> Any:
        if self.choices and value not in self.choices:
            raise self.error(where, shown)
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and self.minimum is not None and value < self.minimum:
            raise self.error(where, shown)
        if number and self.maximum is not None and value > self.maximum:
            raise self.error(where, shown)
        return value

    def takes(self) -> str:
        """What the parameter takes, in words: ``a whole number of at least 1``, ``one of random, heuristic``."""
        if self.choices:
            return "one of " + ", ".join(map(_shown, self.choices))
        what = type_name(self.type, self.element)
        if self.minimum is not None and self.maximum is not None:
            what += f" from {self.minimum:g} to {self.maximum:g}"
        elif self.minimum is not None:
            what += f" of at least {self.minimum:g}"
        elif self.maximum is not None:
            what += f" of at most {self.maximum:g}"
        return what + (" or none" if self.optional else "")

    def error(self, where: str, value: Any) -> ParamError:
        """The one error format: ``WHERE: KEY takes WHAT, not VALUE``."""
        prefix = f"{where}: " if where else ""
        return ParamError(f"{prefix}{self.name} takes {self.takes()}, not {value!r}")

    def describe(self) -> str:
        """``name=int (default 300)``, ``rollout=random|heuristic (default random)``."""
        if self.choices:
            return f"{self.name}={'|'.join(map(_shown, self.choices))} (default {_shown(self.default)})"
        kind = self.type.__name__ if self.type else "value"
        return f"{self.name}={kind} (default {_shown(self.default)})"


def _fits_element(value: Any, element: type | None) -> bool:
    if element is None:
        return True
    return Param("", element, None)._fits(value)


def _shown(value: Any) -> str:
    if value == "":
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def params_from_defaults(defaults: Mapping[str, Any], help: Mapping[str, str] | None = None) -> tuple[Param, ...]:
    """Parameters typed by their defaults (a game's ``defaults``): None is any value, a list takes its elements'
    type."""
    out = []
    for key, default in defaults.items():
        kind = None if default is None else type(default)
        element = type(default[0]) if isinstance(default, list | tuple) and default else None
        if kind is tuple:
            kind = list
        out.append(Param(key, kind, default, (help or {}).get(key, ""), element=element))
    return tuple(out)


def parse_call(text: str, what: str = "spec") -> tuple[str, dict[str, str]]:
    """``name``, ``name:k=v,...`` or ``name(k=v, ...)`` as the name and its raw arguments; a bare first value (no
    ``=``) is keyed ``""`` (the owner's first parameter)."""
    if not isinstance(text, str) or not text.strip():
        raise ParamError(f"a {what} is a non-empty string like 'mcts:iters=400', not {text!r}")
    text = text.strip()
    if "(" in text.partition(":")[0]:
        name, _, rest = text.partition("(")
        if not rest.endswith(")"):
            raise ParamError(f"{what} {text!r}: a call name(k=v, ...) ends with ')'")
        rest = rest[:-1]
    else:
        name, _, rest = text.partition(":")
    args: dict[str, str] = {}
    for i, item in enumerate(rest.split(",") if rest.strip() else ()):
        key, sep, value = item.partition("=")
        if not sep:
            if i == 0:
                args[""] = item.strip()
                continue
            raise ParamError(f"{what} {text!r}: {item.strip()!r} is not KEY=VALUE")
        key = key.strip()
        if not key or key in args:
            raise ParamError(f"{what} {text!r}: empty or repeated parameter in {item.strip()!r}")
        args[key] = value.strip()
    return name.strip(), args


def parse_assignments(items: Iterable[str], option: str = "--set") -> dict[str, str]:
    """``KEY=VALUE`` strings (as typed after ``option``) as raw text by key."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ParamError(f"{option} takes KEY=VALUE, not {item!r}")
        out[key.strip()] = text.strip()
    return out


def known_keys(params: Sequence[Param]) -> str:
    return ", ".join(p.name for p in params) or "none"


def bind(where: str, params: Sequence[Param], raw: Mapping[str, Any], *, typed: bool = False) -> dict[str, Any]:
    """Raw arguments (text as typed, or typed values with ``typed``) converted by ``params``; a ``""`` key is the
    first parameter. An unknown key is a :class:`ParamError` listing the known ones."""
    by_name = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "":
            if not params:
                raise ParamError(f"{where} takes no parameters, got {value!r}")
            key = params[0].name
        param = by_name.get(key)
        if param is None:
            raise ParamError(f"{where} has no parameter {key!r}; its parameters: {known_keys(params)}")
        out[param.name] = param.check(value, where) if typed else param.read(value, where)
    return out


def defaults_of(params: Sequence[Param]) -> dict[str, Any]:
    """Each parameter's default, by name (a class's keyword defaults, declared once)."""
    return {p.name: p.default for p in params}


def bind_keywords(owner: str, params: Sequence[Param], given: Mapping[str, Any]) -> dict[str, Any]:
    """A class's keyword arguments: every parameter's default (declared once, in its ``PARAMS``) with the ``given``
    values (typed, as Python passes them) checked and put over them.

    >>> bind_keywords("agent 'mcts'", (Param("iters", int, 300, minimum=1), Param("c", float, 0.7)), {"c": 1})
    {'iters': 300, 'c': 1.0}
    """
    return {**defaults_of(params), **bind(owner, params, given, typed=True)}


def describe_params(params: Sequence[Param]) -> str:
    """One line: ``iters=int (default 300), rollout=random|heuristic (default random)``; ``-`` if none."""
    return ", ".join(p.describe() for p in params) or "-"


__all__ = [
    "FALSE",
    "TRUE",
    "Param",
    "ParamError",
    "bind",
    "bind_keywords",
    "defaults_of",
    "describe_params",
    "params_from_defaults",
    "parse_assignments",
    "parse_call",
    "read_bool",
]
