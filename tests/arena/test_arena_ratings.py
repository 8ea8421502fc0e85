"""Ratings and statistics on hand-made games: Wilson intervals, ties, several seats, forfeits, truncation."""

from __future__ import annotations

import pytest

from meeplezoo.arena.ratings import compute, wilson
from meeplezoo.arena.store import GameRow


def game(i: int, seats: list[str], ranks: list[int], scores=None, forfeit=None, truncated=False) -> GameRow:
    return GameRow(
        id=i, key=f"k{i:04d}", game="g", config={"n": len(seats)}, seed=i, deal=i, seats=seats,
        agent_seeds=[0] * len(seats), scores=scores or [float(-r) for r in ranks], ranks=ranks,
        decisions=10 + i, truncated=truncated, forfeit=forfeit, duration=0.5,
        seat_time=[[0.01 * (s + 1), 0.005, 5] for s in range(len(seats))], time_limit=None,
        code_version="t", finished_at="", actions=[],
    )  # fmt: skip


def test_wilson_interval_known_values():
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1.0)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_interval_holds_the_observed_rate_exactly_at_the_ends():
    # (p + z^2/2n + half) / denom is 1 - 1e-16 for about a third of the n, which gave plots negative error bars
    for n in range(1, 300):
        assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
        for k in (0.5, n / 3, n - 0.5):
            low, high = wilson(k, n)
            assert low <= k / n <= high


def test_three_players_order_and_pairwise_counts():
    rows = [game(i, ["a", "b", "c"][i % 3 :] + ["a", "b", "c"][: i % 3], [0, 1, 2]) for i in range(30)]
    # seat 0 always wins: whoever sits there; each agent sat there 10 times
    [cs] = compute(rows)
    assert cs.seats == 3 and cs.rated == 30
    assert cs.seat_firsts == [30, 0, 0]
    rate, lo, _ = cs.seat_rate(0)
    assert rate == 1.0 and lo > 0.85
    for s in cs.agents.values():
        assert s.games == 30 and s.firsts == 10 and s.mean_rank == 2.0
        assert s.decisions == 150 and s.ms_per_decision == pytest.approx(1000 * sum(0.01 * k for k in (1, 2, 3)) / 15)
    pair = cs.pairs[("a", "b")]
    assert pair.games == 30 and pair.wins + cs.pairs[("b", "a")].wins == 30


def test_ties_share_and_a_stronger_agent_rates_higher():
    rows = [game(i, ["strong", "weak"], [0, 1]) if i % 2 else game(i, ["weak", "strong"], [1, 0]) for i in range(20)]
    rows += [game(100 + i, ["strong", "weak"], [0, 0]) for i in range(4)]  # shared firsts
    [cs] = compute(rows)
    assert [s.spec for s in cs.ranking()] == ["strong", "weak"]
    p = cs.pairs[("strong", "weak")]
    assert (p.games, p.wins, p.ties) == (24, 20, 4)
    assert p.rate == pytest.approx(22 / 24)
    assert cs.agents["weak"].firsts == pytest.approx(2.0)  # four shared firsts count 1/2 each


def test_an_agent_in_several_seats_of_one_game():
    rows = [game(i, ["x", "x", "y"], [0, 1, 2] if i % 2 else [2, 1, 0]) for i in range(10)]
    [cs] = compute(rows)
    assert cs.agents["x"].games == 20 and cs.agents["y"].games == 10
    assert cs.pairs[("x", "y")].games == 20


def test_forfeits_are_rated_without_scores_and_truncated_games_are_not_rated():
    forfeit = {"seat": 1, "reason": "raised", "detail": "boom", "decision": 3}
    rows = [
        game(1, ["a", "b"], [0, 1], scores=[5.0, 99.0], forfeit=forfeit),
        game(2, ["a", "b"], [1, 0], scores=[1.0, 2.0], truncated=True),
        game(3, ["b", "a"], [0, 1], scores=[7.0, 3.0]),
    ]
    [cs] = compute(rows)
    assert (cs.games, cs.rated, cs.forfeited, cs.truncated) == (3, 2, 1, 1)
    assert cs.agents["b"].forfeits == {"raised": 1}
    assert cs.agents["b"].scores == [7.0]  # not the forfeited game's 99
    assert cs.agents["a"].games == 2
