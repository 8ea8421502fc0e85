"""Win rates of a search agent against a game's heuristic, with seconds per decision: the figures of issue 9.

::

    nice -n 10 python -m meeplezoo.agents.mcts_benchmark --games 10                 # every configuration
    python -m meeplezoo.agents.mcts_benchmark --only seastead --games 20 --agent mcts:iters=200

A configuration is a game and a player count; with ``n`` players the agent plays one seat against ``n - 1``
copies of the opponent, its seat rotating over the games (game ``g`` uses seed ``seed + g``). A win is a sole
rank 0; a shared rank 0 counts half. Seconds per decision are the agent's own (its decisions with more than
one legal action, i.e. the ones it searched), in CPU seconds of this process (`time.process_time`), so
the figure holds on a loaded machine too.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..arena.ratings import wilson
from .match import agent_seed, play_game
from .registry import make_agent
from .view import SeatView

#: (game, config, the agent spec used): budgets sized to 0.1-0.5 s of CPU per decision (``agent.act`` timed
#: with ``time.process_time`` over positions of random games), so under 1 s on an idle core of this machine
CONFIGS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("seastead", {}, "mcts:iters=400,cutoff=20"),  # 40/40 won, 0.18 CPU s/decision (seeds 1000-1039)
    # Concordia, seeds 1000-1019 (2p) and 1000-1023 (4p): won 14/20 at 2p (0.12 CPU s/decision, max 0.18); at 4p
    # iters=300 won 16/24 (0.15 s), iters=1000 won 19/24 (0.48 s, max 0.67); the former iters=250 2/6 and 2/4
    # 2p again (2026-12-01): iters=300 won 14/20 on seeds 1020-1039 too (28/40 = 70%, 95% 55-82%); iters=1000 won
    # 33/40 = 82.5% (95% 68-91%) on seeds 1000-1039, 0.435 CPU s/decision (max 0.84, 3,991 searched)
    ("concordia", {"num_players": 2}, "mcts:iters=1000,cutoff=30,forced=1,bias=2"),
    ("concordia", {"num_players": 4}, "mcts:iters=1000,cutoff=30,forced=1,bias=2"),
    # Board Royale, seeds 1000-1031 (2p) and from 1000 and 1016 (4p): won 24/32 at 2p (0.16 CPU s/decision, max
    # 0.28) and 15/23 at 4p (0.19 s, max 0.34: below the 70% target); without bias the search offers and
    # withdraws trades until the turn's safety bound. Tried at 4p (seeds 1000-1039, seat = seed % 4):
    # iters=300,...,bias=5,horizon=others,repeat=1 won 24/40 = 60% (95% 45-74%), 0.367 CPU s/decision (max 0.96);
    # at iters=400 the same search with bias=5 alone still loops (offers withdrawn, failed votes re-called: 400+
    # CPU s in one game), which repeat=1 ends; iters=500 with horizon=others,repeat=1 won 25/40 = 62.5% (95%
    # 47-76%; 9/20 on seeds 1000-1019, 16/20 on 1020-1039), 0.55 CPU s/decision (max 1.21); no budget or
    # option measured here reaches 70% at 4p. The 4p entry (2026-12-01) adds the richer cut-off estimate
    # (estimate=items: owned items, Escape Set progress, a threat for being the weakest seat) and value=margin:
    # won 26/40 = 65% (95% 50-78%; 12/20 on 1000-1019, 14/20 on 1020-1039), 0.46 CPU s/decision (max 0.90),
    # and 28/40 = 70% (95% 55-82%) on fresh seeds 2000-2039, 0.43 s (max 0.83); pooled 54/80 = 67.5% (95%
    # 57-77%), 0.45 CPU s/decision: the best measured, still short of 70% pooled. A first form of that
    # estimate (cards beyond 10 counted half, no threat term) won 3/6 on seeds 1000-1005 and was stopped.
    # A third sample, fresh seeds 3000-3039: 24/40 = 60% (95% 45-74%), 0.446 s (max 1.08); all 120 games
    # 78/120 = 65% (95% 56-73%), the 80 fresh ones 52/80 = 65%: about 65% at 4p, not 70%. In 7 of the 8 lost
    # games looked into, the search's own seat was eliminated (the weakest seat, attacked by the heuristics), not
    # outrun by an escape; a 4x weightier threat term won 14/22 (seeds 1000-1021): no gain. Rollouts cut at 40
    # decisions instead of 20 (the same spec, cutoff=40), tried 2026-12-01: 34/40 on seeds 1000-1039 (where it was
    # chosen), 27/40 on 2000-2039, 25/40 on 3000-3039 (52/80 there, as cutoff=20), 31/40 on 4000-4039, 20/40 on
    # 5000-5039: on the 160 seeds it was not chosen on 103/160 = 64.4% (95% 57-71%), all 200 137/200 = 68.5%,
    # 0.56 CPU s/decision (max 1.21): no better than cutoff=20 and slower, so the entry stays. Tried 2026-12-02
    # on seeds 2000-2039 and 3000-3039 (the entry: 28/40 and 24/40): c=0.35 won 24/40 on 3000-3039 (11/18 on
    # 2000-2017, stopped); the items estimate with escape points 7-9 valued as 6 (a seat at 7+ is every
    # heuristic's first target, the loss seen in traced games) won 25/40 and 27/40, 52/80 as the entry; the
    # other seats played by the heuristic inside the tree (an opponent model) won 2/6 and was stopped.
    # The 4p entry since 2026-12-02 values cut-offs with the fitted value (estimate=fitted, value=softmax: each
    # seat's chance to win from a conditional logit on public facts, fitted on 12,000 games between heuristics,
    # agents/board_royale_value.py): 28/40 and 28/40 on seeds 2000-2039 and 3000-3039, where the items entry won
    # 28/40 and 24/40; on seeds 4000-7039 (40 each, not used to choose it) 31/40, 28/40, 26/40 and 27/40; all
    # 240 games 168/240 = 70.0% (95% 64-75%), 0.342 CPU s/decision (max 0.95, 25,835 searched). Before it: the
    # same model with a linear term in hand size as well (its fit bent the value down for hands past 16 cards)
    # won 34/53 on 2000-3039 (stopped), and a not fully converged torch fit of a near-identical model 33/41
    ("board_royale", {"num_players": 2}, "mcts:iters=200,rollout=heuristic,cutoff=20,forced=1,bias=5"),
    (
        "board_royale",
        {"num_players": 4},
        "mcts:iters=400,rollout=heuristic,cutoff=20,forced=1,bias=5,horizon=others,repeat=1,estimate=fitted",
    ),
    ("resafa", {"num_players": 2}, "mcts:iters=100,cutoff=10"),  # 26/30 won, 0.066 CPU s/decision (seeds 1000-1029)
)


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
    from ..games import make_env

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
    p = argparse.ArgumentParser(prog="python -m meeplezoo.agents.mcts_benchmark", description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=10, help="games per configuration (default 10)")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--only", default=None, help="one game (all its configurations)")
    p.add_argument("--players", type=int, default=None, help="only this player count")
    p.add_argument("--agent", default=None, help="agent spec instead of each configuration's default")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--verbose", action="store_true", help="a line per game")
    p.add_argument("--start", type=int, default=0, help="skip the games before this index (resume a run)")
    args = p.parse_args(argv)
    for game, config, spec in CONFIGS:
        if args.only and game != args.only:
            continue
        if args.players and config.get("num_players", 2) != args.players:
            continue
        r = measure(game, config, args.agent or spec, args.opponent, args.games, args.seed, args.verbose, args.start)
        print(r.line(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
