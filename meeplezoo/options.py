"""What a person types on the command line, read into checked values: bounded numbers and game options.

Game options (``--set KEY=VALUE``, ``--config FILE``, the web page's options) are read by the one typed parameter
system, :mod:`meeplezoo.envs.core.params`: a game's keys are its manifest's ``config_params()``, the adapter's
keys are :data:`~meeplezoo.envs.core.adapter.ADAPTER_PARAMS`. Every function raises :class:`OptionError` (a
:class:`~meeplezoo.envs.core.params.ParamError`: one line naming the option, the key and what it takes) on bad
input; the CLI prints it and exits with status 2.

>>> from meeplezoo.envs.core.params import Param
>>> schema = (Param("num_players", int, 4), Param("map", str, "italia"), Param("intermediate_scoring", bool, False))
>>> parse_config(["intermediate_scoring=y", "num_players=3", "map=imperium"], schema, game="concordia")
{'intermediate_scoring': True, 'num_players': 3, 'map': 'imperium'}
>>> parse_config(["num_players=three"], schema, game="concordia")
Traceback (most recent call last):
  ...
meeplezoo.options.OptionError: --set num_players takes a whole number, not 'three'
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .envs.core.adapter import ADAPTER_PARAMS
from .envs.core.params import Param, ParamError

#: seeds are numpy seeds; game g of a match uses seed + g
MAX_SEED = 10**18
#: far above any real request (a million games of the fastest env take hours)
MAX_GAMES = 1_000_000
MAX_SECONDS = 86_400.0

#: a game's config schema as the functions below take it (its keys' Params: :func:`game_params`)
Schema = Sequence[Param]


class OptionError(ParamError):
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


def config_schema(game: str) -> tuple[Param, ...]:
    """The config schema of ``game``: its manifest's; for a game declared by its env module alone (no engine in
    its manifest), its env's engine's, if the env has one."""
    from . import games

    manifest = games.manifest(game)
    if manifest.engine is not None:
        return tuple(manifest.config_params())
    engine = getattr(games.make_env(game).unwrapped, "game", None)
    return tuple(engine.config_params()) if hasattr(engine, "config_params") else ()


def game_params(game: str, adapter: bool = True) -> tuple[Param, ...]:
    """The keys a person may set for ``game``: its config schema, then (``adapter``) the adapter's."""
    own = config_schema(game)
    return (*own, *ADAPTER_PARAMS) if adapter else own


def _own(schema: Schema) -> tuple[Param, ...]:
    """The game's own keys of ``schema`` (without the adapter's)."""
    adapter = {p.name for p in ADAPTER_PARAMS}
    return tuple(p for p in schema if p.name not in adapter)


def describe_keys(schema: Schema, game: str, adapter: bool = True) -> str:
    """One line naming every config key of ``game`` with its default, then (``adapter``) the adapter's keys."""
    own = ", ".join(f"{p.name} (default {p.default!r})" for p in _own(schema)) or "none of its own"
    if not adapter:
        return f"{game} takes {own}"
    keys = ", ".join(f"{p.name} ({p.help})" for p in ADAPTER_PARAMS)
    return f"{game} takes {own}; every game takes {keys}"


def _known(schema: Schema, adapter: bool) -> dict[str, Param]:
    return {p.name: p for p in (*(ADAPTER_PARAMS if adapter else ()), *_own(schema))}


def parse_config(
    items: Sequence[str], schema: Schema, game: str, option: str = "--set", adapter: bool = True
) -> dict[str, Any]:
    """``KEY=VALUE`` strings, each read by its key's :class:`~meeplezoo.envs.core.params.Param` (``y``/``true``/``1``
    for a flag, numbers, text). An unknown key or a value the key does not take raises :class:`OptionError` naming
    ``option``; ``adapter=False`` takes the game's own keys only."""
    known = _known(schema, adapter)
    config: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"{option} takes KEY=VALUE, not {item!r}; {describe_keys(schema, game, adapter)}")
        if key not in known:
            raise OptionError(f"{game} has no config key {key!r}; {describe_keys(schema, game, adapter)}")
        try:
            config[key] = known[key].read(text.strip())
        except ParamError as exc:
            raise OptionError(f"{option} {exc}") from None
    return config


def check_config_path(path: str, what: str = "a TOML file") -> None:
    """Raise :class:`OptionError` naming ``--set`` if ``--config`` got a game option (``num_players=3``, the old
    spelling) rather than a file."""
    if "=" in path and not Path(path).exists():
        raise OptionError(f"--config takes {what}; game options are --set KEY=VALUE (--set {path})")


def read_config_file(path: str, schema: Schema, game: str, adapter: bool = True) -> dict[str, Any]:
    """Game options from the TOML file ``path``: its ``[env]`` table if it has one (a training config), else its
    top-level ``KEY = VALUE`` pairs, each checked by its key's Param (:class:`OptionError` otherwise)."""
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
    known = _known(schema, adapter)
    config = {}
    for key, value in values.items():
        if key not in known:
            raise OptionError(
                f"--config {path}: {game} has no config key {key!r}; {describe_keys(schema, game, adapter)}"
            )
        try:
            config[key] = known[key].check(value, f"--config {path}")
        except ParamError as exc:
            raise OptionError(str(exc)) from None
    return config


def read_game_options(
    game: str, items: Sequence[str] = (), path: str | None = None, adapter: bool = True
) -> dict[str, Any]:
    """The options of ``game`` from the TOML file ``path`` (if any) then ``--set`` ``items`` (later wins)."""
    schema = game_params(game, adapter)
    config = read_config_file(path, schema, game, adapter) if path else {}
    return {**config, **parse_config(items, schema, game, "--set", adapter)}
