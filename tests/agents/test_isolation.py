"""Isolated agents against hostile ones: spies reach nothing of the referee, mutators change nothing of the real
game, every way an agent can fail or overrun ends in its seat's forfeit with the right reason (fast), and isolated
play is bit for bit in-process play. The hostile agents are in ``hostile_agents.py``."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from meeplezoo.agents import make_agent, play_game
from meeplezoo.agents.budget import Budget
from meeplezoo.agents.faults import CPU, CRASHED, ILLEGAL, MEMORY, TIMEOUT, Forfeit
from meeplezoo.agents.isolation import isolated_seats
from meeplezoo.games import make_env

HERE = Path(__file__).resolve().parent
MODULE = "hostile_agents"
#: the built-in games, each at a table with hidden cards (two seats: the fastest)
GAMES = [("seastead", {}), ("concordia", {"num_players": 2}), ("board_royale", {"num_players": 2}), ("resafa", {})]
#: a small budget: the tests stay fast, and a hog cannot eat the machine's memory
SMALL = Budget(decision_seconds=0.5, memory_mb=512)
#: for the memory hogs: time to fill 512 MiB on a busy machine (the memory cap is what must stop them)
ROOMY = Budget(decision_seconds=10, memory_mb=512)


def play_isolated(game, config, specs, *, budget=None, max_steps=None, on_decision=None, seeds=None):
    """Play one game with ``specs`` isolated; returns (record, actions, the seats' agents)."""
    env = make_env(game, **config)
    actions: list[int] = []

    def hook(e, name, action):
        if on_decision is not None:
            on_decision(e, name, action)
        actions.append(action)

    seeds = seeds or list(range(1, len(specs) + 1))
    with isolated_seats(env, specs, game, seeds=seeds, budget=budget or SMALL, imports=[MODULE]) as seats:
        record = play_game(env, seats, seed=7, on_decision=hook, max_steps=max_steps)
    return env, record, actions, seats


def reports(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def plain(state) -> dict:
    """``state.to_dict()`` as JSON data (what the spies report)."""
    return json.loads(json.dumps(state.to_dict()))


def without_chance(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "chance"}


# --- spies -------------------------------------------------------------------------------------------------------


def truths_of(seat: int):
    """A decision hook that keeps, at each decision of ``seat``, the true state and the seat's public copy."""
    kept: list[tuple[dict, dict]] = []

    def hook(env, name, action):
        state = env.unwrapped.state_obj
        if state.current_player() == seat:
            kept.append((plain(state), plain(state.public_copy(seat))))

    return kept, hook


@pytest.mark.parametrize("spy", ["spy_frames", "spy_gc"])
@pytest.mark.parametrize(("game", "config"), GAMES)
def test_a_spy_in_its_process_reaches_no_true_state_and_no_hidden_card(hostile, tmp_path, spy, game, config):
    out = tmp_path / "found.jsonl"
    truths, hook = truths_of(0)
    play_isolated(game, config, [f"{spy}:out={out}", "random"], max_steps=24, on_decision=hook)
    found = reports(out)
    assert len(found) == len(truths) > 3
    hidden_positions = 0
    for report, (truth, public) in zip(found, truths, strict=True):
        assert report["pid"] != os.getpid() and report["envs"] == 0
        states = report["states"]
        # the walk works: it finds the view's own public copy (the referee's, sent over)
        assert any(without_chance(s) == without_chance(public) for s in states)
        assert all(s != truth for s in states)
        hidden = [k for k in truth if k != "chance" and truth[k] != public[k]]
        hidden_positions += bool(hidden)
        for s in states:
            assert not hidden or any(s.get(k) != truth[k] for k in hidden), f"{spy} found {game}'s hidden {hidden}"
            assert s.get("chance") != truth["chance"]  # nor the true chance: the future draws
    assert hidden_positions > 3


@pytest.mark.parametrize("spy", ["spy_frames", "spy_gc"])
def test_the_spies_do_find_the_true_state_when_it_is_in_their_process(hostile, tmp_path, spy):
    """The control: in the referee's process the same spies reach the env and the true state."""
    out = tmp_path / "found.jsonl"
    env = make_env("seastead")
    truths, hook = truths_of(0)
    agents = [make_agent(f"{spy}:out={out}", "seastead", seed=1), make_agent("random", "seastead", seed=2)]
    play_game(env, dict(zip(env.possible_agents, agents, strict=True)), seed=7, on_decision=hook, max_steps=10)
    found = reports(out)
    assert len(found) == len(truths) > 0
    assert all(r["envs"] > 0 and r["pid"] == os.getpid() for r in found)
    assert all(truth in r["states"] for r, (truth, _) in zip(found, truths, strict=True))


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_a_config_mutator_changes_nothing_of_the_real_game(hostile, tmp_path, game, config):
    out = tmp_path / "mutated.jsonl"
    env, record, actions, _ = play_isolated(game, config, [f"config_mutator:out={out}", "random"], max_steps=300)
    mutated = reports(out)
    assert mutated and all(r["config"]["sides"] == "BBBB" and r["view"]["sides"] == "BBBB" for r in mutated)
    # the real game: its config as made, its state valid, saved and loaded, and played as by a plain staller
    fresh = make_env(game, **config)
    assert env.unwrapped.game.config == fresh.unwrapped.game.config
    assert "_mutated" not in vars(env.unwrapped.game)
    state = env.unwrapped.state_obj
    state.validate()
    assert env.unwrapped.game.state_from_json(state.to_json()).to_dict() == state.to_dict()
    _, staller, staller_actions, _ = play_isolated(game, config, ["first_legal", "random"], max_steps=300)
    assert actions == staller_actions and record.ranks == staller.ranks and record.steps == len(actions) > 0


# --- faults ------------------------------------------------------------------------------------------------------

FAULTS = [
    ("stubborn", SMALL, TIMEOUT, "within 0.5 s"),
    ("long_sleeper", SMALL, TIMEOUT, "within 0.5 s"),
    ("long_sleeper", Budget(decision_seconds=5, game_seconds=0.5), TIMEOUT, "the game's 0.5 s"),
    ("sys_exit", SMALL, CRASHED, r"tried to exit \(SystemExit: 3\)"),
    ("abort", SMALL, CRASHED, "killed by SIGABRT"),
    ("hard_exit", SMALL, CRASHED, "exited with status 5"),
    ("memory_hog", ROOMY, MEMORY, "MemoryError.*cap 512 MiB"),
    ("memory_hog:keep=1,kib=1", ROOMY, MEMORY, "MemoryError.*cap 512 MiB"),
    ("cap_lifter", ROOMY, MEMORY, "512 MiB"),  # lifting its own cap, where it may, does not help it either
    ("cpu_burner:seconds=0.6", Budget(decision_seconds=10, decision_cpu=0.2, memory_mb=512), CPU, "limit 0.2"),
    ("cpu_burner:seconds=-1", Budget(decision_seconds=10, decision_cpu=0.2, memory_mb=512), CPU, "limit 0.2"),
    ("cpu_burner:seconds=-1", Budget(decision_seconds=10, game_cpu=1, memory_mb=512), CPU, ""),
    *[(f"bad_answer:kind={kind}", SMALL, ILLEGAL, "") for kind in ("str", "bool", "float", "none", "list")],
    ("bad_answer:kind=huge_str", SMALL, ILLEGAL, r"\(str\), not an action id"),
    ("bad_answer:kind=huge_int", SMALL, ILLEGAL, "returned an int of 133 bits"),
    ("bad_answer:kind=giant_int", SMALL, ILLEGAL, r"returned an int of 16610 bits"),
    ("bad_answer:kind=negative", SMALL, ILLEGAL, "action -1 is not legal now"),
    ("flooder", Budget(decision_seconds=5, memory_mb=512), ILLEGAL, "answered more than 65536 bytes"),
]


@pytest.mark.parametrize(("spec", "budget", "reason", "detail"), FAULTS, ids=[f"{f[0]}-{f[2]}" for f in FAULTS])
def test_a_hostile_agent_forfeits_fast_with_its_reason(hostile, spec, budget, reason, detail):
    env = make_env("seastead")
    with isolated_seats(env, ["random", spec], "seastead", seeds=[1, 2], budget=budget, imports=[MODULE]) as seats:
        start = time.monotonic()
        with pytest.raises(Forfeit) as caught:
            play_game(env, seats, seed=7)
        took = time.monotonic() - start
        process = seats["player_1"].process
        assert not process.is_alive()  # killed at once, not when the block ends
    fault = caught.value.fault
    assert (fault.seat, fault.reason) == (1, reason), fault
    assert fault.decision == 1  # the seat's second decision (the agents misbehave there), counted from 0
    assert re.search(detail, fault.detail), fault.detail
    assert len(fault.detail) < 1000
    assert took < 8, f"{spec} took {took:.1f} s to forfeit"
    assert seats["player_0"].process.is_alive() is False  # the other seat's process is closed with the block


def test_an_agent_that_takes_too_long_to_be_made_forfeits_at_the_start(hostile):
    env = make_env("seastead")
    start = time.monotonic()
    budget = Budget(decision_seconds=0.5, start_seconds=0.5)
    seats = isolated_seats(env, ["random", "slow_start"], "seastead", seeds=[1, 2], budget=budget, imports=[MODULE])
    with pytest.raises(Forfeit) as caught, seats:
        pytest.fail("the seats should not be ready")
    fault = caught.value.fault
    assert (fault.seat, fault.reason, fault.decision) == (1, TIMEOUT, 0)
    assert fault.detail == "no answer to start within 0.5 s" and time.monotonic() - start < 5


def test_an_address_space_past_the_cap_is_a_memory_forfeit(hostile, monkeypatch):
    """What the referee does when an agent process lifted its own address-space cap (it needs ``CAP_SYS_RESOURCE``,
    which this test may not have: the process's size is faked); the kernel's cap binds every other process."""
    import meeplezoo.agents.isolation as isolation

    env = make_env("seastead")
    with isolated_seats(env, ["random", "long_sleeper"], "seastead", seeds=[1, 2], budget=ROOMY, imports=[MODULE]) as s:
        sleeper = s["player_1"].process.pid
        monkeypatch.setattr(isolation, "process_memory", lambda pid: 2048.0 if pid == sleeper else None)
        start = time.monotonic()
        with pytest.raises(Forfeit, match="memory limit") as caught:
            play_game(env, s, seed=7)
    assert time.monotonic() - start < 3 and caught.value.fault.seat == 1  # the sleeper, caught while it decides
    assert caught.value.fault.detail == "its address space grew to 2048 MiB, past its cap of 512 MiB"


def test_a_plugin_module_cannot_replace_the_built_in_agents_of_the_other_seats(hostile):
    """``hostile_usurper`` re-registers ``random`` and ``heuristic``; it is imported in the process of its own
    agent only: the built-in seats play as without it."""
    specs = ["heuristic", "random", "usurper"]
    _, plain, plain_actions, _ = play_isolated("seastead", {}, specs[:2])
    env = make_env("seastead")
    actions: list[int] = []
    imports = [MODULE, "hostile_usurper"]
    with isolated_seats(env, specs[:2], "seastead", seeds=[1, 2], budget=SMALL, imports=imports) as seats:
        record = play_game(env, seats, seed=7, on_decision=lambda e, n, a: actions.append(a))
    assert actions == plain_actions and record.ranks == plain.ranks
    with isolated_seats(env, specs[1:], "seastead", seeds=[1, 2], budget=SMALL, imports=imports) as seats:
        assert play_game(env, seats, seed=7).steps > 20  # its own agent is made, from its module


@pytest.mark.parametrize("spec", ["first_legal", "numpy_answer"])
def test_a_staller_and_a_numpy_integer_are_no_fault_and_the_game_plays_on(hostile, spec):
    env, record, actions, seats = play_isolated("seastead", {}, [spec, "random"])
    assert record.steps == len(actions) > 20 and (env.unwrapped.state_obj.is_terminal() or record.truncated)
    assert all(not agent.process.is_alive() for agent in seats.values())  # closed with the block


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting for a reaper does not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return False
    return fields[0] != "Z"


def gone(pid: int, seconds: float = 5) -> bool:
    """Whether process ``pid`` is dead within ``seconds`` (a SIGKILL takes a moment to land)."""
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("hang", [0, 1])
def test_a_grandchild_the_agent_forked_is_killed_with_its_group(hostile, tmp_path, hang):
    """Closed after the game (``hang=0``) or forfeited (``hang=1``: time limit), the agent's process group goes:
    a grandchild that ignores SIGTERM included."""
    out = tmp_path / "grandchild.pid"
    env = make_env("seastead")
    specs = ["random", f"forker:out={out},hang={hang}"]
    with isolated_seats(env, specs, "seastead", seeds=[1, 2], budget=SMALL, imports=[MODULE]) as seats:
        if hang:
            with pytest.raises(Forfeit, match="time limit"):
                play_game(env, seats, seed=7)
        else:
            assert play_game(env, seats, seed=7).steps > 20
            pid = int(out.read_text())
            assert alive(pid)  # the grandchild lived while its agent played, in its agent's process group
            assert os.getpgid(pid) == seats["player_1"].process.pid != os.getpgid(0)
    assert gone(int(out.read_text()))


def test_an_agent_that_kills_its_fork_server_does_not_stop_the_next_games(hostile):
    """The fork server is a process of the referee's user: an agent can kill it (as it can signal any such process).
    What then happens to the game's agent processes depends on the system (an init that kills orphans takes them,
    the other seat's too); what is guaranteed: the next game starts its agents from a new server and plays."""
    with contextlib.suppress(Forfeit):
        play_isolated("seastead", {}, ["random", "server_killer"])
    for _ in range(2):
        env, record, actions, _ = play_isolated("seastead", {}, ["random", "random"])
        assert record.steps == len(actions) > 20 and env.unwrapped.state_obj.is_terminal()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_an_agent_takes_no_cpu_while_another_seat_decides(hostile, tmp_path):
    """Between its decisions an agent's process group is stopped: a child it left burning CPU cannot slow down
    the other seats (whose wall budget would pay for it)."""
    out = tmp_path / "burner.pid"
    env = make_env("seastead")
    during: list[float] = []  # the burner's CPU seconds while the slow seat decided
    before: list[float] = []

    def hook(e, name, action):
        if not out.exists() or not out.read_text():
            return
        now = cpu_seconds(int(out.read_text()))
        if name == "player_0" and before:  # the slow seat just decided
            during.append(now - before[-1])
        before.append(now)

    specs = ["slow:seconds=0.15", f"background_burner:at=1,out={out}"]
    with isolated_seats(env, specs, "seastead", seeds=[1, 2], budget=SMALL, imports=[MODULE]) as seats:
        play_game(env, seats, seed=7, on_decision=hook, max_steps=16)
    assert len(during) >= 5
    assert sum(during) < 0.1 * len(during), during  # about 0.15 s each if the burner ran
    assert gone(int(out.read_text()))


# --- isolated play is in-process play ----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "config"), GAMES)
@pytest.mark.parametrize("lineup", [("random", "heuristic"), ("mcts:iters=20", "heuristic")])
def test_isolated_games_are_bit_for_bit_the_in_process_ones(game, config, lineup):
    env = make_env(game, **config)
    seeds = [11, 12]
    cap = 24 if any(spec.startswith("mcts") for spec in lineup) else None  # a cut game compares as well
    here: list[int] = []
    agents = {n: make_agent(s, game, seed=sd) for n, s, sd in zip(env.possible_agents, lineup, seeds, strict=True)}
    local = play_game(env, agents, seed=3, max_steps=cap, on_decision=lambda e, n, a: here.append(a))
    there: list[int] = []
    with isolated_seats(env, list(lineup), game, seeds=seeds) as seats:
        isolated = play_game(env, seats, seed=3, max_steps=cap, on_decision=lambda e, n, a: there.append(a))
    assert len(there) >= 24 and there == here
    assert (isolated.ranks, isolated.scores, isolated.truncated) == (local.ranks, local.scores, local.truncated)


# --- what an agent prints --------------------------------------------------------------------------------------------

PRINTER_GAME = textwrap.dedent(
    """
    import sys
    from meeplezoo.agents import make_agent, play_game
    from meeplezoo.agents.isolation import isolated_seats
    from meeplezoo.games import make_env
    import hostile_agents
    env = make_env("seastead")
    if sys.argv[1] == "isolated":
        with isolated_seats(env, ["printer", "random"], "seastead", seeds=[1, 2], imports=["hostile_agents"]) as s:
            record = play_game(env, s, seed=7)
    else:
        agents = [make_agent("printer", "seastead", seed=1), make_agent("random", "seastead", seed=2)]
        record = play_game(env, dict(zip(env.possible_agents, agents)), seed=7)
    print("REFEREE-DONE", record.steps)
    """
)


@pytest.mark.parametrize("mode", ["isolated", "in-process"])
def test_what_an_isolated_agent_prints_does_not_reach_the_referees_output(hostile, mode):
    from hostile_agents import Printer

    done = subprocess.run(
        [sys.executable, "-c", PRINTER_GAME, mode], capture_output=True, text=True, timeout=120, check=True
    )
    assert "REFEREE-DONE" in done.stdout
    printed = Printer.MARKER in done.stdout + done.stderr
    assert printed == (mode == "in-process")  # the control: in the referee's process the prints do show


def test_closing_an_agent_from_several_threads_at_once_closes_its_pipes_once():
    """The web server closes a session's bots while a bot's own thread may be failing its decision: exactly one
    caller closes the pipes and the others return (a second close of a descriptor number could close a file opened
    since under that number)."""
    import threading

    env = make_env("seastead")
    with isolated_seats(env, ["random", "random"], "seastead", seeds=[1, 2], budget=SMALL) as seats:
        agent = seats["player_0"]
        errors: list[BaseException] = []
        closes: list[int] = []
        close_pipes = agent._close_pipes
        agent._close_pipes = lambda: (closes.append(1), close_pipes())

        def close() -> None:
            try:
                agent.close()
            except BaseException as exc:  # any error is the failure
                errors.append(exc)

        def fail() -> None:
            try:
                agent._fail(CRASHED, "failed while the server closed it")
            except Forfeit:
                pass
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=f) for f in (close, fail, close, fail, close, fail)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == [] and closes == [1]
        assert agent._requests.closed and agent._answers.closed and not agent.process.is_alive()
