"""Win rates of a search agent against a game's heuristic, with seconds per decision: the figures of issue 9.

::

    nice -n 10 python -m meeplezoo.bench.mcts --games 10                 # every configuration
    python -m meeplezoo.bench.mcts --only seastead --games 20 --agent mcts:iters=200

A configuration is a game and a player count with the IS-MCTS spec tuned for it, from the game's manifest
(``tuned_mcts``: budgets sized to 0.1-0.5 s of CPU per decision; the figures and what else was tried are in
docs/lab-notes/mcts.md). With ``n`` players the agent plays one seat against ``n - 1`` copies of the opponent,
its seat rotating over the games (game ``g`` uses seed ``seed + g``). A win is a sole rank 0; a shared rank 0
counts half. Seconds per decision are the agent's own (its decisions with more than one legal action, i.e. the
ones it searched), in CPU seconds of this process (`time.process_time`), so the figure holds on a loaded machine
too.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import games
from ..agents import make_agent
from ..agents.match import agent_seed, play_game
from ..agents.view import SeatView
from ..arena.ratings import wilson
from ..games import make_env


def configurations() -> list[tuple[str, int, str]]:
    """Every ``(game, num_players, spec)`` the games' manifests tune IS-MCTS for (``tuned_mcts``), in listing
    order."""
    return [(m.name, n, spec) for m in games.manifests() for n, spec in sorted(m.tuned_mcts.items())]


class _Timed:
    """Wraps an agent and times its decisions that had a choice."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.seconds, self.decisions, self.slowest = agent, 0.0, 0, 0.0
        self.spec = getattr(agent, "spec", None)

    def act(self, view: SeatView) -> int:
        start = time.process_time()
        action = self.agent.act(view)
        if len(view.legal_actions) > 1:
            took = time.process_time() - start
            self.seconds += took
            self.decisions += 1
            self.slowest = max(self.slowest, took)
        return action


@dataclass
class Result:
    game: str
    players: int
    agent: str
    opponent: str
    games: int = 0
    wins: float = 0.0
    seconds: float = 0.0
    decisions: int = 0
    slowest: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def line(self) -> str:
        per = self.seconds / self.decisions if self.decisions else 0.0
        low, high = wilson(self.wins, self.games)
        return (
            f"{self.game:<13} {self.players}p  {self.agent:<32} vs {self.opponent:<10} "
            f"won {self.wins:g}/{self.games} = {100 * self.win_rate:5.1f}% (95% {100 * low:.0f}-{100 * high:.0f}%)   "
            f"{per:.3f} s/decision (max {self.slowest:.2f} s, {self.decisions} searched)"
        )


def measure(
    game: str,
    config: dict[str, Any],
    agent: str,
    opponent: str,
    games: int,
    seed: int,
    verbose: bool = False,
    start: int = 0,
) -> Result:
    env = make_env(game, **config)
    names = env.possible_agents
    n = len(names)
    result = Result(game, n, agent, opponent)
    for g in range(start, games):  # games before ``start`` are skipped (a run resumed keeps its seats)
        game_seed = seed + g
        seat = g % n
        timed = _Timed(make_agent(agent, game, seed=agent_seed(game_seed, seat)))
        agents = {
            a: timed if i == seat else make_agent(opponent, game, seed=agent_seed(game_seed, i))
            for i, a in enumerate(names)
        }
        record = play_game(env, agents, game_seed)
        me = names[seat]
        winners = record.winners
        result.games += 1
        result.wins += (1.0 / len(winners)) if me in winners and not record.truncated else 0.0
        result.seconds += timed.seconds
        result.decisions += timed.decisions
        result.slowest = max(result.slowest, timed.slowest)
        if verbose:
            per = timed.seconds / timed.decisions if timed.decisions else 0.0
            print(
                f"  game {g} seed {game_seed} seat {seat}: winners {winners} scores {record.scores}; "
                f"{timed.decisions} searched, {per:.3f} s/decision (max {timed.slowest:.2f} s); "
                f"so far won {result.wins:g}/{result.games}",
                flush=True,
            )
    return result


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m meeplezoo.bench.mcts", description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=10, help="games per configuration (default 10)")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--only", default=None, help="one game (all its configurations)")
    p.add_argument("--players", type=int, default=None, help="only this player count")
    p.add_argument("--agent", default=None, help="agent spec instead of each configuration's tuned one")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--verbose", action="store_true", help="a line per game")
    p.add_argument("--start", type=int, default=0, help="skip the games before this index (resume a run)")
    args = p.parse_args(argv)
    only = games.resolve(args.only) if args.only else None
    for game, players, spec in configurations():
        if (only and game != only) or (args.players and players != args.players):
            continue
        config = {"num_players": players}
        r = measure(game, config, args.agent or spec, args.opponent, args.games, args.seed, args.verbose, args.start)
        print(r.line(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
