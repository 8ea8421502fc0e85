"""``meeplezoo rules GAME``: the game's rules page, shipped beside it (its manifest's ``rules()``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import games
from . import common
from .common import CLIError


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    r = sub.add_parser(
        "rules",
        help="how to play a game",
        description="Print a game's rules page (how to play, and what the actions are called in the env).",
    )
    r.add_argument("game", help=game_help)
    r.add_argument("--raw", action="store_true", help="print the Markdown source even on a terminal")
    return r


def rules_text(game: str) -> str:
    """The player-facing rules page of ``game`` (``rules.md`` in its package); :class:`CLIError` if none."""
    manifest = games.manifest(game)
    text = manifest.rules()
    if text is None:
        raise CLIError(f"no rules page for {manifest.name}: looked for {manifest.files().joinpath('rules.md')}")
    return text


def run(args: argparse.Namespace) -> int:
    text = rules_text(args.game)
    console = common.console()
    if console.is_terminal and not args.raw:
        from rich.markdown import Markdown

        console.print(Markdown(text))
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
