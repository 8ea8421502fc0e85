"""The cost of isolation: arena games per second with every agent in its own process against in-process agents.

For every built-in game at 2 players, and for two lineups (the game's baseline agent in both seats, ``heuristic``
for the built-in games, and ``random`` in both seats), :func:`run` plays the same seeded games twice through the
arena's own path (:func:`meeplezoo.arena.play.play_task` on scheduled :class:`~meeplezoo.arena.schedule.Task` s,
one game at a time, as ``meeplezoo arena --workers 1`` plays them): once with ``isolation="process"`` and once
with ``isolation="none"``, the two modes alternating game by game so that a change in the machine's load falls on
both. It also times the start and stop of a game's agent processes alone (:func:`~meeplezoo.agents.isolation.
isolated_seats` entered and left, no decision), so that the rest of the difference, spread over the decisions,
is the overhead of one isolated decision (the view pickled and sent, the agent's own copy rebuilt, the answer
read back).

Games per second are wall-clock (what a user waits for: an isolated game's work is spread over three processes);
the ratio and the overheads are also given in CPU time, the referee's (``time.process_time``) plus the agent
processes' own CPU clocks, which a loaded machine does not inflate. Figures only: nothing here asserts a speed.
``meeplezoo bench isolation`` prints them as a table.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import games
from ..agents.budget import Budget
from ..agents.isolation import isolated_seats, preload_for, process_cpu
from ..arena.play import play_task
from ..arena.schedule import DEFAULT_TIME_LIMIT, Task, agent_seed, game_config, task_key
from ..envs.core.errors import MeepleZooError

#: the two ways an arena game runs its agents, in the table's order
MODES = ("none", "process")
#: the player count every game is measured at
PLAYERS = 2
#: most start-and-stop samples per row (each is one game's agent processes started and stopped)
MAX_STARTS = 10


@dataclass
class IsolationRow:
    """The figures of one game and lineup: per mode (``none``, ``process``), games played, wall and CPU seconds."""

    game: str
    spec: str  # the agent in both seats
    games: int = 0  # games played in each mode (the same seeds in both)
    decisions: int = 0  # decisions of those games (the same in both modes)
    wall: dict[str, float] = field(default_factory=lambda: dict.fromkeys(MODES, 0.0))
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(MODES, 0.0))
    starts: list[float] = field(default_factory=list)  # wall seconds to start and stop one game's agent processes
    start_cpu: list[float] = field(default_factory=list)  # CPU seconds of it (the referee's and the agents' own)
    note: str = ""

    def games_per_s(self, mode: str) -> float | None:
        return self.games / self.wall[mode] if self.wall[mode] > 0 else None

    @property
    def ratio(self) -> float | None:
        """Isolated games per second over in-process games per second (1.0: isolation costs nothing)."""
        iso, own = self.games_per_s("process"), self.games_per_s("none")
        return iso / own if iso and own else None

    @property
    def cpu_ratio(self) -> float | None:
        """CPU seconds of an in-process game over those of an isolated one (referee and agent processes)."""
        return self.cpu["none"] / self.cpu["process"] if self.cpu["process"] > 0 and self.games else None

    @property
    def start_ms(self) -> float | None:
        """Mean milliseconds to start and stop the agent processes of one game (both seats)."""
        return 1000 * sum(self.starts) / len(self.starts) if self.starts else None

    @property
    def start_cpu_ms(self) -> float | None:
        """Mean CPU milliseconds of starting and stopping a game's agent processes (referee and agents)."""
        return 1000 * sum(self.start_cpu) / len(self.start_cpu) if self.start_cpu else None

    def _per_decision(self, spent: dict[str, float], start_ms: float | None) -> float | None:
        if not self.decisions or start_ms is None:
            return None
        return 1e6 * (spent["process"] - spent["none"] - self.games * start_ms / 1000) / self.decisions

    @property
    def decision_us(self) -> float | None:
        """Microseconds an isolated decision costs more than an in-process one: the extra wall time of the
        isolated games, less their agent processes' start and stop, per decision."""
        return self._per_decision(self.wall, self.start_ms)

    @property
    def decision_cpu_us(self) -> float | None:
        """The same in CPU time (the referee's and the agent processes'): what a loaded machine does not change."""
        return self._per_decision(self.cpu, self.start_cpu_ms)


