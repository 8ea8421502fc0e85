"""The results database: one row per game key, foreign files refused untouched, concurrent writers."""

from __future__ import annotations

import hashlib
import json
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


#: the schema of a version-1 database (before the isolation mode and budget of each game were stored)
V1_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, game TEXT NOT NULL, config TEXT NOT NULL,
    seed INTEGER NOT NULL, deal INTEGER NOT NULL, seats TEXT NOT NULL, agent_seeds TEXT NOT NULL,
    scores TEXT NOT NULL, ranks TEXT NOT NULL, decisions INTEGER NOT NULL, truncated INTEGER NOT NULL,
    forfeit TEXT, duration REAL NOT NULL, seat_time TEXT NOT NULL, time_limit REAL, code_version TEXT NOT NULL,
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), actions BLOB NOT NULL
);
CREATE INDEX games_by_context ON games (game, config);
INSERT INTO meta VALUES ('schema', 'meeplezoo-arena'), ('version', '1'), ('actions', 'zlib-u32le');
"""


def version_1_database(path, task) -> None:
    """A version-1 database holding one game of ``task``, made by SQL as MeepleZoo 1 made it."""
    con = sqlite3.connect(path)
    con.executescript(V1_TABLES)
    con.execute(
        "INSERT INTO games (key, game, config, seed, deal, seats, agent_seeds, scores, ranks, decisions, truncated, "
        "forfeit, duration, seat_time, time_limit, code_version, actions) "
        "VALUES (?, 'seastead', '{}', 1, 0, ?, '[1, 2]', '[3.0, 1.0]', '[0, 1]', 3, 0, NULL, 0.5, "
        "'[[0.1, 0.1, 2], [0.1, 0.1, 1]]', 30.0, 'old', ?)",
        (task.key, json.dumps(list(task.seats)), store.pack_actions([4, 5, 6])),
    )
    con.commit()
    con.close()


def test_a_version_1_database_is_read_and_upgraded_in_place_when_written(tmp_path):
    old, new = schedule(Study("seastead", ["random", "heuristic"], games=2))[:2]
    path = tmp_path / "v1.sqlite"
    version_1_database(path, old)
    before = _digest(path)
    with store.Store(path, create=False) as db:  # a reader: the v1 file as it is, the new columns unknown
        [row] = list(db.games())
        assert db.game(row.id).isolation is None
    assert (row.key, row.actions, row.scores, row.isolation, row.budget) == (old.key, [4, 5, 6], [3.0, 1.0], None, None)
    assert _digest(path) == before  # reading changed nothing
    with store.Store(path) as db:  # a writer: upgraded in place, the old game kept
        assert db.add(new, {**_result(new), "isolation": "process", "budget": {"memory_mb": 512}}, "test")
        rows = {r.key: r for r in db.games()}
    assert rows[old.key].isolation is None and rows[old.key].budget is None and rows[old.key].actions == [4, 5, 6]
    assert (rows[new.key].isolation, rows[new.key].budget) == ("process", {"memory_mb": 512})
    con = sqlite3.connect(path)
    assert dict(con.execute("SELECT key, value FROM meta"))["version"] == str(store.VERSION) == "2"
    assert {"isolation", "budget"} <= {r[1] for r in con.execute("PRAGMA table_info(games)")}
    con.close()
    with store.Store(path, create=False) as db:  # and read back as a version-2 file
        assert {r.key: r.isolation for r in db.games()} == {old.key: None, new.key: "process"}
