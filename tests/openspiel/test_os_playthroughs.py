"""The committed OpenSpiel playthroughs (tests/openspiel/playthroughs) equal a fresh generation, carry their game's
env version and are exactly the cases of cases.toml; and the checks themselves catch what they should."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

import numpy as np
from open_spiel.python.algorithms import generate_playthrough

from meeplezoo import games
from meeplezoo.openspiel import playthroughs as pt

ROOT = Path(__file__).resolve().parent.parent.parent
FOLDER = Path(__file__).resolve().parent / "playthroughs"
SCRIPT = ROOT / "scripts" / "regen_playthroughs.py"
CASES = pt.load_cases(FOLDER)


def small_case() -> pt.Case:
    """The cheapest committed case with float, binary, ``zeros`` and ``binvec`` tensor lines: a solo mode."""
    return next(c for c in CASES if dict(c.config)["num_players"] == 1)


def cheap_case() -> pt.Case:
    """The cheapest committed case: the test plugin game at 2 players (else :func:`small_case`)."""
    return next((c for c in CASES if c.game == "goofspiel" and dict(c.config)["num_players"] == 2), small_case())


def case_list(case: pt.Case) -> str:
    """``cases.toml`` listing ``case`` alone."""
    config = ", ".join(f"{key} = {json.dumps(value)}" for key, value in case.config)
    return f'seed = {case.seed}\n[[case]]\ngame = "{case.game}"\nconfig = {{ {config} }}\n'


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=c.file_name(), marks=[pytest.mark.slow] if c.slow else []) for c in CASES]
)
def test_os_playthrough_equals_a_fresh_generation(case):
    problem = pt.check(case, FOLDER)
    assert problem is None, f"{problem}\nregenerate: {pt.REGENERATE} {case.game}"


def test_os_committed_playthroughs_have_the_manifests_env_version():
    problems = pt.version_problems(FOLDER)
    assert not problems, "\n".join(problems)


def test_os_committed_playthroughs_are_the_cases():
    installed = set(games.game_names())
    committed = {path.name for (game, _), found in pt.playthrough_files(FOLDER).items() for _, path in found}
    committed = {name for name in committed if pt.NAME.match(name)["game"] in installed}
    expected = {c.file_name() for c in CASES}
    assert committed == expected, f"stale: {sorted(committed - expected)}, missing: {sorted(expected - committed)}"
    strays = [p.name for p in FOLDER.iterdir() if p.name != pt.CASES_FILE and not pt.NAME.match(p.name)]
    assert not strays, f"files that are no playthrough in {FOLDER}: {strays}"


def test_os_cases_cover_each_game_at_two_players_and_a_larger_table():
    for game in {c.game for c in CASES}:
        counts = [dict(c.config)["num_players"] for c in CASES if c.game == game]
        assert 2 in counts and len(counts) >= 2, f"{game}: cases at {counts}"


def test_os_check_catches_one_changed_line(tmp_path):
    case = cheap_case()
    text = pt.generate(case)
    pt.write(tmp_path / case.file_name(), text)
    assert pt.check(case, tmp_path) is None
    lines = text.splitlines(keepends=True)
    i = next(i for i, line in enumerate(lines) if line.startswith("Returns() = "))
    original, lines[i] = lines[i], "Returns() = [0.5]\n"
    pt.write(tmp_path / case.file_name(), "".join(lines))
    problem = pt.check(case, tmp_path)
    assert problem is not None and "\n-Returns() = [0.5]\n" in problem and f"\n+{original}" in problem
    assert problem.startswith(f"--- committed/{case.file_name()}\n+++ generated/{case.file_name()}\n")


def test_os_check_names_a_missing_file_and_another_version(tmp_path):
    case = cheap_case()
    assert pt.check(case, tmp_path) == f"no playthrough {case.file_name()} in {tmp_path}"
    pt.write(tmp_path / case.file_name(case.version() + 1), pt.generate(case))
    problem = pt.check(case, tmp_path)
    assert problem.startswith(f"{case.game}: the committed playthrough is {case.file_name(case.version() + 1)}")
    assert problem.endswith("(same text)")


def test_os_a_file_of_another_env_version_is_named_by_game(tmp_path):
    case = cheap_case()
    shutil.copy(FOLDER / case.file_name(), tmp_path / case.file_name(case.version() + 3))
    (problem,) = pt.version_problems(tmp_path)
    assert problem.startswith(f"{case.game}: the playthrough {case.file_name(case.version() + 3)} is of env version")
    assert problem.endswith(f"{pt.REGENERATE} {case.game}")


def test_os_regenerate_writes_reports_and_replaces_old_versions(tmp_path):
    case = cheap_case()
    (tmp_path / pt.CASES_FILE).write_text(case_list(case))
    assert pt.load_cases(tmp_path) == [case]
    (change,) = pt.regenerate(tmp_path, write_files=False)
    assert (
        change.replaced is None and change.message() == f"{case.file_name()}: new" and not list(tmp_path.glob("*.gz"))
    )
    pt.regenerate(tmp_path)
    assert pt.regenerate(tmp_path) == [] and pt.check(case, tmp_path) is None
    first = (tmp_path / case.file_name()).read_bytes()
    pt.write(tmp_path / case.file_name(), pt.read(tmp_path / case.file_name()))
    assert (tmp_path / case.file_name()).read_bytes() == first  # deterministic bytes

    pt.write(tmp_path / case.file_name(), pt.read(tmp_path / case.file_name()).replace("IsTerminal() = True", "X"))
    (change,) = pt.regenerate(tmp_path)
    assert change.text_changed and not change.version_changed and "+IsTerminal() = True" in change.diff
    assert change.message().endswith(pt.BUMP) and "same env version" in change.message()

    old = case.file_name(case.version() + 1)  # a file of another version: replaced, its text the same
    (tmp_path / case.file_name()).rename(tmp_path / old)
    (change,) = pt.regenerate(tmp_path)
    assert change.version_changed and not change.text_changed and change.removed == (old,)
    assert f"env version v{case.version() + 1} -> v{case.version()} (same text), replaces {old}" in change.message()
    assert sorted(p.name for p in tmp_path.glob("*.gz")) == [case.file_name()]


def test_os_regenerate_removes_the_files_no_case_lists(tmp_path):
    case = cheap_case()
    (tmp_path / pt.CASES_FILE).write_text("")
    shutil.copy(FOLDER / case.file_name(), tmp_path / case.file_name())
    (tmp_path / "meeplezoo_nosuchgame-v0_2p.txt.gz").write_bytes(gzip.compress(b"", mtime=0))
    (change,) = pt.regenerate(tmp_path)
    assert change.name is None and change.message() == f"{case.file_name()}: no case lists it any more: removed"
    assert sorted(p.name for p in tmp_path.glob("*.gz")) == ["meeplezoo_nosuchgame-v0_2p.txt.gz"]  # not installed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[case]]\ngame = "nosuch"\nconfig = { num_players = 2 }\n', "case 1: unknown game 'nosuch'"),
        ('[[case]]\ngame = "nosuch"\nconfig = { num_players = 2 }\noptional = true\n', None),
        ('[[case]]\ngame = "seastead"\nconfig = { cards = 5 }\n', "case 1: config must be a table with num_players"),
        ('[[case]]\ngame = "seastead"\nconfig = { num_players = 2 }\nseeds = 3\n', "case 1: unknown key(s) ['seeds']"),
        ('[[case]]\ngame = "seastead"\nconfig = { num_players = 2 }\nseed = -1\n', "case 1: seed must be an integer"),
        (
            "[[case]]\ngame = 'seastead'\nconfig = { num_players = 2, x = 'a b' }\n",
            "case 1: seastead: unknown config key",
        ),
        ("[[case]]\ngame = 'seastead'\nconfig = { num_players = 2 }\n" * 2, "two cases of one game with the same"),
        ("[[case]]\ngame = 'seastead'\nconfig = { num_players = 5 }\n", "case 1: seastead: num_players must be"),
        ("case = 3\n", "cases.toml: 'case' must be an array of tables ([[case]]), not 3"),
        ("case = [3]\n", "case 1: a table expected, not 3"),
        ("[[case]\n", "cases.toml: "),
    ],
)
def test_os_a_bad_case_list_is_one_line_naming_the_defect(tmp_path, text, message):
    (tmp_path / pt.CASES_FILE).write_text(text)
    if message is None:
        assert pt.load_cases(tmp_path) == []
        return
    with pytest.raises(ValueError) as info:
        pt.load_cases(tmp_path)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_os_numpy_float_formatting_writes_openspiels_text():
    case = small_case()
    text = pt.generate(case)
    assert text == pt.generate(case, fast=False)
    for pattern in (
        r"\n\w+Tensor\(0\)\.\w+ = \[[^\n]*0\.\d",
        r"binvec\(",
        r"zeros\(",
        r"\n\w+Tensor\(0\)\.\w+: [◯◉]+\n",
    ):
        assert re.search(pattern, text), f"the playthrough has no line like {pattern!r}: the comparison misses a case"
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.random(20000), rng.integers(0, 2000, 2000) / 7, rng.random(2000) * 1e-6, [0.5e-5]])
    original = generate_playthrough._format_tensor
    with pt.numpy_float_formatting():
        for tensor in (
            values.astype(np.float32),
            values[:24000].astype(np.float32).reshape(4, -1),
            np.float32([0, 1, 2]),
        ):
            assert generate_playthrough._format_tensor(tensor, "t") == original(tensor, "t")
    assert generate_playthrough._format_tensor is original


def test_os_regen_script_checks_and_names_a_bad_argument(tmp_path):
    case = cheap_case()
    (tmp_path / pt.CASES_FILE).write_text(case_list(case))
    shutil.copy(FOLDER / case.file_name(), tmp_path / case.file_name())
    run = [sys.executable, str(SCRIPT), "--folder", str(tmp_path), "--check"]
    done = subprocess.run([*run, case.file_name()], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "0 playthrough file(s) would change" in done.stdout, done.stderr
    pt.write(tmp_path / case.file_name(), "game: altered\n")
    done = subprocess.run([*run, "--diff", case.game], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and f"{case.file_name()}: changed, same env version" in done.stdout, done.stderr
    assert "\n-game: altered\n" in done.stdout and pt.read(tmp_path / case.file_name()) == "game: altered\n"
    done = subprocess.run([*run, "nosuch"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("regen_playthroughs: no playthrough case 'nosuch'; there are: ")
    assert done.stderr.count("\n") == 1
