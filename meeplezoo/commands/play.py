"""``meeplezoo play GAME``: one game shown as played, or a match with seat rotation (``--games N``)."""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable
from typing import Any

from .. import games, options
from ..agents.registry import import_agent_modules
from ..agents.run_options import EXIT_FORFEITS, add_import_option, add_run_options, mode_line, read_budget
from ..agents.spec import parse_spec
from ..labels import players_text, short_labels
from . import common
from .common import CLIError, add_game_options, game_options, games_arg, make_env, plain, seed_arg
from .results import match_table, print_result


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    play = sub.add_parser("play", help="play games between agents", description="Play games between agents.")
    play.add_argument("game", help=game_help)
    play.add_argument(
        "--agents",
        nargs="+",
        metavar="SPEC",
        help="one agent spec per seat: random, heuristic, mcts:iters=400, ppo:model.zip, human (default: random); "
        "their number is the player count unless --set num_players=N is given (then one spec fills every seat)",
    )
    seed_arg(play, 0, "seed of the (first) game; game g uses seed+g")
    games_arg(play, 1, "number of games; more than 1 rotates seats")
    play.add_argument("--quiet", action="store_true", help="only the result (and, for a match, the summary)")
    play.add_argument(
        "--board-every",
        type=options.bounded_int("--board-every", 0, options.MAX_GAMES),
        default=40,
        metavar="K",
        help="show the board every K decisions",
    )
    add_game_options(play)
    add_run_options(play, human=True)
    add_import_option(play, "agent processes import it")
    return play


def seats_and_agents(args: argparse.Namespace, game: str, config: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The config with its player count and one agent spec per seat.

    With the count unset (no ``num_players`` in ``--set``/``--config``), ``--agents`` gives it: one spec per
    seat. With the count set, one spec fills every seat, else there must be one per seat. No ``--agents``:
    random players at the game's count.
    """
    from ..agents import available_agents
    from ..agents.spec import parse_spec

    specs = list(args.agents or [])
    default_seats = len(games.make_env(game).possible_agents)
    allowed = games.player_counts(game)
    if specs and "num_players" not in config and len(specs) != default_seats:
        takes_count = any(p.name == "num_players" for p in options.config_schema(game))
        if not takes_count or len(specs) not in allowed:
            raise CLIError(
                f"{game} is played by {players_text(allowed)} players, not {len(specs)} (one agent spec per seat; "
                f"--set num_players=N with one spec fills every seat)"
            )
        config = {**config, "num_players": len(specs)}
    seats = len(make_env(game, config).possible_agents)
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


def run(args: argparse.Namespace) -> int:
    """One game (``play_one``) or a match; exit status 4 when a game ended by an agent's forfeit."""
    from ..agents.match import agent_seed, seat_agents

    budget = read_budget(args.time_limit, args.budget)
    import_agent_modules(args.imports)
    game = games.resolve(args.game)
    config, names = seats_and_agents(args, game, game_options(game, args))
    env = make_env(game, config, render_mode="ansi")
    if args.isolation == "process":
        for spec in names:
            check_spec(spec, game)
    how = {"isolation": args.isolation, "budget": budget, "imports": args.imports}
    if args.games > 1:
        result = match_table(common.console(), game, names, args, config, **how)
        plain(common.console(), mode_line(args.isolation, budget))
        return EXIT_FORFEITS if any(r.forfeit is not None for r in result.records) else 0
    seeds = [agent_seed(args.seed, seat) for seat in range(len(names))]
    with contextlib.ExitStack() as stack:  # the agent processes end with the game
        return play_one(env, game, names, args, lambda: seat_agents(stack, env, game, names, seeds, **how))


def check_spec(spec: str, game: str) -> None:
    """Raise ``AgentSpecError`` (one line) unless ``spec``'s parameters are ones its agent takes: checked here,
    before its process starts (the agent is not made here)."""
    from ..agents.registry import agent_params
    from ..agents.spec import bind_params

    name, raw = parse_spec(spec)
    bind_params(name, agent_params(name, game), raw)


def play_one(
    env: Any, game: str, names: list[str], args: argparse.Namespace, make: Callable[[], dict[str, Any]]
) -> int:
    """One game shown as played (the board every ``--board-every`` decisions), then the result. ``make()`` gives
    the seats' agents; a fault of one (an isolated agent's :class:`~meeplezoo.agents.faults.Forfeit`, while it
    starts or plays) ends the game: the result ranks that seat last and a line says why (exit status 4)."""
    from ..agents import play_game
    from ..agents.faults import Forfeit
    from ..agents.human import Resigned
    from ..agents.match import forfeit_record

    out = common.console()
    labels = dict(zip(env.possible_agents, names, strict=True))
    short = short_labels(names)
    out.rule(f"{env} - seed {args.seed}")
    plain(out, ", ".join(f"{a}: {n}" for a, n in labels.items()))
    # a person at the table sees the table through their agent (their seat's view), not the true board
    every = 0 if any(parse_spec(n)[0] == "human" for n in names) else args.board_every
    count = [0]
    record = None

    def show(env: Any, agent: str, action: int) -> None:
        step = count[0]
        count[0] += 1
        if every and step % every == 0:
            out.rule(f"board before decision {step}")
            plain(out, env.render())
        plain(out, f"{step:>5}  {agent:<9} {short[labels[agent]]:<10} {env.describe_action(action)}")

    try:
        agents = make()
    except Forfeit as exc:  # an agent process that could not start: the game is lost before it begins
        record = forfeit_record(env, labels, args.seed, exc.fault)
    start = time.perf_counter()
    if record is None:
        try:
            record = play_game(
                env, agents, args.seed, labels=labels, on_decision=None if args.quiet else show, forfeits=True
            )
        except Resigned as resigned:
            out.print(f"{resigned.agent} ({labels[resigned.agent]}) resigned after {count[0]} decisions.")
            return 0
    elapsed = time.perf_counter() - start
    shown = ""
    if not args.quiet:
        out.rule("Final position")
        shown = env.render()
        plain(out, shown)
    print_result(out, env, record, shown)
    out.print(f"{record.steps} decisions in {elapsed:.2f} s")
    verdict = getattr(env.unwrapped.state_obj, "verdict", None)
    if callable(verdict) and verdict() and record.forfeit is None:  # a solo mode played for points: its band
        out.print(verdict())
    return EXIT_FORFEITS if record.forfeit is not None else 0
