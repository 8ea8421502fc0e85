"""The leaderboard page from score cards: rows best headline first, ``-`` for a skipped task, the command behind each
row, one row per agent and mode (the later run), cards of other suite versions or suite files refused in one line,
and ``meeplezoo leaderboard``."""

from __future__ import annotations

import argparse
import json
import re

import pytest
from bench_cards import HOSTILE, html, make_card

from meeplezoo import cli
from meeplezoo.benchmark import BenchmarkError
from meeplezoo.benchmark.leaderboard import ranked, render, write_leaderboard
from meeplezoo.commands import leaderboard as command


def _rows(page: str) -> list[list[str]]:
    """The table rows of ``page`` (not the header), as cell texts."""
    table = [line for line in page.splitlines() if line.startswith("| ")][1:]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]] for line in table]


def _save(tmp_path, card, name: str):
    path = tmp_path / name
    path.write_text(json.dumps(card))
    return path


@pytest.fixture
def cards():
    return [
        make_card("random", 0.0, normalised=0.01),
        make_card("mcts(iters=300)", 1.4, normalised=1.5),
        make_card("broken", None, normalised=None),
        make_card("heuristic", 0.97),
    ]


def test_rows_go_best_headline_first_and_no_score_last(cards):
    page = render(cards)
    assert [row[1] for row in _rows(page)] == ["`mcts(iters=300)`", "`heuristic`", "`random`", "`broken`"]
    first = _rows(page)[0]
    assert first == ["1", "`mcts(iters=300)`", "quick", "1.40", "1.00", "2/3", "1.50", "1.02", "-"]
    assert _rows(page)[3][3:5] == ["-", "1.00"]  # no headline score: shown as -, ranked last


def test_the_page_names_the_suite_and_a_column_per_task(cards):
    page = render(cards)
    assert page.startswith("# MeepleZoo-Bench leaderboard\n")
    assert "Suite meeplezoo-bench v1" in page and "mode(s): quick." in page
    header = next(line for line in page.splitlines() if line.startswith("| #"))
    assert header == "| # | agent | mode | headline | median | tasks | concordia-4p | resafa-solo | seastead-2p |"


def test_a_skipped_task_shows_a_dash(cards):
    for row in _rows(render(cards)):
        assert row[-1] == "-"  # seastead-2p is skipped on every card
    assert _rows(render(cards))[2][6] == "0.01"  # a played task to 2 decimals


def test_each_row_names_the_command_that_reproduced_it(cards):
    page = render(cards)
    section = page.split("## How each row was produced\n")[1]
    lines = [line for line in section.splitlines() if line]
    assert lines[0] == (
        "1. `mcts(iters=300)` (quick): `meeplezoo benchmark mcts(iters=300) --quick` "
        "(code version `0.9.0+gabc123`, 2026-12-03T23:00:00Z)"
    )
    assert len(lines) == 4 and lines[3].startswith("4. `broken` (quick): `meeplezoo benchmark broken --quick`")


def test_two_cards_of_one_agent_and_mode_the_later_wins_with_a_note():
    old = make_card("heuristic", 0.5, date="2026-11-01T10:00:00Z")
    new = make_card("heuristic", 0.9, date="2026-12-01T10:00:00+00:00")
    full = make_card("heuristic", 0.95, mode="full")
    for cards in ([old, new, full], [new, full, old]):
        rows, notes = ranked(cards)
        assert [(c["headline"]["score"], c["suite"]["mode"]) for c in rows] == [(0.95, "full"), (0.9, "quick")]
        assert notes == [
            "Two score cards of `heuristic` (quick): the run of 2026-12-01T10:00:00+00:00 is listed, "
            "the one of 2026-11-01T10:00:00Z is not."
        ]
    page = render([old, new, full])
    assert "Note: Two score cards of `heuristic` (quick)" in page and "mode(s): full, quick." in page


