"""Isolated agents: each agent in its own OS process, under a :class:`~.budget.Budget`, reachable only by messages.

:class:`IsolatedAgent` is the referee's side of one seat's agent. It looks like any agent to the game loop
(``act(view) -> int``), but the agent itself runs in a process of its own (:mod:`.isolated_child`), forked from a
clean server process (``multiprocessing``'s forkserver, started once per referee process with the game and
agent modules imported), so that nothing of the referee is in its memory. Per decision the referee sends the
seat's view in plain parts (the public copy of the position, the observation, the legal actions, the pending
decision: see :meth:`~.view.SeatView.parts`); the agent process rebuilds its own :class:`~.view.SeatView` (its
``determinize`` draws fresh chance there) and answers with one line of JSON that the referee reads with a size
limit and a deadline. The referee never unpickles anything from an agent.

Faults end the seat's game (:class:`~.faults.Forfeit`): past the decision's wall budget the process is killed
(``time limit``); past its CPU budget (``cpu limit``), a ``MemoryError`` under its address-space cap
(``memory limit``), an exception (``raised``), an answer that is not a legal action id (``illegal action``), an
exit, an abort or a kill (``crashed``). The process is killed with its whole process group in every case.

Agent processes get the environment variables the referee had when the fork server started (at its first agent
process), not later changes. The referee also makes itself non-dumpable (:func:`protect_referee`), so that a
process of the same user cannot read its memory or trace it. What isolation does not stop (an agent of the same
user can still signal other processes and read the user's files) is in ``docs/arena.md``.

>>> from meeplezoo.games import make_env
>>> from meeplezoo.agents.match import play_game
>>> env = make_env("seastead")
>>> with isolated_seats(env, ["random", "heuristic"], "seastead", seeds=[1, 2]) as seats:
...     record = play_game(env, seats, seed=5)
>>> record.steps > 0
True
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import multiprocessing as mp
import os
import pickle
import select
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import context as mp_context
from multiprocessing import popen_forkserver, spawn
from typing import Any

from ..envs.core.errors import MeepleZooError
from .budget import Budget
from .faults import CPU, CRASHED, ILLEGAL, MEMORY, RAISED, TIMEOUT, Fault, Forfeit
from .isolated_child import serve
from .view import SeatView

#: seconds between two readings of an agent process's CPU time while it decides (with a CPU budget)
CPU_POLL = 0.05
#: longest answer line the referee reads from an agent process (an action is a few bytes)
MAX_ANSWER = 64 * 1024
#: what every agent process has imported before it is forked (the server imports them once)
BASE_PRELOAD = (
    "numpy",
    "meeplezoo.agents",
    "meeplezoo.agents.isolation",
    "meeplezoo.agents.isolated_child",
    "meeplezoo.games",
)
PR_GET_DUMPABLE, PR_SET_DUMPABLE = 3, 4  # prctl(2) options

_context: Any = None


class IsolationError(MeepleZooError):
    """An agent process could not be started at all (the platform has no forkserver)."""


def agent_modules() -> list[str]:
    """The modules of every registered game and its agents: imported once by the fork server, not per process."""
    from ..games import manifests

    out: list[str] = []
    for m in manifests():
        out.append(m.env if ":" not in m.env else m.env.partition(":")[0])
        out.extend(target.partition(":")[0] for target in m.agents.values())
    return out


def preload_for(specs: Sequence[str], game: str) -> list[str]:
    """The modules worth importing in the fork server for agents of ``specs``: each of MeepleZoo's own agent
    classes' ``PRELOAD`` (a policy's torch), so that no agent process pays for them each game. Other agents add
    nothing: reading their class would run their code in the referee."""
    from .registry import agent_class, agent_target
    from .spec import parse_spec

    out: list[str] = []
    for spec in specs:
        try:
            name = parse_spec(spec)[0]
            if not agent_target(name, game).startswith("meeplezoo."):
                continue
            cls = agent_class(name, game)
        except Exception:  # an unknown or unavailable agent: its process reports the error when made
            continue
        out.extend(getattr(cls, "PRELOAD", ()))
    return list(dict.fromkeys(out))


def protect_referee() -> bool:
    """Make this process (the referee) non-dumpable on Linux (``prctl(PR_SET_DUMPABLE, 0)``): a process of the same
    user, an agent's included, can then neither read its memory through ``/proc/PID/mem`` nor ``ptrace`` it. It
    does not hold against root (an agent run by root is root too: run evaluations as an unprivileged user).
    Returns whether it took effect."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 and libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def process_context(preload: Sequence[str] = ()) -> Any:
    """The forkserver context agent processes start from; the first call fixes what the server imports
    (:data:`BASE_PRELOAD`, every registered game's modules and ``preload``, e.g. ``torch`` for policies: see
    :func:`preload_for`); later calls return the same context (a module it lacks, a process imports itself)."""
    global _context
    with _launching:
        if _context is None:
            _context = _new_context(preload)
    return _context


