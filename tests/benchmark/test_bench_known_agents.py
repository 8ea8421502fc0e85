"""Score cards of two known agents on suite v1 with its frozen calibration: random below the heuristic on every task.

A smaller run than the suite's (the random and heuristic background only, the first two deals of each task), so
that it fits the test suite; the score card is built exactly as ``meeplezoo benchmark`` builds it.
"""

from __future__ import annotations

import pytest

from meeplezoo.arena import runner
from meeplezoo.arena.store import Store
from meeplezoo.benchmark.command import build_card
from meeplezoo.benchmark.outcomes import read_outcomes
from meeplezoo.benchmark.schedule import plan
from meeplezoo.benchmark.suite import load_suite

SUITE = load_suite()
BACKGROUND = ("random", "heuristic")


def _card(agent: str, db: Store) -> dict:
    planned = plan(SUITE, agent, quick=True, background=BACKGROUND, max_deals=2)
    tasks = list({p.task.key: p.task for p in planned}.values())
    summary = runner.run(tasks, db, workers=1)
    assert not summary.failed and not summary.forfeits
    return build_card(SUITE, agent, True, read_outcomes(db, planned), planned, {}, list(SUITE.tasks), BACKGROUND)


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    with Store(tmp_path_factory.mktemp("bench") / "known.sqlite") as db:
        return {agent: _card(agent, db) for agent in BACKGROUND}


def test_random_scores_below_the_heuristic_on_every_task(cards):
    weak = {e["name"]: e for e in cards["random"]["tasks"]}
    strong = {e["name"]: e for e in cards["heuristic"]["tasks"]}
    assert set(weak) == set(strong) == set(SUITE.task_names())
    for name, entry in strong.items():
        assert entry["complete"] and weak[name]["complete"], name
        assert weak[name]["normalised"] < entry["normalised"], name
        if entry["kind"] == "multi":
            assert weak[name]["rating"] < entry["rating"], name
            against_random = next(v for v in entry["vs"] if v["background"] == "random")
            weak_against_random = next(v for v in weak[name]["vs"] if v["background"] == "random")
            assert weak_against_random["win_rate"] < against_random["win_rate"], name
    assert cards["random"]["headline"]["score"] < cards["heuristic"]["headline"]["score"]
    assert cards["heuristic"]["headline"]["tasks"] == len(SUITE.tasks)


def test_a_mirror_match_splits_the_wins(cards):
    for entry in cards["heuristic"]["tasks"]:
        if entry["kind"] == "multi":
            mirror = next(v for v in entry["vs"] if v["background"] == "heuristic")
            # the same agent in every seat: each game's win shares add up to 1 over the rotated focal seats
            assert mirror["wins"] * entry["players"] == pytest.approx(mirror["games"]), entry["name"]


def test_the_card_names_suite_envs_budget_and_calibration(cards):
    card = cards["heuristic"]
    assert card["suite"]["version"] == 1 and card["suite"]["digest"] == SUITE.digest()
    assert len(card["suite"]["calibration"]) == 64
    assert card["envs"] == SUITE.env_names()
    assert card["budget"] == SUITE.budget
