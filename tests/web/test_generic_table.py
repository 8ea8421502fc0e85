"""A game whose manifest names no table function gets the generic table (issue 38): every field of its record as
the seat may see it, built from the seat's public copy of the position, so nothing hidden from the seat is in
it; a game with no ``view.js`` is drawn by the page's generic field list.

Board Royale stands in for such a game: its manifest with the ``table`` reference removed (and, for the view, its
package pointed elsewhere) put in the registry. Its own table says what is hidden: the decks (counts only) and
each seat's hand (shown to its seat only).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from meeplezoo import games
from meeplezoo.envs.board_royale.table import HIDDEN

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from meeplezoo.web import create_app
from meeplezoo.web.session import table_of
from meeplezoo.web.tables import generic_table

from .test_api import wait_turn

GAME = "board_royale"
OWN = "hand"  # a per-seat field its own table shows to its seat only (a flat list: num_players chunks)


def _registry_with(monkeypatch, **changes) -> None:
    table = {**games._manifests(), GAME: dataclasses.replace(games.manifest(GAME), **changes)}
    monkeypatch.setattr(games, "_manifests", lambda: table)


@pytest.fixture
def tableless(monkeypatch):
    _registry_with(monkeypatch, table=None)


def _chunk(values: list[int], n: int, seat: int) -> list[int]:
    k = len(values) // n
    return list(values[seat * k : (seat + 1) * k])


def test_the_generic_table_shows_a_seat_nothing_it_cannot_see(tableless):
    env = games.make_env(GAME, num_players=4)
    env.reset(seed=2)
    state, rng = env.unwrapped.state_obj, np.random.default_rng(2)
    assert table_of(state, 0) == generic_table(state, 0)  # the registry's manifest decides
    seen_hidden = seen_own = 0
    steps = 0
    while not state.is_terminal():
        if steps % 4 == 0:
            for seat in range(4):
                t = table_of(state, seat)
                json.dumps(t)  # plain JSON data
                assert "view" not in t and t["seat"] == seat
                for _ in range(2):  # the same for every position the seat cannot tell apart
                    assert table_of(state.determinize(seat, rng), seat) == t, (steps, seat)
                for name in HIDDEN:
                    if t["board"].get(name) == {"hidden": len(getattr(state.d, name))}:
                        seen_hidden += 1
                    else:  # shown: then it is what the seat knows (no determinization moves it)
                        public = state.public_copy(seat)
                        assert all(
                            getattr(public.determinize(seat, np.random.default_rng(k)).d, name)
                            == getattr(public.d, name)
                            for k in range(3)
                        )
                if OWN in t["players"][seat]:
                    seen_own += 1
                    hand = t["players"][seat][OWN]
                    assert hand == _chunk(state.d.hand, 4, seat)
                    for other in set(range(4)) - {seat}:
                        assert set(t["players"][other][OWN]) == {"hidden"}
        state.apply(int(rng.choice(state.legal_actions())))
        steps += 1
    assert seen_hidden and seen_own


def test_the_full_view_of_the_generic_table_shows_everything(tableless):
    env = games.make_env(GAME, num_players=3)
    env.reset(seed=4)
    state = env.unwrapped.state_obj
    t = table_of(state, None)
    for name in (*HIDDEN, OWN):
        assert t["board"][name] == list(getattr(state.d, name))
    assert t["scores"] == [float(x) for x in state.scores()] and t["to_act"] == state.current_player()


def test_a_game_without_a_table_plays_and_replays_through_the_api(tableless, tmp_path):
    with TestClient(create_app(tmp_path / "web.sqlite", hosts=["testserver"])) as client:
        r = client.post("/api/play", json={"game": GAME, "config": {"num_players": 2}, "seat": 1, "bots": ["random"]})
        assert r.status_code == 200, r.text
        g = r.json()
        rng = np.random.default_rng(0)
        v = wait_turn(client, g)
        counted = 0
        while not v["over"]:
            t = v["table"]
            assert "view" not in t and "board" in t
            counted += sum(isinstance(t["board"][k], dict) and set(t["board"][k]) == {"hidden"} for k in HIDDEN)
            assert set(t["players"][0].get(OWN, {"hidden": 0})) == {"hidden"}  # the bot's hand: a count
            a = v["legal"][int(rng.integers(len(v["legal"])))]["id"]
            v = client.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": a}).json()
            v = wait_turn(client, g)
        assert counted  # the decks were counts, not cards
        stored = v["result"]["stored_id"]
        for seat in ("1", "all"):
            w = client.get(f"/api/stored/{stored}?seat={seat}").json()
            assert len(w["frames"]) == len(v["log"]) + 1 and w["frames"][-1]["table"]["terminal"]
            assert all("view" not in f["table"] and "board" in f["table"] for f in w["frames"])
        full = client.get(f"/api/stored/{stored}?seat=all").json()["frames"][0]["table"]
        assert all(isinstance(full["board"][k], list) for k in HIDDEN)  # the watcher's full view


def test_a_game_without_a_view_script_answers_404_so_the_page_draws_the_generic_table(monkeypatch, tmp_path):
    _registry_with(monkeypatch, table=None, package="meeplezoo.envs.core")  # a package with no view.js
    with TestClient(create_app(None, hosts=["testserver"])) as client:
        r = client.get(f"/views/{GAME}.js")
        assert r.status_code == 404 and "has no view" in r.text
        assert client.get("/views/seastead.js").status_code == 200  # the others still have theirs