def _new_context(preload: Sequence[str]) -> Any:
    if "forkserver" not in mp.get_all_start_methods():
        raise IsolationError("isolated agents need the forkserver start method (Linux or macOS)")
    ctx = mp.get_context("forkserver")
    protect_referee()
    ctx.set_forkserver_preload(list(dict.fromkeys([*BASE_PRELOAD, *agent_modules(), *preload])))
    _start_server_quietly()
    return ctx


def _start_server_quietly() -> None:
    """Start the fork server with its standard output and error on ``/dev/null``. Agent processes write nothing
    there anyway (they confine themselves); a process the server forks for a referee that died meanwhile would
    otherwise print ``multiprocessing``'s traceback on the user's terminal."""
    from multiprocessing import forkserver

    null = os.open(os.devnull, os.O_RDWR)
    saved = [os.dup(fd) for fd in (1, 2)]
    try:
        for fd in (1, 2):
            os.dup2(null, fd)
        forkserver.ensure_running()
    finally:
        for fd, copy in zip((1, 2), saved, strict=True):
            os.dup2(copy, fd)
            os.close(copy)
        os.close(null)


_launching = threading.Lock()


class _Popen(popen_forkserver.Popen):
    """The forkserver's way of starting a process, without the referee's ``__main__``: the standard one has the
    new process run the referee's main script again (as ``__mp_main__``); an agent process needs none of it."""

    def _launch(self, process_obj: Any) -> None:
        original = spawn.get_preparation_data

        def without_main(name: str) -> dict[str, Any]:
            data = original(name)
            data.pop("init_main_from_path", None)
            data.pop("init_main_from_name", None)
            return data

        with _launching:
            spawn.get_preparation_data = without_main
            try:
                super()._launch(process_obj)
            finally:
                spawn.get_preparation_data = original


class _AgentProcess(mp_context.ForkServerProcess):
    @staticmethod
    def _Popen(process_obj: Any) -> _Popen:
        return _Popen(process_obj)


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system, all threads) the process ``pid`` used: its kernel CPU clock on Linux (the
    clock id ``((~pid) << 3) | 2``, exact and cheap), else ``/proc``; None where neither exists."""
    try:
        return time.clock_gettime(((~pid) << 3) | 2)
    except (OSError, OverflowError):
        pass
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_memory(pid: int) -> float | None:
    """The address space of process ``pid`` in MiB (what ``RLIMIT_AS`` caps), from ``/proc``; None without it."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            pages = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def _dump(parts: dict[str, Any]) -> bytes:
    """The view's parts pickled without the position's ``Game`` (the agent process has its own copy)."""
    public = parts["public"]
    game = getattr(public, "game", None)
    if game is None:
        return pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)
    public.game = None
    try:
        return pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        public.game = game


