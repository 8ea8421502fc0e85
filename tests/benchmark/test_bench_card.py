"""Score cards on disk: ``scorecard.json`` as given, ``README.md`` with the numbers, plots and provenance (a hostile
agent spec escaped), and reading a card back, refusing in one line anything that is not a card of this format and
suite version."""

from __future__ import annotations

import json
import re

import pytest
from bench_cards import BASE, HOSTILE, html, make_card
from PIL import Image

from meeplezoo.benchmark import BenchmarkError
from meeplezoo.benchmark.card import CARD_FORMAT, CARD_VERSION, MAX_CARD_BYTES, md_code, md_text, read_card, write_card


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("card")
    files = write_card(make_card(), out)
    return out, files, (out / "README.md").read_text()


def test_the_card_format_constants():
    assert (CARD_FORMAT, CARD_VERSION) == ("meeplezoo-scorecard", 1)
    assert BASE["format"] == CARD_FORMAT  # the test card is of this format


def test_write_card_writes_the_json_as_given_the_readme_and_three_plots(written):
    out, files, _ = written
    names = [f.name for f in files]
    assert names == ["scorecard.json", "README.md", "normalised.png", "winrates.png", "solo.png"]
    assert all(f.parent == out and f.stat().st_size > 0 for f in files)
    text = (out / "scorecard.json").read_text()
    assert text == json.dumps(make_card(), indent=2) + "\n"  # key order kept, indent 2, trailing newline
    assert list(json.loads(text)) == list(BASE)  # not sorted: "format" first, "run" last
    assert '"normalised": 0.93' in text  # floats as given


def test_plots_are_titled_with_the_agent_and_large_enough_to_read(written):
    out, files, md = written
    for png in (f for f in files if f.suffix == ".png"):
        image = Image.open(png)
        assert image.text["Title"].splitlines()[-1] == "heuristic", png.name
        assert image.size[0] >= 900 and image.size[1] >= 500, (png.name, image.size)
        assert f"]({png.name})" in md  # the README shows it
    assert "score 0.97" in Image.open(out / "normalised.png").text["Title"]


def test_the_readme_shows_the_headline_and_every_tasks_numbers(written):
    _, _, md = written
    assert md.startswith("# Score card: `heuristic`\n")
    assert "score 0.97 (median 1.00) over 2 of 3 tasks" in md
    multi = md.split("### concordia-4p")[1].split("###")[0]
    assert "normalised **0.93**" in multi and "rating 812 [700, 924]" in multi
    assert "seeds 40000-40003" in multi
    random_row = next(line for line in multi.splitlines() if line.startswith("| `random`"))
    assert random_row == "| `random` | 4 | 3.5 | 87.5% [50.0%, 98.0%] | +12.3 [+2.0, +22.6] | 0 / 1 | 0 |"
    mcts_row = next(line for line in multi.splitlines() if line.startswith("| `mcts-ref`"))
    assert "25.0% [4.6%, 69.9%]" in mcts_row and "-7.2 [-15.5, +1.0]" in mcts_row and mcts_row.endswith("| 1 |")
    solo = md.split("### resafa-solo")[1].split("##")[0]
    assert "normalised: **1.02**" in solo and "mean score: 92.5 [88.0, 97.0]" in solo
    assert "0 of 20, 0.0% [0.0%, 16.0%]" in solo and "margin over the automa: -" in solo
    assert "| below fair | 18 |" in solo and "| fair | 2 |" in solo
    assert "seeds 40000-40019" in solo


def test_the_readme_names_skipped_tasks_with_their_reason_escaped(written):
    _, _, md = written
    skipped = md.split("## Skipped tasks")[1].split("##")[0]
    assert r"- seastead-2p: the agent cannot play seastead: \<no policy\> \| \`x\`" in skipped
    assert "| seastead-2p | multi | - | - | skipped |" in md  # in the summary table too
    page = html(md)
    assert "&lt;no policy&gt; | <code>" not in page and "&lt;no policy&gt; | `x`" in page


