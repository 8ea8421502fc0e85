"""The measuring scripts under scripts/: a bad argument is one line on stderr and exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["seastead", "--players", "3"], "measure_policies: seastead: num_players must be 2 or 1"),
        (["board_royale", "--players", "9"], "measure_policies: board_royale:"),
        (["nosuch"], "measure_policies: unknown game 'nosuch'; MeepleZoo has: seastead"),
        (["seastead", "--policy", "no/such/model.zip"], "measure_policies: ppo: no model file"),
    ],
)
def test_measure_policies_names_a_bad_argument_in_one_line(args, message):
    run = subprocess.run(
        [sys.executable, str(SCRIPTS / "measure_policies.py"), *args, "--games", "1", "--profile-steps", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(message) and run.stderr.count("\n") == 1, run.stderr


def test_behaviour_digest_names_a_bad_argument_in_one_line():
    run = subprocess.run(
        [sys.executable, str(SCRIPTS / "behaviour_digest.py"), "nosuch"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 2 and run.stdout == ""
    assert (
        run.stderr
        == "behaviour_digest: unknown game 'nosuch'; digests exist for seastead, concordia, resafa, board_royale\n"
    )


def test_behaviour_digest_is_a_function_of_the_code_and_tells_games_apart():
    sys.path.insert(0, str(SCRIPTS))
    try:
        import behaviour_digest as digest
    finally:
        sys.path.remove(str(SCRIPTS))
    first = digest.training_env_digest("seastead", 150), digest.heuristic_digest("board_royale", 1)
    assert first == (digest.training_env_digest("seastead", 150), digest.heuristic_digest("board_royale", 1))
    assert digest.training_env_digest("seastead", 149) != first[0]  # one step less: another digest