def builtin_games() -> list[str]:
    """MeepleZoo's own games (not plugins') that take :data:`PLAYERS` players, in listing order."""
    return [m.name for m in games.manifests() if m.distribution == "meeplezoo" and PLAYERS in m.player_counts]


def lineups(game: str) -> list[str]:
    """The agents measured in ``game``, each in both seats: the game's baseline agent, then ``random``."""
    return list(dict.fromkeys([games.manifest(game).baseline_agent, "random"]))


def task(game: str, spec: str, seed: int, isolation: str) -> Task:
    """The arena's task for one game of ``spec`` in both seats (as ``meeplezoo arena`` schedules it)."""
    config = game_config(game, {}, PLAYERS)
    seats = (spec,) * PLAYERS
    return Task(
        key=task_key(game, config, seats, seed, DEFAULT_TIME_LIMIT),
        game=game,
        config=config,
        seats=seats,
        seed=seed,
        agent_seeds=tuple(agent_seed(seed, s) for s in range(PLAYERS)),
        deal=0,
        time_limit=DEFAULT_TIME_LIMIT,
        isolation=isolation,
        preload=tuple(preload_for(seats, game)),
    )


def timed_game(t: Task) -> tuple[float, float, dict[str, Any]]:
    """Play ``t`` through the arena's path; return its wall seconds, CPU seconds (this process and, isolated, the
    agent processes' own) and the result."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = play_task(t)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if result["forfeit"] is not None:
        f = result["forfeit"]
        raise MeepleZooError(
            f"{t.game} seed {t.seed}, isolation {t.isolation}: seat {f['seat']} forfeited: {f['detail']}"
        )
    return wall, cpu + sum(seat[3] for seat in result["seat_time"] if len(seat) > 3), result


def start_stop(game: str, spec: str, seed: int) -> tuple[float, float]:
    """Wall and CPU seconds (this process's and the agent processes' own) to start the agent processes of one game
    of ``spec`` and stop them, without a decision."""
    t = task(game, spec, seed, "process")
    env = games.make_env(game, **t.config)
    wall, cpu = time.perf_counter(), time.process_time()
    with isolated_seats(env, list(t.seats), game, seeds=list(t.agent_seeds), budget=Budget()) as seats:
        agents = sum(process_cpu(agent.process.pid) or 0.0 for agent in seats.values())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu + agents
    env.close()
    return wall, cpu


def measure(game: str, spec: str, seconds: float, max_games: int | None, seed: int) -> IsolationRow:
    """One row: games of ``spec`` in both seats of ``game``, each seed in both modes, until ``seconds`` of wall time
    pass or ``max_games`` are done (at least one); then the agent processes' start and stop alone."""
    row = IsolationRow(game, spec)
    timed_game(task(game, spec, seed, "process"))  # warm-up (imports, caches), not counted
    started = time.perf_counter()
    while True:
        order = MODES if row.games % 2 == 0 else MODES[::-1]  # alternate which mode goes first
        played = {}
        for mode in order:
            wall, cpu, result = timed_game(task(game, spec, seed + row.games, mode))
            row.wall[mode] += wall
            row.cpu[mode] += cpu
            played[mode] = result
        if played["none"]["actions"] != played["process"]["actions"]:
            row.note = "the modes played different games"
        row.games += 1
        row.decisions += played["none"]["decisions"]
        if (max_games is not None and row.games >= max_games) or time.perf_counter() - started >= seconds:
            break
    for i in range(min(row.games, MAX_STARTS)):
        wall, cpu = start_stop(game, spec, seed + i)
        row.starts.append(wall)
        row.start_cpu.append(cpu)
    return row


