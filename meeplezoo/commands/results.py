"""How ``play`` and ``baselines`` print results: one game's score sheet, results table and winner, and a match's
standings (seats rotating) with a line per game."""

from __future__ import annotations

import argparse
import inspect
import time
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..labels import RANK, legend, short_labels
from .common import fmt, plain


def _who(record: Any, agent: str) -> str:
    return f"{agent} ({record.players[agent]})"


def print_legend(console: Console, short: dict[str, str]) -> None:
    """Under a table: each shortened agent label with its full spec."""
    for line in legend(short):
        plain(console, line)


def score_sheet(state: Any) -> str | None:
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


def winner_line(record: Any) -> Text:
    winners = record.winners
    fault = getattr(record, "forfeit", None)
    if fault is not None:
        agent = list(record.players)[fault.seat]
        return Text(
            f"Forfeit: seat {fault.seat}, {_who(record, agent)}, at decision {fault.decision} ({fault.reason}): "
            f"{fault.detail}"
        )
    if record.illegal_action:
        return Text(f"Game ended on an illegal action: {record.illegal_action}")
    lead = "Truncated; leading: " if record.truncated else ""
    if not winners:  # a solo game short of the automa's score
        only = next(iter(record.scores))
        return Text(f"{lead}No win: {_who(record, only)} scored {fmt(record.scores[only])}")
    if len(winners) == 1:
        w = winners[0]
        tie = " (tied on score; the tie-break decided)" if record.tie_break else ""
        return Text(f"{lead}Winner: {_who(record, w)} with a score of {fmt(record.scores[w])}{tie}")
    names = ", ".join(_who(record, w) for w in winners)
    return Text(f"{lead}Shared win: {names} with a score of {fmt(record.scores[winners[0]])}")


def print_result(console: Console, env: Any, record: Any, shown: str = "") -> None:
    """The game's own score sheet (unless already in ``shown``), a results table and the winner."""
    sheet = score_sheet(env.unwrapped.state_obj)
    if sheet and sheet not in shown:
        console.rule("Final score sheet")
        plain(console, sheet)
    short = short_labels(record.players.values())
    results = Table(title="Result")
    for col in ("agent", "played by", "score", RANK, "reward"):
        results.add_column(col, justify="left" if col in ("agent", "played by") else "right", no_wrap=True)
    for agent in env.possible_agents:
        results.add_row(
            agent,
            short[record.players[agent]],
            fmt(record.scores[agent]),
            str(record.ranks[agent]),
            f"{record.rewards[agent]:+.2f}",
        )
    console.print(results)
    print_legend(console, short)
    console.print(winner_line(record), soft_wrap=True)  # one line, however long a forfeit's detail


def _game_line(console: Console, short: dict[str, str], g: int, rec: Any) -> None:
    """One line of a match: the game's seed, each seat's agent and score, and who won."""
    parts = [f"{a} {short[rec.players[a]]} {fmt(rec.scores[a])}" for a in rec.players]
    if rec.forfeit is not None:
        outcome = f"forfeit by {short[rec.players[list(rec.players)[rec.forfeit.seat]]]} ({rec.forfeit.reason})"
    elif rec.truncated or rec.illegal_action:
        outcome = f"unfinished after {rec.steps} decisions" + (" (illegal action)" if rec.illegal_action else "")
    else:
        outcome = "won: " + " & ".join(short[rec.players[w]] for w in rec.winners)
        outcome += " (tie-break)" if rec.tie_break else ""
    plain(console, f"game {g + 1:>3}  seed {rec.seed:<6} {' - '.join(parts):<48} {outcome}")


def _standings_table(title: str, standings: list[Any], short: dict[str, str], unfinished: bool) -> Table:
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
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
    return t


def match_table(
    console: Console, game: str, names: list[str], args: argparse.Namespace, config: dict, **how: Any
) -> Any:
    """Play a match with seat rotation, print a line per game (unless ``args.quiet``) and the standings table;
    return the match result. ``how``: how the agents run (``play_match``'s ``isolation``, ``budget``,
    ``imports``); a game ended by a fault is told in a line (its seat, reason and detail)."""
    from ..agents import play_match
    from ..agents.match import unique_labels

    short = short_labels(unique_labels(names))  # the match's labels: one per entrant
    start = time.perf_counter()
    result = play_match(
        game,
        names,
        args.games,
        args.seed,
        env_kwargs=config,
        on_game=None if args.quiet else lambda g, rec: _game_line(console, short, g, rec),
        **how,
    )
    elapsed = time.perf_counter() - start
    standings = sorted(result.standings(), key=lambda s: -s.win_rate)
    unfinished = any(s.unfinished for s in standings)
    seeds = f"seeds {args.seed}..{args.seed + args.games - 1}"
    console.print(
        _standings_table(f"{game}: {args.games} games, seats rotating, {seeds}", standings, short, unfinished)
    )
    print_legend(console, short)
    if unfinished:
        console.print("Unfinished games (truncated) count as neither win nor loss; win rate is over finished games.")
    seats = list(result.records[0].players)
    finished = [r for r in result.records if not (r.truncated or r.illegal_action)]
    seat_wins = {a: sum(1 for r in finished if r.winners == [a]) for a in seats}
    console.print("Sole wins by seat: " + ", ".join(f"{a} {seat_wins[a]}" for a in seats))
    best = standings[0]
    if len(standings) > 1 and best.win_rate > standings[1].win_rate:
        plain(console, f"Best: {short[best.label]}, win rate {100 * best.win_rate:.1f}%")
    else:
        console.print("No single best agent: the top win rates are equal")
    _print_forfeits(console, result.records)
    decisions = sum(r.steps for r in result.records)
    console.print(f"{decisions} decisions in {elapsed:.2f} s")
    return result


def _print_forfeits(console: Console, records: list[Any]) -> None:
    """How many games ended by a fault, and one line for each (the game's seed, the seat, reason and detail)."""
    faulted = [r for r in records if r.forfeit is not None]
    if not faulted:
        return
    console.print(f"{len(faulted)} games ended by a forfeit (the faulty seat ranked last):")
    for r in faulted:
        agent = list(r.players)[r.forfeit.seat]
        f = r.forfeit
        plain(console, f"  seed {r.seed}: {_who(r, agent)} at decision {f.decision} ({f.reason}): {f.detail}")
