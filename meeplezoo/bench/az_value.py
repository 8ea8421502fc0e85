"""Value-head benchmark: how well an az network's value head predicts the results of games it did not see, beside
the game's static estimate (the one ``az:mix`` blends into leaf values and ``mcts`` values cut-offs with).

Plays seeded games of the agents given (in game ``g`` seat ``i`` is played by agent ``(i + g) % len(agents)``). At
each real choice it reads, for the seat to act, the network's value of the seat's own observation and the static
estimate's value of a determinization of the seat's view (what the seat may know); at the end, each seat's real value
in the network's mode (:func:`~meeplezoo.agents.az.final_values`). Prints, by thirds of each game and over all: the
correlation of each with the real value, their mean squared error, and the real value's variance, which is the
error of the best constant guess: a value head whose error is above it judges these positions worse than a
constant. Game ``i`` uses seed ``seed + i``, so a run replays exactly.

    python -m meeplezoo.bench.az_value seastead --agents heuristic --games 20
    python -m meeplezoo.bench.az_value seastead --net runs/az/final.pt --agents az:sims=0 heuristic
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import games
from ..agents import make_agent
from ..agents.az import estimated_values, final_values, shipped_net
from ..agents.az_net import load_net
from ..agents.base import prepare_agent
from ..agents.match import agent_seed
from ..envs.core.errors import MeepleZooError
from ..options import MAX_GAMES, MAX_SEED, bounded_int
from ..training.az_games import play_out

#: the parts of a game the figures are split by (fractions of its real choices) and the whole game
PARTS = (("first third", 0.0, 1 / 3), ("second third", 1 / 3, 2 / 3), ("last third", 2 / 3, 1.0), ("all", 0.0, 1.0))


@dataclass(frozen=True)
class Fit:
    """How one part of the games was judged: positions, each predictor's correlation with the real value and mean
    squared error, and the real value's variance (the best constant's error)."""

    part: str
    positions: int
    net_corr: float
    net_mse: float
    estimate_corr: float
    estimate_mse: float
    variance: float


def value_rows(
    game: str, net_path: str, agents: Sequence[str], num_games: int, seed: int = 0, players: int = 2
) -> np.ndarray:
    """One row per real choice of ``num_games`` games of ``players``: (its fraction of the game's real choices, the
    network's value for the seat to act, the static estimate's value, the seat's real value at the end)."""
    engine = games.manifest(game).engine_class()(num_players=players)
    n = engine.num_players
    net = load_net(net_path, game, engine.observation_size, engine.num_actions, n)  # another game's: one line
    estimate = estimated_values(game, net.value)
    rows: list[tuple[float, float, float, float]] = []
    for g in range(num_games):
        players = [make_agent(agents[(i + g) % len(agents)], game, seed=agent_seed(seed + g, i)) for i in range(n)]
        for player in players:
            prepare_agent(player, game, n)
        rng = np.random.default_rng(agent_seed(seed + g, n))  # the determinizations the estimate reads
        state = engine.new_state(seed + g)
        seen: list[tuple[int, float, float]] = []

        def judge(seat: int, view: Any, players: list[Any] = players, seen: list[Any] = seen, rng: Any = rng) -> int:
            obs, mask = view.observation.astype(np.float32)[None], view.action_mask.astype(bool)[None]
            _, values = net.evaluate_batch(obs, mask)
            seen.append((seat, float(values[0][0]), estimate(view.determinize(rng))[seat]))
            return int(players[seat].act(view))

        adjudicated = play_out(engine, state, judge)
        final = final_values(state, net.value, adjudicated)
        rows += [(k / len(seen), v, e, final[seat]) for k, (seat, v, e) in enumerate(seen)]
    return np.array(rows, np.float64).reshape(-1, 4)


def fits(rows: np.ndarray) -> list[Fit]:
    """The figures of :data:`PARTS` from :func:`value_rows`' rows (a correlation is 0 where either side is
    constant)."""
    out = []
    for part, low, high in PARTS:
        chosen = rows[(rows[:, 0] >= low) & ((rows[:, 0] < high) | (high == 1.0))]
        final = chosen[:, 3]
        out.append(
            Fit(
                part,
                len(chosen),
                _corr(chosen[:, 1], final),
                float(np.mean((chosen[:, 1] - final) ** 2)) if len(chosen) else 0.0,
                _corr(chosen[:, 2], final),
                float(np.mean((chosen[:, 2] - final) ** 2)) if len(chosen) else 0.0,
                float(final.var()) if len(chosen) else 0.0,
            )
        )
    return out


def _corr(x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 2 or x.std() == 0 or y.std() == 0:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])


def run(
    game: str, net: str | None, agents: Sequence[str], num_games: int, seed: int = 0, players: int = 2
) -> list[Fit]:
    """Measure and print the figures; ``net`` None: the network shipped for ``players``."""
    game = games.resolve(game)
    path = str(net) if net else str(shipped_net(game, players))
    table = fits(value_rows(game, path, agents, num_games, seed, players))
    print(f"{games.manifest(game).title}: value head of {path} on {num_games} games of {' / '.join(agents)}")
    print(f"(seeds {seed}..{seed + num_games - 1})")
    heads = ("part", "positions", "net corr", "net mse", "est corr", "est mse", "variance")
    print(" ".join(f"{h:>{w}}" for h, w in zip(heads, (13, 9, 9, 8, 9, 8, 9), strict=True)))
    for f in table:
        print(
            f"{f.part:>13} {f.positions:>9} {f.net_corr:>+9.3f} {f.net_mse:>8.4f} {f.estimate_corr:>+9.3f} "
            f"{f.estimate_mse:>8.4f} {f.variance:>9.4f}"
        )
    return table


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.bench.az_value", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=[m.name for m in games.manifests()])
    parser.add_argument("--net", default=None, help="an az network file (default: the one shipped for --players)")
    parser.add_argument("--players", type=bounded_int("players", 1, 8), default=2)
    parser.add_argument("--agents", nargs="+", default=["heuristic"], help="the agents whose games are judged")
    parser.add_argument("--games", type=bounded_int("games", 1, MAX_GAMES), default=20)
    parser.add_argument("--seed", type=bounded_int("seed", 0, MAX_SEED), default=0)
    args = parser.parse_args(argv)
    try:
        run(args.game, args.net, args.agents, args.games, args.seed, args.players)
    except MeepleZooError as exc:  # a bad agent spec or network file: one line
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
