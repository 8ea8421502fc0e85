"""Schedules: lineups, seat permutations used equally, fixed seeds, study files."""

from __future__ import annotations

from collections import Counter

import pytest

from meeplezoo.arena import ArenaError
from meeplezoo.arena.schedule import Study, lineups, load_studies, schedule, seatings, validate


def test_head_to_head_uses_both_seatings_equally_and_mirrors_each_seed():
    tasks = schedule(Study("seastead", ["random", "heuristic"], games=6, seed=10))
    assert len(tasks) == 6
    assert Counter(t.seats for t in tasks) == {("random", "heuristic"): 3, ("heuristic", "random"): 3}
    # each deal's seed is played once from each side
    assert Counter(t.seed for t in tasks) == {10: 2, 11: 2, 12: 2}
    assert len({t.key for t in tasks}) == 6


def test_games_per_lineup_round_up_to_whole_deals():
    tasks = schedule(Study("seastead", ["random", "heuristic"], games=5))
    assert len(tasks) == 6


def test_round_robin_plays_every_pair_with_seats_rotated():
    tasks = schedule(Study("seastead", ["a", "b", "c"], games=4))
    pairs = Counter(frozenset(t.seats) for t in tasks)
    assert pairs == {frozenset("ab"): 4, frozenset("ac"): 4, frozenset("bc"): 4}
    for agent in "abc":
        assert Counter(t.seats.index(agent) for t in tasks if agent in t.seats) == {0: 4, 1: 4}


def test_fewer_agents_than_seats_repeats_agents_and_uses_each():
    assert lineups(2, 4) == [(0, 0, 0, 1), (0, 0, 1, 1), (0, 1, 1, 1)]
    assert lineups(3, 2) == [(0, 1), (0, 2), (1, 2)]


def test_every_permutation_when_games_allow_else_rotations():
    assert len(seatings((0, 1, 2), 6)) == 6
    rot = seatings((0, 1, 2, 3), 8)  # 24 permutations > 8 games: the 4 rotations
    assert len(rot) == 4
    for agent in range(4):
        assert sorted(s.index(agent) for s in rot) == [0, 1, 2, 3]
    assert seatings((0, 0, 1), 3) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]


def test_four_seats_set_the_player_count_and_balance_seats():
    tasks = schedule(Study("board_royale", ["a", "b", "c", "d"], seats=4, games=4))
    assert {t.config["num_players"] for t in tasks} == {4}
    assert len(tasks) == 4
    for agent in "abcd":
        assert Counter(t.seats.index(agent) for t in tasks) == {0: 1, 1: 1, 2: 1, 3: 1}


def test_the_same_study_gives_the_same_schedule():
    a = schedule(Study("seastead", ["random", "heuristic"], games=4, seed=3))
    b = schedule(Study("seastead", ["random", "heuristic"], games=4, seed=3))
    c = schedule(Study("seastead", ["random", "heuristic"], games=4, seed=4))
    assert a == b
    assert {t.key for t in a} != {t.key for t in c}
    assert [t.agent_seeds for t in a] == [t.agent_seeds for t in b]


@pytest.mark.parametrize(
    ("study", "message"),
    [
        (Study("seastead", ["random", "heuristic"], seats=3), "num_players must be 2 or 1"),
        (Study("concordia", ["random", "heuristic"], seats=6), "num_players=6"),
        (Study("seastead", ["random", "random"]), "each agent once"),
        (Study("seastead", ["random", "nobody"]), "no agent 'nobody' for seastead"),
        (Study("seastead", ["random", "heuristic:depth=3"]), "has no parameter 'depth'"),
        (Study("seastead", ["random", "heuristic"], games=0), "at least 1"),
        (Study("chess", ["random", "heuristic"]), "unknown game 'chess'"),
    ],
)
def test_bad_studies_are_one_line_errors(study, message):
    with pytest.raises(ArenaError) as info:
        validate(study)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_study_file_with_defaults_and_a_list_of_seat_counts(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(
        'agents = ["random", "heuristic"]\ngames = 4\nseed = 2\n'
        '[[study]]\ngame = "seastead"\n'
        '[[study]]\ngame = "board_royale"\nseats = [2, 3]\ngames = 6\n'
    )
    studies = load_studies(path)
    assert [(s.game, s.seats, s.games, s.seed) for s in studies] == [
        ("seastead", None, 4, 2),
        ("board_royale", 2, 6, 2),
        ("board_royale", 3, 6, 2),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[study]]\ngame = "seastead"\nagents = ["random"]\nrounds = 3\n', "unknown key(s) ['rounds']"),
        ('[[study]]\nagents = ["random"]\n', "'game' and 'agents' are required"),
        ('games = "many"\n[[study]]\ngame = "seastead"\nagents = ["random"]\n', "bad value for 'games'"),
        ("agents = [", "not valid TOML"),
        ('agents = ["random"]\n', "no [[study]] tables"),
    ],
)
def test_bad_study_files(tmp_path, text, message):
    path = tmp_path / "study.toml"
    path.write_text(text)
    with pytest.raises(ArenaError, match=None) as info:
        load_studies(path)
    assert message in str(info.value)
