"""The games of one agent's benchmark run, as arena :class:`~meeplezoo.arena.schedule.Task` s with fixed keys.

Multi-player task: against each background agent, the focal agent sits in one seat and that background agent in
every other seat; each deal (env seed ``suite.seed + d``) seats the focal agent once in every seat, so seat
advantage cancels. Solo task: one game per deal. The games are ordered deal by deal, and ``--quick`` plays the first
deals of the full suite: a full run after a quick one plays only the rest. Agent seeds are the arena's (from the game
seed and the seat). A game's key hashes the suite (name, version), the task, the full config, the spec per seat, the
seed and the budget, so the same run always has the same keys, and a rerun on the same database plays only what is
missing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from ..agents.isolation import preload_for
from ..arena.schedule import Task, _label, agent_seed
from .suite import Suite, SuiteTask, deals


@dataclass(frozen=True, slots=True)
class Planned:
    """One game of a benchmark run: the arena task to play, and what it means for the score card."""

    task: Task
    suite_task: str
    background: str | None  # None in a solo task
    focal_seat: int


def bench_key(suite: Suite, task: SuiteTask, seats: Sequence[str], seed: int) -> str:
    """The stored key of one benchmark game (see the module docstring)."""
    doc = [suite.name, suite.version, task.name, task.game, task.config, list(seats), seed, suite.budget]
    return "b" + hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:23]


def focal_label(agent: str, game: str) -> str:
    """The focal agent's spec as the run records it: canonical for MeepleZoo's own agents, as written otherwise."""
    return _label(agent, game)


def plan(
    suite: Suite,
    agent: str,
    *,
    quick: bool,
    tasks: Sequence[str] | None = None,
    imports: Sequence[str] = (),
    background: Sequence[str] | None = None,
    max_deals: int | None = None,
) -> list[Planned]:
    """Every game of ``agent``'s run of ``suite`` (the tasks named in ``tasks``, default all), deal by deal.

    ``background`` (a part of the suite's) and ``max_deals`` (the first deals of each task) make a smaller run,
    for tests and experiments: its card is not the suite's score."""
    chosen = [t for t in suite.tasks if tasks is None or t.name in tasks]
    population = list(suite.background if background is None else background)

    def deals_of(t: SuiteTask) -> int:
        return deals(t, quick) if max_deals is None else min(deals(t, quick), max_deals)

    budget = dict(suite.budget)
    time_limit = budget.pop("decision_seconds", None)
    specs = {t.name: focal_label(agent, t.game) for t in chosen}
    opponents = {t.name: [focal_label(b, t.game) for b in population] for t in chosen}
    preload = tuple(dict.fromkeys(m for t in chosen for m in preload_for([specs[t.name], *opponents[t.name]], t.game)))
    out: list[Planned] = []
    for d in range(max((deals_of(t) for t in chosen), default=0)):
        seed = suite.seed + d
        for t in chosen:
            if d >= deals_of(t):
                continue
            lineups = [(None, 0)] if t.solo else [(b, s) for b in opponents[t.name] for s in range(t.players)]
            for bg, seat in lineups:
                seats = tuple(specs[t.name] if i == seat else bg for i in range(t.players))
                arena_task = Task(
                    key=bench_key(suite, t, seats, seed),
                    game=t.game,
                    config=t.config,
                    seats=seats,  # type: ignore[arg-type]
                    seed=seed,
                    agent_seeds=tuple(agent_seed(seed, i) for i in range(t.players)),
                    deal=d,
                    time_limit=time_limit,
                    imports=tuple(imports),
                    isolation="process",
                    budget=budget,
                    preload=preload,
                )
                out.append(Planned(arena_task, t.name, bg, seat))
    return out


__all__ = ["Planned", "bench_key", "focal_label", "plan"]
