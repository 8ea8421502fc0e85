"""The ``meeplezoo arena`` and ``meeplezoo replay`` commands (wired into :mod:`meeplezoo.cli`).

::

    meeplezoo arena seastead --agents random heuristic --games 200 --db results.sqlite
    meeplezoo arena concordia --agents random heuristic --seats 3 --set map=imperium --db results.sqlite
    meeplezoo arena --config study.toml --db results.sqlite --workers 2
    meeplezoo arena seastead --agents random heuristic --games 50 --db r.sqlite --backend ray
    meeplezoo arena --report results.sqlite --out report/
    meeplezoo arena all --agents random heuristic --games 8 --db baselines.sqlite --out report/
    meeplezoo replay results.sqlite                    # the stored games: id, game, config, agents, result
    meeplezoo replay results.sqlite 17 --seat 0 --board-every 20
    meeplezoo replay results.sqlite 17 --to-json game17.json

Every input is checked before the database is opened: an unknown game, agent or parameter, a seat count
the game does not allow, a seed out of range, a database of another schema or a ``--db``, ``--out`` or
``--to-json`` path that cannot be written is a one-line error (exit 2) and nothing is written. ``--report``
and ``replay`` only read (the database is opened read-only). SIGTERM stops a run as Ctrl-C does: its workers
stop, the games finished are stored, and the same command resumes.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .. import games, options
from ..agents.isolation import preload_for
from ..agents.registry import agent_target
from ..agents.run_options import EXIT_FORFEITS, add_import_option, add_run_options, mode_line, read_budget
from ..agents.spec import parse_spec
from ..labels import RANK, legend, short_labels, table_console
from ..paths import output_problem
from . import ratings, replay, report, runner, store
from .contexts import changed_settings
from .errors import ArenaError
from .schedule import Study, Task, load_studies, validate

#: the game argument that means every game
ALL = "all"


_console = table_console  # a name of this module: tests give the commands a console of their own


def _game_options(game: str, items: list[str]) -> dict[str, Any]:
    """``--set KEY=VALUE`` items read as ``meeplezoo play`` reads them (each key's Param); the game's own keys only
    (the adapter's reward and illegal-action keys mean nothing to a stored game)."""
    try:
        return options.read_game_options(game, items, adapter=False)  # scores decide, not rewards
    except options.OptionError as exc:
        raise ArenaError(str(exc)) from None


def _seat_count(game: str, seats: int | None, config: dict[str, Any]) -> int | None:
    """The player count of ``--seats`` or ``--set num_players`` (one line if both disagree or the game does not
    allow it); None: the game's default."""
    given = config.get("num_players")
    if seats is not None and given is not None and seats != given:
        raise ArenaError(f"--seats {seats} and --set num_players={given} disagree: give one of them")
    count = seats if seats is not None else given
    allowed = games.player_counts(game)
    if count is not None and count not in allowed:
        from ..cli import players_text

        raise ArenaError(f"{game} is played by {players_text(allowed)} players, not {count}")
    return count


def labelled(stats: list[ratings.ContextStats], short: dict[str, str]) -> list[ratings.ContextStats]:
    """Copies of ``stats`` with every agent spec replaced by its short label (for terminal tables only)."""
    out = []
    for cs in stats:
        agents = {short[spec]: dataclasses.replace(a, spec=short[spec]) for spec, a in cs.agents.items()}
        pairs = {(short[a], short[b]): dataclasses.replace(p, a=short[a], b=short[b]) for (a, b), p in cs.pairs.items()}
        out.append(dataclasses.replace(cs, agents=agents, pairs=pairs))
    return out


def print_tables(
    console: Console, stats: list[ratings.ContextStats], modes: dict[str, list[str]] | None = None
) -> None:
    """The report's terminal tables with short agent labels (each context saying how its agents ran, with
    ``modes``: :func:`report.run_modes`), and the legend of the labels under them."""
    short = short_labels(spec for cs in stats for spec in cs.agents)
    report.print_report(console, labelled(stats, short), modes)
    for line in legend(short):
        console.print(Text(line), soft_wrap=True)


# --- arena -------------------------------------------------------------------------------------------------------


def add_arena_parser(sub: Any, game_help: str) -> None:
    a = sub.add_parser(
        "arena",
        help="tournaments between agents, stored in SQLite, rated and reported",
        description="Play a tournament (round robin, seats rotated, fixed seeds), store every game as it "
        "finishes, print ratings. Run the same command again to resume. With --report, report a database.",
    )
    a.add_argument("game", nargs="?", help=game_help + f"; {ALL!r}: every game")
    a.add_argument("--agents", nargs="+", metavar="SPEC", help="agent specs: random heuristic mcts:iters=200 ...")
    a.add_argument(
        "--games",
        type=options.bounded_int("--games", 1, options.MAX_GAMES),
        default=100,
        help="games per lineup (default 100; rounded up to deals)",
    )
    a.add_argument(
        "--seats",
        type=options.bounded_int("--seats", 1, 64),
        default=None,
        help="players per game, as --set num_players=N (default: the game's default; the agents are a pool: "
        "lineups are drawn from it for that many seats)",
    )
    options.add_set_option(a, "a game option (repeatable), as in meeplezoo play: --set map=imperium")
    a.add_argument(
        "--config",
        metavar="FILE",
        help="a TOML study file (several games, configs, agent lists) instead of GAME --agents --set",
    )
    a.add_argument("--db", metavar="FILE", help="the results database (created if absent)")
    a.add_argument(
        "--seed",
        type=options.bounded_int("--seed", 0, options.MAX_SEED),
        default=0,
        help="seed of deal 0; deal d uses seed+d (default 0)",
    )
    add_run_options(a)
    a.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    a.add_argument("--backend", choices=runner.BACKENDS, default="local", help="local processes or Ray tasks")
    a.add_argument("--address", default=None, help="Ray cluster address (default: a local Ray instance)")
    add_import_option(a, "agent processes import it, never the referee")
    a.add_argument("--report", metavar="DB", help="report this database instead of playing")
    a.add_argument("--out", metavar="DIR", help="write DIR/README.md and PNG plots (of --report DB, or of this run)")
    a.add_argument("--quiet", action="store_true", help="no progress bar and no tables, only the summary line")


def _studies(args: argparse.Namespace) -> list[Study]:
    if not (math.isfinite(args.time_limit) and args.time_limit >= 0):
        raise ArenaError(f"--time-limit must be positive (0: no limit), not {args.time_limit:g}")
    limit = args.time_limit or None
    if args.config:
        try:
            options.check_config_path(args.config, "a TOML study file")
        except options.OptionError as exc:
            raise ArenaError(str(exc)) from None
        if args.game or args.agents or args.set or args.seats is not None:
            raise ArenaError("give either --config FILE or GAME --agents ... (--set, --seats), not both")
        return load_studies(args.config)
    if not args.game:
        raise ArenaError("give a GAME (or --config FILE, or --report DB)")
    if not args.agents:
        raise ArenaError("give the agents: --agents SPEC SPEC ...")
    names = games.game_names() if args.game == ALL else [games.resolve(args.game)]
    studies = []
    for name in names:
        config = _game_options(name, args.set)
        seats = _seat_count(name, args.seats, config)
        studies.append(Study(name, list(args.agents), seats, args.games, config, args.seed, limit))
    return studies


def cmd_arena(args: argparse.Namespace) -> int:
    console = _console()
    if args.report:
        if args.game or args.agents or args.config or args.db:
            raise ArenaError("--report DB reports a database: give no GAME, --agents, --config or --db with it")
        return _report(console, args.report, args.out)
    if not args.db:
        raise ArenaError("give the results database: --db FILE")
    _check_out(args.out)
    budget = read_budget(args.time_limit, args.budget)
    extra = {k: v for k, v in dataclasses.asdict(budget).items() if k != "decision_seconds"}  # a study's own limit
    tasks: list[Task] = []
    for study in _studies(args):
        tasks += validate(study, args.imports, args.isolation)
    if args.isolation == "none":
        _check_trusted(tasks)
    preload = tuple(dict.fromkeys(m for t in tasks for m in preload_for(t.seats, t.game)))
    tasks = [dataclasses.replace(t, isolation=args.isolation, budget=extra, preload=preload) for t in tasks]
    store.check(args.db, write=True)  # a foreign database or an unwritable path: refused before anything is written
    with store.Store(args.db) as db, terminate_as_interrupt():
        summary = run_with_progress(console, tasks, db, args)
        contexts = {store.context_name(t.game, t.config) for t in tasks}
        rows = [r for r in db.games(actions=False) if r.context in contexts]
        stats = ratings.compute(rows)
        if not args.quiet:
            print_tables(console, stats, report.run_modes(rows))
        if args.out and stats:
            files = report.write_report(stats, args.out, args.db)
            console.print(f"wrote the report of this study to {args.out} ({len(files)} files)")
    console.print(
        f"{summary.played} games played and stored, {summary.already} already stored, of {summary.scheduled} "
        f"scheduled; {summary.seconds:.1f} s, {summary.games_per_second:.2f} games/s ({args.db})"
    )
    console.print(Text(mode_line(args.isolation, budget)), soft_wrap=True)
    _print_forfeits(console, summary.forfeits)
    if summary.failed:
        for line in summary.failed[:5]:
            key, _, why = line.partition(": ")
            console.print(Text(f"failed: game {key}: {why.strip().splitlines()[-1]}"))
        console.print(f"{len(summary.failed)} games failed and were not stored; run the same command to retry them")
        return 1
    return EXIT_FORFEITS if summary.forfeits else 0


def _check_trusted(tasks: list[Task]) -> None:
    """``--isolation none`` runs MeepleZoo's own agents only: one a plugin or ``--import`` registered is refused."""
    for spec, game in sorted({(spec, t.game) for t in tasks for spec in t.seats}):
        target = agent_target(parse_spec(spec)[0], game)
        if not target.startswith("meeplezoo."):
            raise ArenaError(
                f"--isolation none runs MeepleZoo's own agents only; {spec!r} comes from {target.partition(':')[0]} "
                "(run it isolated: --isolation process)"
            )


def _print_forfeits(console: Console, forfeits: list[dict[str, Any]]) -> None:
    """One line per agent and reason of this run's forfeits (``mybot: 3 time limit, 1 crashed``)."""
    if not forfeits:
        return
    counts: dict[str, dict[str, int]] = {}
    for f in forfeits:
        by_reason = counts.setdefault(f["spec"], {})
        by_reason[f["reason"]] = by_reason.get(f["reason"], 0) + 1
    console.print(f"{len(forfeits)} games ended by a forfeit (stored; a rerun does not play them again):")
    for spec, by_reason in counts.items():
        console.print(Text(f"  {spec}: " + ", ".join(f"{n} {reason}" for reason, n in sorted(by_reason.items()))))
    last = forfeits[-1]
    console.print(Text(f"  e.g. seat {last['seat']} ({last['spec']}) at decision {last['decision']}: {last['detail']}"))


def _check_out(out: str | None) -> None:
    """Raise :class:`ArenaError` unless the report folder ``--out`` can be written (before any work)."""
    why = out and output_problem(out, folder=True)
    if why:
        raise ArenaError(f"--out {out}: {why}")


class Terminated(KeyboardInterrupt):
    """A SIGTERM, handled as Ctrl-C is: the run stops, its workers with it, and what finished stays stored."""

    code = 128 + signal.SIGTERM


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (by default it would kill this process at once and
    leave its workers writing to a closed pipe)."""

    def on_term(signum: int, frame: Any) -> None:
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_with_progress(
    console: Console, tasks: list[Task], db: store.Store, args: argparse.Namespace
) -> runner.RunSummary:
    """Run ``tasks`` into ``db`` (``args``: workers, backend, address, quiet, db) with a progress bar on a terminal;
    an interrupt says how many games are stored and exits (130, or 143 for SIGTERM)."""
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet or not console.is_terminal,
    )
    bar = progress.add_task("games", total=None)
    kwargs = {"workers": args.workers, "backend": args.backend, "address": args.address}
    try:
        with progress:
            return runner.run(
                tasks,
                db,
                on_start=lambda todo, done: progress.update(bar, total=todo),
                on_result=lambda task, result: progress.advance(bar),
                **kwargs,
            )
    except KeyboardInterrupt as exc:
        what = "terminated" if isinstance(exc, Terminated) else "interrupted"
        console.print(f"{what}: {db.count()} games are stored in {args.db}; run the same command to resume")
        raise SystemExit(getattr(exc, "code", 130)) from None


def _report(console: Console, path: str, out: str | None) -> int:
    _check_out(out)
    if not store.check(path):
        raise ArenaError(f"{path}: no such results database")
    with store.Store(path, create=False) as db:
        rows = list(db.games(actions=False))
    stats = ratings.compute(rows)
    if not stats:
        raise ArenaError(f"{path} holds no games yet")
    print_tables(console, stats, report.run_modes(rows))
    if out:
        files = report.write_report(stats, out, path)
        console.print(f"wrote {len(files)} files to {out}: {', '.join(f.name for f in files)}")
    return 0


# --- replay ------------------------------------------------------------------------------------------------------


def add_replay_parser(sub: Any) -> None:
    r = sub.add_parser(
        "replay",
        help="step through a stored arena game",
        description="Replay a game of an arena database decision by decision (the replay must reach the "
        "stored scores), in the full view or one seat's view, or export it as JSON. Without a game id: list "
        "the stored games.",
    )
    r.add_argument("db", help="the results database")
    r.add_argument(
        "game_id",
        nargs="?",
        type=options.bounded_int("game_id", 1, 2**63 - 1),
        help="the game's id; without it, the list of the stored games with their ids",
    )
    r.add_argument("--seat", type=int, default=None, help="show only what this seat knows (default: full view)")
    r.add_argument("--board-every", type=int, default=0, metavar="K", help="show the position every K decisions")
    r.add_argument("--pause", action="store_true", help="wait for Enter after each decision (q quits)")
    r.add_argument("--to-json", metavar="FILE", help="write the game as JSON to FILE ('-': standard output)")


def cmd_replay(args: argparse.Namespace) -> int:
    if args.to_json and args.to_json != "-":
        why = output_problem(args.to_json, folder=False)
        if why:
            raise ArenaError(f"--to-json {args.to_json}: {why}")
    if not store.check(args.db):
        raise ArenaError(f"{args.db}: no such results database")
    if args.game_id is None:
        if args.to_json or args.seat is not None or args.pause or args.board_every:
            raise ArenaError("--seat, --board-every, --pause and --to-json replay one game: give its id")
        return _list_games(_console(), args.db)
    with store.Store(args.db, create=False) as db:
        row = db.game(args.game_id)
    seats = len(row.seats)
    if args.seat is not None and not 0 <= args.seat < seats:
        raise ArenaError(f"--seat must be from 0 to {seats - 1} for game {row.id}, not {args.seat}")
    if args.to_json:
        doc = json.dumps(replay.to_json(row, args.seat), indent=1)
        if args.to_json == "-":
            sys.stdout.write(doc + "\n")
        else:
            try:
                Path(args.to_json).write_text(doc + "\n", encoding="utf-8")
            except OSError as exc:
                raise ArenaError(f"--to-json {args.to_json}: cannot be written ({exc.strerror or exc})") from None
            print(f"wrote game {row.id} ({len(row.actions)} decisions) to {args.to_json}")
        return 0
    console = _console()
    who = ", ".join(f"P{s}: {spec}" for s, spec in enumerate(row.seats))
    console.rule(f"game {row.id}: {row.game} {json.dumps(row.config)} seed {row.seed} - {who}")
    every = args.board_every or (1 if args.pause else 0)
    state = None
    for step in replay.steps(row, args.seat):
        state = step.state
        if step.index == 0 or (every and step.index % every == 0):
            console.rule(f"before decision {step.index}")
            console.print(Text(replay.view(state, args.seat)))
        console.print(Text(f"{step.index:>5}  P{step.seat} {step.agent:<16} {step.pending}: {step.name}"))
        if args.pause and sys.stdin.isatty() and input().strip().lower() == "q":
            return 0
    final = replay.replay(row)
    console.rule("final position")
    console.print(Text(replay.view(final, args.seat)))
    short = short_labels(row.seats)
    t = Table(title=f"game {row.id}")
    for col in ("seat", "agent", "score", RANK):
        t.add_column(col, justify="left" if col == "agent" else "right", no_wrap=True)
    for s, spec in enumerate(row.seats):
        t.add_row(str(s), short[spec], f"{row.scores[s]:g}", str(row.ranks[s]))
    console.print(t)
    for line in legend(short):
        console.print(Text(line), soft_wrap=True)
    if row.forfeit:
        f = row.forfeit
        console.print(Text(f"P{f['seat']} forfeited at decision {f['decision']} ({f['reason']}): {f['detail']}"))
    if row.truncated:
        console.print("the game was cut at the engine's decision bound (truncated)")
    console.print(f"the replay of {len(row.actions)} decisions reproduces the stored scores")
    return 0


def _result(row: store.GameRow) -> str:
    """Which seat won a stored game (``P1 won``, ``P0 P2 shared``), or why no seat did."""
    if row.truncated:
        return "truncated"
    best = min(row.ranks)
    won = [f"P{s}" for s, r in enumerate(row.ranks) if r == best]
    text = " ".join(won) + (" won" if len(won) == 1 else " shared")
    return text + (f" (P{row.forfeit['seat']} forfeited)" if row.forfeit else "")


def _list_games(console: Console, path: str) -> int:
    """The stored games of ``path`` in id order as a table, the legend of the agent labels and how to open one."""
    with store.Store(path, create=False) as db:
        rows = sorted(db.games(actions=False), key=lambda r: r.id)
    if not rows:
        console.print(Text(f"{path} holds no games yet"))
        return 0
    short = short_labels(spec for r in rows for spec in r.seats)
    t = Table(title=f"{len(rows)} games in {path}")
    for col in ("id", "game", "config", "agents (P0 P1 ...)", "result", "finished (UTC)"):
        t.add_column(col, justify="right" if col == "id" else "left", overflow="fold")
    for r in rows:
        agents = " ".join(short[spec] for spec in r.seats)
        when = r.finished_at[:16].replace("T", " ")
        settings = " ".join(changed_settings(r.game, r.config)) or "default"
        t.add_row(str(r.id), r.game, settings, agents, _result(r), when)
    console.print(t)
    for line in legend(short):
        console.print(Text(line), soft_wrap=True)
    console.print(
        Text(f"Open one: meeplezoo replay {path} ID (--seat S: one seat's view; --to-json FILE)"), soft_wrap=True
    )
    return 0