@dataclass
class SeatUsage:
    """What one isolated seat spent in a game: decisions, wall seconds (total, longest) and CPU seconds."""

    decisions: int = 0
    total: float = 0.0
    longest: float = 0.0
    cpu: float = 0.0


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class IsolatedAgent:
    """The referee's handle on one agent running in its own process (see the module docstring).

    Args:
        spec: the agent spec (``make_agent`` makes it in the agent process, with ``seed``).
        game: the game's registered name; ``engine_config`` the config of its engine (None for a plain
            PettingZoo env: views then carry the observation and mask only).
        seat: the seat it plays (faults name it).
        budget: the limits (:class:`~.budget.Budget`).
        imports: modules the agent process imports first (``--import mybots``: they register agents).
        decision_index: the referee's count of the game's decisions so far (faults say where they happened).
    """

    owns_its_views = True  # the referee's view is only serialised: no clone is kept for it

    def __init__(
        self,
        spec: str,
        game: str,
        *,
        seed: int | None,
        seat: int,
        engine_config: dict[str, Any] | None,
        budget: Budget | None = None,
        imports: Sequence[str] = (),
        decision_index: Callable[[], int] | None = None,
        preload: Sequence[str] = (),
    ) -> None:
        self.spec = spec
        self.seat = seat
        self.budget = budget or Budget()
        self.usage = SeatUsage()
        self.name = spec
        self.uses_determinize = True
        self._decision_index = decision_index or (lambda: self._seat_decision)
        self._seat_decision = 0  # this seat's count of decisions before the one being made (faults name it)
        self._buffer = b""
        ctx = process_context(preload)
        child_requests, self._requests = ctx.Pipe(duplex=False)  # the referee writes, the agent reads
        self._answers, child_answers = ctx.Pipe(duplex=False)  # the agent writes, the referee reads
        limits = (self.budget.memory_mb, self.budget.game_cpu)
        args = (child_requests, child_answers, spec, game, engine_config, seed, tuple(imports), limits)
        self.process = _AgentProcess(target=serve, args=args, daemon=True, name=f"agent-seat{seat}")
        self.process.start()
        child_requests.close()
        child_answers.close()
        self._closed = False
        self._closing = threading.Lock()  # close() (the server's thread) may race a failing act() (a bot's thread)
        self._finalizer = weakref.finalize(self, _kill, self.process)
        self._start()

    # --- lifecycle -------------------------------------------------------------------------------------------
    def _start(self) -> None:
        started = time.monotonic()
        message = self._receive(started + self.budget.start_seconds, "to start")
        if "ready" not in message:
            self._fail(RAISED, f"could not be made: {message.get('error', message)}")
        self.uses_determinize = bool(message.get("uses_determinize", True))
        self._signal_group(signal.SIGSTOP)  # until its first decision

    def _signal_group(self, number: int) -> None:
        """Send signal ``number`` to the agent's process group: it is stopped (``SIGSTOP``) from its answer to the
        next request (``SIGCONT``), so that nothing it started takes CPU from the other seats while they decide."""
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, number)

    def close(self) -> None:
        """Tell the agent process to stop, then make sure it has (kills it and its group after a moment)."""
        if not self._mark_closed():
            return
        self._signal_group(signal.SIGCONT)  # stopped between decisions: it must run to read the stop
        with contextlib.suppress(OSError, ValueError):
            self._requests.send_bytes(b"")
        self.process.join(timeout=0.5)
        _kill(self.process)
        self._close_pipes()

    def _mark_closed(self) -> bool:
        """Mark the agent closed; True for the one caller that did (it closes the pipes, once: a second close of a
        descriptor number could close a file opened since under the same number)."""
        with self._closing:
            first, self._closed = not self._closed, True
        return first

    def _close_pipes(self) -> None:
        with contextlib.suppress(OSError):
            self._requests.close()
        with contextlib.suppress(OSError):
            self._answers.close()
        self._finalizer.detach()

    def __enter__(self) -> IsolatedAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- one decision ----------------------------------------------------------------------------------------
    def act(self, view: SeatView) -> int:
        """Send ``view`` (the referee's view of this seat) to the agent process and return its legal answer; a
        fault kills the process and raises :class:`~.faults.Forfeit`."""
        if self._closed:
            raise RuntimeError(f"the agent process of seat {self.seat} is closed")
        data = _dump(view.parts())
        budget, usage = self.budget, self.usage
        self._seat_decision = usage.decisions
        walls = [] if budget.decision_seconds is None else [budget.decision_seconds]
        if budget.game_seconds is not None:
            walls.append(budget.game_seconds - usage.total)
        cpu_before = process_cpu(self.process.pid)
        start = time.monotonic()
        self._signal_group(signal.SIGCONT)
        try:
            self._requests.send_bytes(data)
        except OSError:
            self._died("before the decision")
        watched = (budget.decision_cpu, budget.game_cpu, budget.memory_mb)
        watch = None if watched == (None, None, None) else lambda: self._watch(cpu_before)
        message = self._receive(start + max(min(walls), 0.0) if walls else None, "to decide", watch)
        spent = time.monotonic() - start
        self._signal_group(signal.SIGSTOP)
        usage.decisions += 1
        usage.total += spent
        usage.longest = max(usage.longest, spent)
        self._check_cpu(cpu_before)
        if "error" in message:
            self._raised(message)
        if "action" not in message or not isinstance(message["action"], int) or isinstance(message["action"], bool):
            what = message.get("bad", repr(message))
            self._fail(ILLEGAL, f"returned {what} ({message.get('type', 'no action')}), not an action id")
        action = message["action"]
        if action not in view.legal_actions:
            self._fail(ILLEGAL, f"action {action} is not legal now")
        return action

    def _watch(self, cpu_before: float | None) -> None:
        """The budget's checks while the agent decides: its CPU time, and its address space (the kernel's cap
        binds it, unless the process may lift its own cap: root or ``CAP_SYS_RESOURCE``)."""
        self._check_cpu(cpu_before)
        cap = self.budget.memory_mb
        size = None if cap is None else process_memory(self.process.pid)
        if size is not None and size > cap:
            self._fail(MEMORY, f"its address space grew to {size:.0f} MiB, past its cap of {cap} MiB")

    def _check_cpu(self, before: float | None) -> None:
        after = process_cpu(self.process.pid)
        if after is None or before is None:
            return
        used = after - before
        self.usage.cpu = after
        budget = self.budget
        if budget.decision_cpu is not None and used > budget.decision_cpu:
            self._fail(CPU, f"decision used {used:.2f} CPU s, limit {budget.decision_cpu:g}")
        if budget.game_cpu is not None and after > budget.game_cpu:
            self._fail(CPU, f"the game's decisions used {after:.2f} CPU s, limit {budget.game_cpu:g}")

    def _raised(self, message: dict[str, Any]) -> None:
        detail = str(message.get("error", ""))
        if message.get("memory"):
            self._fail(MEMORY, f"{detail} (cap {self.budget.memory_mb} MiB)")
        if message.get("kind") in ("SystemExit", "KeyboardInterrupt"):
            self._fail(CRASHED, f"tried to exit ({detail})")
        self._fail(RAISED, detail)

    # --- reading answers -------------------------------------------------------------------------------------
    def _receive(self, deadline: float | None, what: str, watch: Callable[[], None] | None = None) -> dict[str, Any]:
        """The next answer line as a dict; a fault when none comes by ``deadline``, the process dies, or the line
        is not a JSON object of at most :data:`MAX_ANSWER` bytes. ``watch`` (the budget's checks) is called
        every :data:`CPU_POLL` seconds while waiting: a process that computes forever overruns its CPU budget
        there, not only at its wall deadline."""
        fd = self._answers.fileno()
        while b"\n" not in self._buffer:
            remaining = None if deadline is None else deadline - time.monotonic()
            wait = remaining if watch is None else min(CPU_POLL, CPU_POLL if remaining is None else remaining)
            if wait is None:
                ready = select.select([fd], [], [])[0]
            else:
                ready = select.select([fd], [], [], wait)[0] if wait > 0 else []
            if not ready:
                if watch is not None:
                    watch()
                if deadline is None or time.monotonic() < deadline:
                    continue
                self._fail(TIMEOUT, f"no answer {what} within {self._limit_text(what)}")
            try:
                chunk = os.read(fd, MAX_ANSWER)
            except OSError:
                chunk = b""
            if not chunk:
                self._died(what)
            self._buffer += chunk
            if len(self._buffer) > MAX_ANSWER:
                self._fail(ILLEGAL, f"answered more than {MAX_ANSWER} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            message = None
        if not isinstance(message, dict):
            self._fail(ILLEGAL, f"answered {line[:80]!r}, not a JSON object")
        return message

    def _limit_text(self, what: str) -> str:
        if what == "to start":
            return f"{self.budget.start_seconds:g} s"
        left = None if self.budget.game_seconds is None else self.budget.game_seconds - self.usage.total
        if left is not None and (self.budget.decision_seconds is None or left < self.budget.decision_seconds):
            return f"the game's {self.budget.game_seconds:g} s"
        return f"{self.budget.decision_seconds:g} s"

    def _died(self, what: str) -> None:
        self.process.join(timeout=2)
        code = self.process.exitcode
        if code is None:
            self._fail(CRASHED, f"closed its answers {what}")
        if code < 0:
            name = _signal_name(-code)
            if name == "SIGXCPU":
                self._fail(CPU, f"killed by the kernel's CPU cap ({self.budget.game_cpu:g} s a game)")
            self._fail(CRASHED, f"killed by {name} {what}")
        self._fail(CRASHED, f"exited with status {code} {what}")

    def _fail(self, reason: str, detail: str) -> None:
        first = self._mark_closed()
        _kill(self.process)
        if first:
            self._close_pipes()
        raise Forfeit(Fault(self.seat, reason, detail, self._decision_index()))

    def __repr__(self) -> str:
        return f"IsolatedAgent({self.spec!r}, seat {self.seat}, pid {self.process.pid})"


def _kill(process: Any) -> None:
    """Kill an agent process and its process group (whatever it started), then reap it."""
    pid = process.pid
    if pid is None:
        return
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)  # the process is its group's leader (it called setsid)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        process.kill()
    with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
        process.join(timeout=5)


