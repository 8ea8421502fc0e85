"""A digest of everything the games produce, for speed work that must not change behaviour.

    python scripts/behaviour_digest.py                      # every game
    python scripts/behaviour_digest.py concordia --steps 3000 --games 3

Per game it prints two short sha256 digests:

    train-env   the training env of the game's shipped config (``configs/GAME.toml`` in the game's package,
                found through its manifest: opponents, advisor, shaping) stepped by a seeded random learner:
                every observation, mask, reward, end flag and scalar info, over several episodes
    heuristic   heuristic agents in every seat at several player counts (seeded games): every seat's
                observation, mask and reward at each decision, the heuristic's choice, the final scores

Run it before and after a change: equal digests mean the same records, observations, masks and choices
(every generator consumed as before, so shipped policies and training runs replay). The figures are not
portable across numpy versions or game content, only across code changes that should not matter.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from typing import Any

import numpy as np

#: the game configs of the heuristic games (each game at the player counts it supports)
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "seastead": [{}],
    "concordia": [{"num_players": 2}, {"num_players": 3}, {}, {"num_players": 5, "map": "imperium"}],
    "resafa": [{"num_players": n} for n in (1, 2, 3, 4)],
    "board_royale": [{"num_players": n} for n in (2, 3, 4, 6)],
}


def _feed(h: Any, *items: Any) -> None:
    for x in items:
        if isinstance(x, np.ndarray):
            h.update(str(x.dtype).encode())
            h.update(x.tobytes())
        else:
            h.update(repr(x).encode())


def training_env_digest(game: str, steps: int) -> str:
    """The digest of ``steps`` random learner steps in the shipped config's training env."""
    from meeplezoo.games import manifest
    from meeplezoo.training.config import load_config
    from meeplezoo.training.pool import OpponentPool
    from meeplezoo.training.trainer import _env_factory

    config = load_config(game, str(manifest(game).training_configs()[game]), {})
    env = _env_factory(game, config, OpponentPool(game, list(config.opponents), [], config.self_play))()
    h = hashlib.sha256()
    rng = np.random.default_rng(7)
    obs, _ = env.reset(seed=11)
    _feed(h, obs)
    episodes = 0
    for _ in range(steps):
        mask = env.action_masks()
        _feed(h, mask)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        scalars = sorted((k, v) for k, v in info.items() if isinstance(v, (int, float, str, bool)))
        _feed(h, obs, float(reward), terminated, truncated, scalars)
        if terminated or truncated:
            episodes += 1
            obs, _ = env.reset()
            _feed(h, obs)
    return f"{h.hexdigest()[:16]} ({episodes} episodes)"


def heuristic_digest(game: str, games: int) -> str:
    """The digest of ``games`` seeded heuristic games at each of the game's configs in :data:`CONFIGS`."""
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.agents.view import seat_view
    from meeplezoo.games import make_env

    h = hashlib.sha256()
    decisions = 0
    for config in CONFIGS[game]:
        for g in range(games):
            env = make_env(game, **config)
            env.reset(seed=1000 + g)
            agents = {a: make_agent("heuristic", game, seed=g * 10 + i) for i, a in enumerate(env.possible_agents)}
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, _ = env.last()
                _feed(h, agent, obs["observation"], obs["action_mask"], float(reward))
                if terminated or truncated:
                    env.step(None)
                    continue
                action = agents[agent].act(seat_view(env, agent))
                _feed(h, action)
                decisions += 1
                env.step(action)
            _feed(h, env.unwrapped.state_obj.scores())
    return f"{h.hexdigest()[:16]} ({decisions} decisions)"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=list(CONFIGS), help="games to digest (default: all)")
    p.add_argument("--steps", type=int, default=3000, help="random learner steps in the training env")
    p.add_argument("--games", type=int, default=3, dest="per", help="heuristic games per player count")
    args = p.parse_args()
    unknown = [g for g in args.games if g not in CONFIGS]
    if unknown or args.steps < 1 or args.per < 1:
        what = (
            f"unknown game {unknown[0]!r}; digests exist for {', '.join(CONFIGS)}"
            if unknown
            else ("--steps and --games must be at least 1")
        )
        print(f"behaviour_digest: {what}", file=sys.stderr)
        raise SystemExit(2)
    for game in args.games:
        print(game, "train-env", training_env_digest(game, args.steps), flush=True)
        print(game, "heuristic", heuristic_digest(game, args.per), flush=True)


if __name__ == "__main__":
    main()
