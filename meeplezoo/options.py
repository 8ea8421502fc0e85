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
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .envs.core.errors import MeepleZooError

#: seeds are numpy seeds; game g of a match uses seed + g
MAX_SEED = 10**18
#: far above any real request (a million games of the fastest env take hours)
MAX_GAMES = 1_000_000
MAX_SECONDS = 86_400.0

TRUE = frozenset({"true", "1", "yes", "y", "on"})
FALSE = frozenset({"false", "0", "no", "n", "off"})

#: the adapter's keys a person may set with --set (render_mode is the CLI's), their default and values
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


def add_set_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--set KEY=VALUE`` (repeatable): a game option, as every command spells it."""
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help=help)


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


def describe_keys(defaults: Mapping[str, Any], game: str, adapter: bool = True) -> str:
    """One line naming every config key of ``game`` with its default, then (``adapter``) the adapter's keys."""
    own = ", ".join(f"{k} (default {v!r})" for k, v in defaults.items()) or "none of its own"
    if not adapter:
        return f"{game} takes {own}"
    keys = ", ".join(f"{k} ({values})" for k, (_, values) in ADAPTER_OPTIONS.items())
    return f"{game} takes {own}; every game takes {keys}"


def _known(defaults: Mapping[str, Any], adapter: bool) -> dict[str, Any]:
    return {**({k: d for k, (d, _) in ADAPTER_OPTIONS.items()} if adapter else {}), **defaults}


def parse_config(
    items: Sequence[str], defaults: Mapping[str, Any], game: str, option: str = "--set", adapter: bool = True
) -> dict[str, Any]:
    """``KEY=VALUE`` strings read by the type of each key's default (``True``/``true``/``1`` for a flag,
    numbers, text). An unknown key or a value of the wrong type raises :class:`OptionError` naming ``option``;
    ``adapter=False`` takes the game's own keys only."""
    known = _known(defaults, adapter)
    config: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if not sep or not key:
            raise OptionError(f"{option} takes KEY=VALUE, not {item!r}; {describe_keys(defaults, game, adapter)}")
        if key not in known:
            raise OptionError(f"{game} has no config key {key!r}; {describe_keys(defaults, game, adapter)}")
        try:
            config[key] = parse_value(text, known[key])
        except ValueError as exc:
            raise OptionError(f"{option} {key} takes {exc}") from None
    return config


def fits_default(value: Any, default: Any) -> bool:
    """Whether a value read from a TOML file has the type of its key's default: a bool for a flag, an int (not
    a bool) for an int, a number for a float, a list of the default's element type for a list; None takes any."""
    if default is None:
        return True
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, list):
        return isinstance(value, list) and (not default or all(isinstance(v, type(default[0])) for v in value))
    return isinstance(value, type(default))


def check_config_path(path: str, what: str = "a TOML file") -> None:
    """Raise :class:`OptionError` naming ``--set`` if ``--config`` got a game option (``num_players=3``, the old
    spelling) rather than a file."""
    if "=" in path and not Path(path).exists():
        raise OptionError(f"--config takes {what}; game options are --set KEY=VALUE (--set {path})")


def read_config_file(path: str, defaults: Mapping[str, Any], game: str, adapter: bool = True) -> dict[str, Any]:
    """Game options from the TOML file ``path``: its ``[env]`` table if it has one (a training config), else its
    top-level ``KEY = VALUE`` pairs, each checked against the key's default (:class:`OptionError` otherwise)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    check_config_path(path)
    try:
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise OptionError(f"--config {path}: cannot be read ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise OptionError(f"--config {path} is not a valid TOML file: {exc}") from None
    values = doc["env"] if isinstance(doc.get("env"), dict) else doc
    known = _known(defaults, adapter)
    for key, value in values.items():
        if key not in known:
            raise OptionError(f"--config {path}: {game} has no config key {key!r}; {describe_keys(defaults, game)}")
        if not fits_default(value, known[key]):
            raise OptionError(f"--config {path}: {key} takes a value like {known[key]!r}, not {value!r}")
    return dict(values)
