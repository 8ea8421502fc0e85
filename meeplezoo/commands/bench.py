"""``meeplezoo bench``: speed figures of random play for every registered game (:mod:`meeplezoo.bench`), or, with
``meeplezoo bench isolation``, the cost of running each arena agent in its own process
(:mod:`meeplezoo.bench.isolation`)."""

from __future__ import annotations

import argparse
from typing import Any

from .. import bench, games, options
from ..bench import isolation
from . import common
from .common import games_arg, seed_arg

#: what ``meeplezoo bench`` measures: the first is the default
SECTIONS = ("speed", "isolation")


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    b = sub.add_parser(
        "bench",
        help="speed figures of random play; the cost of isolated agents",
        description=bench.__doc__.split("\n\n")[0]
        + " With 'isolation': arena games/s with every agent in its own process against in-process.",
    )
    b.add_argument(
        "section",
        nargs="?",
        choices=SECTIONS,
        default=SECTIONS[0],
        help="speed (default): random play, clone + apply, playouts, IS-MCTS iterations per game; isolation: arena "
        "games/s isolated against in-process, overhead per decision and per game",
    )
    b.add_argument(
        "--seconds",
        type=options.bounded_float("--seconds", 0.0, options.MAX_SECONDS),
        default=None,
        help="total budget, shared by the envs (default 30 CPU s; isolation: 60 wall s)",
    )
    games_arg(b, None, "at most this many games per env (isolation: per game, lineup and mode)")
    seed_arg(b, 0)
    b.add_argument("--quick", action="store_true", help="a quick look: 1 game per env (as --games 1 --seconds 1)")
    b.add_argument("--no-connect-four", action="store_true", help="skip PettingZoo's connect_four_v3 (speed)")
    b.add_argument("--quiet", action="store_true", help="only the table")
    return b


def run(args: argparse.Namespace) -> int:
    if args.quick:
        args.games, args.seconds = 1, 1.0
    if args.section == "isolation":
        return run_isolation(args)
    console = common.console()
    seconds = 30.0 if args.seconds is None else args.seconds
    console.print(
        f"Benchmarking {', '.join(m.env_module_name for m in games.manifests())}"
        + ("" if args.no_connect_four else f" and {bench.CONNECT_FOUR}")
        + f" within about {seconds:g} s (random legal actions, seed {args.seed})"
    )
    rows = bench.run(
        seconds=seconds,
        max_games=args.games,
        seed=args.seed,
        connect_four=not args.no_connect_four,
        progress=lambda name: console.print(f"  {name} ...") if not args.quiet else None,
    )
    console.print(bench.table(rows))
    return 0


def run_isolation(args: argparse.Namespace) -> int:
    """``meeplezoo bench isolation``: the table of :mod:`meeplezoo.bench.isolation` and the issue's goals."""
    console = common.console()
    seconds = 60.0 if args.seconds is None else args.seconds
    names = isolation.builtin_games()
    console.print(
        f"Arena games of {', '.join(names)} at {isolation.PLAYERS} players, isolated and in-process, within about "
        f"{seconds:g} s of wall time (seeds from {args.seed}; one game at a time, as meeplezoo arena --workers 1)"
    )
    rows = isolation.run(
        seconds=seconds,
        max_games=args.games,
        seed=args.seed,
        progress=lambda name: console.print(f"  {name} ...") if not args.quiet else None,
        only=names,
    )
    console.print(isolation.table(rows))
    for line in isolation.summary(rows):
        common.plain(console, line)
    return 0
