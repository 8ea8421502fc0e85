"""The results database: embedded SQLite, one row per finished game, written as games finish.

The database runs in WAL mode with a busy timeout, and every write is one ``BEGIN IMMEDIATE`` transaction,
so several runs may write the same file at once. A game is stored under its schedule key (unique): a game
already stored is never stored again, which is how a restarted run resumes. The ``meta`` table names the
schema and its version; a file that is not an arena database of this version (its tables and their columns
included) is refused with a one-line error before anything is written (it is opened read-only to check).

Readers that only read (``Store(path, create=False)``: reports, replays) open the file read-only: they work
on a read-only or immutable file and never change it. When no ``-wal`` or ``-journal`` file lies next to the
database (no writer has it open), it is opened ``immutable``, so not even SQLite's ``-wal``/``-shm`` files
are created beside it; else in ``mode=ro`` through the writer's files.

Actions are stored compactly: little-endian uint32 action ids, zlib-compressed.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..paths import output_problem
from .errors import StoreError

SCHEMA = "meeplezoo-arena"
VERSION = 2
#: versions this MeepleZoo reads; a writer upgrades an older one in place (:data:`_UPGRADES`)
READS = (1, 2)
ACTIONS_FORMAT = "zlib-u32le"
BUSY_TIMEOUT_MS = 60_000

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    seats TEXT NOT NULL,
    agent_seeds TEXT NOT NULL,
    scores TEXT NOT NULL,
    ranks TEXT NOT NULL,
    decisions INTEGER NOT NULL,
    truncated INTEGER NOT NULL,
    forfeit TEXT,
    duration REAL NOT NULL,
    seat_time TEXT NOT NULL,
    time_limit REAL,
    code_version TEXT NOT NULL,
    finished_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    actions BLOB NOT NULL,
    isolation TEXT,
    budget TEXT
);
CREATE INDEX IF NOT EXISTS games_by_context ON games (game, config);
"""
_COLUMNS = (
    "key, game, config, seed, deal, seats, agent_seeds, scores, ranks, decisions, truncated, forfeit, "
    "duration, seat_time, time_limit, code_version, actions, isolation, budget"
)
#: version 1 -> 2: the agents' isolation mode and budget of each game (NULL for games stored before: unknown)
_UPGRADES = ("ALTER TABLE games ADD COLUMN isolation TEXT", "ALTER TABLE games ADD COLUMN budget TEXT")
#: the columns a version-1 database lacks, read as NULL from one opened read-only
_V2_ONLY = ("isolation", "budget")


@dataclass(frozen=True, slots=True)
class GameRow:
    """One stored game."""

    id: int
    key: str
    game: str
    config: dict[str, Any]
    seed: int
    deal: int
    seats: list[str]  # agent spec per seat
    agent_seeds: list[int]
    scores: list[float]
    ranks: list[int]
    decisions: int
    truncated: bool
    forfeit: dict[str, Any] | None
    duration: float
    seat_time: list[list[float]]  # per seat: total and longest decision time (s), decisions[, CPU s]
    time_limit: float | None
    code_version: str
    finished_at: str
    actions: list[int]
    isolation: str | None = None  # "process", "none", or None (stored before MeepleZoo recorded it)
    budget: dict[str, Any] | None = None  # the budget the agents ran under

    @property
    def context(self) -> str:
        """The game and its config: ratings are computed per context."""
        return context_name(self.game, self.config)


def context_name(game: str, config: dict[str, Any]) -> str:
    return f"{game} " + json.dumps(config, sort_keys=True, separators=(",", ":"))


def pack_actions(actions: Iterable[int]) -> bytes:
    return zlib.compress(np.asarray(list(actions), dtype="<u4").tobytes(), 6)


def unpack_actions(blob: bytes) -> list[int]:
    return np.frombuffer(zlib.decompress(blob), dtype="<u4").tolist()


