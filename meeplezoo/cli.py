"""The ``meeplezoo`` command: play games between baseline agents, measure speed, read the rules.

::

    meeplezoo play seastead --agents heuristic random --seed 7      # one game, shown as played
    meeplezoo play seastead --agents heuristic random --games 20    # a match with seat rotation
    meeplezoo play concordia --agents heuristic random random --set map=imperium  # 3 agents: 3 players
    meeplezoo play concordia --agents heuristic --set num_players=3 # one agent in every seat
    meeplezoo baselines --games 20                                  # a quick check: heuristic vs random
    meeplezoo bench --seconds 30                                    # speed figures
    meeplezoo rules seastead                                        # how to play
    meeplezoo list                                                  # games and agents
    meeplezoo arena seastead --agents random heuristic --db r.sqlite # a stored, resumable tournament
    meeplezoo replay r.sqlite                                       # the stored games and their ids
    meeplezoo replay r.sqlite 1                                     # step through a stored game

A game option is ``--set KEY=VALUE`` and a TOML file ``--config FILE`` in every command; ranks count from 0 (the
winner's); tables call a long agent spec by a short label, with a legend under them.

This module is the dispatcher: each command is a module with ``add_parser`` and ``run``
(:mod:`meeplezoo.commands`), listed in :data:`COMMANDS` in the order the help shows them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from . import __version__, games
from .commands import arena, baselines, bench, benchmark, leaderboard, play, replay, rules, train
from .commands import list as list_games
from .commands.common import CLIError
from .envs.core.errors import ActionTypeError, MeepleZooError
from .labels import players_text
from .web import command as serve

#: command name -> the module holding its ``add_parser`` and ``run``, in the order the help lists them
COMMANDS: dict[str, ModuleType] = {
    "play": play,
    "bench": bench,
    "rules": rules,
    "baselines": baselines,
    "list": list_games,
    "serve": serve,
    "arena": arena,
    "benchmark": benchmark,
    "leaderboard": leaderboard,
    "replay": replay,
    "train": train,
}


class _Parser(argparse.ArgumentParser):
    """argparse with its errors in one line (no usage block): ``meeplezoo play: error: ...``, status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _epilog() -> str:
    names = games.game_names()
    example = f"meeplezoo play {names[0]} --agents heuristic random; " if names else ""
    return f"Start with: meeplezoo list; {example}meeplezoo COMMAND --help for a command's options."


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command, each added by its module and run by its module's ``run``."""
    game_help = "game name: " + ", ".join(games.game_names())
    p = _Parser(prog="meeplezoo", description="MeepleZoo: board-game environments and baselines.", epilog=_epilog())
    p.add_argument("--version", action="version", version=f"meeplezoo {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS.values():
        module.add_parser(sub, game_help).set_defaults(func=module.run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # no command: the help, and status 2 as for any incomplete command line
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except (MeepleZooError, ActionTypeError) as exc:  # ActionTypeError: an agent answered no int
        print(f"meeplezoo {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C in a long match: no traceback
        print(f"meeplezoo {args.command}: interrupted", file=sys.stderr)
        return 130


__all__ = ["COMMANDS", "CLIError", "build_parser", "main", "players_text"]

if __name__ == "__main__":
    sys.exit(main())
