"""``meeplezoo leaderboard CARD [CARD ...] [--out FILE]``: the benchmark leaderboard page from stored score cards
(:mod:`meeplezoo.benchmark.leaderboard`). A card of another suite version, or a file that is not a card, is a
one-line error (exit 2)."""

from __future__ import annotations

import argparse
from typing import Any

#: where the leaderboard goes unless ``--out`` says otherwise
DEFAULT_OUT = "docs/leaderboard.md"


def suite_version() -> int:
    """The suite version this MeepleZoo runs (its score cards are the only ones it ranks)."""
    try:
        from ..benchmark.suite import CURRENT_VERSION
    except ImportError:  # pragma: no cover - a tree without the suite module yet
        return 1
    return CURRENT_VERSION


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "leaderboard",
        help="the benchmark leaderboard (Markdown) from stored score cards",
        description="Rank score cards written by `meeplezoo benchmark` (each a scorecard.json or the folder holding "
        "one) by their headline score, one row per agent and mode, with the command that reproduced each row. "
        f"Every card must be of the suite version this MeepleZoo runs (v{suite_version()}).",
    )
    p.add_argument("cards", nargs="+", metavar="CARD", help="a scorecard.json, or a folder holding one")
    p.add_argument("--out", metavar="FILE", default=DEFAULT_OUT, help=f"the page to write (default {DEFAULT_OUT})")
    return p


def run(args: argparse.Namespace) -> int:
    from ..benchmark import leaderboard

    cards = leaderboard.load_cards(args.cards, suite_version())
    rows, notes = leaderboard.ranked(cards)
    out = leaderboard.write_markdown(cards, args.out)
    print(f"wrote {out}: {_count(len(rows), 'row')} from {_count(len(cards), 'score card')}")
    for note in notes:
        print(f"note: {note}")
    return 0
