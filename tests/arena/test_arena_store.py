"""The results database: one row per game key, foreign files refused untouched, concurrent writers."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from meeplezoo.arena import StoreError, store
from meeplezoo.arena.schedule import Study, schedule


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _result(task, score: float = 1.0) -> dict:
    return {
        "scores": [score, 0.0],
        "ranks": [0, 1],
        "decisions": 3,
        "truncated": False,
        "forfeit": None,
        "duration": 0.01,
        "seat_time": [[0.0, 0.0, 1], [0.0, 0.0, 2]],
        "actions": [0, 70000, 5],
    }


def test_a_game_is_stored_once_under_its_key_with_its_actions(tmp_path):
    task = schedule(Study("seastead", ["random", "heuristic"], games=2))[0]
    with store.Store(tmp_path / "r.sqlite") as db:
        assert db.add(task, _result(task), "test")
        assert not db.add(task, _result(task, score=9.0), "test")  # the first result stays
        [row] = list(db.games())
    assert row.key == task.key and row.seats == list(task.seats) and row.scores == [1.0, 0.0]
    assert row.actions == [0, 70000, 5]
    assert row.config == task.config and row.seed == task.seed and row.code_version == "test"


def test_another_sqlite_schema_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE people (name TEXT)")
    con.execute("INSERT INTO people VALUES ('ada')")
    con.commit()
    con.close()
    before = _digest(path)
    with pytest.raises(StoreError, match="not a MeepleZoo arena database"):
        store.Store(path)
    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]  # no -wal or -shm left either


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("these are my notes, not a database\n" * 20)
    before = _digest(path)
    with pytest.raises(StoreError, match="not a MeepleZoo arena database"):
        store.Store(path)
    assert _digest(path) == before


def test_another_schema_version_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    store.Store(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = '99' WHERE key = 'version'")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="schema version 99"):
        store.Store(path)


WRITER = textwrap.dedent(
    """
    import sys
    from meeplezoo.arena import store
    from meeplezoo.arena.schedule import Study, schedule
    tasks = schedule(Study("seastead", ["random", "heuristic"], games=int(sys.argv[2])))
    if sys.argv[3] == "reverse":
        tasks.reverse()
    db = store.Store(sys.argv[1])
    added = 0
    for t in tasks:
        added += db.add(t, {"scores": [1.0, 2.0], "ranks": [1, 0], "decisions": 2, "truncated": False,
                            "forfeit": None, "duration": 0.0, "seat_time": [[0, 0, 1], [0, 0, 1]], "actions": [1, 2]},
                        sys.argv[3])
    print(added)
    """
)


def test_two_writers_on_one_database_store_every_game_once(tmp_path):
    path = tmp_path / "r.sqlite"
    n = 300
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(n), order], stdout=subprocess.PIPE, text=True)
        for order in ("forward", "reverse")
    ]
    added = [int(p.communicate(timeout=120)[0]) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sum(added) == n  # each game stored by exactly one of them
    with store.Store(path) as db:
        assert db.count() == n
        assert len(db.keys()) == n
        assert db.con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
