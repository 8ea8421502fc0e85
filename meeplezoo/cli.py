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
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import sys
import time
from collections.abc import Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import __version__, bench, games, options
from .envs.core.errors import ActionTypeError, MeepleZooError
from .labels import RANK, legend, short_labels, table_console


class CLIError(Exception):
    """A user error the CLI reports in one line (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse with its errors in one line (no usage block): ``meeplezoo play: error: ...``, status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_console = table_console  # a name of this module: tests give the commands a console of their own


def _plain(console: Console, text: str) -> None:
    """Print game text as is (no rich markup: Seastead's docks print as ``dock 1[fish | ...]``)."""
    console.print(Text(text), soft_wrap=True)


# --- play ---------------------------------------------------------------------------------------------------


def game_options(game: str, args: argparse.Namespace, adapter: bool = True) -> dict[str, Any]:
    """The game options of ``--config FILE`` (TOML) then ``--set KEY=VALUE`` (later wins), each checked."""
    defaults = dict(games.make_env(game).unwrapped.game.defaults)
    config = options.read_config_file(args.config, defaults, game, adapter) if args.config else {}
    return {**config, **options.parse_config(args.set, defaults, game, "--set", adapter)}


def _make_env(game: str, config: dict[str, Any], **kwargs: Any) -> Any:
    """The env of ``game`` with ``config`` (a one-line error naming the game's keys if it is refused)."""
    try:
        return games.make_env(game, **kwargs, **config)
    except MeepleZooError as exc:
        defaults = games.make_env(game).unwrapped.game.defaults
        raise CLIError(f"{exc}; {options.describe_keys(defaults, game)}") from None


def _who(record, agent: str) -> str:
    return f"{agent} ({record.players[agent]})"


def _fmt(x: float) -> str:
    return f"{x:g}"


def _print_result(console: Console, env: Any, record, shown: str = "") -> None:
    """The game's own score sheet (unless already in ``shown``), a results table and the winner."""
    sheet = _score_sheet(env.unwrapped.state_obj)
    if sheet and sheet not in shown:
        console.rule("Final score sheet")
        _plain(console, sheet)
    short = short_labels(record.players.values())
    results = Table(title="Result")
    for col in ("agent", "played by", "score", RANK, "reward"):
        results.add_column(col, justify="left" if col in ("agent", "played by") else "right", no_wrap=True)
    for agent in env.possible_agents:
        results.add_row(
            agent,
            short[record.players[agent]],
            _fmt(record.scores[agent]),
            str(record.ranks[agent]),
            f"{record.rewards[agent]:+.2f}",
        )
    console.print(results)
    _print_legend(console, short)
    console.print(_winner_line(record))


def _print_legend(console: Console, short: dict[str, str]) -> None:
    """Under a table: each shortened agent label with its full spec."""
    for line in legend(short):
        _plain(console, line)


def _score_sheet(state: Any) -> str | None:
    """The engine's own text score sheet, if it has one: a ``score_sheet()`` method returning ``str``."""
    method = getattr(state, "score_sheet", None)
    if not callable(method):
        return None
    try:
        params = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
        return None  # e.g. a per-seat breakdown: the generic results table covers it
    text = method()
    return text if isinstance(text, str) else None


def _winner_line(record) -> Text:
    winners = record.winners
    if record.illegal_action:
        return Text(f"Game ended on an illegal action: {record.illegal_action}")
    lead = "Truncated; leading: " if record.truncated else ""
    if not winners:  # a solo game short of the automa's score
        only = next(iter(record.scores))
        return Text(f"{lead}No win: {_who(record, only)} scored {_fmt(record.scores[only])}")
    if len(winners) == 1:
        w = winners[0]
        tie = " (tied on score; the tie-break decided)" if record.tie_break else ""
        return Text(f"{lead}Winner: {_who(record, w)} with a score of {_fmt(record.scores[w])}{tie}")
    names = ", ".join(_who(record, w) for w in winners)
    return Text(f"{lead}Shared win: {names} with a score of {_fmt(record.scores[winners[0]])}")


def _seats_and_agents(args: argparse.Namespace, game: str, config: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The config with its player count and one agent spec per seat.

    With the count unset (no ``num_players`` in ``--set``/``--config``), ``--agents`` gives it: one spec per
    seat. With the count set, one spec fills every seat, else there must be one per seat. No ``--agents``:
    random players at the game's count.
    """
    from meeplezoo.agents import available_agents
    from meeplezoo.agents.spec import parse_spec

    specs = list(args.agents or [])
    default_env = games.make_env(game)
    allowed = games.player_counts(game)
    if specs and "num_players" not in config and len(specs) != len(default_env.possible_agents):
        if "num_players" not in default_env.unwrapped.game.defaults or len(specs) not in allowed:
            raise CLIError(
                f"{game} is played by {players_text(allowed)} players, not {len(specs)} (one agent spec per seat; "
                f"--set num_players=N with one spec fills every seat)"
            )
        config = {**config, "num_players": len(specs)}
    seats = len(_make_env(game, config).possible_agents)
    if not specs:
        specs = ["random"] * seats
    elif len(specs) == 1 and seats > 1:
        specs = specs * seats
    elif len(specs) != seats:
        raise CLIError(f"{game} has {seats} seats here: give {seats} agent specs to --agents (or one for every seat)")
    known = available_agents(game)
    unknown = [s for s in specs if parse_spec(s)[0] not in known]
    if unknown:
        raise CLIError(f"unknown agent(s) {unknown} for {game}; available: {', '.join(known)}")
    return config, specs


def cmd_play(args: argparse.Namespace) -> int:
    from meeplezoo.agents import make_agent, play_game
    from meeplezoo.agents.human import Resigned
    from meeplezoo.agents.match import agent_seed
    from meeplezoo.agents.spec import parse_spec

    console = _console()
    game = games.resolve(args.game)
    config, names = _seats_and_agents(args, game, game_options(game, args))
    env = _make_env(game, config, render_mode="ansi")
    if args.games > 1:
        return _play_match(console, game, names, args, config)

    labels = dict(zip(env.possible_agents, names, strict=True))
    short = short_labels(names)
    agents = {
        a: make_agent(n, game, seed=agent_seed(args.seed, seat))
        for seat, (a, n) in enumerate(zip(env.possible_agents, names, strict=True))
    }
    console.rule(f"{env} - seed {args.seed}")
    _plain(console, ", ".join(f"{a}: {n}" for a, n in labels.items()))
    # a person at the table sees the table through their agent (their seat's view), not the true board
    every = 0 if any(parse_spec(n)[0] == "human" for n in names) else args.board_every
    count = [0]

    def show(env: Any, agent: str, action: int) -> None:
        step = count[0]
        count[0] += 1
        if every and step % every == 0:
            console.rule(f"board before decision {step}")
            _plain(console, env.render())
        _plain(console, f"{step:>5}  {agent:<9} {short[labels[agent]]:<10} {env.describe_action(action)}")

    start = time.perf_counter()
    try:
        record = play_game(env, agents, args.seed, labels=labels, on_decision=None if args.quiet else show)
    except Resigned as resigned:
        console.print(f"{resigned.agent} ({labels[resigned.agent]}) resigned after {count[0]} decisions.")
        return 0
    elapsed = time.perf_counter() - start
    shown = ""
    if not args.quiet:
        console.rule("Final position")
        shown = env.render()
        _plain(console, shown)
    _print_result(console, env, record, shown)
    console.print(f"{record.steps} decisions in {elapsed:.2f} s")
    verdict = getattr(env.unwrapped.state_obj, "verdict", None)
    if callable(verdict) and verdict():  # a solo mode played for points names the band the score reached
        console.print(verdict())
    return 0


def _play_match(console: Console, game: str, names: list[str], args: argparse.Namespace, config: dict) -> int:
    _match_table(console, game, names, args, config)
    return 0


def _match_table(console: Console, game: str, names: list[str], args: argparse.Namespace, config: dict):
    """Play a match with seat rotation, print a line per game (unless quiet) and the standings table."""
    from meeplezoo.agents import play_match
    from meeplezoo.agents.match import unique_labels

    short = short_labels(unique_labels(names))  # the match's labels: one per entrant

    def line(g: int, rec) -> None:
        if args.quiet:
            return
        parts = [f"{a} {short[rec.players[a]]} {_fmt(rec.scores[a])}" for a in rec.players]
        if rec.truncated or rec.illegal_action:
            outcome = f"unfinished after {rec.steps} decisions" + (" (illegal action)" if rec.illegal_action else "")
        else:
            outcome = "won: " + " & ".join(short[rec.players[w]] for w in rec.winners)
            outcome += " (tie-break)" if rec.tie_break else ""
        _plain(console, f"game {g + 1:>3}  seed {rec.seed:<6} {' - '.join(parts):<48} {outcome}")

    start = time.perf_counter()
    result = play_match(game, names, args.games, args.seed, env_kwargs=config, on_game=line)
    elapsed = time.perf_counter() - start
    t = Table(
        title=f"{game}: {args.games} games, seats rotating, seeds {args.seed}..{args.seed + args.games - 1}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    standings = sorted(result.standings(), key=lambda s: -s.win_rate)
    unfinished = any(s.unfinished for s in standings)
    cols = ["agent", "games", "wins", "shared", "losses"] + (["unfinished"] if unfinished else [])
    for col in [*cols, "win rate", "avg score", "avg reward", f"avg {RANK}"]:
        t.add_column(col, justify="left" if col == "agent" else "right", no_wrap=col == "agent")
    for s in standings:
        counts = [s.games, s.wins, s.draws, s.losses] + ([s.unfinished] if unfinished else [])
        t.add_row(
            short[s.label],
            *map(str, counts),
            f"{100 * s.win_rate:.1f}%",
            f"{s.mean_score:.1f}",
            f"{s.mean_reward:+.2f}",
            f"{s.mean_rank:.2f}",
        )
    console.print(t)
    _print_legend(console, short)
    if unfinished:
        console.print("Unfinished games (truncated) count as neither win nor loss; win rate is over finished games.")
    seats = list(result.records[0].players)
    finished = [r for r in result.records if not (r.truncated or r.illegal_action)]
    seat_wins = {a: sum(1 for r in finished if r.winners == [a]) for a in seats}
    console.print("Sole wins by seat: " + ", ".join(f"{a} {seat_wins[a]}" for a in seats))
    best = standings[0]
    if len(standings) > 1 and best.win_rate > standings[1].win_rate:
        _plain(console, f"Best: {short[best.label]}, win rate {100 * best.win_rate:.1f}%")
    else:
        console.print("No single best agent: the top win rates are equal")
    decisions = sum(r.steps for r in result.records)
    console.print(f"{decisions} decisions in {elapsed:.2f} s")
    return result


def cmd_baselines(args: argparse.Namespace) -> int:
    """Every registered game: one heuristic against random players (default seats), seats rotating."""
    from meeplezoo.agents import available_agents

    console = _console()
    summary = Table(title=f"Baselines: heuristic against random, {args.games} games per game, seats rotating")
    for col in ("game", "players", "heuristic wins", "win rate", "random's best win rate", "decisions/game", "s"):
        summary.add_column(col, justify="left" if col == "game" else "right")
    for name in games.game_names():
        n = len(games.make_env(name).possible_agents)
        entrants = ["heuristic" if "heuristic" in available_agents(name) else "random"] + ["random"] * (n - 1)
        console.rule(f"{name}: {', '.join(entrants)}")
        args.quiet = not args.verbose
        start = time.perf_counter()
        result = _match_table(console, name, entrants, args, {})
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
    return 0


# --- bench --------------------------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    console = _console()
    console.print(
        f"Benchmarking {', '.join(e.module for e in games.entries())}"
        + ("" if args.no_connect_four else f" and {bench.CONNECT_FOUR}")
        + f" within about {args.seconds:g} s (random legal actions, seed {args.seed})"
    )
    rows = bench.run(
        seconds=args.seconds,
        max_games=args.games,
        seed=args.seed,
        connect_four=not args.no_connect_four,
        progress=lambda name: console.print(f"  {name} ...") if not args.quiet else None,
    )
    console.print(bench.table(rows))
    return 0


# --- rules --------------------------------------------------------------------------------------------------


def rules_file(game: str) -> Traversable:
    """The player-facing rules page of ``game``, shipped in the package: ``envs/<game>/rules.md`` (a
    plugin ships ``<package>/<game>/rules.md`` or ``<package>/<game>_rules.md``).

    Raises :class:`CLIError` if there is none.
    """
    entry = games.entry(game)
    candidates = []
    with contextlib.suppress(ModuleNotFoundError):  # a plugin game need not have a package of its name
        candidates.append(files(f"{entry.package}.{entry.name}") / "rules.md")
    candidates.append(files(entry.package) / f"{entry.name}_rules.md")
    for path in candidates:
        if path.is_file():
            return path
    raise CLIError(f"no rules page for {entry.name}: looked for {', '.join(str(p) for p in candidates)}")


def cmd_rules(args: argparse.Namespace) -> int:
    text = rules_file(args.game).read_text(encoding="utf-8")
    console = _console()
    if console.is_terminal and not args.raw:
        from rich.markdown import Markdown

        console.print(Markdown(text))
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


# --- list ---------------------------------------------------------------------------------------------------


def players_text(counts: Sequence[int]) -> str:
    """``(2, 3, 4, 5)`` -> ``"2-5"``; ``(2,)`` -> ``"2"``; gaps are listed: ``(1, 3)`` -> ``"1,3"``."""
    counts = sorted(counts)
    if counts == list(range(counts[0], counts[-1] + 1)):
        return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    return ",".join(map(str, counts))


def cmd_list(args: argparse.Namespace) -> int:
    """Games and agents in 80 columns: nothing truncated, agent names wrap inside their column."""
    from meeplezoo.agents import available_agents

    console = _console()
    if not console.is_terminal:
        console = Console(highlight=False, width=80)
    t = Table(title="MeepleZoo games", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    t.add_column("game", no_wrap=True)
    t.add_column("registry id", no_wrap=True)
    t.add_column("players", justify="right", no_wrap=True)
    t.add_column("actions", justify="right", no_wrap=True)
    t.add_column("agents", overflow="fold")
    broken = []
    for entry in games.entries():
        try:
            g = games.make_env(entry.name).unwrapped.game
        except MeepleZooError as exc:  # a plugin that cannot be loaded: listed below the table
            broken.append(str(exc))
            continue
        t.add_row(
            entry.name,
            entry.env_id,
            players_text(games.player_counts(entry.name)),
            str(g.num_actions),
            ", ".join(available_agents(entry.name)),
        )
    console.print(t)
    for text in broken:
        console.print(Text(f"unavailable: {text}"))
    console.print(_agents_table(available_agents))
    console.print("How to play a game: meeplezoo rules GAME")
    return 0


def _agents_table(available_agents) -> Table:
    """Every agent: the games it plays and the parameters of its spec string (``NAME:key=value,...``)."""
    from meeplezoo.agents.registry import AgentUnavailableError, agent_class
    from meeplezoo.agents.spec import describe_params

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


# --- arena and replay (meeplezoo.arena.command) -------------------------------------------------------------


def _add_arena_parsers(sub: argparse._SubParsersAction, game_help: str) -> None:
    from .arena import command

    command.add_arena_parser(sub, game_help)
    command.add_replay_parser(sub)
    sub.choices["arena"].set_defaults(func=command.cmd_arena)
    sub.choices["replay"].set_defaults(func=command.cmd_replay)


# --- entry point --------------------------------------------------------------------------------------------


def _seed_arg(parser: argparse.ArgumentParser, default: int | None, help: str | None = None) -> None:
    """``--seed``: a whole number from 0 (one line and exit 2 otherwise)."""
    parser.add_argument("--seed", type=options.bounded_int("--seed", 0, options.MAX_SEED), default=default, help=help)


def _games_arg(parser: argparse.ArgumentParser, default: int | None, help: str) -> None:
    """``--games``: a whole number from 1 (one line and exit 2 otherwise)."""
    parser.add_argument(
        "--games", type=options.bounded_int("--games", 1, options.MAX_GAMES), default=default, help=help
    )


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """``--set KEY=VALUE`` (repeatable) and ``--config FILE`` (TOML): the game options, as every command spells
    them."""
    options.add_set_option(
        parser,
        "a game option (repeatable; the game's keys and reward_mode, max_cycles, ...): true/false, numbers or "
        "text, e.g. --set num_players=3",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="game options from a TOML file (KEY = VALUE lines, or its [env] table); --set overrides it",
    )


def build_parser() -> argparse.ArgumentParser:
    game_help = "game name: " + ", ".join(games.game_names())
    p = _Parser(
        prog="meeplezoo",
        description="MeepleZoo: board-game environments and baselines.",
        epilog="Start with: meeplezoo list; meeplezoo play seastead --agents heuristic random; "
        "meeplezoo COMMAND --help for a command's options.",
    )
    p.add_argument("--version", action="version", version=f"meeplezoo {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play games between agents", description="Play games between agents.")
    play.add_argument("game", help=game_help)
    play.add_argument(
        "--agents",
        nargs="+",
        metavar="SPEC",
        help="one agent spec per seat: random, heuristic, mcts:iters=400, ppo:model.zip, human (default: random); "
        "their number is the player count unless --set num_players=N is given (then one spec fills every seat)",
    )
    _seed_arg(play, 0, "seed of the (first) game; game g uses seed+g")
    _games_arg(play, 1, "number of games; more than 1 rotates seats")
    play.add_argument("--quiet", action="store_true", help="only the result (and, for a match, the summary)")
    play.add_argument(
        "--board-every",
        type=options.bounded_int("--board-every", 0, options.MAX_GAMES),
        default=40,
        metavar="K",
        help="show the board every K decisions",
    )
    add_game_options(play)
    play.set_defaults(func=cmd_play)

    b = sub.add_parser("bench", help="speed figures of random play", description=bench.__doc__.split("\n\n")[0])
    b.add_argument(
        "--seconds",
        type=options.bounded_float("--seconds", 0.0, options.MAX_SECONDS),
        default=30.0,
        help="total CPU-time budget, shared by the envs (default 30)",
    )
    _games_arg(b, None, "at most this many AEC games per env")
    _seed_arg(b, 0)
    b.add_argument("--no-connect-four", action="store_true", help="skip PettingZoo's connect_four_v3")
    b.add_argument("--quiet", action="store_true", help="only the table")
    b.set_defaults(func=cmd_bench)

    r = sub.add_parser(
        "rules",
        help="how to play a game",
        description="Print a game's rules page (how to play, and what the actions are called in the env).",
    )
    r.add_argument("game", help=game_help)
    r.add_argument("--raw", action="store_true", help="print the Markdown source even on a terminal")
    r.set_defaults(func=cmd_rules)

    bl = sub.add_parser(
        "baselines",
        help="a quick check per game: heuristic against random players",
        description="A quick check of every game: one heuristic agent against random players, seats rotating, "
        "at the game's default settings, nothing stored. Tournaments with ratings, a database and a report are "
        "meeplezoo arena.",
    )
    _games_arg(bl, 20, "games per game (default 20)")
    _seed_arg(bl, 1, "seed of the first game; game g uses seed+g")
    bl.add_argument("--verbose", action="store_true", help="a line per game")
    bl.set_defaults(func=cmd_baselines)

    ls = sub.add_parser("list", help="list games and agents")
    ls.set_defaults(func=cmd_list)

    from .web.command import add_serve_parser

    add_serve_parser(sub)

    _add_arena_parsers(sub, game_help)
    _add_train_parser(sub, game_help)
    return p


# --- train ------------------------------------------------------------------------------------------------


def _add_train_parser(sub: Any, game_help: str) -> None:
    t = sub.add_parser(
        "train",
        help="train a policy (MaskablePPO self-play, or RLlib)",
        description="Train MaskablePPO against an opponent pool (baselines + frozen past checkpoints), with "
        "checkpoints, --resume, tensorboard logs and evaluations; --backend rllib: RLlib multi-agent self-play.",
    )
    t.add_argument("game", help=game_help)
    t.add_argument("--out", required=True, help="run folder (runs/NAME): checkpoints, logs, final.zip")
    t.add_argument(
        "--config", default=None, metavar="FILE", help="TOML settings over the run's defaults (game options: [env])"
    )
    options.add_set_option(
        t, "a game option (repeatable; the game's own keys), over the TOML's [env] table: --set num_players=2"
    )
    t.add_argument("--steps", type=options.bounded_int("--steps", 1, 10**10), default=None, help="total env steps")
    t.add_argument(
        "--minutes",
        type=options.bounded_float("--minutes", 0.0, 60 * 24 * 366),
        default=None,
        help="time budget: stop at the first update past it (or at --steps, whichever comes first) and save",
    )
    t.add_argument("--n-envs", type=options.bounded_int("--n-envs", 1, 256), default=None, help="parallel envs")
    _seed_arg(t, None)
    t.add_argument(
        "--opponent", action="append", default=None, metavar="SPEC", help="baseline agent of the pool (repeatable)"
    )
    t.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    t.add_argument("--backend", choices=["sb3", "rllib"], default="sb3")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    t.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from .agents import make_agent
    from .paths import output_problem
    from .training.config import load_config

    game = games.resolve(args.game)
    why = output_problem(args.out, folder=True)
    if why:  # before any training: a run that cannot save its checkpoints is lost work
        raise CLIError(f"--out {args.out}: {why}")
    overrides: dict[str, Any] = {}
    for key in ("steps", "n_envs", "seed", "opponent"):
        value = getattr(args, key)
        if value is not None:
            overrides[{"steps": "total_steps", "opponent": "opponents"}.get(key, key)] = value
    time_limit = None if args.minutes is None else args.minutes * 60
    if time_limit is not None:
        if args.backend == "rllib":
            raise CLIError("--minutes is for the sb3 backend; RLlib runs stop at --steps")
        overrides["time_limit"] = time_limit
    if args.resume and (args.config or args.set or overrides.keys() - {"total_steps", "time_limit"}):
        raise CLIError("--resume takes the run's own config.toml; only --steps and --minutes may change")
    if args.config:
        options.check_config_path(args.config)
    config = None if args.resume else load_config(game, args.config, overrides)
    if config is not None and args.set:  # game options over the TOML's [env] table, checked by making the env
        defaults = games.make_env(game).unwrapped.game.defaults
        config.env = {**config.env, **options.parse_config(args.set, defaults, game, "--set", adapter=False)}
        _make_env(game, config.env)
    if config is not None:
        demonstrator = [config.pretrain_agent] if config.pretrain_games else []
        for spec in [*config.opponents, config.eval_opponent, *demonstrator]:
            make_agent(spec, game, seed=0)  # a bad opponent: one line now, not a traceback in a worker
    if args.backend == "rllib":
        from .training.rllib import train_rllib

        train_rllib(game, args.out, config, total_steps=overrides.get("total_steps"), resume=args.resume)
        return 0
    from .training.trainer import train

    train(
        game,
        args.out,
        config,
        resume=args.resume,
        total_steps=overrides.get("total_steps"),
        time_limit=time_limit,
        progress=not args.no_progress,
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # no command: the help, and status 2 as for any incomplete command line
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except (CLIError, MeepleZooError, ActionTypeError) as exc:  # ActionTypeError: an agent answered no int
        print(f"meeplezoo {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C in a long match: no traceback
        print(f"meeplezoo {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