def _read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to ``path`` that writes and creates nothing (see the module docstring)."""
    live = any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-journal"))
    query = "mode=ro" if live else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)


def _columns(con: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in con.execute(f"PRAGMA table_info({table})")}


#: the columns a table must have (a table of another shape is another schema)
_REQUIRED = {"meta": {"key", "value"}, "games": {"id", "finished_at", *_COLUMNS.split(", ")} - set(_V2_ONLY)}


def check(path: str | Path, *, write: bool = False) -> bool:
    """Raise :class:`StoreError` unless ``path`` is absent, empty or an arena database of this version.

    Opens the file read-only: nothing is written. Returns whether the database exists with its tables.
    With ``write``, also raise unless the database can be created or written there (a missing folder, a
    path under a file, a read-only file or folder), checked without creating anything.
    """
    path = Path(path)
    if write:
        _check_writable(path)
    if not path.exists():
        return False
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a results database")
    if path.stat().st_size == 0:
        return False
    try:
        con = _read_only(path)
        try:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                return False
            shapes = {t: _columns(con, t) for t in _REQUIRED}  # a missing table has no columns
            meta = dict(con.execute("SELECT key, value FROM meta")) if shapes["meta"] >= _REQUIRED["meta"] else {}
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is not a MeepleZoo arena database ({exc})") from exc
    if meta.get("schema") != SCHEMA or any(not shapes[t] >= cols for t, cols in _REQUIRED.items()):
        raise StoreError(f"{path} is not a MeepleZoo arena database (an SQLite file of another schema)")
    if meta.get("version") not in {str(v) for v in READS}:
        raise StoreError(
            f"{path} is an arena database of schema version {meta.get('version')}, this MeepleZoo reads versions "
            f"{', '.join(map(str, READS))}; use another --db file"
        )
    return True


def _check_writable(path: Path) -> None:
    """Raise :class:`StoreError` unless a database at ``path`` can be created or written (nothing is left):
    SQLite also writes its ``-wal`` and ``-shm`` files beside it, so its folder must take new files."""
    why = output_problem(path, folder=False)
    if why:
        raise StoreError(f"cannot store games in {path}: {why}")


class Store:
    """An open results database. ``Store(path)`` checks the file, then creates the tables if needed;
    ``Store(path, create=False)`` opens an existing one read-only."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        exists = check(self.path, write=create)
        if not exists and not create:
            raise StoreError(f"{self.path}: no such results database")
        try:
            if not create:  # a reader: read-only, nothing written or created (see the module docstring)
                self.con = _read_only(self.path)
                self.con.isolation_level = None
                self._columns = self._read_columns()
                return
            self.con = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            self.con.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self.con.execute("PRAGMA journal_mode=WAL")
            with self._transaction():
                for statement in filter(str.strip, _TABLES.split(";")):
                    self.con.execute(statement)
                self.con.executemany(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                    [("schema", SCHEMA), ("version", str(VERSION)), ("actions", ACTIONS_FORMAT)],
                )
                if not set(_V2_ONLY) <= _columns(self.con, "games"):  # a version-1 file: upgraded in place
                    for statement in _UPGRADES:
                        self.con.execute(statement)
                self.con.execute("UPDATE meta SET value = ? WHERE key = 'version'", (str(VERSION),))
            self.con.execute("PRAGMA synchronous=NORMAL")
            self._columns = _COLUMNS
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the results database {self.path}: {exc}") from None

    def _read_columns(self) -> str:
        """The columns to select: a version-1 file opened read-only gives NULL for the columns it lacks."""
        have = _columns(self.con, "games")
        return ", ".join(c if c in have else f"NULL AS {c}" for c in _COLUMNS.split(", "))

    def _transaction(self) -> _Tx:
        return _Tx(self.con)

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing --------------------------------------------------------------------------------------------
    def add(self, task: Any, result: dict[str, Any], code_version: str) -> bool:
        """Store a finished game; False if a game with that key is already stored (nothing changes then)."""
        row = (
            task.key,
            task.game,
            json.dumps(task.config, sort_keys=True),
            task.seed,
            task.deal,
            json.dumps(list(task.seats)),
            json.dumps(list(task.agent_seeds)),
            json.dumps(result["scores"]),
            json.dumps(result["ranks"]),
            result["decisions"],
            int(result["truncated"]),
            None if result["forfeit"] is None else json.dumps(result["forfeit"]),
            result["duration"],
            json.dumps(result["seat_time"]),
            task.time_limit,
            code_version,
            pack_actions(result["actions"]),
            result.get("isolation"),
            json.dumps(result["budget"], sort_keys=True) if result.get("budget") is not None else None,
        )
        with self._transaction():
            cur = self.con.execute(
                f"INSERT OR IGNORE INTO games ({_COLUMNS}) VALUES ({', '.join('?' * len(row))})", row
            )
        return cur.rowcount == 1

    # --- reading --------------------------------------------------------------------------------------------
    def keys(self) -> set[str]:
        return {r[0] for r in self.con.execute("SELECT key FROM games")}

    def has(self, key: str) -> bool:
        return self.con.execute("SELECT 1 FROM games WHERE key = ?", (key,)).fetchone() is not None

    def count(self) -> int:
        return self.con.execute("SELECT count(*) FROM games").fetchone()[0]

    def games(self, actions: bool = True) -> Iterator[GameRow]:
        """Every stored game, in a fixed order (context, seed, key): independent of finishing order.

        ``actions=False`` leaves the action lists out (empty): statistics do not need them.
        """
        columns = self._columns if actions else self._columns.replace(" actions,", " x'',")
        cur = self.con.execute(f"SELECT id, {columns}, finished_at FROM games ORDER BY game, config, seed, key")
        for r in cur:
            yield _row(r)

    def game(self, game_id: int) -> GameRow:
        r = self.con.execute(f"SELECT id, {self._columns}, finished_at FROM games WHERE id = ?", (game_id,)).fetchone()
        if r is None:
            last = self.con.execute("SELECT max(id) FROM games").fetchone()[0]
            raise StoreError(f"{self.path} has no game {game_id} (ids run from 1 to {last or 0})")
        return _row(r)


def _row(r: tuple) -> GameRow:
    (gid, key, game, config, seed, deal, seats, agent_seeds, scores, ranks, decisions, truncated, forfeit) = r[:13]
    duration, seat_time, time_limit, code_version, actions, isolation, budget, finished_at = r[13:]
    return GameRow(
        id=gid,
        key=key,
        game=game,
        config=json.loads(config),
        seed=seed,
        deal=deal,
        seats=json.loads(seats),
        agent_seeds=json.loads(agent_seeds),
        scores=json.loads(scores),
        ranks=json.loads(ranks),
        decisions=decisions,
        truncated=bool(truncated),
        forfeit=None if forfeit is None else json.loads(forfeit),
        duration=duration,
        seat_time=json.loads(seat_time),
        time_limit=time_limit,
        code_version=code_version,
        finished_at=finished_at,
        actions=unpack_actions(actions) if actions else [],
        isolation=isolation,
        budget=None if budget is None else json.loads(budget),
    )


class _Tx:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error): one writer at a time, waiting politely."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def __enter__(self) -> None:
        self.con.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.con.execute("ROLLBACK" if exc_type else "COMMIT")
