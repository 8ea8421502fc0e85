"""``meeplezoo bench``: speed figures of random play for every registered game (:mod:`meeplezoo.bench`)."""

from __future__ import annotations

import argparse
from typing import Any

from .. import bench, games, options
from . import common
from .common import games_arg, seed_arg


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    b = sub.add_parser("bench", help="speed figures of random play", description=bench.__doc__.split("\n\n")[0])
    b.add_argument(
        "--seconds",
        type=options.bounded_float("--seconds", 0.0, options.MAX_SECONDS),
        default=30.0,
        help="total CPU-time budget, shared by the envs (default 30)",
    )
    games_arg(b, None, "at most this many AEC games per env")
    seed_arg(b, 0)
    b.add_argument("--no-connect-four", action="store_true", help="skip PettingZoo's connect_four_v3")
    b.add_argument("--quiet", action="store_true", help="only the table")
    return b


def run(args: argparse.Namespace) -> int:
    console = common.console()
    console.print(
        f"Benchmarking {', '.join(m.env_module_name for m in games.manifests())}"
        + ("" if args.no_connect_four else f" and {bench.CONNECT_FOUR}")
        + f" within about {args.seconds:g} s (random legal actions, seed {args.seed})"
    )
    rows = bench.run(
        seconds=args.seconds,
        max_games=args.games,
        seed=args.seed,
        connect_four=not args.no_connect_four,
        progress=lambda name: console.print(f"  {name} ...") if not args.quiet else None,
    )
    console.print(bench.table(rows))
    return 0
