"""``meeplezoo list``: every registered game as its manifest describes it, and every agent with its parameters."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import games
from ..envs.core.errors import MeepleZooError
from ..labels import players_text
from . import common


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    return sub.add_parser("list", help="list games and agents")


def games_table(available_agents: Callable[[str], list[str]]) -> tuple[Table, list[str]]:
    """One row per registered game (name, title, registry id, player counts, agents) and the problems
    of the games that cannot be loaded (a plugin's broken install), listed under the table."""
    t = Table(title="MeepleZoo games", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    t.add_column("game", no_wrap=True)
    t.add_column("title")
    t.add_column("registry id", no_wrap=True)
    t.add_column("players", justify="right", no_wrap=True)
    t.add_column("agents", overflow="fold")
    broken = []
    for manifest in games.manifests():
        try:
            games.env_module(manifest.name)  # importable: a broken plugin is listed below the table instead
            counts = players_text(games.player_counts(manifest.name))
        except MeepleZooError as exc:
            broken.append(str(exc))
            continue
        agents = ", ".join(available_agents(manifest.name))
        t.add_row(manifest.name, manifest.title, manifest.env_id, counts, agents)
    return t, broken


def run(args: argparse.Namespace) -> int:
    """Games and agents in 80 columns: nothing truncated, titles and agent names wrap inside their column."""
    from ..agents import available_agents

    console = common.console()
    if not console.is_terminal:
        console = Console(highlight=False, width=80)
    table, broken = games_table(available_agents)
    console.print(table)
    for text in broken:
        console.print(Text(f"unavailable: {text}"))
    for manifest in games.manifests():
        if manifest.solo_env_id:
            console.print(Text(f"{manifest.name}'s solo mode as a Gymnasium env: {manifest.solo_env_id}"))
    console.print(_agents_table(available_agents))
    console.print("How to play a game: meeplezoo rules GAME")
    return 0


def _agents_table(available_agents: Callable[[str], list[str]]) -> Table:
    """Every agent: the games it plays and the parameters of its spec string (``NAME:key=value,...``)."""
    from ..agents.registry import AgentUnavailableError, agent_class
    from ..agents.spec import describe_params

    names = sorted({a for g in games.game_names() for a in available_agents(g)})
    t = Table(title="Agents (spec: NAME or NAME:key=value,...)", box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("agent", "games", "parameters"):
        t.add_column(col, overflow="fold")
    for name in names:
        where = [g for g in games.game_names() if name in available_agents(g)]
        try:
            params = describe_params(getattr(agent_class(name, where[0]), "PARAMS", ()))
        except AgentUnavailableError as exc:
            params = f"(unavailable: {exc})"
        t.add_row(name, "all" if len(where) == len(games.game_names()) else ", ".join(where), params)
    return t
