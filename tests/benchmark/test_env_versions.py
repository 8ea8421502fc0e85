"""The env-version tripwire (scripts/env_fingerprints.py): a change to a game that changes its results must bump its
env version (the PettingZoo rule, docs/benchmark.md), and envs/fingerprints.json records what each version plays."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from meeplezoo import games
from meeplezoo.envs.seastead.game import SeasteadState
from meeplezoo.envs.seastead.heuristic import SeasteadHeuristicAgent

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
try:
    import env_fingerprints as fingerprints
finally:
    sys.path.remove(str(SCRIPTS))

RECORDED = fingerprints.read_recorded()
BUMP = (
    "seastead's results changed but its env version is still v0: bump `version` in envs/seastead/manifest.py "
    "(the PettingZoo rule; docs/benchmark.md), then run python scripts/env_fingerprints.py --write"
)


def test_every_games_results_match_its_recorded_env_version():
    """The tripwire: fails naming the game (and saying bump) when a change to a game forgot its version bump."""
    current = fingerprints.current()
    assert set(current) == {m.env_module_name for m in games.manifests() if m.package.startswith("meeplezoo.envs.")}
    assert len(current) >= 4
    problems = fingerprints.check(current, RECORDED)
    assert not problems, "\n".join(problems)


def _first_legal(self, view):
    return view.legal_actions[0]


def _one_more_point_for_the_first_seat(self):
    scores = SEASTEAD_SCORES(self)
    return [scores[0] + 1.0, *scores[1:]]


SEASTEAD_SCORES = SeasteadState.scores


@pytest.mark.parametrize(
    ("target", "attr", "changed"),
    [(SeasteadHeuristicAgent, "act", _first_legal), (SeasteadState, "scores", _one_more_point_for_the_first_seat)],
    ids=["heuristic-choice", "scoring"],
)
def test_a_change_to_a_games_results_is_named_and_asks_for_a_bump(monkeypatch, target, attr, changed):
    monkeypatch.setattr(target, attr, changed)
    assert fingerprints.check(fingerprints.current(["seastead"]), RECORDED) == [BUMP]


def test_a_change_under_another_numpy_says_the_streams_may_have_changed():
    problems = fingerprints.check({"seastead_v0": "0" * 16}, {**RECORDED, "numpy": "1.0.0"})
    assert problems[0] == BUMP
    assert problems[1].startswith("note: the fingerprints were recorded with numpy 1.0.0, this is numpy ")
    assert "regenerate them with python scripts/env_fingerprints.py --write" in problems[1]


def test_a_bumped_env_version_reads_as_not_recorded_yet(monkeypatch):
    real = games.manifest
    bumped = dataclasses.replace(real("seastead"), version=1)
    monkeypatch.setattr(games, "manifest", lambda name: bumped if games.resolve(name) == "seastead" else real(name))
    current = fingerprints.current(["seastead"])
    assert current == {"seastead_v1": RECORDED["seastead_v0"]}  # the number alone changes no game
    assert fingerprints.check(current, RECORDED) == [
        "seastead_v1: new env version, not recorded yet: run python scripts/env_fingerprints.py --write"
    ]


def test_check_without_a_readable_record_is_one_line_and_exit_2(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(fingerprints, "FILE", tmp_path / "fingerprints.json")
    assert fingerprints.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("env_fingerprints: cannot read ") and err.count("\n") == 1
