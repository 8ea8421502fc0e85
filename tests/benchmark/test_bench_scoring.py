"""Benchmark scoring on hand-made outcomes: per-game results, Elo fits (one player, a population), card entries for
multi-player and solo tasks, the headline, the calibration fit, and bit-for-bit determinism."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import pytest

from meeplezoo.arena.ratings import Z95, wilson
from meeplezoo.benchmark.outcomes import Outcome
from meeplezoo.benchmark.scoring import (
    ELO,
    calibration_results,
    expected,
    fit_calibration,
    fit_population,
    fit_rating,
    headline,
    margin,
    mean_interval,
    multi_task_entry,
    pair_results,
    solo_task_entry,
    win_share,
)

R75 = 400 * math.log10(3)  # the rating that expects 75% against a 0-rated opponent


@dataclass(frozen=True)
class Task:
    name: str
    game: str
    players: int
    config: dict[str, Any] = field(default_factory=dict)
    measure: str | None = None


TRIO = Task("resafa-3p", "resafa", 3, {"num_players": 3})
SOLO = Task("resafa-solo", "resafa", 1, {"num_players": 1}, "score")
BOSS = Task("seastead-solo", "seastead", 1, {"num_players": 1}, "margin")
RATINGS = {"random": 0.0, "heuristic": 400.0, "mcts-ref": 600.0}


def game(task: str, background: str | None, seat: int, ranks, scores, seed: int = 40000, **kw) -> Outcome:
    return Outcome(task, background, seat, seed, tuple(ranks), tuple(float(s) for s in scores), **kw)


def trio_games() -> list[Outcome]:
    """Six resafa-3p games: four against random (a win, a 2-way shared first, a focal forfeit, a truncated loss), two
    against heuristic (a background forfeit that the focal seat wins, a loss)."""
    return [
        game("resafa-3p", "random", 0, [0, 1, 2], [30, 20, 10], 40000, focal_cpu=1.0, focal_decisions=10),
        game("resafa-3p", "random", 1, [0, 0, 1], [25, 25, 5], 40000, focal_cpu=1.0, focal_decisions=10),
        game("resafa-3p", "random", 2, [0, 0, 2], [9, 9, 3], 40001, forfeit_seat=2, forfeit_reason="crash"),
        game("resafa-3p", "random", 0, [2, 0, 1], [10, 22, 15], 40001, truncated=True, focal_cpu=2.0),
        game("resafa-3p", "heuristic", 1, [1, 0, 1], [12, 14, 8], 40000, forfeit_seat=2, focal_decisions=20),
        game("resafa-3p", "heuristic", 2, [0, 1, 2], [40, 35, 20], 40000, focal_cpu=0.5, focal_decisions=10),
    ]


# --- one game --------------------------------------------------------------------------------------------------------


def test_win_share_splits_a_shared_first_and_gives_nothing_to_the_others():
    assert win_share([0, 1, 2], 0) == 1.0
    assert win_share([0, 1, 0], 2) == 0.5
    assert win_share([0, 0, 0], 1) == pytest.approx(1 / 3)
    assert win_share([1, 0, 1], 0) == 0.0
    with pytest.raises(ValueError, match="seat 3"):
        win_share([0, 1, 2], 3)


def test_margin_is_the_score_minus_the_best_other_seat():
    assert margin([10, 7, 12], 0) == -2.0
    assert margin([10, 7, 12], 2) == 2.0
    assert margin([5, 5], 1) == 0.0
    with pytest.raises(ValueError, match="two seats"):
        margin([5], 0)


def test_pair_results_per_other_seat():
    assert pair_results([1, 0, 1, 2], 0) == [(1, 0.0), (2, 0.5), (3, 1.0)]
    assert pair_results([0, 0], 1) == [(0, 0.5)]


def test_expected_score_is_the_elo_logistic():
    assert expected(0, 0) == 0.5
    assert expected(400, 0) == pytest.approx(10 / 11)
    assert expected(123.0, -45.0) + expected(-45.0, 123.0) == pytest.approx(1.0)
    assert expected(0, 1e6) == 0.0 and expected(1e6, 0) == 1.0  # no overflow far apart


# --- one player's rating ---------------------------------------------------------------------------------------------


def test_fit_rating_known_value_and_its_fisher_error():
    r, se = fit_rating([(0.0, 1.0)] * 3 + [(0.0, 0.0)])
    assert r == pytest.approx(R75, abs=1e-9)
    assert se == pytest.approx(1 / (ELO * math.sqrt(4 * 0.75 * 0.25)), rel=1e-9)


def test_fit_rating_of_even_results_is_the_opponents_rating():
    r, _ = fit_rating([(100.0, 1.0), (100.0, 0.0), (100.0, 0.5)])
    assert r == pytest.approx(100.0, abs=1e-9)
    r, _ = fit_rating([(-200.0, 1.0), (200.0, 0.0)])  # symmetric opponents, one won and one lost
    assert r == pytest.approx(0.0, abs=1e-9)


def test_fit_rating_refuses_a_sweep_without_prior_and_bad_input():
    with pytest.raises(ValueError, match="all wins"):
        fit_rating([(0.0, 1.0)] * 5)
    with pytest.raises(ValueError, match="all losses"):
        fit_rating([(0.0, 0.0)] * 5)
    with pytest.raises(ValueError, match="nothing to rate"):
        fit_rating([])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        fit_rating([(0.0, 1.5)], prior=[0.0])


def test_the_virtual_draw_keeps_a_sweep_finite_and_pulls_toward_the_opponent():
    r, se = fit_rating([(0.0, 1.0)] * 10, prior=[0.0])
    assert r == pytest.approx(400 * math.log10(10.5 / 0.5), abs=1e-9) and math.isfinite(se)
    r, _ = fit_rating([(0.0, 1.0)] * 3 + [(0.0, 0.0)], prior=[0.0])  # 3.5 of 5: between 0 and R75
    assert r == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-9)
    assert 0 < r < R75


def test_fit_rating_error_shrinks_with_more_games():
    one = [(0.0, 1.0)] * 3 + [(0.0, 0.0)]
    r1, se1 = fit_rating(one)
    r4, se4 = fit_rating(one * 4)
    assert r4 == pytest.approx(r1, abs=1e-9)
    assert se4 == pytest.approx(se1 / 2, rel=1e-9)


def test_fit_rating_is_robust_far_from_zero_and_lopsided():
    r, se = fit_rating([(50000.0, 1.0)] * 999 + [(50000.0, 0.0)])
    assert r == pytest.approx(50000 + 400 * math.log10(999), abs=1e-7) and se > 0
    r, _ = fit_rating([(-3000.0, 1.0), (3000.0, 0.0)] * 5 + [(0.0, 1.0)], prior=[-3000.0, 3000.0])
    assert -3000 < r < 3000


def test_fit_rating_does_not_depend_on_the_order_of_the_results():
    results = [(812.3, 1.0), (0.0, 0.5), (990.1, 0.0), (700.2, 1.0), (0.0, 1.0), (812.3, 0.0)]
    assert fit_rating(results, prior=[0.0, 812.3]) == fit_rating(results[::-1], prior=[812.3, 0.0])


# --- a population ----------------------------------------------------------------------------------------------------


def exact_results(truth: dict[str, float]) -> list[tuple[str, str, float]]:
    """One result per pair whose average with the virtual draw is exactly the expected score of ``truth``."""
    names = sorted(truth)
    return [(a, b, 2 * expected(truth[a], truth[b]) - 0.5) for i, a in enumerate(names) for b in names[i + 1 :]]


def test_fit_population_recovers_ratings_from_exact_expected_scores():
    truth = {"random": 0.0, "heuristic": 100.0, "mcts-ref": 120.0, "ppo": -50.0}
    got = fit_population(exact_results(truth))
    assert list(got) == sorted(truth)
    for name, r in truth.items():
        assert got[name] == pytest.approx(r, abs=1e-6)


def test_fit_population_with_many_games_approaches_the_truth():
    truth = {"random": 0.0, "heuristic": 300.0, "ppo": 150.0}
    results = []
    for a, b in [("heuristic", "random"), ("ppo", "random"), ("heuristic", "ppo")]:
        wins = round(1000 * expected(truth[a], truth[b]))
        results += [(a, b, 1.0)] * wins + [(a, b, 0.0)] * (1000 - wins)
    got = fit_population(results)
    assert got["heuristic"] == pytest.approx(300.0, abs=2.0)
    assert got["ppo"] == pytest.approx(150.0, abs=2.0)


def test_fit_population_anchor_and_symmetry():
    truth = {"random": 0.0, "heuristic": 100.0, "ppo": -50.0}
    shifted = fit_population(exact_results(truth), anchor="heuristic", anchor_rating=1000.0)
    assert shifted["heuristic"] == 1000.0
    assert shifted["random"] == pytest.approx(900.0, abs=1e-6) and shifted["ppo"] == pytest.approx(850.0, abs=1e-6)
    even = fit_population([("random", "a", 1.0), ("a", "random", 1.0), ("a", "b", 0.5), ("b", "random", 0.5)])
    assert even == pytest.approx({"a": 0.0, "b": 0.0, "random": 0.0}, abs=1e-9)


def test_fit_population_sweeps_stay_finite_and_ordered():
    got = fit_population([("heuristic", "random", 1.0)] * 50 + [("mcts-ref", "heuristic", 1.0)] * 50)
    assert 0.0 < got["heuristic"] < got["mcts-ref"] < 5000.0


def test_fit_population_does_not_depend_on_the_order_of_the_results():
    results = [("random", "a", 0.0), ("a", "b", 1.0), ("b", "random", 0.5), ("a", "random", 1.0), ("b", "a", 0.5)]
    assert fit_population(results) == fit_population(results[::-1])


def test_fit_population_refuses_a_missing_anchor_a_disconnected_graph_and_self_play():
    with pytest.raises(ValueError, match="anchor 'random' is not among"):
        fit_population([("a", "b", 1.0)])
    with pytest.raises(ValueError, match=r"do not connect c, d to the anchor 'random'"):
        fit_population([("random", "a", 1.0), ("c", "d", 0.5)])
    with pytest.raises(ValueError, match="against itself"):
        fit_population([("random", "random", 0.5)])


# --- a multi-player task's entry -------------------------------------------------------------------------------------


def test_mean_interval_is_mean_plus_minus_196_standard_errors():
    m, lo, hi = mean_interval([2.0, -1.0, 5.0])
    assert m == 2.0 and hi - m == pytest.approx(Z95 * 3 / math.sqrt(3)) and m - lo == pytest.approx(hi - m)
    assert mean_interval([4.0]) == (4.0, 4.0, 4.0)


def test_multi_entry_per_background_lines():
    entry = multi_task_entry(TRIO, trio_games(), RATINGS, ["random", "heuristic", "mcts-ref"], scheduled=6)
    assert [entry[k] for k in ("name", "game", "players", "kind", "games", "complete")] == [
        "resafa-3p", "resafa", 3, "multi", 6, True,
    ]  # fmt: skip
    assert entry["seeds"] == [40000, 40001] and entry["config"] == {"num_players": 3}
    rnd, heu, mcts = entry["vs"]
    assert [v["background"] for v in entry["vs"]] == ["random", "heuristic", "mcts-ref"]
    assert rnd["games"] == 4 and rnd["wins"] == 1.5 and rnd["win_rate"] == 0.375  # 1 + 0.5 + 0 + 0
    assert rnd["ci"] == [round(x, 6) for x in wilson(1.5, 4)] and rnd["ci"][0] < 0.375 < rnd["ci"][1]
    assert (rnd["focal_forfeits"], rnd["background_forfeits"], rnd["truncated"]) == (1, 0, 1)
    m, lo, hi = mean_interval([10.0, 0.0, -6.0, -12.0])
    assert rnd["margin"] == round(m, 6) and rnd["margin_ci"] == [round(lo, 6), round(hi, 6)]
    assert heu["games"] == 2 and heu["wins"] == 1.0 and heu["background_forfeits"] == 1 and heu["truncated"] == 0
    assert mcts == {
        "background": "mcts-ref", "games": 0, "wins": 0.0, "win_rate": None, "ci": None, "margin": None,
        "margin_ci": None, "focal_forfeits": 0, "background_forfeits": 0, "truncated": 0,
    }  # fmt: skip
    assert entry["cpu_per_decision"] == round(4.5 / 50, 6)


def test_multi_entry_counts_a_focal_forfeit_as_a_loss_by_its_ranks():
    lost = game("resafa-3p", "random", 1, [0, 2, 0], [20, 30, 20], forfeit_seat=1, forfeit_reason="timeout")
    (rnd,) = multi_task_entry(TRIO, [lost], RATINGS, ["random"], scheduled=4)["vs"]
    assert rnd["wins"] == 0.0 and rnd["focal_forfeits"] == 1 and rnd["background_forfeits"] == 0


def test_multi_entry_rating_and_normalised_exact():
    games = trio_games()
    entry = multi_task_entry(TRIO, games, RATINGS, ["random", "heuristic", "mcts-ref"], scheduled=8)
    pairs = [(RATINGS[o.background], s) for o in games for _, s in pair_results(o.ranks, o.focal_seat)]
    r, se = fit_rating(pairs, prior=[0.0, 400.0])  # a virtual draw against each background met, not mcts-ref
    assert entry["rating"] == round(r, 6)
    assert entry["rating_ci"] == [round(r - Z95 * se, 6), round(r + Z95 * se, 6)]
    assert entry["normalised"] == round(r / 400, 6)
    assert entry["complete"] is False  # 6 of 8


def test_multi_entry_normalised_is_one_for_a_heuristic_like_result():
    # even against heuristic (400) in both other seats: rating 400, normalised (400 - 100) / (400 - 100) = 1
    ratings = {"random": 100.0, "heuristic": 400.0}
    duel = Task("concordia-2p", "concordia", 2)
    games = [game("concordia-2p", "heuristic", s, r, [1, 1]) for s, r in [(0, [0, 1]), (1, [0, 1]), (0, [0, 0])]]
    entry = multi_task_entry(duel, games, ratings, ["heuristic"], scheduled=3)
    assert entry["rating"] == 400.0 and entry["normalised"] == 1.0


def test_multi_entry_without_games_and_bad_input():
    entry = multi_task_entry(TRIO, [], RATINGS, ["random"], scheduled=4)
    assert entry["games"] == 0 and entry["rating"] is None and entry["normalised"] is None
    assert entry["complete"] is False and entry["cpu_per_decision"] is None
    with pytest.raises(ValueError, match="background 'ppo' is not one of"):
        multi_task_entry(TRIO, [game("resafa-3p", "ppo", 0, [0, 1, 2], [3, 2, 1])], RATINGS, ["random"], 1)
    with pytest.raises(ValueError, match="no frozen rating of ppo"):
        multi_task_entry(TRIO, [game("resafa-3p", "ppo", 0, [0, 1, 2], [3, 2, 1])], RATINGS, ["ppo"], 1)
    with pytest.raises(ValueError, match="task 'concordia-4p' given to task 'resafa-3p'"):
        multi_task_entry(TRIO, [game("concordia-4p", "random", 0, [0, 1, 2], [3, 2, 1])], RATINGS, ["random"], 1)
    with pytest.raises(ValueError, match="frozen ratings of heuristic"):
        multi_task_entry(TRIO, trio_games()[:1], {"random": 0.0}, ["random"], 1)


def test_entries_are_deterministic_and_independent_of_outcome_order():
    games = trio_games()
    one = multi_task_entry(TRIO, games, RATINGS, ["random", "heuristic"], scheduled=6)
    two = multi_task_entry(TRIO, list(reversed(games)), RATINGS, ["random", "heuristic"], scheduled=6)
    assert json.dumps(one) == json.dumps(two)
    solo = [game("resafa-solo", None, 0, [1], [s], 40000 + i) for i, s in enumerate([120.5, 151.25, 99.0, 180.0])]
    means = {"random": 60.0, "heuristic": 140.0}
    a = solo_task_entry(SOLO, solo, means, None, 4)
    assert json.dumps(a) == json.dumps(solo_task_entry(SOLO, solo[::-1], means, None, 4))


# --- a solo task's entry ---------------------------------------------------------------------------------------------


def resafa_band(score: float) -> str:
    return next((name for low, name in [(180, "good"), (150, "fair")] if score >= low), "below fair")


def test_solo_entry_on_score_with_bands_and_no_automa():
    scores = [120.0, 155.0, 190.0, 100.0, 150.0]
    games = [
        game("resafa-solo", None, 0, [0 if s >= 150 else 1], [s], 40000 + i, focal_cpu=0.2, focal_decisions=40)
        for i, s in enumerate(scores)
    ]
    means = {"random": 60.0, "heuristic": 140.0}
    entry = solo_task_entry(SOLO, games, means, resafa_band, scheduled=5)
    assert entry["kind"] == "solo" and entry["measure"] == "score" and entry["complete"] is True
    assert entry["seeds"] == [40000, 40001, 40002, 40003, 40004]
    m, lo, hi = mean_interval(scores)
    assert entry["mean_score"] == 143.0 == m and entry["score_ci"] == [round(lo, 6), round(hi, 6)]
    assert entry["wins"] == 3 and entry["win_rate"] == 0.6 and entry["ci"] == [round(x, 6) for x in wilson(3, 5)]
    assert entry["margin"] is None and entry["margin_ci"] is None
    assert entry["bands"] == {"below fair": 2, "fair": 2, "good": 1}
    assert list(entry["bands"]) == ["below fair", "fair", "good"]  # in the order of the bands' scores
    assert entry["normalised"] == round((143.0 - 60.0) / 80.0, 6)
    assert entry["cpu_per_decision"] == round(1.0 / 200, 6)
    assert solo_task_entry(SOLO, games, means, None, scheduled=6)["bands"] == {}


def test_solo_entry_on_margin_against_the_boss():
    rows = [(30.0, 25.0, 0), (20.0, 28.0, 1), (41.0, 33.0, 0)]  # (score, boss, rank)
    games = [game("seastead-solo", None, 0, [k], [s], 40000 + i, automa_score=b) for i, (s, b, k) in enumerate(rows)]
    means = {"random": -20.0, "heuristic": 4.0}
    entry = solo_task_entry(BOSS, games, means, None, scheduled=3)
    m, lo, hi = mean_interval([5.0, -8.0, 8.0])
    assert entry["margin"] == round(m, 6) and entry["margin_ci"] == [round(lo, 6), round(hi, 6)]
    assert entry["mean_score"] == 30.333333
    assert entry["normalised"] == round((m + 20.0) / 24.0, 6)
    assert entry["wins"] == 2
    no_boss = [game("seastead-solo", None, 0, [1], [10.0])]
    with pytest.raises(ValueError, match="margin but 1 games lack the automa"):
        solo_task_entry(BOSS, no_boss, means, None, scheduled=1)
    with pytest.raises(ValueError, match="measure None is not one of"):
        solo_task_entry(Task("x", "resafa", 1), [], means, None, scheduled=1)


def test_solo_entry_without_games():
    entry = solo_task_entry(SOLO, [], {"random": 0.0, "heuristic": 1.0}, resafa_band, scheduled=20)
    assert entry["games"] == 0 and entry["mean_score"] is None and entry["normalised"] is None
    assert entry["bands"] == {} and entry["complete"] is False


# --- headline --------------------------------------------------------------------------------------------------------


def test_headline_mean_and_median_of_played_tasks():
    entries = [{"normalised": 0.5}, {"normalised": 1.0}, {"normalised": 3.0}, {"normalised": None}, {"skipped": "x"}]
    assert headline(entries) == {"score": 1.5, "median": 1.0, "tasks": 3, "of": 5}
    assert headline([{"normalised": 0.2}, {"normalised": 0.4}])["median"] == pytest.approx(0.3)
    assert headline([{"skipped": "no"}]) == {"score": None, "median": None, "tasks": 0, "of": 1}


# --- calibration -----------------------------------------------------------------------------------------------------


def calibration_games() -> dict[str, list[Outcome]]:
    duel = "concordia-2p"
    return {
        "heuristic": [
            game(duel, "random", 0, [0, 1], [9, 3], 40000),
            game(duel, "random", 1, [1, 0], [2, 8], 40000),
            game(duel, "random", 0, [1, 0], [4, 6], 40001),
            game(duel, "heuristic", 0, [0, 1], [5, 4], 40000),  # self-play: no information
            game("resafa-solo", None, 0, [1], [130.0], 40000),
            game("resafa-solo", None, 0, [1], [140.0], 40001),
        ],
        "random": [
            game(duel, "heuristic", 0, [1, 0], [1, 7], 40000),
            game(duel, "heuristic", 1, [0, 0], [5, 5], 40000),
            game("resafa-solo", None, 0, [1], [61.0], 40000),
        ],
    }


def test_calibration_results_one_triple_per_other_seat():
    got = calibration_results(calibration_games())
    assert got == {
        "concordia-2p": [
            ("heuristic", "random", 1.0), ("heuristic", "random", 1.0), ("heuristic", "random", 0.0),
            ("random", "heuristic", 0.0), ("random", "heuristic", 0.5),
        ]
    }  # fmt: skip
    trio = {"ppo": [game("resafa-3p", "random", 1, [0, 1, 2], [9, 5, 1])]}
    assert calibration_results(trio) == {"resafa-3p": [("ppo", "random", 0.0), ("ppo", "random", 1.0)]}


def test_fit_calibration_tasks_part():
    got = fit_calibration(calibration_games(), {"resafa-solo": "score"})
    assert list(got) == ["concordia-2p", "resafa-solo"]
    ratings = fit_population(calibration_results(calibration_games())["concordia-2p"])
    assert got["concordia-2p"] == {"ratings": {k: round(v, 6) for k, v in ratings.items()}, "games": 6}
    assert got["concordia-2p"]["ratings"]["random"] == 0.0 and got["concordia-2p"]["ratings"]["heuristic"] > 0
    assert got["resafa-solo"] == {"means": {"heuristic": 135.0, "random": 61.0}, "games": 3}
    assert json.dumps(got) == json.dumps(fit_calibration(calibration_games(), {"resafa-solo": "score"}))


def test_fit_calibration_margin_measure_and_errors():
    boss = {"random": [game("seastead-solo", None, 0, [1], [10.0], automa_score=30.0)]}
    assert fit_calibration(boss, {"seastead-solo": "margin"})["seastead-solo"]["means"] == {"random": -20.0}
    with pytest.raises(ValueError, match="lacks the automa"):
        fit_calibration({"random": [game("seastead-solo", None, 0, [1], [10.0])]}, {"seastead-solo": "margin"})
    with pytest.raises(ValueError, match="measure None"):
        fit_calibration(boss, {})
    no_random = {"heuristic": [game("concordia-2p", "ppo", 0, [0, 1], [2, 1])]}
    with pytest.raises(ValueError, match="calibration of concordia-2p: the anchor 'random'"):
        fit_calibration(no_random, {})
