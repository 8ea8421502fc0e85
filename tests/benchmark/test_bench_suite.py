"""Suite v1 as data, its checks, and the schedule of one agent's run (seats rotated, fixed deals, keys)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from meeplezoo import games
from meeplezoo.benchmark.errors import BenchmarkError
from meeplezoo.benchmark.schedule import plan
from meeplezoo.benchmark.suite import CURRENT_VERSION, load_suite, read_suite, suite_file

SUITE = load_suite()


def test_suite_v1_covers_every_game_and_mode_the_issue_names():
    tasks = {t.name: t for t in SUITE.tasks}
    assert SUITE.version == CURRENT_VERSION == 1
    assert {t.game for t in SUITE.tasks} == {"seastead", "concordia", "board_royale", "resafa"}
    for game in ("seastead", "concordia", "board_royale", "resafa"):
        assert tasks[f"{game}-2p"].players == 2
    assert tasks["concordia-4p"].players == tasks["board_royale-4p"].players == 4
    assert tasks["resafa-3p"].players == 3
    assert tasks["seastead-advanced-2p"].config["sides"] == "BBBB"
    assert tasks["seastead-solo"].solo and tasks["resafa-solo"].solo
    assert set(SUITE.background) == {"random", "heuristic", "mcts-ref", "ppo"}
    assert SUITE.run_budget().decision_cpu == 1.0
    assert SUITE.env_names()["board_royale"] == f"board_royale_v{games.manifest('board_royale').version}"


def test_the_digest_names_the_content():
    again = read_suite(suite_file(1))
    assert again.digest() == SUITE.digest()
    changed = dataclasses.replace(SUITE, seed=SUITE.seed + 1)
    assert changed.digest() != SUITE.digest()


def test_a_bumped_env_is_not_suite_v1():
    bumped = dataclasses.replace(SUITE, envs={**SUITE.envs, "resafa": SUITE.envs["resafa"] + 1})
    with pytest.raises(BenchmarkError, match=r"defined on resafa_v1, this MeepleZoo has resafa_v0"):
        bumped.check_envs()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('name = "meeplezoo-bench"', 'name = "meeplezoo-bench"\ncolour = "red"', "unknown key"),
        (
            'background = ["random", "heuristic", "mcts-ref", "ppo"]',
            'background = ["random"]',
            "'random' and 'heuristic'",
        ),
        ("games = 20\nquick = 4", "games = 20\nquick = 3", "'quick' must be a positive multiple of 4"),
        ('measure = "score"', "", "a solo task needs 'measure'"),
        ("decision_cpu = 1.0", "decision_cpu = -1", r"\[budget\]"),
    ],
)
def test_bad_suite_files_are_one_line_errors(tmp_path, old, new, message):
    text = suite_file(1).read_text()
    assert old in text
    path = tmp_path / "suite.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(BenchmarkError, match=message) as info:
        read_suite(path)
    assert "\n" not in str(info.value)


def test_each_deal_seats_the_focal_agent_once_in_every_seat_against_each_background():
    planned = plan(SUITE, "heuristic", quick=True)
    task = SUITE.task("concordia-4p")
    mine = [p for p in planned if p.suite_task == task.name]
    assert len(mine) == task.quick * len(SUITE.background)
    for p in mine:
        others = [s for i, s in enumerate(p.task.seats) if i != p.focal_seat]
        assert p.task.seats[p.focal_seat] == "heuristic" and set(others) == {p.background}
        assert p.task.seed == SUITE.seed + p.task.deal
    per_deal = Counter((p.task.deal, p.background, p.focal_seat) for p in mine)
    assert set(per_deal.values()) == {1}
    assert {seat for _, _, seat in per_deal} == set(range(task.players))


def test_quick_is_the_first_deals_of_the_full_suite_and_keys_are_stable():
    quick = plan(SUITE, "heuristic", quick=True)
    full = plan(SUITE, "heuristic", quick=False)
    assert {p.task.key for p in quick} < {p.task.key for p in full}
    assert [p.task.key for p in plan(SUITE, "heuristic", quick=True)] == [p.task.key for p in quick]
    assert len(full) == sum(t.games * (1 if t.solo else len(SUITE.background)) for t in SUITE.tasks)
    solo = [p for p in full if p.suite_task == "resafa-solo"]
    assert [p.task.seed for p in solo] == [SUITE.seed + d for d in range(SUITE.task("resafa-solo").games)]
    assert all(p.background is None for p in solo)


def test_keys_differ_by_agent_and_budget_and_every_game_runs_isolated_under_the_suite_budget():
    a = {p.task.key for p in plan(SUITE, "heuristic", quick=True)}
    b = {p.task.key for p in plan(SUITE, "random", quick=True)}
    assert a != b
    # the same game from both sides (heuristic vs random, random vs heuristic) shares its key
    assert a & b
    tighter = dataclasses.replace(SUITE, budget={**SUITE.budget, "decision_cpu": 0.5})
    assert not a & {p.task.key for p in plan(tighter, "heuristic", quick=True)}
    for p in plan(SUITE, "heuristic", quick=True)[:20]:
        assert p.task.isolation == "process"
        assert p.task.time_limit == SUITE.budget["decision_seconds"]
        assert p.task.budget["decision_cpu"] == SUITE.budget["decision_cpu"]