def test_the_readme_gives_the_provenance(written):
    _, _, md = written
    prov = md.split("## Provenance")[1]
    for text in (
        "meeplezoo-bench v1, mode quick",
        f"digest `{'d' * 64}`",
        f"calibration `{'c' * 64}`",
        "MeepleZoo 0.9.0, code version `0.9.0+gabc123`",
        "`seastead_v0`, `concordia_v0`, `board_royale_v1`, `resafa_v0`",
        "decision_cpu=1 decision_seconds=10 memory_mb=4096",
        "seed: 40000",
        "cores=2",
        "date: 2026-12-03T23:00:00Z; 301.2 s, 2 workers, backend local",
        "command: `meeplezoo benchmark heuristic --quick`",
    ):
        assert text in prov, text


def _cells(row_html: str) -> int:
    return row_html.count("<td>")


def test_a_hostile_agent_spec_cannot_break_or_inject_into_the_readme_or_plots(tmp_path):
    card = make_card(HOSTILE)
    card["tasks"][0]["vs"][0]["background"] = HOSTILE  # a background spec shows in a table cell
    files = write_card(card, tmp_path)
    md = (tmp_path / "README.md").read_text()
    page = html(md)
    assert "<script>" not in page and "<h1>heading" not in page and "<a href" not in page
    assert page.count("<h1>") == 1  # the title only: the spec's newline started no heading
    title = re.search(r"<h1>Score card: <code>(.*)</code></h1>", page)
    assert title and "evil|spec &lt;script&gt;" in title.group(1)
    for table in re.findall(r"<table>.*?</table>", page, re.S):
        widths = {_cells(row) for row in re.findall(r"<tr>.*?</tr>", table, re.S) if "<td>" in row}
        assert len(widths) == 1, table  # every row as wide as the others: no | split a cell
    assert "<code>evil|spec" in page.split("<table>")[2]  # the background's cell: the spec whole, in code
    for png in (f for f in files if f.suffix == ".png"):  # matplotlib did not read $x$ as maths (or choke on it)
        assert "$x$" in Image.open(png).text["Title"].replace("\\$", "$")


def test_md_helpers_escape_what_markdown_would_read():
    assert md_text("a|b <i>*c*</i> `d` [e](f) & $g$") == r"a\|b \<i\>\*c\*\</i\> \`d\` \[e\]\(f\) \& \$g\$"
    assert md_text("line\n# two") == r"line \# two"
    assert md_code("plain") == "`plain`"
    assert md_code("a`b") == "`` a`b ``"
    assert md_code("a``b|c", table=True) == r"``` a``b\|c ```"
    assert html(md_code("x ``` y")).strip() == "<p><code>x ``` y</code></p>"


def test_read_card_round_trips_a_written_card(written):
    out, _, _ = written
    assert read_card(out / "scorecard.json") == make_card()
    assert read_card(out, suite_version=1) == make_card()  # the folder holding it


def _one_line_refusal(path, match: str, **kwargs) -> str:
    with pytest.raises(BenchmarkError, match=match) as err:
        read_card(path, **kwargs)
    message = str(err.value)
    assert "\n" not in message and str(path) in message, message
    return message


def test_read_card_refuses_a_missing_file_or_one_that_is_not_json(tmp_path):
    _one_line_refusal(tmp_path / "none.json", "no such file")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "meeplezoo-scorecard",\n oops}')
    assert "line 2" in _one_line_refusal(bad, "is not JSON")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    _one_line_refusal(binary, "cannot be read|is not JSON")


@pytest.mark.parametrize("content", [[1, 2], {"format": "meeplezoo-arena"}, {"agent": "x"}, "a string"])
def test_read_card_refuses_json_that_is_not_a_score_card(tmp_path, content):
    path = tmp_path / "other.json"
    path.write_text(json.dumps(content))
    _one_line_refusal(path, 'is not a valid score card: no "format": "meeplezoo-scorecard"')


