"""Solo Resafa benchmark: an agent's final VP against Resafabot over seeded games, on the designer's scale.

Prints the mean, median and best VP, how many games reached each band (150 fair, 180 good, 200 very good,
220+ excellent), the band of the mean, and the CPU seconds per decision (``time.process_time``, robust to the
machine's load). Game ``i`` uses seed ``seed + i`` for the game and the agent, so a run replays exactly.

    python -m meeplezoo.agents.solo_benchmark --agent heuristic --games 200
    python -m meeplezoo.agents.solo_benchmark --agent "mcts:iters=100,rollout=heuristic,cutoff=40" --games 20
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from ..envs.resafa.solo import SOLO, band
from ..games import make_env
from .match import agent_seed, play_game
from .registry import make_agent


def run(agent: str, games: int, seed: int = 0, quiet: bool = False) -> dict[str, float]:
    """Play ``games`` solo games with ``agent`` and return the figures (also printed unless ``quiet``)."""
    scores: list[float] = []
    decisions = 0
    cpu = 0.0
    for g in range(games):
        env = make_env("resafa", num_players=1)
        player = make_agent(agent, "resafa", seed=agent_seed(seed + g, 0))
        start = time.process_time()
        record = play_game(env, {"player_0": player}, seed + g)
        cpu += time.process_time() - start
        decisions += record.steps
        scores.append(record.scores["player_0"])
        if not quiet:
            print(f"game {g:>4} seed {seed + g:>6}: {scores[-1]:g} VP ({band(scores[-1])})", flush=True)
    mean = statistics.fmean(scores)
    out = {
        "games": games,
        "mean": mean,
        "median": statistics.median(scores),
        "best": max(scores),
        "worst": min(scores),
        "cpu_s_per_decision": cpu / max(decisions, 1),
        "decisions_per_game": decisions / games,
    }
    print(f"Resafa solo, agent {agent}, {games} games (seeds {seed}..{seed + games - 1})")
    med, best, worst = out["median"], out["best"], out["worst"]
    print(f"  mean {mean:.1f} VP ({band(mean)}), median {med:g}, best {best:g}, worst {worst:g}")
    for threshold, name in SOLO.bands:
        print(f"  {name:>10} ({threshold}+): {sum(1 for s in scores if s >= threshold)} games")
    print(f"  CPU {out['cpu_s_per_decision'] * 1000:.2f} ms/decision, {out['decisions_per_game']:.0f} decisions/game")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="heuristic", help="agent spec (heuristic, random, mcts:iters=...)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    args = parser.parse_args(argv)
    run(args.agent, args.games, args.seed, args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
