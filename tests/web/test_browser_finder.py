"""Finding the Chromium the real-browser test drives (meeplezoo/web/browser.py): ``MEEPLEZOO_CHROMIUM``, else
the PATH; without one the browser test skips with how to get one, except in CI (``CI=true``), which never skips."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from meeplezoo.web.browser import ENV_VAR, find_chromium

ROOT = Path(__file__).resolve().parents[2]


def fake_chromium(folder: Path, name: str = "chromium") -> Path:
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def test_the_environment_variable_wins_over_the_path(tmp_path):
    mine = fake_chromium(tmp_path, "my-chrome")
    assert find_chromium({ENV_VAR: str(mine)}, which=lambda name: f"/usr/bin/{name}") == str(mine)


def test_a_variable_naming_no_executable_is_a_one_line_error(tmp_path):
    plain = tmp_path / "chrome.txt"
    plain.write_text("not a program")
    for named in (tmp_path / "missing", plain, tmp_path):
        with pytest.raises(ValueError, match=f"^{ENV_VAR}=.* is not an executable file$"):
            find_chromium({ENV_VAR: str(named)}, which=lambda name: None)


def test_the_path_is_searched_for_chromium_then_chromium_browser_then_google_chrome():
    for present, expected in (
        ({"chromium", "chromium-browser", "google-chrome"}, "chromium"),
        ({"chromium-browser", "google-chrome"}, "chromium-browser"),
        ({"google-chrome"}, "google-chrome"),
        (set(), None),
    ):
        found = find_chromium({}, which=lambda name, present=present: f"/opt/{name}" if name in present else None)
        assert found == (f"/opt/{expected}" if expected else None)


def collect(**env: str) -> subprocess.CompletedProcess:
    """Collect (not run) tests/web/test_browser.py with an empty PATH and ``env``."""
    base = {k: v for k, v in os.environ.items() if k not in ("CI", ENV_VAR, "PATH")}
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-rs", "-p", "no:cacheprovider", "-n", "0"]
    return subprocess.run(
        [*cmd, "tests/web/test_browser.py"], cwd=ROOT, env={**base, "PATH": "", **env}, capture_output=True, text=True
    )


def test_the_browser_test_skips_saying_how_to_get_chromium_and_never_skips_in_ci(tmp_path):
    nothing = collect()
    assert "SKIPPED" in nothing.stdout and "apt-get install chromium" in nothing.stdout
    assert f"set {ENV_VAR}=" in nothing.stdout
    for env in ({"CI": "true"}, {ENV_VAR: str(fake_chromium(tmp_path))}):
        found = collect(**env)
        assert found.returncode == 0 and "SKIPPED" not in found.stdout, found.stdout + found.stderr
        assert "test_play_a_whole_seastead_game_by_clicking_then_watch_it" in found.stdout


def test_the_readme_says_how_to_get_the_browser():
    tests_section = (ROOT / "README.md").read_text(encoding="utf-8").split("## From Python")[0]
    assert "apt-get install chromium" in tests_section and ENV_VAR in tests_section
