"""``meeplezoo baselines``: a quick check of every registered game, its baseline agent (the first its manifest
ships: its heuristic) against random players."""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.table import Table

from .. import games
from ..agents.run_options import EXIT_FORFEITS, add_run_options, mode_line, read_budget
from . import common
from .common import games_arg, plain, seed_arg
from .results import match_table


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    bl = sub.add_parser(
        "baselines",
        help="a quick check per game: heuristic against random players",
        description="A quick check of every game: one heuristic agent against random players, seats rotating, "
        "at the game's default settings, nothing stored. Tournaments with ratings, a database and a report are "
        "meeplezoo arena.",
    )
    games_arg(bl, 20, "games per game (default 20)")
    seed_arg(bl, 1, "seed of the first game; game g uses seed+g")
    bl.add_argument("--verbose", action="store_true", help="a line per game")
    add_run_options(bl)
    return bl


def run(args: argparse.Namespace) -> int:
    """Every registered game: its baseline agent against random players (default seats), seats rotating; exit
    status 4 when a game ended by an agent's forfeit."""
    budget = read_budget(args.time_limit, args.budget)
    how = {"isolation": args.isolation, "budget": budget}
    forfeits = 0
    console = common.console()
    title = f"Baselines: each game's heuristic against random, {args.games} games per game, seats rotating"
    summary = Table(title=title)
    for col in ("game", "players", "heuristic wins", "win rate", "random's best win rate", "decisions/game", "s"):
        summary.add_column(col, justify="left" if col == "game" else "right")
    args.quiet = not args.verbose
    for name in games.game_names():
        n = len(games.make_env(name).possible_agents)
        entrants = [games.manifest(name).baseline_agent] + ["random"] * (n - 1)
        console.rule(f"{name}: {', '.join(entrants)}")
        start = time.perf_counter()
        result = match_table(console, name, entrants, args, {}, **how)
        forfeits += sum(r.forfeit is not None for r in result.records)
        elapsed = time.perf_counter() - start
        standings = {s.label: s for s in result.standings()}
        lead = standings[entrants[0]]
        others = max((s.win_rate for label, s in standings.items() if label != entrants[0]), default=0.0)
        steps = sum(r.steps for r in result.records) / len(result.records)
        summary.add_row(
            name,
            str(n),
            f"{lead.wins}/{lead.games}",
            f"{100 * lead.win_rate:.1f}%",
            f"{100 * others:.1f}%",
            f"{steps:.0f}",
            f"{elapsed:.1f}",
        )
    console.rule("Summary")
    console.print(summary)
    plain(console, mode_line(args.isolation, budget))
    return EXIT_FORFEITS if forfeits else 0
