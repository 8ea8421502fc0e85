"""Train MaskablePPO (sb3-contrib) on one seat of a MeepleZoo game, save it, and measure it against a baseline.

::

    python -m meeplezoo.training.train_ppo --game seastead --timesteps 20000
    python -m meeplezoo.training.train_ppo --game seastead --timesteps 256 --eval-games 4   # smoke run

The learner plays a random seat of :class:`~meeplezoo.training.single_agent.SingleAgentEnv` against
``--opponent`` (random by default) and is rewarded +1/-1 at the end of each game. After training the
model is saved to ``--save`` and plays ``--eval-games`` games against ``--eval-opponent`` with seats
rotating; the win rate is printed. Needs the ``training`` extra (torch, stable-baselines3, sb3-contrib).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..agents import MatchResult, play_match
from ..games import resolve
from .policy_agent import PolicyAgent
from .single_agent import SingleAgentEnv


def train(
    game: str = "seastead",
    timesteps: int = 20_000,
    opponent: str = "random",
    seed: int = 0,
    n_steps: int = 1024,
    batch_size: int = 64,
    learning_rate: float = 3e-4,
    ent_coef: float = 0.01,
    verbose: int = 0,
) -> Any:
    """Train and return a ``MaskablePPO`` model (on the CPU). ``n_steps`` shrinks to fit tiny budgets."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # a small MLP: one thread is faster than several on a 2-core machine
    env = SingleAgentEnv(game, opponent=opponent)
    n_steps = max(2, min(n_steps, timesteps))
    batch_size = max(2, min(batch_size, n_steps))
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=batch_size,
        learning_rate=learning_rate,
        ent_coef=ent_coef,
        seed=seed,
        device="cpu",
        verbose=verbose,
    )
    model.learn(total_timesteps=timesteps)
    return model


def evaluate(model: Any, game: str = "seastead", opponent: str = "random", games: int = 100, seed: int = 10_000):
    """Play ``games`` games of the model against ``opponent`` with seats rotating; a :class:`MatchResult`."""
    return play_match(game, [lambda s: PolicyAgent(model, seed=s), opponent], games, seed, labels=["ppo", opponent])


def win_rate(result: MatchResult, label: str = "ppo") -> float:
    return next(s.win_rate for s in result.standings() if s.label == label)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m meeplezoo.training.train_ppo", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="seastead")
    p.add_argument("--timesteps", type=int, default=20_000, help="learner decisions to train on")
    p.add_argument("--opponent", default="random", help="agent playing the other seats during training")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n-steps", type=int, default=1024, help="rollout length per update")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--save", type=Path, default=None, help="model path (default runs/ppo_<game>.zip)")
    p.add_argument("--eval-games", type=int, default=100, help="evaluation games after training (0: none)")
    p.add_argument("--eval-opponent", default="random")
    p.add_argument("--verbose", type=int, default=0, help="Stable-Baselines3 verbosity (1: training logs)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    game = resolve(args.game)
    save = args.save or Path("runs") / f"ppo_{game}.zip"
    print(f"Training MaskablePPO on {game} for {args.timesteps} steps against {args.opponent} (seed {args.seed})")
    start = time.perf_counter()
    model = train(
        game,
        args.timesteps,
        opponent=args.opponent,
        seed=args.seed,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        ent_coef=args.ent_coef,
        verbose=args.verbose,
    )
    took = time.perf_counter() - start
    print(f"Trained {model.num_timesteps} steps in {took:.1f} s ({model.num_timesteps / took:.0f} steps/s)")
    save.parent.mkdir(parents=True, exist_ok=True)
    model.save(save)
    print(f"Saved the model to {save}")
    if args.eval_games > 0:
        start = time.perf_counter()
        result = evaluate(model, game, args.eval_opponent, args.eval_games, seed=args.seed + 10_000)
        ppo = next(s for s in result.standings() if s.label == "ppo")
        print(
            f"Win rate vs {args.eval_opponent}: {100 * ppo.win_rate:.1f}% over {ppo.games} games, seats rotating "
            f"({ppo.wins} wins, {ppo.draws} shared, {ppo.losses} losses, {ppo.unfinished} unfinished; "
            f"mean score {ppo.mean_score:.1f}; {time.perf_counter() - start:.1f} s)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