@contextlib.contextmanager
def isolated_seats(
    env: Any,
    specs: Sequence[str],
    game: str,
    *,
    seeds: Sequence[int | None],
    budget: Budget | None = None,
    imports: Sequence[str] = (),
    decision_index: Callable[[], int] | None = None,
    preload: Sequence[str] | None = None,
    in_process: Sequence[str] = (),
) -> Iterator[dict[str, Any]]:
    """One :class:`IsolatedAgent` per seat of ``env`` (AEC name -> agent), closed on leaving the block; a seat
    whose agent is named in ``in_process`` (the terminal ``human``) gets its agent made here instead. An agent that
    cannot be made raises its :class:`~.faults.Forfeit` here (the others are closed). ``preload``: what the fork
    server imports if this starts it (default :func:`preload_for` the ``specs``)."""
    from .registry import make_agent

    state_game = getattr(getattr(env.unwrapped, "game", None), "config", None)
    config = dict(state_game) if state_game is not None else None
    seats: dict[str, Any] = {}
    try:
        for seat, (name, spec, seed) in enumerate(zip(env.possible_agents, specs, seeds, strict=True)):
            if spec.partition(":")[0].strip() in in_process:
                seats[name] = make_agent(spec, game, seed=seed)
                continue
            seats[name] = IsolatedAgent(
                spec,
                game,
                seed=seed,
                seat=seat,
                engine_config=config,
                budget=budget,
                imports=imports,
                decision_index=decision_index,
                preload=preload_for(specs, game) if preload is None else preload,
            )
        yield seats
    finally:
        for agent in seats.values():
            if isinstance(agent, IsolatedAgent):
                agent.close()


__all__ = [
    "BASE_PRELOAD",
    "MAX_ANSWER",
    "IsolatedAgent",
    "IsolationError",
    "SeatUsage",
    "isolated_seats",
    "preload_for",
    "process_context",
    "process_cpu",
    "process_memory",
    "protect_referee",
]
