"""Figures for Seastead's variants (issue 11): the heuristic against the Boss, and speed per configuration.

Run: ``nice -n 10 .venv/bin/python scripts/measure_seastead_variants.py [--solo-games 500] [--seconds 10]``.
Prints the heuristic's win rate and mean score over seeded solo games (seeds 0..N-1), then the speed of
random legal games through the AEC loop (steps/s, games/s) and of the engine's clone + apply, for the base
game, B sides, a mixed setup and the solo mode (``meeplezoo bench`` takes no game config).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from meeplezoo.envs.core.manifest import load
from meeplezoo.games import make_env, manifest

#: Seastead's engine and heuristic, as its manifest names them
SeasteadGame = manifest("seastead").engine_class()
SeasteadHeuristicAgent = load(manifest("seastead").agents["heuristic"])

CONFIGS = {
    "base (AAAA)": {},
    "B sides (BBBB)": {"sides": "BBBB"},
    "mixed (BABA)": {"sides": "BABA"},
    "solo": {"num_players": 1},
}


def solo_figures(games: int) -> None:
    game = SeasteadGame(num_players=1)
    wins, mine, boss = 0, [], []
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(seed)
        agent = SeasteadHeuristicAgent(seed=seed)
        while not state.is_terminal():
            state.apply(agent.choose(state))
        wins += state.ranks() == [0]
        mine.append(state.scores()[0])
        boss.append(state.automa_score())
    secs = time.perf_counter() - start
    print(f"heuristic vs the Boss, {games} seeded solo games ({secs:.0f} s):")
    print(f"  win rate {wins / games:.1%} ({wins}/{games}); mean score {np.mean(mine):.1f} (sd {np.std(mine):.1f});")
    print(f"  Boss mean {np.mean(boss):.1f}; mean margin {np.mean(np.array(mine) - np.array(boss)):.1f}")


def speed(config: dict, seconds: float) -> tuple[float, float, float]:
    env = make_env("seastead", **config)
    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=games)
        while env.agents:
            _, _, terminated, truncated, _ = env.last()
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        games += 1
    aec = time.perf_counter() - start
    state = SeasteadGame(**config).new_state(1)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds / 4:
        if state.is_terminal():
            state = SeasteadGame(**config).new_state(n)
        copy = state.clone()
        copy.apply(copy.legal_actions()[n % len(copy.legal_actions())])
        state.apply(state.legal_actions()[0] if n % 3 else state.legal_actions()[-1])
        n += 1
    return steps / aec, games / aec, n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solo-games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0, help="per configuration, for the speed figures")
    args = parser.parse_args()
    solo_figures(args.solo_games)
    print(f"{'configuration':<16}{'AEC steps/s':>13}{'games/s':>9}{'clone+apply/s':>15}")
    for name, config in CONFIGS.items():
        steps, games, clones = speed(config, args.seconds)
        print(f"{name:<16}{steps:>13,.0f}{games:>9.1f}{clones:>15,.0f}")


if __name__ == "__main__":
    main()
