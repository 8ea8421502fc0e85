"""What a person types on the command line, read into checked values: bounded numbers and game config.

Every function raises :class:`OptionError` (a one-line message naming the option and what it takes) on bad
input; the CLI prints it and exits with status 2.

>>> parse_config(["intermediate_scoring=True", "num_players=3", "map=imperium"], {"num_players": 4,
...     "map": "italia", "intermediate_scoring": False}, game="concordia")
{'intermediate_scoring': True, 'num_players': 3, 'map': 'imperium'}
>>> parse_bool("yes"), parse_bool("0")
(True, False)
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .envs.core.errors import MeepleZooError

#: seeds are numpy seeds; game g of a match uses seed + g
MAX_SEED = 10**18
#: far above any real request (a million games of the fastest env take hours)
MAX_GAMES = 1_000_000
MAX_SECONDS = 86_400.0

TRUE = frozenset({"true", "1", "yes", "y", "on"})
FALSE = frozenset({"false", "0", "no", "n", "off"})

#: the adapter's keys a person may set with --config (render_mode is the CLI's), their default and values
ADAPTER_OPTIONS: dict[str, tuple[Any, str]] = {
    "reward_mode": ("win", "win, rank or score_margin"),
    "illegal_action": ("penalize", "penalize or raise"),
    "illegal_reward": (-1.0, "a number"),
    "max_cycles": (None, "a positive integer"),
}


class OptionError(MeepleZooError):
    """A command-line value that is not accepted."""


def bounded_int(name: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` reading an int in ``low..high`` (argparse names the option in its message)."""

    def read(text: str) -> int:
        try:
            value = int(text.strip().replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"takes a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"takes a whole number from {low} to {high}, not {text}")
        return value

    read.__name__ = name  # argparse names the type in its own messages
    return read


def bounded_float(name: str, low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type`` reading a finite number in ``(low, high]``."""

    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"takes a number, not {text!r}") from None
        if not (math.isfinite(value) and low < value <= high):
            raise argparse.ArgumentTypeError(f"takes a number above {low:g} and at most {high:g}, not {text}")
        return value

    read.__name__ = name
    return read


def parse_bool(text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE:
        return True
    if word in FALSE:
        return False
    raise ValueError(f"true or false (also 1/0, yes/no), not {text!r}")


def parse_number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        value = float(text)
        if not math.isfinite(value):
            raise ValueError(f"a finite number, not {text!r}") from None
        return value


def parse_value(text: str, default: Any) -> Any:
    """``text`` read as the type of ``default``: bool, int, float, str; with no default (None) a number
    if it reads as one, ``None`` for none/null, else the text."""
    if isinstance(default, bool):
        return parse_bool(text)
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"a whole number, not {text!r}") from None
    if isinstance(default, float):
        try:
            return float(parse_number(text))
        except ValueError:
            raise ValueError(f"a number, not {text!r}") from None
    if isinstance(default, str):
        return text
    if text.strip().lower() in ("none", "null"):
        return None
    try:
        return parse_number(text)
    except ValueError:
        return text


def describe_keys(defaults: Mapping[str, Any], game: str) -> str:
    """One line naming every config key of ``game`` with its default, then the adapter's keys."""
    own = ", ".join(f"{k} (default {v!r})" for k, v in defaults.items()) or "none of its own"
    adapter = ", ".join(f"{k} ({values})" for k, (_, values) in ADAPTER_OPTIONS.items())
    return f"{game} takes {own}; every game takes {adapter}"


def parse_config(items: Sequence[str], defaults: Mapping[str, Any], game: str) -> dict[str, Any]:
    """``KEY=VALUE`` strings read by the type of each key's default (``True``/``true``/``1`` for a flag,
    numbers, text). An unknown key or a value of the wrong type raises :class:`OptionError`."""
    known = {**{k: d for k, (d, _) in ADAPTER_OPTIONS.items()}, **defaults}
    config: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if not sep or not key:
            raise OptionError(f"--config takes KEY=VALUE, not {item!r}; {describe_keys(defaults, game)}")
        if key not in known:
            raise OptionError(f"{game} has no config key {key!r}; {describe_keys(defaults, game)}")
        try:
            config[key] = parse_value(text, known[key])
        except ValueError as exc:
            raise OptionError(f"--config {key} takes {exc}") from None
    return config
