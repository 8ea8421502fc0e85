"""``meeplezoo arena``: stored, resumable tournaments (the command lives with the arena:
:mod:`meeplezoo.arena.command`)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    from ..arena import command

    command.add_arena_parser(sub, game_help)
    return sub.choices["arena"]


def run(args: argparse.Namespace) -> int:
    from ..arena import command

    return command.cmd_arena(args)
