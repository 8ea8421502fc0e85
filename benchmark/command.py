"""``meeplezoo benchmark AGENT``: score one agent on the suite; ``--calibrate``: freeze the background's ratings.

::

    meeplezoo benchmark heuristic --quick                       # bench.sqlite, bench-heuristic-quick/
    meeplezoo benchmark mybot --import mybots --db bench.sqlite --out card/ --workers 2
    meeplezoo benchmark ppo:path=model.zip --backend ray --address auto
    meeplezoo benchmark --calibrate --quick --db calib.sqlite --out calibration.json

Every agent runs isolated, under the suite's budget. The games are stored in the arena's database as they finish
(the same schema: ``meeplezoo replay DB ID`` shows one), so a killed run resumes where it stopped when the same
command runs again. The score card is computed from the stored games alone.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import __version__, games
from ..agents.faults import Forfeit
from ..agents.match import view_for
from ..agents.run_options import EXIT_FORFEITS, add_import_option
from ..arena import runner, store
from ..arena.command import run_with_progress, terminate_as_interrupt
from ..arena.play import NOT_FOR_THE_ARENA, import_plugins
from ..paths import output_problem
from .errors import BenchmarkError
from .outcomes import Outcome, read_outcomes
from .schedule import Planned, focal_label, plan
from .suite import CURRENT_VERSION, Suite, SuiteTask, load_suite, read_suite

DEFAULT_DB = "bench.sqlite"


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "benchmark",
        help="score an agent on the fixed benchmark suite: a score card (scorecard.json, README.md, plots)",
        description="Score AGENT on MeepleZoo-Bench (docs/benchmark.md): every task of the suite against its "
        "background agents, seats rotated, fixed deals, under the suite's CPU budget per decision. Games are "
        "stored in --db as they finish; run the same command again to resume.",
    )
    p.add_argument("agent", nargs="?", metavar="AGENT", help="an agent spec, a plugin agent, or ppo:path=FILE.zip")
    p.add_argument("--quick", action="store_true", help="the quick suite: the first deals of each task")
    p.add_argument("--db", metavar="FILE", default=DEFAULT_DB, help=f"the results database (default {DEFAULT_DB})")
    p.add_argument("--out", metavar="DIR", help="where the score card goes (default bench-AGENT-quick|full)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("--backend", choices=runner.BACKENDS, default="local", help="local processes or Ray tasks")
    p.add_argument("--address", default=None, help="Ray cluster address (default: a local Ray instance)")
    p.add_argument("--tasks", nargs="+", metavar="TASK", help="only these tasks of the suite (the card says so)")
    p.add_argument("--suite", metavar="FILE", help="a suite file of your own instead of the shipped one")
    p.add_argument(
        "--calibrate",
        action="store_true",
        help="play every background agent on the suite and write the frozen calibration (to --out FILE)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_import_option(p, "their code runs only in the agent processes")
    return p


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    suite = _suite(args)
    if args.workers is not None and args.workers < 1:
        raise BenchmarkError(f"--workers must be at least 1, not {args.workers}")
    if args.calibrate:
        return _calibrate(console, suite, args)
    if not args.agent:
        raise BenchmarkError("give the AGENT to score (a spec such as heuristic or mcts-ref), or --calibrate")
    out = Path(args.out or f"bench-{_slug(args.agent)}-{'quick' if args.quick else 'full'}")
    _check_out(out, folder=True)
    from . import calibration

    calibration.load(suite)  # a suite without its calibration cannot score: say so before playing
    tasks = _chosen(suite, args.tasks)
    available, skipped = probe_all(suite, args.agent, tasks, args.imports)
    planned = plan(suite, args.agent, quick=args.quick, tasks=available, imports=args.imports)
    start = time.perf_counter()
    summary, outcomes = play(console, suite, planned, args)
    card = build_card(suite, args.agent, args.quick, outcomes, planned, skipped, tasks)
    card["run"] = run_info(args, summary, time.perf_counter() - start)
    # the CPU per decision is measured, not reproduced: it goes with the run
    card["run"]["cpu_per_decision"] = {
        e["name"]: e.pop("cpu_per_decision") for e in card["tasks"] if "skipped" not in e
    }
    from .card import write_card

    files = write_card(card, out)
    _print_card(console, card)
    console.print(Text(f"wrote the score card to {out}: {', '.join(f.name for f in files)}"))
    return _status(console, summary)


def _suite(args: argparse.Namespace) -> Suite:
    if args.suite:
        suite = read_suite(args.suite)
        suite.check_envs()
        return suite
    return load_suite(CURRENT_VERSION)


def _chosen(suite: Suite, names: Sequence[str] | None) -> list[SuiteTask]:
    if not names:
        return list(suite.tasks)
    for name in names:
        suite.task(name)  # a one-line error naming the suite's tasks
    return [t for t in suite.tasks if t.name in names]


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", spec).strip("_")[:60] or "agent"


def _check_out(path: Path, *, folder: bool) -> None:
    why = output_problem(str(path), folder=folder)
    if why:
        raise BenchmarkError(f"--out {path}: {why}")


# --- checking the agent ------------------------------------------------------------------------------------------


def probe(suite: Suite, agent: str, task: SuiteTask, imports: Sequence[str] = ()) -> str | None:
    """None if ``agent`` makes one legal decision at the opening of ``task`` (made in an agent process, under the
    suite's budget: its code never runs here), else why not."""
    from ..agents.isolation import IsolatedAgent

    if agent.partition(":")[0].strip() in NOT_FOR_THE_ARENA:
        return "a human player cannot be benchmarked"
    env = games.make_env(task.game, **task.config)
    env.reset(seed=suite.seed)
    name = env.agent_selection
    seat = env.possible_agents.index(name)
    try:
        with IsolatedAgent(
            focal_label(agent, task.game),
            task.game,
            seed=0,
            seat=seat,
            engine_config=dict(task.config),
            budget=suite.run_budget(),
            imports=imports,
        ) as isolated:
            isolated.act(view_for(env, name, isolated))
    except Forfeit as exc:
        return exc.fault.detail
    finally:
        env.close()
    return None


def probe_all(
    suite: Suite, agent: str, tasks: Sequence[SuiteTask], imports: Sequence[str] = ()
) -> tuple[list[str], dict[str, str]]:
    """The tasks ``agent`` can play, and why it cannot play the others; :class:`BenchmarkError` when it plays none
    (a bad spec, an unknown agent: the first reason, one line)."""
    if imports and any(t.game not in games.game_names() for t in tasks):
        import_plugins(imports)
    available: list[str] = []
    skipped: dict[str, str] = {}
    for task in tasks:
        why = probe(suite, agent, task, imports)
        if why is None:
            available.append(task.name)
        else:
            skipped[task.name] = why
    if not available:
        first = next(iter(skipped.values()))
        raise BenchmarkError(f"agent {agent!r} cannot play any task of suite {suite.label}: {first}")
    return available, skipped


# --- playing -------------------------------------------------------------------------------------------------


def play(
    console: Console, suite: Suite, planned: list[Planned], args: argparse.Namespace
) -> tuple[runner.RunSummary, dict[str, list[Outcome]]]:
    """Play every planned game not stored in ``args.db`` yet; return the run's summary and every stored outcome."""
    store.check(args.db, write=True)
    # one game per key: a lineup of one agent in every seat is the same game whichever seat is the focal one
    tasks = list({p.task.key: p.task for p in planned}.values())
    with store.Store(args.db) as db, terminate_as_interrupt():
        summary = run_with_progress(console, tasks, db, args)
        outcomes = read_outcomes(db, planned)
    return summary, outcomes


def run_info(args: argparse.Namespace, summary: runner.RunSummary, seconds: float) -> dict[str, Any]:
    """The card's ``run``: how this card was made (not part of what reproduces bit for bit)."""
    return {
        "command": command_line(args),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "code_version": runner.code_version(),
        "machine": machine(),
        "seconds": round(seconds, 1),
        "workers": args.workers or os.cpu_count() or 1,
        "backend": args.backend,
        "db": str(args.db),
        "played": summary.played,
        "stored": summary.played + summary.already,
        "failed": len(summary.failed),
    }


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces the card (the database, workers and backend change nothing in it)."""
    words = ["meeplezoo", "benchmark"]
    if args.calibrate:
        words.append("--calibrate")
    else:
        words.append(args.agent)
    if args.quick:
        words.append("--quick")
    if args.tasks:
        words += ["--tasks", *args.tasks]
    if args.suite:
        words += ["--suite", args.suite]
    for module in args.imports:
        words += ["--import", module]
    return shlex.join(words)


def machine() -> dict[str, Any]:
    processor = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                processor = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "torch": _version("torch"),
        "processor": processor,
        "cores": os.cpu_count(),
    }


def _version(distribution: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _status(console: Console, summary: runner.RunSummary) -> int:
    if summary.failed:
        console.print(f"{len(summary.failed)} games failed and were not stored; run the same command to retry them")
        return 1
    if summary.forfeits:
        counts: dict[str, int] = {}
        for f in summary.forfeits:
            counts[f"{f['spec']} ({f['reason']})"] = counts.get(f"{f['spec']} ({f['reason']})", 0) + 1
        console.print(Text("games ended by a forfeit: " + ", ".join(f"{k}: {n}" for k, n in sorted(counts.items()))))
        return EXIT_FORFEITS
    return 0


# --- the score card ------------------------------------------------------------------------------------------


def build_card(
    suite: Suite,
    agent: str,
    quick: bool,
    outcomes: dict[str, list[Outcome]],
    planned: Sequence[Planned],
    skipped: dict[str, str],
    tasks: Sequence[SuiteTask],
    background: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The score card of ``agent`` (everything but ``run``) from its stored outcomes and the frozen calibration
    (``background``: the part of the suite's background the run played against, default all)."""
    from . import calibration, scoring

    frozen = calibration.load(suite)
    scheduled: dict[str, int] = {}
    for p in planned:
        scheduled[p.suite_task] = scheduled.get(p.suite_task, 0) + 1
    entries = []
    for task in tasks:
        if task.name in skipped:
            entries.append(
                {"name": task.name, "game": task.game, "players": task.players, "kind": _kind(task),
                 "skipped": skipped[task.name]}
            )  # fmt: skip
            continue
        found = outcomes.get(task.name, [])
        calib = frozen["tasks"][task.name]
        if task.solo:
            entry = scoring.solo_task_entry(task, found, calib["means"], _band(task.game), scheduled[task.name])
        else:
            backgrounds = [focal_label(b, task.game) for b in (suite.background if background is None else background)]
            rated = {focal_label(b, task.game): r for b, r in calib["ratings"].items()}
            entry = scoring.multi_task_entry(task, found, rated, backgrounds, scheduled[task.name])
        entries.append(entry)
    not_run = [t.name for t in suite.tasks if t not in tasks]
    return {
        "format": "meeplezoo-scorecard",
        "format_version": 1,
        "suite": {
            "name": suite.name,
            "version": suite.version,
            "mode": "quick" if quick else "full",
            "digest": suite.digest(),
            "calibration": frozen["sha256"],
            "tasks_not_run": not_run,
        },
        "agent": agent,
        "package_version": __version__,
        "envs": suite.env_names(),
        "budget": dict(suite.budget),
        "seed": suite.seed,
        "headline": scoring.headline(entries),
        "tasks": entries,
    }


def _kind(task: SuiteTask) -> str:
    return "solo" if task.solo else "multi"


def _band(game: str) -> Any:
    from ..bench.solo import band_of

    return band_of(game)


def _print_card(console: Console, card: dict[str, Any]) -> None:
    head = card["headline"]
    table = Table(title=Text(f"{card['agent']} on {card['suite']['name']} v{card['suite']['version']}"))
    for column in ("task", "normalised", "rating / mean", "against the background (win rate)"):
        table.add_column(column)
    for e in card["tasks"]:
        if "skipped" in e:
            table.add_row(Text(e["name"]), "-", "-", Text(f"not played: {e['skipped']}"))
            continue
        norm = "-" if e.get("normalised") is None else f"{e['normalised']:.2f}"
        if e["kind"] == "solo":
            table.add_row(Text(e["name"]), norm, f"{e['mean_score']:.1f}", f"won {e['win_rate']:.0%} of {e['games']}")
            continue
        vs = ", ".join(f"{v['background']} {v['win_rate']:.0%}" for v in e["vs"])
        table.add_row(Text(e["name"]), norm, f"{e['rating']:.0f}", Text(vs))
    console.print(table)
    score = "-" if head["score"] is None else f"{head['score']:.3f}"
    console.print(f"headline (random 0, heuristic 1): {score} over {head['tasks']} of {head['of']} tasks")


# --- calibration ---------------------------------------------------------------------------------------------


def _calibrate(console: Console, suite: Suite, args: argparse.Namespace) -> int:
    """Play every background agent on the suite and write the calibration file (``--out FILE``)."""
    from . import calibration

    out = Path(args.out or f"v{suite.version}_calibration.json")
    _check_out(out, folder=False)
    tasks = _chosen(suite, args.tasks)
    names = [t.name for t in tasks]
    plans = {b: plan(suite, b, quick=args.quick, tasks=names) for b in suite.background}
    start = time.perf_counter()
    summary, _ = play(console, suite, [p for planned in plans.values() for p in planned], args)
    if summary.failed:
        return _status(console, summary)
    with store.Store(args.db, create=False) as db:
        by_agent = {b: read_outcomes(db, planned) for b, planned in plans.items()}
    doc = calibration.build(suite, by_agent, quick=args.quick, command=command_line(args))
    doc["seconds"] = round(time.perf_counter() - start, 1)
    out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    console.print(Text(f"wrote the calibration of {suite.label} to {out}"))
    return _status(console, summary)


__all__ = ["add_parser", "build_card", "probe", "probe_all", "run"]


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run it as: meeplezoo benchmark")
