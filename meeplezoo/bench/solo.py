"""Solo benchmark: an agent's final scores in a game's solo mode over seeded games.

Prints the mean, median, best and worst score, how many games were won (the game's ``ranks()``: the automa
beaten or the solo goal reached), the mean margin over the automa's score (``automa_score()``: Seastead's Boss,
Resafabot; 0 in a game without an automa), how many ended in each rating band where the game's solo rules define bands
(its solo env's ``band``), and the CPU seconds per decision (``time.process_time``, robust to the machine's
load). The mean comes with its standard error and a 95% interval (a normal approximation). Game ``i`` uses seed
``seed + i`` for the game and the agent, so a run replays exactly, and ``--workers`` processes (each game played
whole in one of them) give the same figures as one. ``--record FILE`` appends each game played to a JSON-lines
file (in seed order), and the same command run again resumes: the seeds the file holds are read, not played again,
and the figures cover every game of the range. Runs over parts of a range (``--seed``, ``--games``) can share one
file, and a run over the whole range then reports them together.

    python -m meeplezoo.bench.solo GAME --agent heuristic --games 200
    python -m meeplezoo.bench.solo GAME --agent "mcts:iters=100,rollout=heuristic,cutoff=40" --games 20 --workers 2
    python -m meeplezoo.bench.solo GAME --agent SPEC --games 200 --workers 2 --record runs/solo.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TextIO

from .. import games
from ..agents import make_agent
from ..agents.base import prepare_agent
from ..agents.match import agent_seed, play_game
from ..arena.ratings import Z95
from ..benchmark.scoring import mean_interval
from ..envs.core.errors import CorruptStateError, MeepleZooError
from ..envs.core.manifest import load
from ..options import MAX_GAMES, MAX_SEED, bounded_int


def solo_games() -> list[str]:
    """The registered games with a solo mode (one player), in listing order."""
    return [m.name for m in games.manifests() if 1 in m.player_counts]


def band_of(game: str) -> Callable[[float], str] | None:
    """The game's solo rating bands (a final score -> its band's name), or None where its rules define none."""
    manifest = games.manifest(game)
    if manifest.solo_env is None:
        return None
    return getattr(load(manifest.solo_env)(), "band", None)


@dataclass(frozen=True)
class SoloGame:
    """One solo game's result: its final score, the automa's score, whether it was won, its decisions and the
    agent's CPU seconds over them."""

    score: float
    automa: float
    won: bool
    decisions: int
    cpu: float


def play_one(agent: str, game: str, seed: int) -> SoloGame:
    """Play one solo game of ``game`` from ``seed`` with a new ``agent`` seeded from it (what each worker runs)."""
    env = games.make_env(game, num_players=1)
    player = make_agent(agent, game, seed=agent_seed(seed, 0))
    prepare_agent(player, game, 1)  # as an agent process does: loading is not the decisions' CPU
    start = time.process_time()
    record = play_game(env, {"player_0": player}, seed)
    cpu = time.process_time() - start
    won = record.ranks["player_0"] == 0 and not record.truncated
    automa = float(env.unwrapped.state_obj.automa_score())
    return SoloGame(record.scores["player_0"], automa, bool(won), record.steps, cpu)


#: a record line's fields: the run's game and agent spec, the game's seed, then :class:`SoloGame`'s
RECORD_FIELDS = ("game", "agent", "seed", *(f.name for f in fields(SoloGame)))


def record_line(game: str, agent: str, seed: int, result: SoloGame) -> str:
    """One game as a line of a ``--record`` file (JSON, newline-terminated)."""
    return json.dumps({"game": game, "agent": agent, "seed": seed, **asdict(result)}) + "\n"


def read_record(path: Path, game: str, agent: str) -> dict[int, SoloGame]:
    """The games a ``--record`` file holds, by seed ({} if there is no file). A line that is not a whole game is
    refused (:class:`CorruptStateError`, naming the line), and so is a game of another game or agent
    (:class:`MeepleZooError`); the file is left as it is."""
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CorruptStateError(f"{path} is not a solo record: {exc}") from None
    games_held: dict[int, SoloGame] = {}
    lines = text.split("\n")
    if lines[-1]:  # appending would join the next game to it
        raise CorruptStateError(f"{path} line {len(lines)} has no newline at its end (a run stopped while writing it?)")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            entry = json.loads(line)
        except ValueError:
            raise CorruptStateError(f"{where} is not JSON") from None
        if not isinstance(entry, dict) or sorted(entry) != sorted(RECORD_FIELDS):
            raise CorruptStateError(f"{where} is not a solo game (its fields are {', '.join(RECORD_FIELDS)})")
        if (entry["game"], entry["agent"]) != (game, agent):
            raise MeepleZooError(
                f"{where} is a game of {entry['game']!r} by agent {entry['agent']!r}, not of {game!r} by {agent!r}: "
                "record this run in another file"
            )
        seed, won, decisions = entry["seed"], entry["won"], entry["decisions"]
        numbers = [entry[k] for k in ("score", "automa", "cpu")]
        if (
            type(seed) is not int
            or not 0 <= seed <= MAX_SEED
            or type(won) is not bool
            or type(decisions) is not int
            or decisions < 0
            or not all(type(x) in (int, float) and math.isfinite(x) for x in numbers)
            or entry["cpu"] < 0
        ):
            raise CorruptStateError(f"{where} has a value of the wrong type or out of range")
        if seed in games_held:
            raise CorruptStateError(f"{where} records seed {seed} a second time")
        games_held[seed] = SoloGame(float(entry["score"]), float(entry["automa"]), won, decisions, float(entry["cpu"]))
    return games_held


