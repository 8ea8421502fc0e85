"""What the commands share: the one-line user error, the console, and the options every command spells alike
(``--seed``, ``--games``, ``--set KEY=VALUE`` and ``--config FILE``)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from .. import games, options
from ..envs.core.errors import MeepleZooError
from ..labels import table_console


class CLIError(MeepleZooError):
    """A user error the CLI reports in one line (exit status 2)."""


def console() -> Console:
    """The console a command prints to (a function of this module: tests give the commands a console of their
    own by replacing it)."""
    return table_console()


def plain(out: Console, text: str) -> None:
    """Print game text as is (no rich markup: Seastead's docks print as ``dock 1[fish | ...]``)."""
    out.print(Text(text), soft_wrap=True)


def fmt(x: float) -> str:
    return f"{x:g}"


def seed_arg(parser: argparse.ArgumentParser, default: int | None, help: str | None = None) -> None:
    """``--seed``: a whole number from 0 (one line and exit 2 otherwise)."""
    parser.add_argument("--seed", type=options.bounded_int("--seed", 0, options.MAX_SEED), default=default, help=help)


def games_arg(parser: argparse.ArgumentParser, default: int | None, help: str) -> None:
    """``--games``: a whole number from 1 (one line and exit 2 otherwise)."""
    parser.add_argument(
        "--games", type=options.bounded_int("--games", 1, options.MAX_GAMES), default=default, help=help
    )


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """``--set KEY=VALUE`` (repeatable) and ``--config FILE`` (TOML): the game options, as every command spells
    them."""
    options.add_set_option(
        parser,
        "a game option (repeatable; the game's keys and reward_mode, max_cycles, ...): true/false, numbers or "
        "text, e.g. --set num_players=3",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="game options from a TOML file (KEY = VALUE lines, or its [env] table); --set overrides it",
    )


def game_options(game: str, args: argparse.Namespace, adapter: bool = True) -> dict[str, Any]:
    """The game options of ``--config FILE`` (TOML) then ``--set KEY=VALUE`` (later wins), each read by its
    Param (:func:`meeplezoo.options.read_game_options`)."""
    return options.read_game_options(game, args.set, args.config, adapter)


def make_env(game: str, config: dict[str, Any], **kwargs: Any) -> Any:
    """The env of ``game`` with ``config`` (a one-line error naming the game's keys if it is refused)."""
    try:
        return games.make_env(game, **kwargs, **config)
    except MeepleZooError as exc:
        raise CLIError(f"{exc}; {options.describe_keys(options.game_params(game), game)}") from None
