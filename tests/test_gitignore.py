"""What the README's commands write in a clone (``--db FILE``, ``--out FOLDER``, ``serve``'s default
database, SQLite's WAL files beside each database) is ignored by git, so a first hour leaves ``git status``
clean."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from meeplezoo.web.command import add_serve_parser

ROOT = Path(__file__).resolve().parents[1]

if shutil.which("git") is None or not (ROOT / ".git").exists():
    pytest.skip("not a git checkout", allow_module_level=True)


def written_by_the_readme() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = set(re.findall(r"--(?:db|out) ([\w./-]+)", text))
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers())
    found.add(parser.parse_args(["serve"]).db)
    return found


def test_every_file_the_readmes_commands_write_is_ignored():
    outputs = written_by_the_readme()
    assert {"baselines.sqlite", "report/", "meeplezoo_web.sqlite", "runs/s1"} <= outputs
    paths = []
    for out in sorted(outputs):
        if out.endswith(".sqlite"):
            paths += [out, out + "-wal", out + "-shm"]
        else:
            paths.append(out.rstrip("/") + "/index.md")
    run = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True)
    assert sorted(run.stdout.split()) == sorted(paths), f"not ignored: {sorted(set(paths) - set(run.stdout.split()))}"