def _played(agent: str, game: str, seeds: Sequence[int], workers: int) -> Iterator[SoloGame]:
    """Each seed's game in seed order, played here or by ``workers`` processes (a worker ends with this one)."""
    if workers <= 1 or len(seeds) <= 1:
        yield from (play_one(agent, game, s) for s in seeds)
        return
    import multiprocessing as mp

    from ..training.parent_watch import exit_with_parent

    pool = ProcessPoolExecutor(
        min(workers, len(seeds)),
        mp_context=mp.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )
    futures = [pool.submit(play_one, agent, game, s) for s in seeds]
    finished = False
    try:
        for future in futures:
            yield future.result()
        finished = True
    finally:  # a stopped run drops the games not started and does not wait for those under way
        pool.shutdown(wait=finished, cancel_futures=True)


def run(
    agent: str,
    games_played: int,
    seed: int = 0,
    quiet: bool = False,
    *,
    game: str,
    workers: int = 1,
    record: Path | None = None,
) -> dict[str, float]:
    """Play ``games_played`` solo games of ``game`` with ``agent`` (on ``workers`` processes); return the figures
    (also printed unless ``quiet``). With ``record``, each game played is appended to that file in seed order, and
    the seeds it already holds are read from it instead of played."""
    game = games.resolve(game)
    if game not in solo_games():
        raise MeepleZooError(f"{game} has no solo mode; the games with one: {', '.join(solo_games()) or '(none)'}")
    make_agent(agent, game, seed=0)  # a bad spec is one line here, not a worker's traceback
    band = band_of(game)
    seeds = range(seed, seed + games_played)
    held = read_record(record, game, agent) if record is not None else {}
    results: list[SoloGame] = []
    with contextlib.ExitStack() as stack:
        out_file = _append_to(record, stack) if record is not None else None
        fresh = stack.enter_context(
            contextlib.closing(_played(agent, game, [s for s in seeds if s not in held], workers))
        )
        for g, s in enumerate(seeds):
            result = held.get(s)
            if result is None:
                result = next(fresh)
                if out_file is not None:  # one write of a whole line, on disk before the next game is counted
                    out_file.write(record_line(game, agent, s, result))
                    out_file.flush()
                    os.fsync(out_file.fileno())
            results.append(result)
            if not quiet:
                rated = f" ({band(result.score)})" if band else ""
                cpu = 1000 * result.cpu / max(result.decisions, 1)
                from_file = " (recorded)" if s in held else ""
                print(
                    f"game {g:>4} seed {s:>6}: {result.score:g}{rated}  [{cpu:.3g} ms/decision]{from_file}", flush=True
                )
    scores = [r.score for r in results]
    margins = [r.score - r.automa for r in results]
    decisions = sum(r.decisions for r in results)
    mean, low, high = mean_interval(scores)
    out = {
        "games": games_played,
        "mean": mean,
        "low": low,
        "high": high,
        "stderr": (high - mean) / Z95,
        "median": statistics.median(scores),
        "best": max(scores),
        "worst": min(scores),
        "won": sum(r.won for r in results),
        "cpu_s_per_decision": sum(r.cpu for r in results) / max(decisions, 1),
        "decisions_per_game": decisions / games_played,
        "margin": statistics.fmean(margins),
        "worst_margin": min(margins),
    }
    _report(game, agent, seed, out, [band(s) for s in scores] if band else None, band)
    return out


def _append_to(path: Path, stack: contextlib.ExitStack) -> TextIO:
    """``path`` opened to append record lines (closed with ``stack``); a file that cannot be written is one line."""
    try:
        return stack.enter_context(open(path, "a", encoding="utf-8"))
    except OSError as exc:
        raise MeepleZooError(f"cannot write the record {path}: {exc.strerror or exc}") from None


def _report(
    game: str,
    agent: str,
    seed: int,
    out: dict[str, float],
    bands: list[str] | None,
    band: Callable[[float], str] | None,
) -> None:
    n = int(out["games"])
    print(f"{games.manifest(game).title} solo, agent {agent}, {n} games (seeds {seed}..{seed + n - 1})")
    rated = f" ({band(out['mean'])})" if band else ""
    print(f"  mean {out['mean']:.1f}{rated}, median {out['median']:g}, best {out['best']:g}, worst {out['worst']:g}")
    if n > 1:
        print(f"  standard error {out['stderr']:.1f}, 95% interval {out['low']:.1f} to {out['high']:.1f}")
    else:
        print("  standard error: none from one game")
    print(f"  won {out['won']:g}/{n}")
    print(f"  margin over the automa: mean {out['margin']:+.1f}, worst {out['worst_margin']:+g}")
    for name, count in Counter(bands or ()).most_common():
        print(f"  {name:>24}: {count} games")
    print(f"  CPU {out['cpu_s_per_decision'] * 1000:.2f} ms/decision, {out['decisions_per_game']:.0f} decisions/game")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.bench.solo", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=solo_games(), help="a game with a solo mode")
    parser.add_argument("--agent", default="heuristic", help="agent spec (heuristic, random, mcts:iters=...)")
    parser.add_argument("--games", type=bounded_int("games", 1, MAX_GAMES), default=200)
    parser.add_argument("--seed", type=bounded_int("seed", 0, MAX_SEED), default=0)
    parser.add_argument(
        "--workers", type=bounded_int("workers", 1, 256), default=1, help="processes playing games (default: 1)"
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="append each game to FILE (JSON lines); the same command run again plays only the seeds it lacks",
    )
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    args = parser.parse_args(argv)
    try:
        run(args.agent, args.games, args.seed, args.quiet, game=args.game, workers=args.workers, record=args.record)
    except MeepleZooError as exc:  # a bad agent spec, network or record file: one line, as the main CLI gives it
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
