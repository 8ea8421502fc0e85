"""A killed run takes its worker processes with it: the expert-iteration pool's workers (idle, waiting for the
next game) and the value fitter's (busy playing) end within seconds of their parent's SIGKILL or SIGTERM, instead
of waiting forever on the pool's queue."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from meeplezoo.training.parent_watch import exit_with_parent

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")

#: an az run's pool: two workers play two value games, then wait for more while the run sleeps
AZ_POOL = """
    from meeplezoo.games import manifest
    from meeplezoo.training.az_games import GamePool
    from meeplezoo.training.az_train import settings

    engine_game = manifest("seastead").engine_class()(num_players=2)
    pool = GamePool("seastead", engine_game, settings({"value_agents": ["random"]}), workers=2)
    assert len(list(pool.play(None, [("value", 0), ("value", 1)]))) == 2
"""

#: the value fitter's pool: two workers busy with 10,000 tasks of Concordia games (a minute's work)
VALUE_FIT = """
    import threading
    from meeplezoo.training import value_fit

    value_fit.CHUNK = 2
    threading.Thread(target=value_fit.collect, args=("concordia", "valued", {"num_players": 2}, 20000, 0, 2)).start()
"""


def _state(pid: int) -> str | None:
    """A process's state letter (``R``, ``S``, ``Z``...), None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None


def _children(pid: int) -> list[int]:
    """The pool's workers of process ``pid``: its children but ``multiprocessing``'s resource tracker."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == pid and b"resource_tracker" not in command:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    return _state(pid) not in (None, "Z")  # a zombie has ended: only its exit status waits to be read


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("script", "sig"),
    [(AZ_POOL, signal.SIGKILL), (AZ_POOL, signal.SIGTERM), (VALUE_FIT, signal.SIGKILL)],
    ids=["az-pool-sigkill", "az-pool-sigterm", "value-fit-sigkill"],
)
def test_the_workers_of_a_killed_run_end(script, sig):
    code = textwrap.dedent(script) + "\nprint('ready', flush=True)\nimport time\ntime.sleep(600)\n"
    run = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    workers: list[int] = []
    try:
        assert run.stdout is not None and run.stdout.readline() == "ready\n"
        assert _wait_for(lambda: len(_children(run.pid)) == 2, 60.0)
        workers = _children(run.pid)
        time.sleep(1.0)  # the workers are started and waiting (az) or playing (value fit)
        assert all(_alive(w) for w in workers)
        os.kill(run.pid, sig)
        run.wait(10)
        assert _wait_for(lambda: not any(_alive(w) for w in workers), 10.0), [_state(w) for w in workers]
    finally:
        for pid in [run.pid, *workers]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_watch_ends_a_process_whose_parent_is_already_gone():
    """The parent died before the watch began: the process ends at once (``os._exit(1)``)."""
    gone = os.getpid() + 10**7  # not this process's parent: as if the parent had died before the call
    code = f"from meeplezoo.training.parent_watch import exit_with_parent as e\ne({gone})\nimport time\ntime.sleep(30)"
    began = time.monotonic()
    assert subprocess.run([sys.executable, "-c", code], timeout=30).returncode == 1
    assert time.monotonic() - began < 20


def test_the_watch_leaves_a_process_whose_parent_lives():
    thread = exit_with_parent(os.getppid(), interval=0.01)
    time.sleep(0.1)
    assert thread.daemon and thread.is_alive()  # still watching: this process is here to assert it
