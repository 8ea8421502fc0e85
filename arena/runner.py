"""Running a schedule: in this process, on local worker processes, or as Ray tasks; results stored as they come.

Whatever the backend, this process is the only one of the run that writes the database: a game is stored
the moment its result arrives, so a run killed at any point has lost only the games being played. Run the
same command again and it plays only the games whose keys are not stored yet.

Local workers are processes started with ``spawn``, one game at a time each. A worker that dies (crash,
out of memory, killed) loses only the game it was playing: that game goes back in the queue (at most
:data:`MAX_ATTEMPTS` times) and a fresh worker takes its place. On Ray, tasks run on the cluster named by
``address`` (a local instance when none is given), and Ray reruns a task whose worker died.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import subprocess
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from .. import __version__
from .errors import ArenaError
from .play import play_task
from .schedule import Task
from .store import Store

MAX_ATTEMPTS = 3
BACKENDS = ("local", "ray")


@dataclass
class RunSummary:
    """What a run did."""

    scheduled: int
    already: int  # stored before this run started (or by a concurrent run)
    played: int = 0  # stored by this run
    failed: list[str] = field(default_factory=list)  # "key: why" for games that could not be played
    forfeits: list[dict[str, Any]] = field(default_factory=list)  # the faults of this run's stored games
    seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def code_version() -> str:
    """The package version, plus the git commit of the source checkout when there is one."""
    root = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True, timeout=5
        )
        commit = out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{__version__}+g{commit}" if commit else __version__


def safe_play(task: Task) -> tuple[str, dict[str, Any] | str]:
    """``("ok", result)`` or ``("error", traceback text)``: an unexpected error fails that game, not the run."""
    try:
        return "ok", play_task(task)
    except Exception:
        return "error", traceback.format_exc(limit=6)


#: called after each game: its result, or None when a concurrent run had stored it
OnResult = Callable[[Task, dict[str, Any] | None], None]
Finish = Callable[[Task, str, Any], None]


def run(
    tasks: Sequence[Task],
    store: Store,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    on_result: OnResult | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> RunSummary:
    """Play every task of ``tasks`` not stored yet and store each result as it arrives.

    Args:
        workers: local worker processes (default: all cores; 1 plays in this process). On Ray: tasks in
            flight at once (default: the cluster's CPUs).
        backend: ``"local"`` or ``"ray"``.
        address: Ray cluster address (``ray.init(address=...)``); None starts a local instance.
        on_result: called after each game is stored (progress bars).
        on_start: called with (games to play, games already stored) before the first game.
    """
    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise ArenaError(f"--workers must be at least 1, not {workers}")
    done = store.keys()
    todo = list({t.key: t for t in tasks if t.key not in done}.values())
    summary = RunSummary(scheduled=len(tasks), already=len(tasks) - len(todo))
    if on_start is not None:
        on_start(len(todo), summary.already)
    version = code_version()
    start = time.perf_counter()

    def finish(task: Task, status: str, payload: Any) -> None:
        if status != "ok":
            summary.failed.append(f"{task.key}: {payload}")
            return
        if store.add(task, payload, version):
            summary.played += 1
            if payload.get("forfeit"):
                summary.forfeits.append({**payload["forfeit"], "spec": task.seats[payload["forfeit"]["seat"]]})
        else:
            summary.already += 1  # a concurrent run stored it first
        if on_result is not None:
            on_result(task, payload)

    def taken(task: Task) -> bool:
        """Whether a concurrent run stored ``task`` since this run started (then it is not played again)."""
        if not store.has(task.key):
            return False
        summary.already += 1
        if on_result is not None:
            on_result(task, None)
        return True

    if not todo:
        pass
    elif backend == "ray":
        _run_ray(todo, finish, taken, workers, address)
    elif (workers or os.cpu_count() or 1) == 1:
        for task in todo:
            if not taken(task):
                finish(task, *safe_play(task))
    else:
        _run_local(todo, finish, taken, workers or os.cpu_count() or 1)
    summary.seconds = time.perf_counter() - start
    return summary


# --- local worker processes ------------------------------------------------------------------------------------


def _worker_main(conn: Connection) -> None:
    """A worker: receive a task, send back its result, until told to stop or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        result = safe_play(task)
        try:
            conn.send(result)
        except OSError:  # the parent is gone (killed, or stopped without waiting): so is this worker
            return


class _Worker:
    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        # not a daemon: a daemon may not start processes, and each agent of a game runs in a process of its own
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=False)
        self.proc.start()
        child.close()
        self.task: Task | None = None

    def give(self, task: Task) -> None:
        self.task = task
        self.conn.send(task)

    def stop(self, now: bool = False) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.proc.join(timeout=0 if now else 5)
        if self.proc.is_alive():
            self.proc.kill()
        self.conn.close()