def run(
    seconds: float = 60.0,
    max_games: int | None = None,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    only: list[str] | None = None,
) -> list[IsolationRow]:
    """Measure every built-in game (or the games ``only``) with each of its :func:`lineups`, ``seconds`` of wall
    time shared equally between the rows (``max_games``: at most that many games per row and mode)."""
    names = only if only is not None else builtin_games()
    plan = [(game, spec) for game in names for spec in lineups(game)]
    rows = []
    for game, spec in plan:
        if progress:
            progress(f"{game}: {spec} vs {spec}")
        rows.append(measure(game, spec, seconds / max(len(plan), 1), max_games, seed))
    return rows


def summary(rows: list[IsolationRow]) -> list[str]:
    """The issue's goals against the figures: the isolated heuristic's share of in-process throughput (goal at least
    80%), the overhead per decision (goal under 1 ms) and per game."""

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs) if xs else float("nan")

    baseline = [r for r in rows if r.spec != "random" and r.ratio is not None]
    decided = [r.decision_us for r in rows if r.decision_us is not None]
    decided_cpu = [r.decision_cpu_us for r in rows if r.decision_cpu_us is not None]
    started = [r.start_ms for r in rows if r.start_ms is not None]
    started_cpu = [r.start_cpu_ms for r in rows if r.start_cpu_ms is not None]
    lines = []
    if baseline:
        worst = min(baseline, key=lambda r: r.ratio or 0.0)
        lines.append(
            f"baseline agents isolated: {100 * mean([r.ratio for r in baseline]):.0f}% of in-process games/s "
            f"(lowest {100 * (worst.ratio or 0):.0f}%, {worst.game}; goal: at least 80%)"
        )
    if decided:
        lines.append(
            f"overhead per isolated decision: {mean(decided):.0f} µs on average, {min(decided):.0f} to "
            f"{max(decided):.0f} µs (goal: under 1000 µs); in CPU time {mean(decided_cpu):.0f} µs on average"
        )
    if started:
        lines.append(
            f"agent processes started and stopped per game (2 seats): {mean(started):.1f} ms on average "
            f"({mean(started_cpu):.1f} ms of CPU)"
        )
    lines.append(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall-clock figures)")
    return lines


#: the table's columns; the last three are pairs: wall clock / CPU time (the referee's and the agent processes')
COLUMNS = ("game", "agent", "games", "dec/game", "in-process g/s", "isolated g/s", "ratio", "µs/decision", "ms/game")
PAIRS = COLUMNS[-3:]


def table(rows: list[IsolationRow]):
    """A rich table of the figures, with what each column means in its caption."""
    from rich.table import Table
    from rich.text import Text

    def fmt(x: float | None, digits: int = 0) -> str:
        return "-" if x is None else f"{x:,.{digits}f}"

    t = Table(
        title=f"Arena games at {PLAYERS} players (the agent in both seats): isolated against in-process",
        caption="ratio: isolated games/s over in-process games/s; µs/decision: what an isolated decision costs more; "
        "ms/game: starting and stopping a game's two agent processes; each as wall clock / CPU time (the referee's "
        "and the agent processes')",
    )
    notes = any(r.note for r in rows)
    for col in COLUMNS + (("note",) if notes else ()):
        t.add_column(col, justify="left" if col in ("game", "agent", "note") else "right", no_wrap=col in PAIRS)
    for r in rows:
        cells = [
            r.game,
            r.spec,
            str(r.games),
            fmt(r.decisions / r.games if r.games else None, 1),
            fmt(r.games_per_s("none"), 1),
            fmt(r.games_per_s("process"), 1),
            f"{fmt(r.ratio, 2)} / {fmt(r.cpu_ratio, 2)}",
            f"{fmt(r.decision_us)} / {fmt(r.decision_cpu_us)}",
            f"{fmt(r.start_ms, 1)} / {fmt(r.start_cpu_ms, 1)}",
        ]
        t.add_row(*cells, *((Text(r.note),) if notes else ()))
    return t


__all__ = [
    "COLUMNS",
    "MODES",
    "IsolationRow",
    "builtin_games",
    "lineups",
    "measure",
    "run",
    "summary",
    "table",
    "task",
]
