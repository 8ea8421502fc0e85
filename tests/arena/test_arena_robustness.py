"""What an outside probe broke in ``meeplezoo arena`` and ``replay``: unwritable paths, out-of-range seeds, SIGTERM,
databases of another shape, writes by readers, and agents that return a bool."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from arena_db import count_games

from meeplezoo import cli
from meeplezoo.agents import make_agent, play_game
from meeplezoo.agents.view import view_for
from meeplezoo.arena import ratings, store
from meeplezoo.arena.errors import ArenaError, StoreError
from meeplezoo.arena.faults import ILLEGAL, Forfeit, Guard
from meeplezoo.arena.schedule import Study, load_studies, validate
from meeplezoo.envs.core.errors import ActionTypeError
from meeplezoo.games import make_env
from meeplezoo.options import MAX_SEED

ARENA = ["arena", "seastead", "--agents", "random", "heuristic", "--games", "2", "--workers", "1"]

#: /proc takes no new files, whoever asks
LINUX = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str, command: str = "arena") -> bool:
    return err.startswith(f"meeplezoo {command}: error: ") and err.count("\n") == 1


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder`` with its bytes and mtime: what a command must leave as it was."""
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()
    }


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    """A closed arena database (WAL mode, no -wal or -shm file beside it) in a folder of its own."""
    path = tmp_path_factory.mktemp("robust") / "r.sqlite"
    assert cli.main([*ARENA, "--db", str(path), "--quiet"]) == 0
    assert sorted(p.name for p in path.parent.iterdir()) == ["r.sqlite"]
    return path


# --- unwritable or missing paths: one line before any game is played -------------------------------------------


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("missing/r.sqlite", "its folder"),  # a folder that does not exist
        ("afile/r.sqlite", "is a file, not a folder"),  # a path under a file
        pytest.param("/proc/meeplezoo-r.sqlite", "cannot write in /proc", marks=LINUX),  # no one may, root included
    ],
)
def test_an_unwritable_database_path_is_refused_before_any_game(capsys, tmp_path, where, message):
    (tmp_path / "afile").write_text("not a folder\n")
    before = files_of(tmp_path)
    code, out, err = run(capsys, *ARENA, "--db", str(tmp_path / where))
    assert code == 2 and one_line(err) and message in err and "cannot store games in" in err
    assert "games played" not in out
    assert files_of(tmp_path) == before


def test_an_unwritable_report_folder_is_refused_before_any_game_or_report(capsys, tmp_path, db):
    (tmp_path / "afile").write_text("not a folder\n")
    before = files_of(tmp_path)
    for out_dir in (tmp_path / "afile", tmp_path / "afile" / "report"):
        code, out, err = run(capsys, *ARENA, "--db", str(tmp_path / "new.sqlite"), "--out", str(out_dir))
        assert code == 2 and one_line(err) and f"--out {out_dir}: " in err and out == ""
        code, out, err = run(capsys, "arena", "--report", str(db), "--out", str(out_dir))
        assert code == 2 and one_line(err) and f"--out {out_dir}: " in err and out == ""
    assert files_of(tmp_path) == before  # no database created, no report begun


def test_replay_to_json_in_a_missing_folder_or_onto_a_folder_is_one_line(capsys, tmp_path, db):
    for target, message in ((tmp_path / "missing" / "g.json", "does not exist"), (tmp_path, "is a folder")):
        code, out, err = run(capsys, "replay", str(db), "1", "--to-json", str(target))
        assert code == 2 and one_line(err, "replay") and message in err and out == ""
    assert list(tmp_path.iterdir()) == []


# --- seeds -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["-1", "99999999999999999999", str(MAX_SEED + 1)])
def test_a_seed_out_of_range_is_one_line(capsys, tmp_path, seed):
    with pytest.raises(SystemExit) as stop:
        cli.main([*ARENA, "--db", str(tmp_path / "r.sqlite"), "--seed", seed])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "argument --seed: takes a whole number from 0 to" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_study_file_or_a_study_with_a_seed_out_of_range_is_refused(tmp_path, seed):
    study = tmp_path / "study.toml"
    study.write_text(f'agents = ["random", "heuristic"]\nseed = {seed}\n[[study]]\ngame = "seastead"\n')
    with pytest.raises(ArenaError, match=r"study 1: bad value for 'seed'.*from 0 to"):
        load_studies(study)
    with pytest.raises(ArenaError, match="seed must be a whole number from 0 to"):
        validate(Study("seastead", ["random", "heuristic"], games=2, seed=seed))


# --- SIGTERM: as Ctrl-C ------------------------------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    try:
        return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the worker pids from /proc")
def test_sigterm_stops_the_run_and_its_workers_cleanly_and_a_rerun_resumes(tmp_path):
    path = tmp_path / "r.sqlite"
    argv = [sys.executable, "-m", "meeplezoo.cli", "arena", "seastead", "--agents", "random", "heuristic",
            "--games", "60", "--workers", "2", "--db", str(path), "--quiet"]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while count_games(path) < 4 and proc.poll() is None and time.monotonic() < deadline:
            workers |= _children(proc.pid)
            time.sleep(0.02)
        workers |= _children(proc.pid)
        assert proc.poll() is None and workers, "the run ended (or never started its workers) before the signal"
        proc.send_signal(signal.SIGTERM)  # the parent only, as `kill PID` does
        out, err = proc.communicate(timeout=30)
        gone = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < gone:
            time.sleep(0.05)
        survivors = [pid for pid in workers if _alive(pid)]
    finally:
        for pid in [proc.pid, *workers]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert not survivors, f"workers still running after the parent stopped: {survivors}"
    assert proc.returncode == 128 + signal.SIGTERM
    assert "Traceback" not in err and "Error" not in err, err
    stored = count_games(path)
    flat = " ".join(out.split())  # a long line wraps at 120 columns
    assert f"terminated: {stored} games are stored in {path}; run the same command to resume" in flat
    assert 4 <= stored < 60, f"the run was not stopped mid-way ({stored} games stored)"
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{60 - stored} games played and stored, {stored} already stored, of 60 scheduled" in done.stdout


