"""Ratings and statistics of stored games, per context (a game and its config), from the database alone.

* **Ratings**: openskill's Plackett-Luce model (any number of seats, ties share a rank), games taken in the
  store's fixed order, so the same database always gives the same ratings. The interval is mu +- 1.96 sigma.
* **Pairwise win rates**: for each pair of agents, over every game where both sat, a finish ahead counts 1,
  a tie 1/2; with a Wilson 95% interval.
* **Per agent**: mean score and mean rank (1 = first), forfeits, time per decision. **Per seat**: the rate
  of first places (first-seat advantage). **Length**: decisions and seconds per game.

Truncated games (the engine's decision bound hit) are counted, and rated by the ranks stored for them: the game's
standing at the bound (``State.adjudicated_ranks``). Truncated games stored before MeepleZoo adjudicated them
(``isolation`` NULL: their ranks may be an all-way tie) are counted, not rated. A forfeited
game is rated (the faulty seat last, the others sharing first) but its scores are left out of the score
statistics.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import mean, median

from openskill.models import PlackettLuce

from .store import GameRow

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may be fractional: ties count 1/2)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # holds p despite rounding


@dataclass
class AgentStats:
    spec: str
    mu: float = 0.0
    sigma: float = 0.0
    games: int = 0  # rated games
    scores: list[float] = field(default_factory=list)  # finished, non-forfeited games
    ranks: list[int] = field(default_factory=list)  # 1-based, rated games
    firsts: float = 0.0  # first places (a shared first counts 1/number sharing)
    forfeits: dict[str, int] = field(default_factory=dict)  # reason -> count
    think: float = 0.0  # seconds spent deciding, over all its decisions
    decisions: int = 0
    longest: float = 0.0  # its longest decision (s)

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.think / self.decisions if self.decisions else float("nan")

    @property
    def low(self) -> float:
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + Z95 * self.sigma

    @property
    def mean_score(self) -> float:
        return mean(self.scores) if self.scores else float("nan")

    @property
    def mean_rank(self) -> float:
        return mean(self.ranks) if self.ranks else float("nan")


@dataclass
class Pair:
    """``a`` against ``b``: games where both sat, ``a`` ahead, tied."""

    a: str
    b: str
    games: int = 0
    wins: int = 0
    ties: int = 0

    @property
    def rate(self) -> float:
        return (self.wins + 0.5 * self.ties) / self.games if self.games else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + 0.5 * self.ties, self.games)


@dataclass
class ContextStats:
    """Everything the report shows for one game configuration."""

    context: str
    game: str
    seats: int
    agents: dict[str, AgentStats]
    pairs: dict[tuple[str, str], Pair]
    seat_firsts: list[float]  # per seat: first places (shared firsts split)
    games: int  # stored games
    rated: int
    truncated: int
    forfeited: int
    decisions: list[int]
    durations: list[float]

    @property
    def solo(self) -> bool:
        """One seat (a solo game against the automa): no opponent at the table, so no ratings and no pairs."""
        return self.seats == 1

    def ranking(self) -> list[AgentStats]:
        """Agents by the conservative rating mu - 3 sigma (openskill's ordinal), best first; solo, by the share of
        games won, then the mean score."""
        if self.solo:
            return sorted(self.agents.values(), key=_solo_order)
        return sorted(self.agents.values(), key=lambda s: -(s.mu - 3 * s.sigma))

    def seat_rate(self, seat: int) -> tuple[float, float, float]:
        """Share of first places won from ``seat`` with its Wilson interval (even share: 1 / seats)."""
        lo, hi = wilson(self.seat_firsts[seat], self.rated)
        return (self.seat_firsts[seat] / self.rated if self.rated else float("nan")), lo, hi

    @property
    def length(self) -> dict[str, float]:
        d = self.decisions
        return {
            "mean": mean(d) if d else float("nan"),
            "median": median(d) if d else float("nan"),
            "min": min(d) if d else float("nan"),
            "max": max(d) if d else float("nan"),
            "seconds": mean(self.durations) if self.durations else float("nan"),
        }


def compute(rows: Iterable[GameRow]) -> list[ContextStats]:
    """Statistics per context, contexts in name order. ``rows`` in the store's fixed order."""
    by_context: dict[str, list[GameRow]] = defaultdict(list)
    for row in rows:
        by_context[row.context].append(row)
    return [_context(name, by_context[name]) for name in sorted(by_context)]


def _context(name: str, rows: list[GameRow]) -> ContextStats:
    model = PlackettLuce()
    seats = len(rows[0].seats)
    specs = sorted({s for r in rows for s in r.seats})
    ratings = {s: model.rating(name=s) for s in specs}
    agents = {s: AgentStats(s) for s in specs}
    pairs = {(a, b): Pair(a, b) for a in specs for b in specs if a != b}
    stats = ContextStats(name, rows[0].game, seats, agents, pairs, [0.0] * seats, len(rows), 0, 0, 0, [], [])
    for r in rows:
        stats.decisions.append(r.decisions)
        stats.durations.append(r.duration)
        for spec, (total, longest, count, *_) in zip(r.seats, r.seat_time, strict=True):
            st = agents[spec]
            st.think += total
            st.longest = max(st.longest, longest)
            st.decisions += int(count)
        if r.forfeit is not None:
            stats.forfeited += 1
            reason = r.forfeit["reason"]
            faulty = agents[r.seats[r.forfeit["seat"]]]
            faulty.forfeits[reason] = faulty.forfeits.get(reason, 0) + 1
        if r.truncated:
            stats.truncated += 1
            if r.isolation is None:  # stored before adjudication: no result
                continue
        stats.rated += 1
        if seats > 1:  # a solo game has nobody to rank the agent against
            _rate(model, ratings, r)
        firsts = [seat for seat, rank in enumerate(r.ranks) if rank == 0]
        for seat in firsts:
            stats.seat_firsts[seat] += 1 / len(firsts)
        for seat, spec in enumerate(r.seats):
            st = agents[spec]
            st.games += 1
            st.ranks.append(r.ranks[seat] + 1)
            if seat in firsts:
                st.firsts += 1 / len(firsts)
            if r.forfeit is None:
                st.scores.append(r.scores[seat])
        for i, a in enumerate(r.seats):
            for j, b in enumerate(r.seats):
                if a == b or i == j:
                    continue
                p = pairs[(a, b)]
                p.games += 1
                p.wins += r.ranks[i] < r.ranks[j]
                p.ties += r.ranks[i] == r.ranks[j]
    for spec, rating in ratings.items():
        agents[spec].mu, agents[spec].sigma = rating.mu, rating.sigma
    return stats


def _solo_order(s: AgentStats) -> tuple[float, float]:
    """The most games won first, then the highest mean score; an agent without games or scores last."""
    won = s.firsts / s.games if s.games else -math.inf
    return -won, -(s.mean_score if s.scores else -math.inf)


def _rate(model: PlackettLuce, ratings: dict, r: GameRow) -> None:
    """One Plackett-Luce update; an agent in several seats gets the mean of its seats' updates."""
    teams = [[ratings[spec]] for spec in r.seats]
    new = model.rate(teams, ranks=list(r.ranks))
    updates: dict[str, list] = defaultdict(list)
    for spec, team in zip(r.seats, new, strict=True):
        updates[spec].append(team[0])
    for spec, got in updates.items():
        ratings[spec] = model.rating(mu=mean(x.mu for x in got), sigma=mean(x.sigma for x in got), name=spec)
