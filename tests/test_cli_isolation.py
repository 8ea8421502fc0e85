"""``meeplezoo play`` and ``baselines`` run every agent but a human in its own process under a budget
(``--isolation none``: in this one, as before); a bot's fault ends its game with one line naming the seat, the
reason and the detail, and exit status 4; ``play_match`` takes the same option. The misbehaving bots come from
``tests/hostile_bots.py`` (``--import hostile_bots``)."""

from __future__ import annotations

import os
import re
import sys
import time

import pytest

from meeplezoo import cli
from meeplezoo.agents import play_match
from meeplezoo.agents.random_agent import RandomAgent

HOSTILE = "hostile_bots"


@pytest.fixture(autouse=True)
def _no_stray_agents():
    """The hostile bots stay registered only during the test that imported them."""
    yield
    module = sys.modules.pop(HOSTILE, None)
    if module is not None:
        from meeplezoo.agents import unregister_agent

        for name in module.NAMES:
            unregister_agent(name)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's own errors exit
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def rank_of(out: str, agent: str) -> int:
    """The rank column of ``agent``'s row in the printed result table."""
    row = next(line for line in out.splitlines() if re.match(rf"\W+{agent}\b", line))
    return int(row.split("│")[4])


@pytest.mark.parametrize(
    ("bot", "words"),
    [
        ("quit", "(crashed): tried to exit (SystemExit: 3)"),
        ("boom", "(raised): RuntimeError: boom"),
        ("yes", "(illegal action): returned True (bool), not an action id"),
        ("cheat", "(illegal action): action 1000000 is not legal now"),
        ("pidfile:path=/no/such/folder/pids", "(raised): could not be made: FileNotFoundError"),
    ],
)
def test_a_bot_fault_ends_the_game_in_one_line_and_status_4(capsys, bot, words):
    code, out, err = run(capsys, "play", "seastead", "--agents", "random", bot, "--seed", "2", "--import", HOSTILE)
    assert code == 4 and err == "" and "Traceback" not in out
    (line,) = [line for line in out.splitlines() if "Forfeit" in line]
    assert line.startswith(f"Forfeit: seat 1, player_1 ({bot}), at decision ") and words in line, line
    assert rank_of(out, "player_1") == 1 and rank_of(out, "player_0") == 0  # the faulty seat last


def test_a_bot_over_its_time_limit_is_killed_and_forfeits(capsys):
    start = time.monotonic()
    argv = ["play", "seastead", "--agents", "nap:seconds=60", "random", "--import", HOSTILE, "--time-limit", "0.3"]
    code, out, _ = run(capsys, *argv, "--quiet")
    assert code == 4 and "(time limit): no answer to decide within 0.3 s" in out
    assert time.monotonic() - start < 20


def test_isolated_and_in_process_agents_play_the_same_game(capsys):
    argv = ["play", "seastead", "--agents", "heuristic", "random", "--seed", "7", "--board-every", "50"]
    outputs = []
    for mode in ("process", "none"):
        code, out, err = run(capsys, *argv, "--isolation", mode)
        assert code == 0 and err == ""
        outputs.append([line for line in out.splitlines() if "decisions in" not in line])
    assert outputs[0] == outputs[1]
    assert "board before decision 50" in "\n".join(outputs[0])  # the referee prints the board: agents have no stdout


def test_a_bot_runs_in_its_own_process_unless_isolation_is_none(capsys, tmp_path):
    path = tmp_path / "pids"
    for mode in ("process", "none"):
        argv = ["play", "seastead", "--agents", f"pidfile:path={path}", "random", "--import", HOSTILE, "--quiet"]
        assert run(capsys, *argv, "--isolation", mode)[0] == 0
    isolated, here = (int(x) for x in path.read_text().split())
    assert here == os.getpid() and isolated != os.getpid()


def test_a_match_goes_on_past_forfeits_and_tells_them(capsys):
    argv = ["play", "seastead", "--agents", "random", "quit", "--games", "3", "--import", HOSTILE]
    code, out, err = run(capsys, *argv)
    assert code == 4 and err == ""
    assert "3 games ended by a forfeit" in out and out.count("forfeit by quit (crashed)") == 3
    assert "agents ran each in its own process; budget decision_seconds=30" in out
    row = next(line.split() for line in out.splitlines() if line.strip().startswith("quit "))
    assert row[1:5] == ["3", "0", "0", "3"]  # games, wins, shared, losses


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (["--time-limit", "-1"], "--time-limit must be positive (0: no limit), not -1"),
        (["--time-limit", "nan"], "--time-limit must be positive"),
        (["--budget", "memory_mb=1"], "memory_mb"),
        (["--budget", "decision_seconds=3"], "--budget decision_seconds: give it as --time-limit S"),
        (["--budget", "colour=red"], "colour"),
        (["--isolation", "thread"], "invalid choice: 'thread'"),
        (["--import", "no_such_bots_module"], "--import no_such_bots_module: cannot import it"),
    ],
)
def test_a_bad_isolation_option_is_one_line_and_status_2(capsys, option, words):
    code, out, err = run(capsys, "play", "seastead", *option)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err


def test_baselines_runs_in_process_when_told(capsys):
    code, out, _ = run(capsys, "baselines", "--games", "1", "--isolation", "none")
    assert code == 0 and "agents ran in the referee's process (--isolation none" in out


def test_play_match_in_processes_plays_the_same_games_and_counts_forfeits():
    isolated = play_match("seastead", ["heuristic", "random"], games=2, seed=5, isolation="process")
    assert isolated.records == play_match("seastead", ["heuristic", "random"], games=2, seed=5).records
    result = play_match("seastead", ["random", "boom"], games=2, seed=5, isolation="process", imports=[HOSTILE])
    assert [(r.forfeit.seat, r.forfeit.reason) for r in result.records] == [(1, "raised"), (0, "raised")]
    standings = {s.label: s for s in result.standings()}
    assert (standings["boom"].forfeits, standings["boom"].losses, standings["random"].wins) == (2, 2, 2)
    with pytest.raises(ValueError, match="needs agent specs"):
        play_match("seastead", [lambda s: RandomAgent(seed=s), "random"], games=1, isolation="process")
    with pytest.raises(ValueError, match="isolation must be"):
        play_match("seastead", ["random", "random"], games=1, isolation="thread")
