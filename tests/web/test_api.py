"""The web app's HTTP API: a full game of every game against random bots, bad requests, no hidden info."""

from __future__ import annotations

import importlib
import time

import numpy as np
import pytest

from meeplezoo import games
from meeplezoo.envs.core.table import build_table

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from meeplezoo.web import create_app

GAMES = games.game_names()


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "web.sqlite")) as c:
        c.app_db = tmp_path / "web.sqlite"
        yield c


def start(client, game, seat=0, bots=("random",), seed=3, config=None):
    r = client.post(
        "/api/play",
        json={"game": game, "config": config or {"num_players": 2}, "seat": seat, "bots": list(bots), "seed": seed},
    )
    assert r.status_code == 200, r.text
    return r.json()


def wait_turn(client, g, timeout=60.0):
    end = time.monotonic() + timeout
    while True:
        v = client.get(f"/api/play/{g['id']}?token={g['token']}").json()
        if not v["thinking"]:
            return v
        assert time.monotonic() < end, "the bots never answered"
        time.sleep(0.01)


@pytest.mark.parametrize("game", GAMES)
def test_full_game_through_the_api_is_stored_and_replays(client, game):
    g = start(client, game, seat=1)
    rng = np.random.default_rng(0)
    v = wait_turn(client, g)
    moves = 0
    while not v["over"]:
        assert v["your_turn"] and v["legal"], v
        assert v["table"]["to_act"] == 1 and v["table"]["seat"] == 1
        a = v["legal"][int(rng.integers(len(v["legal"])))]["id"]
        r = client.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": a})
        assert r.status_code == 200, r.text
        moves += 1
        v = wait_turn(client, g)
    assert moves > 0 and v["result"]["stored_id"] is not None
    assert all(e["name"] is None for e in v["log"] if e["seat"] != 1)  # others' choices: by kind only
    assert sum(1 for e in v["log"] if e["seat"] == 1) == moves
    w = client.get(f"/api/stored/{v['result']['stored_id']}?seat=all").json()
    assert w["frames"][-1]["table"]["terminal"] and w["frames"][-1]["table"]["scores"] == v["result"]["scores"]
    assert len(w["frames"]) == len(v["log"]) + 1
    bad = client.get(f"/api/stored/{v['result']['stored_id']}?seat=abc")
    assert bad.status_code == 400 and "seat must be" in bad.json()["error"]
    assert client.get("/api/stored/999").status_code == 404
    from meeplezoo.arena.replay import to_json
    from meeplezoo.arena.store import Store

    with Store(client.app_db) as db:
        row = db.game(v["result"]["stored_id"])
    export = client.post("/api/replay?seat=all", json=to_json(row)).json()
    assert export["frames"] == w["frames"]
    r = client.post("/api/replay", json=to_json(row, seat=0))
    assert r.status_code == 400 and "hides some choices" in r.json()["error"]
    seat_view = client.get(f"/api/stored/{v['result']['stored_id']}?seat=0").json()
    assert all(f["decision"]["name"] is None for f in seat_view["frames"][:-1] if f["decision"]["seat"] != 0)


