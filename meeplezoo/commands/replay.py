"""``meeplezoo replay DB [ID]``: the games an arena database stores, or one stepped through (the command lives with
the arena: :mod:`meeplezoo.arena.command`)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    from ..arena import command

    command.add_replay_parser(sub)
    return sub.choices["replay"]


def run(args: argparse.Namespace) -> int:
    from ..arena import command

    return command.cmd_replay(args)
