"""Where a Chromium for the real-browser test (tests/web/test_browser.py) and the README screenshots
(scripts/web_screenshots.py) lives: ``MEEPLEZOO_CHROMIUM`` if set, else the first of ``chromium``,
``chromium-browser``, ``google-chrome`` on the PATH (Debian: ``apt-get install chromium``).

>>> find_chromium({"MEEPLEZOO_CHROMIUM": ""}, which=lambda name: None) is None
True
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

#: the environment variable naming a Chromium (or Chrome) executable
ENV_VAR = "MEEPLEZOO_CHROMIUM"
#: the executable names looked up on the PATH, in this order
NAMES = ("chromium", "chromium-browser", "google-chrome")
#: how to get one, for a skip message or an error
HOW = f"`apt-get install chromium` (Debian, Ubuntu), or set {ENV_VAR}=/path/to/chromium"


def find_chromium(
    environ: Mapping[str, str] | None = None, which: Callable[[str], str | None] = shutil.which
) -> str | None:
    """The path of the Chromium to drive, or None if there is none.

    Raises:
        ValueError: ``MEEPLEZOO_CHROMIUM`` is set but names no executable file (a one-line message).
    """
    environ = os.environ if environ is None else environ
    named = environ.get(ENV_VAR, "")
    if named:
        path = Path(named).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ValueError(f"{ENV_VAR}={named} is not an executable file")
        return str(path)
    for name in NAMES:
        found = which(name)
        if found:
            return found
    return None


__all__ = ["ENV_VAR", "HOW", "NAMES", "find_chromium"]
