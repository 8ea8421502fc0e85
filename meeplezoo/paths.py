"""Output paths a person names on the command line, checked before any work starts.

A run that fails only when it writes its result (a report folder under a file, a JSON file in a missing
folder, a database in a read-only folder) has wasted the work and ends in a traceback; the commands ask
:func:`output_problem` first and stop with one line. The check creates and changes nothing: it writes a
temporary file in the folder that would receive the output and removes it at once (the only test that
holds for every user, root included, and on read-only mounts).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def output_problem(path: str | Path, *, folder: bool) -> str | None:
    """Why ``path`` cannot be written, or None if it can.

    Args:
        path: the output: a folder (``folder=True``: created with its missing parents, as ``mkdir -p``)
            or a file (its folder must exist).
    """
    path = Path(path)
    home = path if folder else path.parent
    if path.exists():
        if folder != path.is_dir():
            return "is a folder, not a file" if path.is_dir() else "is a file, not a folder"
        if not folder:
            try:  # opened for writing without truncating: the file is not changed
                os.close(os.open(path, os.O_WRONLY))
            except OSError as exc:
                return f"cannot be written ({exc.strerror or exc})"
    else:
        while not home.exists() and home != home.parent:
            if not folder:
                return f"its folder {home} does not exist"
            home = home.parent
        if not home.is_dir():
            return f"{home} is a file, not a folder"
    try:
        with tempfile.TemporaryFile(dir=home, prefix=".meeplezoo-"):
            pass
    except OSError as exc:
        return f"cannot write in {home} ({exc.strerror or exc})"
    return None