def test_read_card_refuses_another_format_version(tmp_path):
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(make_card(format_version=2)))
    message = _one_line_refusal(path, "is score-card format v2; this MeepleZoo reads format v1")
    assert "meeplezoo benchmark" in message


def test_read_card_refuses_another_suite_version_when_asked(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps(make_card(version=2)))
    message = _one_line_refusal(path, "suite v2", suite_version=1)
    assert message == (
        f"score card {path} is suite v2; this MeepleZoo runs suite v1: rerun the agent with `meeplezoo benchmark`"
    )
    assert read_card(path)["suite"]["version"] == 2  # not asked: read


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda c: c.pop("agent"), 'no "agent" spec'),
        (lambda c: c.update(agent="  "), 'no "agent" spec'),
        (lambda c: c.pop("suite"), '"suite" is not an object'),
        (lambda c: c["suite"].pop("version"), "no suite version"),
        (lambda c: c["suite"].pop("digest"), '"suite" has no "digest" string'),
        (lambda c: c.pop("headline"), '"headline" is not an object'),
        (lambda c: c["headline"].update(score="high"), 'headline "score" is not a number'),
        (lambda c: c["headline"].pop("of"), 'headline "of" is not a count'),
        (lambda c: c.pop("tasks"), '"tasks" is not a list of tasks'),
        (lambda c: c.update(tasks=[]), '"tasks" is not a list of tasks'),
        (lambda c: c["tasks"][0].pop("name"), "task 0 has no name"),
        (lambda c: c["tasks"][1].update(kind="duo"), 'task resafa-solo is neither "multi" nor "solo"'),
        (lambda c: c["tasks"][0].update(normalised="0.9"), "task concordia-4p: bad normalised"),
        (lambda c: c["run"].pop("command"), '"run" has no "command" string'),
        (lambda c: c["run"].pop("code_version"), 'no "code_version" string (in "run")'),
    ],
)
def test_read_card_refuses_a_card_without_what_the_leaderboard_needs(tmp_path, change, match):
    card = make_card()
    change(card)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(card))
    _one_line_refusal(path, "is not a valid score card: " + re.escape(match))


def test_read_card_refuses_a_file_too_large_before_parsing_it(tmp_path):
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(make_card()) + " " * MAX_CARD_BYTES)  # valid JSON: refused for its size alone
    _one_line_refusal(path, r"bytes: a score card is at most 5 MB")


def test_write_card_refuses_an_invalid_card_before_writing_anything(tmp_path):
    card = make_card()
    del card["headline"]
    with pytest.raises(BenchmarkError, match='"headline" is not an object'):
        write_card(card, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_card_with_only_skipped_tasks_writes_no_plot(tmp_path):
    card = make_card(score=None)
    card["headline"].update(median=None, tasks=0)
    card["tasks"] = [card["tasks"][2]]
    files = write_card(card, tmp_path)
    assert [f.name for f in files] == ["scorecard.json", "README.md"]
    md = (tmp_path / "README.md").read_text()
    assert "score - (median -) over 0 of 3 tasks" in md and ".png" not in md


def test_a_card_with_its_code_version_at_the_top_or_tasks_left_out_says_so(tmp_path):
    card = make_card()
    card["code_version"] = card["run"].pop("code_version")  # the first drafts' layout
    card["suite"]["tasks_not_run"] = ["board_royale-4p", "resafa-3p"]
    card["run"]["failed"] = 3
    write_card(card, tmp_path)
    assert read_card(tmp_path) == card
    prov = (tmp_path / "README.md").read_text().split("## Provenance")[1]
    assert "code version `0.9.0+gabc123`" in prov
    assert r"tasks of the suite not run (`--tasks`): board\_royale-4p, resafa-3p" in prov
    assert "games that failed and were not stored: 3" in prov