# --- databases: another shape is refused untouched; readers never write ------------------------------------------


def _meta_rows(path: Path, games_table: str | None) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.executemany("INSERT INTO meta VALUES (?, ?)", [("schema", store.SCHEMA), ("version", str(store.VERSION))])
    if games_table:
        con.execute(games_table)
    con.commit()
    con.close()


@pytest.mark.parametrize(
    "games_table", [None, "CREATE TABLE games (whatever TEXT)", "CREATE TABLE games (id INTEGER, key TEXT)"]
)
def test_copied_meta_rows_without_the_games_table_are_refused_untouched(capsys, tmp_path, games_table):
    path = tmp_path / "copy.sqlite"
    _meta_rows(path, games_table)
    before = files_of(tmp_path)
    for argv in (
        [*ARENA, "--db", str(path)],
        ["arena", "--report", str(path)],
        ["replay", str(path), "1"],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and one_line(err, argv[0]) and "not a MeepleZoo arena database" in err
    with pytest.raises(StoreError, match="not a MeepleZoo arena database"):
        store.Store(path)
    assert files_of(tmp_path) == before  # the same bytes: not switched to WAL, no -wal or -shm beside it
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()


def test_report_and_replay_only_read(capsys, monkeypatch, tmp_path, db):
    """Nothing is written or created next to the database, even while it is open (on a read-only folder or an
    immutable file SQLite could not create its -wal and -shm files)."""
    before = files_of(db.parent)
    seen: list[list[str]] = []

    def watching(method):
        def read(*args, **kwargs):
            seen.append(sorted(os.listdir(db.parent)))
            return method(*args, **kwargs)

        return read

    monkeypatch.setattr(ratings, "compute", watching(ratings.compute))
    monkeypatch.setattr(store.Store, "game", watching(store.Store.game))
    code, _, _ = run(capsys, "arena", "--report", str(db))
    assert code == 0
    code, out, _ = run(capsys, "replay", str(db), "1")
    assert code == 0 and "reproduces the stored scores" in out
    code, _, _ = run(capsys, "replay", str(db), "2", "--to-json", str(tmp_path / "g.json"))
    assert code == 0 and json.loads((tmp_path / "g.json").read_text())["scores"]
    assert seen == [["r.sqlite"]] * 3  # while the database was open
    assert files_of(db.parent) == before  # same bytes, same mtime, and nothing left beside it


def test_a_reader_opens_the_database_read_only(db):
    with store.Store(db, create=False) as reader:
        assert reader.count() == 2
        with pytest.raises(sqlite3.OperationalError, match="readonly"):  # SQLite refuses, root or not
            reader.con.execute("DELETE FROM games")
    with store.Store(db, create=False) as reader:
        assert reader.count() == 2


# --- actions are ints, not bools ---------------------------------------------------------------------------------


class Returns:
    """Returns the random agent's move as a numpy integer ``kind``, or ``kind(True)`` (True, 1.0) for any other."""

    name = "returns"

    def __init__(self, kind: type) -> None:
        self.kind = kind
        self.inner = make_agent("random", "seastead", seed=0)

    def act(self, view) -> object:
        if issubclass(self.kind, np.integer):
            return self.kind(self.inner.act(view))
        return self.kind(True)


@pytest.mark.parametrize("kind", [bool, np.bool_, float, np.float64])
def test_an_agent_that_returns_a_bool_or_a_float_forfeits_in_the_arena(kind):
    guard = Guard(Returns(kind), seat=0, is_legal=lambda action: True, actions=[])
    with pytest.raises(Forfeit) as forfeit:
        guard.act(None)
    assert forfeit.value.fault.reason == ILLEGAL and "not an action id" in forfeit.value.fault.detail
    assert guard.actions == []


@pytest.mark.parametrize("kind", [bool, np.bool_, float])
def test_play_game_refuses_an_agent_that_returns_a_bool_or_a_float(kind):
    env = make_env("seastead")
    agents = {"player_0": Returns(kind), "player_1": make_agent("random", "seastead", seed=1)}
    with pytest.raises(ActionTypeError, match=r"the agent of player_0 returned .*not an action id \(an int\)"):
        play_game(env, agents, seed=0)


def test_numpy_integers_are_action_ids():
    env = make_env("seastead")
    agents = {"player_0": Returns(np.int64), "player_1": Returns(np.int32)}
    record = play_game(env, agents, seed=0)
    assert record.steps > 0 and not record.illegal_action
    guard = Guard(Returns(np.int64), seat=0, is_legal=lambda action: True, actions=[])
    env.reset(seed=0)
    assert type(guard.act(view_for(env, "player_0", guard))) is int