def test_bad_requests_get_a_4xx_with_a_reason_and_change_nothing(client):
    assert client.post("/api/play", content=b"{nope").status_code == 400
    r = client.post("/api/play", json={"game": "chess", "seat": 0, "bots": ["random"]})
    assert r.status_code == 400 and "unknown game 'chess'" in r.json()["error"]
    r = client.post("/api/play", json={"game": "seastead", "config": {"num_players": 2}, "seat": 0, "bots": []})
    assert r.status_code == 400 and "give 1 bots" in r.json()["error"]
    r = client.post("/api/play", json={"game": "seastead", "config": {"num_players": 2}, "seat": 5, "bots": ["random"]})
    assert r.status_code == 400 and "seat must be 0..1" in r.json()["error"]
    r = client.post("/api/play", json={"game": "seastead", "config": {"num_players": 2}, "seat": 0, "bots": ["nobot"]})
    assert r.status_code == 400 and "nobot" in r.json()["error"]
    r = client.post(
        "/api/play", json={"game": "seastead", "config": {"num_players": 99}, "seat": 0, "bots": ["random"]}
    )
    assert r.status_code == 400 and "\n" not in r.json()["error"]
    g = start(client, "seastead")
    before = wait_turn(client, g)
    url = f"/api/play/{g['id']}/act"
    illegal = next(a for a in range(10_000) if a not in {x["id"] for x in before["legal"]})
    cases = [
        (client.post(url, json={"token": "forged", "action": before["legal"][0]["id"]}), 403, "token"),
        (client.get(f"/api/play/{g['id']}?token=forged"), 403, "token"),
        (client.post(url, json={"token": g["token"], "action": "dive"}), 400, "integer"),
        (client.post(url, json={"token": g["token"], "action": illegal}), 409, "illegal action"),
        (client.post(url, json={"token": g["token"], "action": -1}), 409, "illegal action"),
        (client.post(url, content=b"[1]"), 400, "JSON object"),
        (client.get("/api/play/g999?token=x"), 404, "no game"),
        (client.get("/api/stored/1"), 404, "no arena database"),
    ]
    for r, status, word in cases:
        assert r.status_code == status and word in r.json()["error"], r.text
    assert wait_turn(client, g) == before


def test_a_game_survives_a_reload(client):
    g = start(client, "concordia")
    v1 = wait_turn(client, g)
    client.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": v1["legal"][0]["id"]})
    v2 = wait_turn(client, g)
    assert client.get(f"/api/play/{g['id']}?token={g['token']}").json() == v2 and len(v2["log"]) > len(v1["log"])


class Raiser:
    uses_determinize = False

    def act(self, view):
        raise RuntimeError("boom")


class Cheater:
    uses_determinize = False

    def act(self, view):
        return 10**6


def test_a_bot_that_raises_forfeits_and_the_server_goes_on(client, monkeypatch):
    import meeplezoo.web.session as session

    real = session.make_agent
    fakes = {"raiser": Raiser, "cheater": Cheater}
    monkeypatch.setattr(
        session, "make_agent", lambda spec, *a, **k: fakes[spec]() if spec in fakes else real(spec, *a, **k)
    )
    g = start(client, "seastead", seat=1, bots=["raiser"])
    v = wait_turn(client, g)
    assert v["over"] and v["result"]["forfeit"] == {"seat": 0, "reason": "RuntimeError: boom"}
    assert v["result"]["ranks"] == [1, 0] and v["result"]["stored_id"] is not None
    g = start(client, "seastead", seat=1, bots=["cheater"])
    v = wait_turn(client, g)
    assert v["over"] and v["result"]["forfeit"]["reason"].startswith("illegal action 1000000 for")
    assert start(client, "seastead")["id"]  # still serving


@pytest.mark.parametrize("game", GAMES)
def test_no_seat_table_holds_hidden_information(game):
    """A seat's table is the same for every determinization for that seat, all along a random game."""
    table = importlib.import_module(f"meeplezoo.envs.{game}.table").table
    env = games.make_env(game, num_players=2)
    env.reset(seed=5)
    state = env.unwrapped.state_obj
    rng = np.random.default_rng(1)
    steps = 0
    while not state.is_terminal() and steps < 2000:
        if steps % 3 == 0:
            for seat in range(state.game.num_players):
                t = table(state, seat)
                for _ in range(2):
                    assert table(state.determinize(seat, rng), seat) == t, (game, steps, seat)
        state.apply(int(rng.choice(state.legal_actions())))
        steps += 1
    assert steps > 20


def test_the_full_view_shows_what_a_seat_view_hides():
    env = games.make_env("seastead", num_players=2)
    env.reset(seed=1)
    state = env.unwrapped.state_obj
    assert build_table(state, 0, hidden=("dive_deck",))["board"]["dive_deck"] == {"hidden": len(state.d.dive_deck)}
    assert build_table(state, None, hidden=("dive_deck",))["board"]["dive_deck"] == state.d.dive_deck


def test_serve_binds_to_this_machine_by_default():
    from meeplezoo.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.func.__name__) == ("127.0.0.1", 8765, "cmd_serve")
