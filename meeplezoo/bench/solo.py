"""Solo benchmark: an agent's final scores in a game's solo mode over seeded games.

Prints the mean, median, best and worst score, how many games were won (the game's ``ranks()``: the automa
beaten or the solo goal reached), the mean margin over the automa's score (``automa_score()``: Seastead's Boss,
Resafabot; 0 in a game without an automa), how many ended in each rating band where the game's solo rules define bands
(its solo env's ``band``), and the CPU seconds per decision (``time.process_time``, robust to the machine's
load). The mean comes with its standard error and a 95% interval (a normal approximation). Game ``i`` uses seed
``seed + i`` for the game and the agent, so a run replays exactly, and ``--workers`` processes (each game played
whole in one of them) give the same figures as one: a long run can also be split by ``--seed`` and ``--games``
(each game's line gives its score and CPU per decision, so a stopped run keeps what it played).

    python -m meeplezoo.bench.solo GAME --agent heuristic --games 200
    python -m meeplezoo.bench.solo GAME --agent "mcts:iters=100,rollout=heuristic,cutoff=40" --games 20 --workers 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .. import games
from ..agents import make_agent
from ..agents.base import prepare_agent
from ..agents.match import agent_seed, play_game
from ..arena.ratings import Z95
from ..benchmark.scoring import mean_interval
from ..envs.core.errors import MeepleZooError
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


def _played(agent: str, game: str, seeds: range, workers: int) -> Iterator[SoloGame]:
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
) -> dict[str, float]:
    """Play ``games_played`` solo games of ``game`` with ``agent`` (on ``workers`` processes); return the figures
    (also printed unless ``quiet``)."""
    game = games.resolve(game)
    if game not in solo_games():
        raise MeepleZooError(f"{game} has no solo mode; the games with one: {', '.join(solo_games()) or '(none)'}")
    make_agent(agent, game, seed=0)  # a bad spec is one line here, not a worker's traceback
    band = band_of(game)
    results: list[SoloGame] = []
    for g, result in enumerate(_played(agent, game, range(seed, seed + games_played), workers)):
        results.append(result)
        if not quiet:
            rated = f" ({band(result.score)})" if band else ""
            cpu = 1000 * result.cpu / max(result.decisions, 1)
            print(f"game {g:>4} seed {seed + g:>6}: {result.score:g}{rated}  [{cpu:.3g} ms/decision]", flush=True)
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
    print(f"  standard error {out['stderr']:.1f}, 95% interval {out['low']:.1f} to {out['high']:.1f}")
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
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    args = parser.parse_args(argv)
    try:
        run(args.agent, args.games, args.seed, args.quiet, game=args.game, workers=args.workers)
    except MeepleZooError as exc:  # a bad agent spec or network file: one line, as the main CLI gives it
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
