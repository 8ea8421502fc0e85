"""What ``meeplezoo serve`` refuses (docs/security.md): bots not on its list, foreign hosts and origins, bodies
that are no JSON or too big or too deep, bad seeds; what it bounds: live games, idle games, a bot's think time;
and what it keeps secret: the seed of a game until it is over."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from meeplezoo import options
from meeplezoo.web import create_app
from meeplezoo.web.security import MAX_BODY, MAX_DEPTH

from .test_api import wait_turn

HOSTS = ["testserver"]
HOSTILE = "hostile_bots"  # tests/hostile_bots.py (the fixture ``hostile`` unregisters its bots after a test)
PLAY = {"game": "seastead", "config": {"num_players": 2}, "seat": 0, "bots": ["random"]}


def app(tmp_path, **kwargs):
    kwargs.setdefault("hosts", HOSTS)
    if kwargs.get("allow_agents"):  # the hostile bots: their module registers them, here and in bot processes
        kwargs.setdefault("imports", [HOSTILE])
    return create_app(tmp_path / "web.sqlite", **kwargs)


@pytest.fixture
def client(tmp_path):
    with TestClient(app(tmp_path)) as c:
        yield c


def one_line_error(r, status: int, word: str) -> str:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert word in error and "\n" not in error, error
    return error


def play_out(c, g, timeout=60.0):
    """Move as the human (first legal action) until the game is over; the finished view."""
    end = time.monotonic() + timeout
    while True:
        v = c.get(f"/api/play/{g['id']}?token={g['token']}").json()
        if v["over"] and not v["thinking"]:
            return v
        if v["your_turn"]:
            c.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": v["legal"][0]["id"]})
        assert time.monotonic() < end, "the game never ended"
        time.sleep(0.01)


# --- bots -----------------------------------------------------------------------------------------------------


def test_a_policy_path_is_refused_without_a_word_on_whether_it_exists(client, tmp_path, monkeypatch):
    import meeplezoo.agents.policy as policy

    loaded = []
    monkeypatch.setattr(policy, "load_model", lambda path: loaded.append(path))
    real = tmp_path / "model.zip"
    real.write_bytes(b"PK\x03\x04 a pickle could hide here")
    errors = set()
    for path in (real, tmp_path / "missing.zip", "/etc/passwd"):
        for spec in (f"ppo:{path}", f"ppo:path={path},deterministic=false"):
            r = client.post("/api/play", json={**PLAY, "bots": [spec]})
            errors.add(one_line_error(r, 400, "ppo takes no 'path'"))
    assert len(errors) == 1 and "zip" not in errors.pop() and not loaded  # one answer for all; nothing opened
    r = client.post("/api/play", json={**PLAY, "game": "concordia", "bots": [f"valued:{real}"]})
    one_line_error(r, 400, "valued takes no 'path'")


@pytest.mark.parametrize(
    ("spec", "word"),
    [
        ("human", "does not seat 'human'"),
        ("mcts:iters=1000000000", "iters must be 1..2000"),
        ("mcts:seconds=60", "seconds must be 0..5"),
        ("mcts:seconds=nan", "seconds takes a number"),  # the spec's own reading refuses it (params format)
        ("corner", "does not seat 'corner'"),
        ("valued", "does not seat 'valued' in seastead"),
        ("x" * 300, "at most 200"),
    ],
)
def test_a_bot_off_the_servers_list_is_refused(client, spec, word):
    one_line_error(client.post("/api/play", json={**PLAY, "bots": [spec]}), 400, word)
    assert client.get("/api/play/g1?token=x").status_code == 404  # no game was made


def test_the_catalog_lists_the_bots_the_server_seats_with_their_bounds(tmp_path):
    with TestClient(app(tmp_path, allow_agents=["mcts:iters=3000"])) as c:
        cat = {g["name"]: g for g in c.get("/api/catalog").json()["games"]}
        assert cat["seastead"]["agents"] == ["random", "heuristic", "ppo", "mcts"]  # no human, no valued here
        assert "valued" in cat["concordia"]["agents"]
        bots = {b["name"]: b for b in cat["seastead"]["bots"]}
        assert bots["mcts"]["params"]["iters"] == {"type": "int", "default": 300, "min": 1, "max": 2000}
        assert set(bots["ppo"]["params"]) == {"deterministic", "avoid_repeats"}  # no path
        assert "mcts:iters=3000" in bots  # the operator's own spec
        r = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["mcts: iters=3000"]})
        assert r.status_code == 200, r.text
        one_line_error(c.post("/api/play", json={**PLAY, "bots": ["mcts:iters=3001"]}), 400, "iters must be")


@pytest.fixture
def fake_bots(hostile):
    """The hostile bots a server allows (``app(..., allow_agents=fake_bots)`` imports their module)."""
    return ["yes", "text", "npint", "nap", "quit", "out", "cheat"]


@pytest.mark.parametrize(
    ("bot", "reason"), [("yes", "returned True (bool), not an action id"), ("text", "returned '0' (str), not an")]
)
def test_a_bot_answering_no_int_forfeits(tmp_path, fake_bots, bot, reason):
    with TestClient(app(tmp_path, allow_agents=fake_bots)) as c:
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": [bot], "seed": 1}).json()
        v = play_out(c, g)
        assert v["result"]["forfeit"]["seat"] == 0 and v["result"]["forfeit"]["reason"] == "illegal action"
        assert reason in v["result"]["forfeit"]["detail"]


@pytest.mark.parametrize(
    ("bot", "reason", "detail"),
    [("quit", "crashed", "tried to exit (SystemExit: 3)"), ("out", "raised", "BaseException: out")],
)
def test_a_bot_that_exits_forfeits_and_the_game_ends(tmp_path, fake_bots, bot, reason, detail):
    with TestClient(app(tmp_path, allow_agents=fake_bots)) as c:
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": [bot], "seed": 1}).json()
        v = play_out(c, g, timeout=10)
        assert (
            v["result"]["forfeit"] == {"seat": 0, "reason": reason, "detail": detail, "decision": 0}
            and v["result"]["stored_id"] is not None
        )


def test_a_bot_answering_a_numpy_int_plays_on(tmp_path, fake_bots):
    with TestClient(app(tmp_path, allow_agents=fake_bots)) as c:
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["npint"], "seed": 1}).json()
        assert play_out(c, g)["result"]["forfeit"] is None


def test_a_bot_over_its_think_time_is_killed_and_forfeits(tmp_path, fake_bots):
    with TestClient(app(tmp_path, allow_agents=fake_bots, think_seconds=0.1)) as c:
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["nap"], "seed": 1}).json()
        forfeit = play_out(c, g)["result"]["forfeit"]
        assert forfeit["reason"] == "time limit" and forfeit["detail"] == "no answer to decide within 0.1 s"
        # a search is killed at the deadline, whatever it does: 2000 iterations on Resafa take ~10 s
        start = time.monotonic()
        g = c.post("/api/play", json={"game": "resafa", "seat": 1, "bots": ["mcts:iters=2000"], "seed": 2}).json()
        forfeit = play_out(c, g)["result"]["forfeit"]
        assert forfeit["reason"] == "time limit" and time.monotonic() - start < 8


def test_in_the_servers_process_a_bot_forfeits_as_it_did_before_processes(tmp_path, fake_bots):
    """``isolation="none"`` (trusted bots only): the bot runs in a thread of the server, judged when it answers;
    an MCTS search is stopped at its next iteration past the deadline."""
    with TestClient(app(tmp_path, allow_agents=fake_bots, think_seconds=0.1, isolation="none")) as c:
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["nap"], "seed": 1}).json()
        assert "over this server's limit of 0.1 s" in play_out(c, g)["result"]["forfeit"]["detail"]
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["quit"], "seed": 1}).json()
        assert play_out(c, g)["result"]["forfeit"] == {
            "seat": 0,
            "reason": "raised",
            "detail": "SystemExit: 3",
            "decision": 0,
        }
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["yes"], "seed": 1}).json()
        assert "answered True, not an action id" in play_out(c, g)["result"]["forfeit"]["detail"]
        start = time.monotonic()
        g = c.post("/api/play", json={"game": "resafa", "seat": 1, "bots": ["mcts:iters=2000"], "seed": 2}).json()
        reason = play_out(c, g)["result"]["forfeit"]["detail"]
        assert "thought over 0.1 s" in reason and time.monotonic() - start < 8


WALKERS_MADE: list[str] = []


class Walker:
    """An agent that would reach past its view: from ``act`` it walks the stack (``sys._getframe``, ``gc``) to the
    server's :class:`Session` and its true state. A bot runs in a process of its own (nothing of the server in
    it), and the server still seats no code but its own list and what its operator allowed."""

    def __init__(self, *args, **kwargs):
        WALKERS_MADE.append("made")

    def act(self, view):
        raise AssertionError("seated")  # never reached: the server refuses it before making it


@pytest.mark.parametrize("name", ["walker", "random"])  # a new name, and a plugin's entry over a listed one
def test_an_agent_off_the_list_is_never_made_even_under_a_listed_name(client, name):
    from meeplezoo.agents import register_agent, unregister_agent

    register_agent(name, f"{__name__}:Walker", "seastead")
    try:
        one_line_error(client.post("/api/play", json={**PLAY, "bots": [name]}), 400, f"does not seat {name!r}")
    finally:
        unregister_agent(name, "seastead")
    assert not WALKERS_MADE  # refused before anything of it was imported or made
    assert client.get("/api/play/g1?token=x").status_code == 404


# --- request checks -------------------------------------------------------------------------------------------


def test_a_foreign_host_or_origin_is_refused(client):
    for headers in ({"host": "evil.example"}, {"host": "evil.example:8765"}, {"host": "127.0.0.1.evil.example"}):
        one_line_error(client.post("/api/play", json=PLAY, headers=headers), 403, "does not answer to host")
        one_line_error(client.get("/play", headers=headers), 403, "host")  # pages too
    for origin in ("http://evil.example", "null", "http://testserver.evil.example", "file://"):
        one_line_error(client.post("/api/play", json=PLAY, headers={"origin": origin}), 403, "are refused")
    assert client.get("/api/play/g1?token=x").status_code == 404  # none of them made a game
    assert client.post("/api/play", json=PLAY, headers={"origin": "http://testserver"}).status_code == 200


def test_a_path_outside_the_pages_is_not_opened(client):
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/%2e%2e%2f__init__.py",
                 "/views/..%2fapp.js", "/views/%2e%2e.js", "/views/__init__.js", "/static//etc/passwd"):  # fmt: skip
        r = client.get(path)
        assert r.status_code == 404 and "import" not in r.text and "root:" not in r.text, path


def test_the_default_hosts_are_this_machines_names_on_any_port(tmp_path):
    with TestClient(create_app(tmp_path / "web.sqlite")) as c:
        assert c.get("/api/catalog").status_code == 403  # Host: testserver
        for host in ("127.0.0.1:8765", "localhost:5000", "[::1]:80", "localhost"):
            assert c.get("/api/catalog", headers={"host": host}).status_code == 200, host
        r = c.get("/api/catalog", headers={"host": "localhost:5000", "origin": "http://evil.example:5000"})
        assert r.status_code == 403


def test_a_body_that_is_not_json_is_refused(client):
    body = json.dumps(PLAY)
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"content-type": kind} if kind else {}
        r = client.post("/api/play", content=body, headers=headers)
        one_line_error(r, 415, "application/json")
    assert client.get("/api/play/g1?token=x").status_code == 404
    ok = client.post("/api/play", content=body, headers={"content-type": "application/json; charset=utf-8"})
    assert ok.status_code == 200, ok.text


def test_a_body_over_a_megabyte_is_refused(client):
    big = json.dumps({**PLAY, "pad": "x" * MAX_BODY}).encode()
    one_line_error(client.post("/api/play", content=big, headers={"content-type": "application/json"}), 413, "over")
    assert client.get("/api/play/g1?token=x").status_code == 404


def test_a_body_longer_than_its_content_length_is_cut_at_the_cap(tmp_path):
    """Streamed in chunks with a Content-Length that lies: the middleware counts what comes."""
    application = app(tmp_path)
    chunk = b" " * (MAX_BODY // 4)
    messages = [{"type": "http.request", "body": chunk, "more_body": True} for _ in range(8)]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/replay",
        "raw_path": b"/api/replay",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "http_version": "1.1",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), (b"content-length", b"10")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    asyncio.run(application(scope, receive, send))
    assert sent[0]["status"] == 413 and len(messages) == 3  # stopped reading after the 5th quarter


def test_a_deeply_nested_body_is_a_400(client):
    headers = {"content-type": "application/json"}
    for depth in (100_000, MAX_DEPTH + 1):
        body = '{"game": ' + "[" * depth + "]" * depth + "}"
        for url in ("/api/play", "/api/replay"):
            one_line_error(client.post(url, content=body, headers=headers), 400, "nests deeper")


# --- seeds ----------------------------------------------------------------------------------------------------


def test_a_seed_out_of_range_is_refused_before_the_game_starts(client):
    for seed in (2**63, options.MAX_SEED + 1, -1, 1.5, "7", True):
        r = client.post("/api/play", json={**PLAY, "seed": seed})
        one_line_error(r, 400, f"seed must be a whole number from 0 to {options.MAX_SEED}")
    assert client.get("/api/play/g1?token=x").status_code == 404
    export = {"game": "seastead", "config": {}, "seed": 2**63, "decisions": []}
    one_line_error(client.post("/api/replay", json=export), 400, "seed must be")


def _keys(value):
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    return {k for v in value for k in _keys(v)} if isinstance(value, list) else set()


def test_a_game_gets_a_secret_seed_unless_the_player_fixes_one(tmp_path, fake_bots):
    from meeplezoo.arena.store import Store

    with TestClient(app(tmp_path, allow_agents=fake_bots)) as c:
        g = c.post("/api/play", json=PLAY).json()
        v = wait_turn(c, g)  # the bot may move first
        assert v["your_turn"], v
        after = c.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": v["legal"][0]["id"]}).json()
        for seen in (v, after):  # the seat's view and an act's answer: whether it is fixed, not what it is
            assert not seen["over"] and seen["fixed_seed"] is False
            assert {k for k in _keys(seen) if "seed" in k} == {"fixed_seed"}
        seeds = []
        for _ in range(2):  # the bot forfeits at once: the game is over and stored
            g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["yes"]}).json()
            result = play_out(c, g)["result"]
            seeds.append(result["seed"])  # told once the game is over
            with Store(tmp_path / "web.sqlite") as db:
                assert db.game(result["stored_id"]).seed == seeds[-1]
        assert seeds[0] != seeds[1] and min(seeds) > 2**32  # drawn from 0..MAX_SEED, not counted
        g = c.post("/api/play", json={**PLAY, "seed": 0}).json()
        assert c.get(f"/api/play/{g['id']}?token={g['token']}").json()["fixed_seed"] is True


# --- bounds on games ------------------------------------------------------------------------------------------


def test_an_idle_game_expires(tmp_path):
    with TestClient(app(tmp_path, idle_seconds=1.0)) as c:
        idle = c.post("/api/play", json=PLAY).json()
        kept = c.post("/api/play", json=PLAY).json()
        end = time.monotonic() + 1.5
        while time.monotonic() < end:  # requests keep a game alive
            assert c.get(f"/api/play/{kept['id']}?token={kept['token']}").status_code == 200
            time.sleep(0.1)
        r = c.get(f"/api/play/{idle['id']}?token={idle['token']}")
        one_line_error(r, 404, "expired or unknown")
        one_line_error(
            c.post(f"/api/play/{idle['id']}/act", json={"token": idle["token"], "action": 0}), 404, "expired"
        )


def test_the_number_of_live_games_is_bounded(tmp_path):
    with TestClient(app(tmp_path, max_games=2)) as c:
        first = c.post("/api/play", json=PLAY).json()
        c.post("/api/play", json=PLAY)
        one_line_error(c.post("/api/play", json=PLAY), 503, "2 live games")
        v = wait_turn(c, first)  # the opening card, dealt by the secret seed, may give the bot the first move
        assert v["your_turn"], v
        c.post(f"/api/play/{first['id']}/act", json={"token": first["token"], "action": v["legal"][0]["id"]})
        assert c.get(f"/api/play/{first['id']}?token={first['token']}").status_code == 200
        one_line_error(c.post("/api/play", json=PLAY), 503, "live games")  # both still unfinished


def test_a_finished_game_makes_room(tmp_path, fake_bots):
    with TestClient(app(tmp_path, max_games=1, allow_agents=fake_bots)) as c:
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["cheat"]}).json()
        assert play_out(c, g)["result"]["forfeit"]["seat"] == 0
        assert c.post("/api/play", json=PLAY).status_code == 200
        one_line_error(c.get(f"/api/play/{g['id']}?token={g['token']}"), 404, "expired or unknown")


# --- stored games ---------------------------------------------------------------------------------------------


def test_a_seat_or_id_in_another_scripts_digits_is_a_400(tmp_path, fake_bots):
    from meeplezoo.arena.replay import to_json
    from meeplezoo.arena.store import Store

    with TestClient(app(tmp_path, allow_agents=fake_bots)) as c:
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["yes"], "seed": 1}).json()
        gid = play_out(c, g)["result"]["stored_id"]
        for seat in ("²", "١", "0x1"):
            one_line_error(c.get(f"/api/stored/{gid}?seat={seat}"), 400, "seat must be")
        one_line_error(c.get("/api/stored/²"), 400, "game id must be a number")
        with Store(tmp_path / "web.sqlite") as db:
            export = to_json(db.game(gid))
        one_line_error(c.post("/api/replay?seat=²", json=export), 400, "seat must be")
        assert c.post("/api/replay?seat=1", json=export).status_code == 200


def test_a_store_that_fails_at_the_end_is_told_not_a_500(tmp_path, fake_bots):
    with TestClient(app(tmp_path, allow_agents=fake_bots)) as c:
        (tmp_path / "web.sqlite").unlink()
        (tmp_path / "web.sqlite").mkdir()  # the database is gone: a disk that went bad under a running server
        g = c.post("/api/play", json={**PLAY, "seat": 1, "bots": ["yes"], "seed": 1}).json()
        result = play_out(c, g)["result"]
        assert result["stored_id"] is None and "could not be stored" in result["store_error"]
        assert "\n" not in result["store_error"]