def test_cards_of_another_suite_version_are_refused_in_one_line(tmp_path):
    with pytest.raises(BenchmarkError, match="different suite versions") as err:
        render([make_card("a"), make_card("b", version=2)])
    assert "\n" not in str(err.value) and "'b' ran meeplezoo-bench v2" in str(err.value)
    paths = [_save(tmp_path, make_card("a"), "a.json"), _save(tmp_path, make_card("b", version=2), "b.json")]
    with pytest.raises(BenchmarkError, match=re.escape(f"score card {paths[1]} is suite v2; this MeepleZoo runs")):
        write_leaderboard(paths, tmp_path / "lb.md", 1)
    assert not (tmp_path / "lb.md").exists()


@pytest.mark.parametrize("key", ["digest", "calibration"])
def test_cards_of_an_edited_suite_or_calibration_are_refused(key):
    with pytest.raises(BenchmarkError, match=f"cannot share a leaderboard .*{key} {'x' * 64}"):
        render([make_card("a"), make_card("b", **{key: "x" * 64})])


def test_no_cards_is_refused():
    with pytest.raises(BenchmarkError, match="no score cards"):
        render([])


def test_a_hostile_agent_spec_stays_in_its_cell(cards):
    page = render([*cards, make_card(HOSTILE, 0.5)])
    out = html(page)
    assert "<script>" not in out and "<h1>heading" not in out and "<a href" not in out
    rows = re.findall(r"<tr>.*?</tr>", out, re.S)
    assert len({row.count("<td>") for row in rows if "<td>" in row}) == 1  # every row as wide as the header
    assert "<td><code>evil|spec &lt;script&gt;" in out
    assert "<li><code>evil|spec" in out  # the command section's label, a code span too


def test_write_leaderboard_reads_cards_and_writes_the_page(tmp_path, cards):
    paths = [_save(tmp_path, card, f"{i}.json") for i, card in enumerate(cards)]
    out = write_leaderboard(paths, tmp_path / "docs" / "leaderboard.md", 1)
    assert out.read_text() == render(cards)


def _cli(argv: list[str]) -> int:
    """``meeplezoo leaderboard ARGV`` through the CLI once it lists the command, else through the module's own
    parser (errors raised: the CLI turns them into one line and status 2)."""
    if "leaderboard" in cli.COMMANDS:
        return cli.main(["leaderboard", *argv])
    parser = argparse.ArgumentParser(prog="meeplezoo")
    sub = parser.add_subparsers(dest="command")
    command.add_parser(sub, "game")
    return command.run(parser.parse_args(["leaderboard", *argv]))


def test_the_command_writes_the_page_and_says_where_and_how_many_rows(tmp_path, cards, capsys):
    paths = [str(_save(tmp_path, card, f"{i}.json")) for i, card in enumerate(cards)]
    old = make_card("heuristic", 0.2, date="2026-01-01T00:00:00Z")
    paths.append(str(_save(tmp_path, old, "old.json")))
    out = tmp_path / "lb" / "leaderboard.md"
    assert _cli([*paths, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}: 4 rows from 5 score cards" in printed and "note: Two score cards of `heuristic`" in printed
    page = out.read_text()
    assert page == render([*cards, old]) and "| `heuristic` | quick | 0.97 |" in page  # the older card left out


def test_the_command_writes_docs_leaderboard_md_by_default():
    parser = argparse.ArgumentParser()
    command.add_parser(parser.add_subparsers(dest="command"), "game")
    assert parser.parse_args(["leaderboard", "card.json"]).out == "docs/leaderboard.md"
    assert command.suite_version() == 1


def test_the_command_refuses_a_card_of_another_suite_version(tmp_path, capsys):
    good = _save(tmp_path, make_card("a"), "a.json")
    bad = _save(tmp_path, make_card("b", version=2), "b.json")
    out = tmp_path / "lb.md"
    if "leaderboard" in cli.COMMANDS:
        assert cli.main(["leaderboard", str(good), str(bad), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"score card {bad} is suite v2" in err
    else:
        with pytest.raises(BenchmarkError, match=re.escape(f"score card {bad} is suite v2")):
            _cli([str(good), str(bad), "--out", str(out)])
    assert not out.exists()