def _pop(queue: deque[Task], taken: Callable[[Task], bool]) -> Task | None:
    """The next task of ``queue`` that no concurrent run has stored yet."""
    while queue:
        task = queue.popleft()
        if not taken(task):
            return task
    return None


def _run_local(todo: list[Task], finish: Finish, taken: Callable[[Task], bool], workers: int) -> None:
    ctx = mp.get_context("spawn")
    queue = deque(todo)
    attempts: dict[str, int] = {}
    pool = [_Worker(ctx) for _ in range(min(workers, len(todo)))]
    finished = False
    try:
        for w in pool:
            task = _pop(queue, taken)
            if task is not None:
                w.give(task)
        while any(w.task is not None for w in pool):
            busy = [w for w in pool if w.task is not None]
            ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy]))
            for i, w in enumerate(pool):
                if w.task is None or (w.conn not in ready and w.proc.sentinel not in ready):
                    continue
                task, outcome = w.task, None
                try:
                    if w.conn.poll():
                        outcome = w.conn.recv()
                except (EOFError, OSError):
                    w.proc.join(timeout=5)  # the pipe closed: the worker is exiting
                if outcome is None:
                    if w.proc.is_alive():
                        continue
                    # the worker died while playing: its game goes back in the queue, a fresh worker comes
                    attempts[task.key] = attempts.get(task.key, 0) + 1
                    if attempts[task.key] < MAX_ATTEMPTS:
                        queue.appendleft(task)
                    else:
                        why = f"its worker died {MAX_ATTEMPTS} times (last exit code {w.proc.exitcode})"
                        finish(task, "error", why)
                    w.conn.close()
                    pool[i] = w = _Worker(ctx)
                else:
                    finish(task, *outcome)
                w.task = None
                task = _pop(queue, taken)
                if task is not None:
                    w.give(task)
        finished = True
    finally:
        for w in pool:
            w.stop(now=not finished)  # interrupted: the games being played are dropped, not waited for


# --- Ray -------------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _ray_session(address: str | None) -> Iterator[Any]:
    try:
        import ray
    except ImportError as exc:
        raise ArenaError("--backend ray needs Ray: pip install 'meeplezoo[ray]'") from exc
    started = not ray.is_initialized()
    if started:
        kwargs: dict[str, Any] = {"address": address} if address else {"include_dashboard": False}
        ray.init(log_to_driver=False, **kwargs)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _run_ray(todo: list[Task], finish: Finish, taken: Callable[[Task], bool], workers: int | None, address: str | None):
    with _ray_session(address) as ray:
        remote = ray.remote(num_cpus=1, max_retries=MAX_ATTEMPTS)(safe_play)
        limit = workers or max(1, int(ray.cluster_resources().get("CPU", 1))) * 2
        queue = deque(todo)
        flight: dict[Any, Task] = {}
        while queue or flight:
            while len(flight) < limit and (task := _pop(queue, taken)) is not None:
                flight[remote.remote(task)] = task
            if not flight:
                break
            ready, _ = ray.wait(list(flight), num_returns=1)
            for ref in ready:
                task = flight.pop(ref)
                try:
                    outcome = ray.get(ref)
                except Exception as exc:  # the task failed for good (its worker died MAX_ATTEMPTS times)
                    outcome = ("error", f"{type(exc).__name__}: {exc}")
                finish(task, *outcome)
