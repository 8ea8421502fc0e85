"""Reading an arena database from the outside while a run writes it (test-only)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def count_games(path: str | Path) -> int:
    """Games stored so far, read without writing (0 before the run has made its table)."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            return con.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0  # not created yet
