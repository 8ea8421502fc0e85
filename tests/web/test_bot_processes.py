"""The web server's bots run each in its own OS process for their table's life: not the server's, ended when the game
ends, when it expires, when a bot forfeits and when the server stops (``isolation="none"`` keeps them in the
server's process). The ``pidfile`` bot (tests/hostile_bots.py) writes the id of the process it runs in."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from meeplezoo.web import create_app

from .test_security import play_out

HOSTS = ["testserver"]
TESTS = Path(__file__).resolve().parents[1]  # holds hostile_bots.py


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and is no zombie (a zombie runs nothing; a container's init may not reap)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def gone(pid: int, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while running(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def pids(path: Path, count: int = 1, timeout: float = 30.0) -> list[int]:
    """The process ids ``pidfile`` bots wrote to ``path`` (waits for ``count`` of them)."""
    end = time.monotonic() + timeout
    while True:
        lines = path.read_text().split() if path.exists() else []
        if len(lines) >= count:
            return [int(x) for x in lines]
        assert time.monotonic() < end, "no pidfile bot was made"
        time.sleep(0.02)


def start(c, bots, seat=1, game="seastead", players=2, seed=3):
    r = c.post(
        "/api/play",
        json={"game": game, "config": {"num_players": players}, "seat": seat, "bots": bots, "seed": seed},
    )
    assert r.status_code == 200, r.text
    return r.json()


def test_a_bot_plays_a_whole_game_in_one_process_of_its_own_ended_with_the_game(tmp_path, hostile):
    spec = f"pidfile:path={tmp_path / 'pids'}"
    app = create_app(tmp_path / "web.sqlite", hosts=HOSTS, allow_agents=[spec], imports=[hostile])
    with TestClient(app) as c:
        g = start(c, [spec])
        (pid,) = pids(tmp_path / "pids")
        assert pid != os.getpid() and running(pid)
        session = app.state.web.sessions.games[g["id"]]
        assert session.bot_pids() == [pid]
        v = play_out(c, g)
        assert v["result"]["forfeit"] is None and v["result"]["stored_id"] is not None
        assert pids(tmp_path / "pids") == [pid]  # made once: the same process played every decision
        assert gone(pid) and session.bot_pids() == []
        assert start(c, ["random"])["id"]


def test_in_the_servers_process_with_isolation_none(tmp_path, hostile):
    spec = f"pidfile:path={tmp_path / 'pids'}"
    app = create_app(tmp_path / "web.sqlite", hosts=HOSTS, allow_agents=[spec], imports=[hostile], isolation="none")
    with TestClient(app) as c:
        start(c, [spec])
        assert pids(tmp_path / "pids") == [os.getpid()]


def test_bot_processes_end_when_the_server_stops_and_when_a_game_expires(tmp_path, hostile):
    spec = f"pidfile:path={tmp_path / 'pids'}"
    app = create_app(tmp_path / "web.sqlite", hosts=HOSTS, allow_agents=[spec], imports=[hostile], idle_seconds=1.0)
    with TestClient(app) as c:
        idle = start(c, [spec])
        (first,) = pids(tmp_path / "pids")
        time.sleep(1.2)
        r = c.get(f"/api/play/{idle['id']}?token={idle['token']}")
        assert r.status_code == 404 and gone(first)  # the expired game's bot ended with it
        start(c, [spec, spec], seat=2, game="concordia", players=3)
        start(c, [spec])
        live = pids(tmp_path / "pids", 4)[1:]
        assert all(running(pid) for pid in live)
    assert all(gone(pid) for pid in live)  # the server stopped: no bot process outlives it


def test_a_hostile_bot_forfeits_its_process_is_killed_and_the_server_goes_on(tmp_path, hostile):
    spec = f"pidfile:path={tmp_path / 'pids'}"
    bots = [spec, "quit", "nap:seconds=30"]
    app = create_app(tmp_path / "web.sqlite", hosts=HOSTS, allow_agents=bots, imports=[hostile], think_seconds=0.3)
    with TestClient(app) as c:
        g = start(c, ["quit", spec], seat=2, game="concordia", players=3)  # seat 0 exits on the first decision
        (other,) = pids(tmp_path / "pids")
        forfeit = play_out(c, g)["result"]["forfeit"]
        assert forfeit == {"seat": 0, "reason": "crashed", "detail": "tried to exit (SystemExit: 3)", "decision": 0}
        assert gone(other)  # the game is over: the other bot's process ended with it
        begun = time.monotonic()
        g = start(c, ["nap:seconds=30"])
        sleeper = app.state.web.sessions.games[g["id"]].agents[0].process.pid
        forfeit = play_out(c, g)["result"]["forfeit"]
        assert forfeit["reason"] == "time limit" and time.monotonic() - begun < 20
        assert gone(sleeper)  # killed at the deadline, not left sleeping
        g = start(c, ["random"])
        assert play_out(c, g)["result"]["forfeit"] is None  # still serving


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(port: int, path: str, body: dict | None = None) -> dict:
    """A request to a served server (its own Host), the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=data, method="GET" if data is None else "POST"
    )
    request.add_header("content-type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as r:
        return json.loads(r.read())


def test_a_served_servers_bots_end_when_it_is_terminated(tmp_path):
    """``meeplezoo serve`` in a process of its own: SIGTERM stops it, and with it a bot process busy thinking."""
    pytest.importorskip("uvicorn")
    port, spec = free_port(), f"nap:seconds=300,path={tmp_path / 'pids'}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))}
    argv = [sys.executable, "-m", "meeplezoo", "serve", "--port", str(port), "--db", str(tmp_path / "w.sqlite")]
    argv += ["--import", "hostile_bots", "--allow-agent", spec, "--think-seconds", "600"]
    server = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "MeepleZoo at" in server.stdout.readline()
        g = _call(port, "/api/play", {"game": "seastead", "config": {"num_players": 2}, "seat": 1, "bots": [spec]})
        (pid,) = pids(tmp_path / "pids")
        v = _call(port, f"/api/play/{g['id']}?token={g['token']}")
        while v["your_turn"]:  # the human is first: its moves, then the bot sleeps on its decision
            v = _call(port, f"/api/play/{g['id']}/act", {"token": g["token"], "action": v["legal"][0]["id"]})
        assert v["thinking"] and running(pid)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once shut down
        assert gone(pid)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
