"""The OpenSpiel speed benchmark (``python -m meeplezoo.bench.openspiel``) at its smallest: what it counts and
prints, never how fast."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from meeplezoo import games
from meeplezoo.bench import openspiel as os_bench
from meeplezoo.envs.core.errors import MeepleZooError


def test_every_way_counts_the_decisions_of_the_same_games():
    said: list[str] = []
    rows = os_bench.run(2, players=(2, 3), only=["goofspiel", "seastead"], seed=11, progress=said.append)
    assert [(r.game, r.players) for r in rows] == [("goofspiel", 2), ("goofspiel", 3), ("seastead", 2)]
    assert "seastead: no 3-player table, skipped" in said  # Seastead seats 1 or 2
    cards = games.manifest("goofspiel").engine_class().defaults["cards"]
    for row in rows:
        ways = (row.env, row.engine, row.pyspiel, row.tensor, row.cpp)
        assert all(len(way.lengths) == 2 and way.seconds > 0 and way.per_second > 0 for way in ways)
        # pyspiel is dealt each game's seed: the engine's very games, decision for decision
        assert row.engine.lengths == row.pyspiel.lengths == row.tensor.lengths
        assert row.cpp_game in os_bench.CANDIDATES and row.cpp_length > 0 and min(row.cpp.lengths) > 0
        if row.game == "goofspiel":  # every seat bids once a round, one card a round
            assert row.env.lengths == row.engine.lengths == [cards * row.players] * 2
    seastead = rows[2]
    assert seastead.engine.mean_length == sum(seastead.engine.lengths) / 2 > 0


def test_the_command_prints_one_row_a_game_with_positive_rates(capsys):
    assert os_bench.main(["--only", "goofspiel", "--games", "1", "--markdown", "--quiet"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3  # header, rule, one row
    header, row = ([c.strip() for c in line.strip("|").split("|")] for line in (lines[0], lines[2]))
    assert header == list(os_bench.COLUMNS)
    assert row[0] == "goofspiel 2p" and float(row[1]) == 18.0  # 9 rounds, two bids each
    for rate in row[2:6] + row[7:]:
        assert float(rate.replace(",", "")) > 0
    name, _, length = row[6].partition(" (")
    assert name in os_bench.CANDIDATES and float(length.rstrip(")")) > 0


def test_the_closest_candidate_is_the_one_of_nearest_length():
    lengths = {"hex": 110.0, "chess": 300.0, "go(board_size=19)": 580.0}
    assert os_bench.closest(lengths, 160.0) == "hex"
    assert os_bench.closest(lengths, 450.0) == "go(board_size=19)"
    assert os_bench.closest(lengths, 205.0) == "hex"  # a tie goes to the first listed
    with pytest.raises(MeepleZooError, match="no C\\+\\+ OpenSpiel game"):
        os_bench.closest({}, 100.0)


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--only", "nosuchgame"], "unknown game 'nosuchgame'"),
        (["--seed", str(2**32 - 1), "--games", "2"], "every game's seed must be below 2**32"),
        (["--games", "0"], "--games"),
    ],
)
def test_bad_input_is_a_one_line_error(argv, error, capsys):
    with pytest.raises(SystemExit) as stop:
        os_bench.main(argv)
    assert stop.value.code == 2
    assert error in capsys.readouterr().err.strip().splitlines()[-1]
