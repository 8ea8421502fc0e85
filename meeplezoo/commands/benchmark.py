"""``meeplezoo benchmark``: an agent's score card on the fixed suite (the command lives with the benchmark:
:mod:`meeplezoo.benchmark.command`)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    from ..benchmark import command

    return command.add_parser(sub, game_help)


def run(args: argparse.Namespace) -> int:
    from ..benchmark import command

    return command.run(args)
