"""Worker processes that end with the process that started them.

A ``ProcessPoolExecutor`` worker waits for its next task on the pool's queue, a pipe whose write end the worker
holds too; when the run's process is killed (SIGKILL, or SIGTERM, which skips Python's clean-up), that pipe never
reports end-of-file and the worker would wait forever, holding its engine and network in memory.
:func:`exit_with_parent` runs in each worker's initializer: a daemon thread that ends the worker as soon as its
parent is gone (POSIX reparents an orphan, so ``os.getppid()`` changes).
"""

from __future__ import annotations

import os
import threading
import time

#: seconds between two looks at the parent
INTERVAL = 0.25


def exit_with_parent(parent: int, interval: float = INTERVAL) -> threading.Thread:
    """End this process (``os._exit``: no clean-up, as a killed parent's workers need none) once its parent is not
    ``parent`` any more; returns the watching thread (daemon). Also ends it at once if the parent died before the
    call."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread
