"""The web app's HTTP API: a full game of every game against random bots, bad requests, no hidden info."""

from __future__ import annotations

import time

import numpy as np
import pytest

from meeplezoo import cli, games
from meeplezoo.envs.core.table import build_table

pytest.importorskip("starlette")
from played_games import random_play, store_played
from starlette.testclient import TestClient

from meeplezoo.web import create_app
from meeplezoo.web.session import table_of

GAMES = games.game_names()
HOSTS = ["testserver"]  # the Host TestClient sends
JSON = {"content-type": "application/json"}
TEST_BOTS = ["boom", "cheat"]  # registered by the hostile bots' module (its processes import it); allowed


@pytest.fixture
def client(tmp_path, hostile):
    with TestClient(create_app(tmp_path / "web.sqlite", hosts=HOSTS, allow_agents=TEST_BOTS, imports=[hostile])) as c:
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
    others = [e for e in v["log"] if e["seat"] != 1]
    assert others and all(e["name"] and e["action"] is None for e in others)  # named as seat 1 may read them
    assert sum(1 for e in v["log"] if e["seat"] == 1) == moves
    w = client.get(f"/api/stored/{v['result']['stored_id']}?seat=all").json()
    assert w["frames"][-1]["table"]["terminal"] and w["frames"][-1]["table"]["scores"] == v["result"]["scores"]
    assert len(w["frames"]) == len(v["log"]) + 1
    own_table = games.manifest(game).table is not None  # its own table has a view; the generic one has none
    assert all("fixed" not in f["table"] and ("view" in f["table"]) == own_table for f in w["frames"])
    assert (w["fixed"] is not None) == (game in ("concordia", "resafa"))
    bad = client.get(f"/api/stored/{v['result']['stored_id']}?seat=abc")
    assert bad.status_code == 400 and "seat must be" in bad.json()["error"]
    assert client.get("/api/stored/999").status_code == 404
    from meeplezoo.arena.replay import to_json
    from meeplezoo.arena.store import Store

    with Store(client.app_db) as db:
        row = db.game(v["result"]["stored_id"])
    export = client.post("/api/replay?seat=all", json={**to_json(row), "forfeit": {"seat": 1, "reason": "r"}}).json()
    assert export["frames"] == w["frames"] and export["forfeit"] == {"seat": 1, "reason": "r"}  # passed on as given
    r = client.post("/api/replay", json=to_json(row, seat=0))
    assert r.status_code == 400 and "hides some choices" in r.json()["error"]
    seat_view = client.get(f"/api/stored/{v['result']['stored_id']}?seat=0").json()
    full = [f["decision"]["name"] for f in w["frames"][:-1]]
    assert [f["decision"]["name"] for f in seat_view["frames"][:-1]] == log_names(game, row, 0)
    assert full == log_names(game, row, None) and all(full)


def log_names(game, row, viewer):
    """The stored game's decisions named as ``viewer`` may read them (``State.public_action_name``)."""
    env = games.make_env(game, **row.config)
    env.reset(seed=row.seed)
    state, out = env.unwrapped.state_obj, []
    for a in row.actions:
        out.append(state.public_action_name(a, viewer))
        state.apply(a)
    return out


def test_bad_requests_get_a_4xx_with_a_reason_and_change_nothing(client):
    assert client.post("/api/play", content=b"{nope", headers=JSON).status_code == 400
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
        (client.post(url, content=b"[1]", headers=JSON), 400, "JSON object"),
        (client.get("/api/play/g999?token=x"), 404, "expired or unknown"),
        (client.get("/api/stored/1"), 404, "no stored game 1"),  # the database is made at start
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


def test_a_bot_that_raises_forfeits_and_the_server_goes_on(client, capsys):
    g = start(client, "seastead", seat=1, bots=["boom"])
    v = wait_turn(client, g)
    forfeit = {"seat": 0, "reason": "raised", "detail": "RuntimeError: boom", "decision": 0}  # as the arena's
    assert v["over"] and v["result"]["forfeit"] == forfeit
    end = time.monotonic() + 10.0  # once (in a CI run under load) the page saw the game over before its store id
    while v["result"]["stored_id"] is None and time.monotonic() < end:
        time.sleep(0.05)
        v = client.get(f"/api/play/{g['id']}?token={g['token']}").json()
    assert v["result"]["ranks"] == [1, 0] and v["result"]["stored_id"] is not None
    # the arena reads the stored forfeit as one of its own (its replay prints the reason, detail and decision)
    assert cli.main(["replay", str(client.app_db), str(v["result"]["stored_id"]), "--board-every", "0"]) == 0
    assert "P0 forfeited at decision 0 (raised): RuntimeError: boom" in capsys.readouterr().out
    g = start(client, "seastead", seat=1, bots=["cheat"])
    v = wait_turn(client, g)
    assert v["over"] and v["result"]["forfeit"]["reason"] == "illegal action"
    assert v["result"]["forfeit"]["detail"] == "action 1000000 is not legal now"
    assert start(client, "seastead")["id"]  # still serving


def test_games_of_a_restarted_server_are_stored_apart(tmp_path, hostile):
    """Session ids start again at g1 after a restart; the stored games (and their links) must not mix up."""
    from meeplezoo.arena.store import Store

    db = tmp_path / "web.sqlite"
    stored = []
    for run in range(2):
        with TestClient(create_app(db, hosts=HOSTS, allow_agents=["boom"], imports=[hostile])) as c:
            g = start(c, "seastead", seat=1, bots=["boom"], seed=10 + run)
            assert g["id"] == "g1"
            v = wait_turn(c, g)
            while not v["over"]:  # the human may be first: one move, then the raising bot forfeits
                c.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": v["legal"][0]["id"]})
                v = wait_turn(c, g)
            stored.append(v["result"]["stored_id"])
    assert stored[0] != stored[1]
    with Store(db) as st:
        assert [st.game(i).seed for i in stored] == [10, 11]


def test_a_file_that_is_no_arena_database_is_refused_in_one_line(tmp_path):
    from meeplezoo.arena.errors import StoreError

    bad = tmp_path / "notes.sqlite"
    bad.write_text("not a database")
    with pytest.raises(StoreError, match="not a MeepleZoo arena database"):
        create_app(bad, hosts=HOSTS)


def test_a_bad_export_gets_a_4xx_with_a_reason(client):
    base = {"game": "seastead", "config": {"num_players": 2}, "seed": 1, "decisions": [{"action": 0}]}
    cases = [
        ({**base, "config": {"num_players": 7}}, 422, "cannot set up this seastead game"),
        ({**base, "seed": "x"}, 400, "seed an integer"),
        ({**base, "decisions": [{"action": 10**9}]}, 422, "decision 0: action 1000000000 is illegal"),
        ({**base, "game": "chess"}, 400, "not a game export"),
    ]
    for body, status, reason in cases:
        r = client.post("/api/replay", json=body)
        assert r.status_code == status and reason in r.json()["error"] and "\n" not in r.json()["error"], r.text


SIZES = [(g, n) for g in GAMES for n in sorted({min(games.player_counts(g)), 2, max(games.player_counts(g))})]
BIG = {("concordia", 5): {"map": "imperium"}}  # five players need the Imperium map


@pytest.mark.parametrize(("game", "n"), SIZES)
def test_no_seat_table_holds_hidden_information(game, n):
    """A seat's table (its game-shaped ``view`` included) is the same for every determinization for that
    seat, all along a random game."""
    env = games.make_env(game, num_players=n, **BIG.get((game, n), {}))
    env.reset(seed=5)
    state = env.unwrapped.state_obj
    rng = np.random.default_rng(1)
    steps = 0
    while not state.is_terminal() and steps < 2000:
        if steps % 3 == 0:
            for seat in range(state.game.num_players):
                t = table_of(state, seat)
                for _ in range(2):
                    assert table_of(state.determinize(seat, rng), seat) == t, (game, steps, seat)
        state.apply(int(rng.choice(state.legal_actions())))
        steps += 1
    assert state.is_terminal() and steps > 3  # a whole game, checked all along


def played(game, moves, n=2, seed=4):
    return random_play(game, {"num_players": n}, seed, moves)[0]


def test_every_game_serves_its_table_view_or_none(client):
    """A game's ``view.js`` (its manifest's ``view_script()``) is served; a game without one answers 404 (the page
    then draws the generic table); every built-in game ships one."""
    for game in GAMES:
        r = client.get(f"/views/{game}.js")
        if games.manifest(game).view_script() is None:
            assert r.status_code == 404 and "has no view" in r.text, game
            continue
        assert r.status_code == 200 and f"VIEWS.{game} =" in r.text, game
        assert "javascript" in r.headers["content-type"]
    assert all(games.manifest(g).view_script() for g in GAMES if games.manifest(g).distribution == "meeplezoo")
    assert client.get("/views/chess.js").status_code == 404


def test_seastead_view_lays_out_flotillas_and_names_cards():
    from meeplezoo.envs.seastead.content import SPECIALISTS
    from meeplezoo.envs.seastead.table import table

    state = played("seastead", 40)
    v = table(state, 0)["view"]
    assert [len(f["locations"]) for f in v["flotillas"]] == [6, 6, 6, 6]
    built = [loc for f in v["flotillas"] for loc in f["locations"] if loc["owner"] >= 0]
    assert built and all(loc["building"] in ("port", "academy", "shipyard") for loc in built)
    assert len(built) == sum(state.d.built)
    names = {sp.name for sp in SPECIALISTS}
    assert all(sp is None or sp["name"] in names for sp in v["spec_display"])
    assert set(v["players"][0]["resources"]) == {"fish", "artifact", "kelp", "metal"}


def test_concordia_view_draws_the_map_with_every_city_placed():
    from meeplezoo.envs.concordia.content import MAPS
    from meeplezoo.envs.concordia.table import fixed, table

    state = played("concordia", 60)
    t = table(state, 1)
    m = MAPS["italia"]
    assert [c["name"] for c in t["fixed"]["cities"]] == list(m.cities) and len(t["fixed"]["routes"]) == m.num_routes
    houses = sorted(c for s in range(2) for c in state.d.houses[s])
    assert sorted(c for c, x in enumerate(t["view"]["cities"]) for _ in x["houses"]) == houses
    on_routes = sum(1 for x in state.d.route_occ if x != -1)
    assert sum(1 for r in t["view"]["routes"] if r) == on_routes
    assert t["view"]["players"][0]["hand"][0]["name"]
    assert all(isinstance(c["name"], str) for c in t["view"]["forum"] if c)
    big = games.make_env("concordia", num_players=3, map="imperium")
    big.reset(seed=1)
    places = {(c["x"], c["y"]) for c in fixed(big.unwrapped.state_obj.d)["cities"]}
    assert len(places) == MAPS["imperium"].num_cities  # every city has its own place on the board


def test_board_royale_view_shows_own_hand_and_only_the_known_cards_of_others():
    from meeplezoo.envs.board_royale.table import table

    state = played("board_royale", 30, n=3)
    v = table(state, 2)["view"]
    assert "hand" in v["players"][2] and all("hand" not in p for p in v["players"][:2])
    assert sum(v["players"][2]["hand"].values()) == v["players"][2]["hand_size"]
    assert all(sum(p["known"].values()) <= p["hand_size"] for p in v["players"][:2])
    assert all(isinstance(it["name"], str) and it["craft"] for it in v["field"] if it)


def test_resafa_view_names_cards_and_lays_out_areas_canals_and_the_trade_map():
    from meeplezoo.envs.resafa.content import content
    from meeplezoo.envs.resafa.table import table

    c = content()
    ids = {x.id for x in c.action_cards} | {x.name for x in c.specials}
    state = played("resafa", 60)
    t = table(state, 0)
    v = t["view"]
    hand = v["players"][0]["hand"]
    assert len(hand) == len(state.d.hand[0]) and all(card["id"] in ids for card in hand)  # names, not numbers
    assert all(len(card["halves"]) == 2 for card in hand + v["players"][0]["played"])
    assert "hand" not in v["players"][1] and v["players"][1]["hand_size"] == len(state.d.hand[1])
    assert len(v["players"][0]["area"]) == 25
    assert sum(1 for x in v["players"][0]["area"] if x and "workshop" in x) == sum(
        1 for x in state.d.ws_tile[:25] if x != -1
    )
    net = t["fixed"]["canal"]
    assert len(v["canal"]) == net["rows"] * net["cols"]
    assert len(t["fixed"]["nodes"]) == len(v["centres"]) == len(c.centres)
    start = {"id": "resafa", "name": "Resafa", "colour": "city", "col": 0, "row": 0.0}
    assert t["fixed"]["nodes"][0] == start  # the map's start, by its name on the map


def test_the_play_page_gives_one_button_for_two_identical_cards(client):
    """Concordia's first hand holds two Prefects: one "play Prefect" button (the lower id); either id is taken."""
    g = start(client, "concordia", seat=0)
    v = wait_turn(client, g)
    names = [x["name"] for x in v["legal"]]
    assert names.count("play Prefect [Saturnus, start]") == 1 and len(names) == len(set(names)) == 6
    state = games.make_env("concordia", num_players=2).unwrapped.game.new_state(0)
    prefects = [a for a in state.legal_actions() if state.describe_action(a).startswith("play Prefect")]
    assert [x["id"] for x in v["legal"] if x["name"].startswith("play Prefect")] == [min(prefects)]
    r = client.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": max(prefects)})
    assert r.status_code == 200, r.text


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


def test_resafa_shows_a_searched_special_deck_to_its_searcher_only():
    """After a search, the searcher knows that deck's face-down cards (listed by name); others don't. The list's
    label says whose they are: the decks the seat searched; every deck to a watcher (issue 37: "you have seen")."""
    from meeplezoo.envs.resafa.table import table
    from meeplezoo.envs.resafa.tracks import face_down

    for seed in range(40):
        state = played("resafa", 0, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and not state.d.spec_known[0] & ~state.d.spec_known[1]:
            state.apply(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            continue
        k = next(k for k in range(12) if state.d.spec_known[0] >> k & 1 and not state.d.spec_known[1] >> k & 1)
        mine, theirs = table(state, 0)["view"]["specials"][k], table(state, 1)["view"]["specials"][k]
        assert len(mine["face_down"]) == len(face_down(state.d, k)) and "face_down" not in theirs
        for _ in range(3):
            assert table(state.determinize(0, rng), 0)["view"]["specials"][k] == mine
        labels = [table(state, seat)["view"]["face_down_label"] for seat in (0, None)]
        assert labels == [
            "face-down special cards of the decks you searched, not in deck order",
            "face-down special cards of every deck (the players do not see them)",
        ]
        return
    pytest.fail("no random game searched a special deck")


def test_the_watch_page_opens_games_an_arena_run_stored(tmp_path, capsys):
    """A tournament's database (``meeplezoo arena ... --db``) served as is: every game replays, in any view."""
    from meeplezoo import cli

    db = tmp_path / "r.sqlite"
    assert cli.main(["arena", "concordia", "--agents", "random", "heuristic", "--games", "2", "--seats", "2",
                     "--workers", "1", "--db", str(db)]) == 0  # fmt: skip
    capsys.readouterr()
    with TestClient(create_app(db, hosts=HOSTS)) as c:
        listed = c.get("/api/stored").json()["games"]
        assert len(listed) >= 2 and all(g["game"] == "concordia" for g in listed)
        for g in listed:
            w = c.get(f"/api/stored/{g['id']}?seat=1").json()
            assert len(w["frames"]) == g["decisions"] + 1 and w["frames"][-1]["table"]["terminal"]
            assert w["frames"][-1]["table"]["scores"] == g["scores"] and w["fixed"]["map"] == "italia"


def test_the_play_page_sets_a_games_options_as_the_cli_reads_them(client):
    cat = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert cat["concordia"]["options"] == {"map": "italia", "intermediate_scoring": "False"}
    r = client.post(
        "/api/play",
        json={"game": "concordia", "config": {"num_players": 5}, "options": ["map=imperium"], "bots": ["random"] * 4},
    )
    assert r.status_code == 200, r.text
    g = r.json()
    assert wait_turn(client, g)["table"]["fixed"]["map"] == "imperium"
    bad = [(["colour=red"], "has no config key 'colour'"), (["intermediate_scoring=maybe"], "intermediate_scoring")]
    for items, reason in bad:
        r = client.post("/api/play", json={"game": "concordia", "options": items, "bots": ["random"]})
        assert r.status_code == 400 and reason in r.json()["error"] and "\n" not in r.json()["error"], r.text
    r = client.post("/api/play", json={"game": "concordia", "options": "map=imperium", "bots": ["random"]})
    assert r.status_code == 400 and "KEY=VALUE" in r.json()["error"]


def test_resafabot_plays_in_the_solo_log_and_on_the_watch_page(client):
    """A solo Resafa game through the API: Resafabot's turns are log lines of no seat, naming it; the Watch
    page replays the same turns (at the setup and after each decision)."""
    g = start(client, "resafa", bots=(), config={"num_players": 1})
    rng = np.random.default_rng(1)
    v = wait_turn(client, g)
    while not v["over"]:
        a = v["legal"][int(rng.integers(len(v["legal"])))]["id"]
        v = client.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": a}).json()
    bot_lines = [e["name"] for e in v["log"] if e["seat"] is None]
    assert len(bot_lines) > 12 and all(x.startswith("Resafabot reveals") for x in bot_lines)
    assert v["table"]["view"]["bot"]["name"] == "Resafabot"
    w = client.get(f"/api/stored/{v['result']['stored_id']}?seat=0").json()
    assert w["setup"] + [t for f in w["frames"][:-1] for t in f["decision"]["automa"]] == bot_lines


# --- the Watch page's list and chart ---------------------------------------------------------------------------
def store_random_games(db, lineup) -> None:
    """Store short random games as the arena does, ids from 1 in ``lineup`` order: (game, config, seats, moves)."""
    from meeplezoo.arena.store import Store

    with Store(db) as store:
        for i, (game, config, seats, moves) in enumerate(lineup):
            state, actions = random_play(game, config, i, moves)
            store_played(store, f"k{i}", state, actions, seats, list(state.ranks()), seed=i)


LINEUP = [  # ids 1..6
    ("seastead", {}, ["random", "heuristic"], 9),
    ("board_royale", {"num_players": 2}, ["random", "random"], 5),
    ("seastead", {}, ["heuristic", "random"], 3),
    ("concordia", {"num_players": 2}, ["random", "mcts"], 7),
    ("seastead", {}, ["random", "random"], 5),
    ("board_royale", {"num_players": 2, "elimination_only": True}, ["heuristic", "random"], 5),
]


def test_the_stored_list_sorts_filters_and_pages(tmp_path):
    store_random_games(tmp_path / "r.sqlite", LINEUP)
    with TestClient(create_app(tmp_path / "r.sqlite", hosts=HOSTS)) as c:

        def ids(query: str = "") -> list[int]:
            r = c.get(f"/api/stored?{query}")
            assert r.status_code == 200, r.text
            return [g["id"] for g in r.json()["games"]]

        j = c.get("/api/stored").json()
        assert [g["id"] for g in j["games"]] == [6, 5, 4, 3, 2, 1] and (j["total"], j["pages"]) == (6, 1)  # newest 1st
        assert j["choices"] == {"games": ["board_royale", "concordia", "seastead"],
                                "agents": ["heuristic", "mcts", "random"]}  # fmt: skip
        by_id = {g["id"]: g for g in j["games"]}
        assert by_id[1]["settings"] == [] and by_id[2]["settings"] == ["num_players=2"]  # only what differs
        assert by_id[6]["settings"] == ["elimination_only=True", "num_players=2"] and by_id[1]["decisions"] == 9
        assert ids("sort=id&order=asc") == [1, 2, 3, 4, 5, 6]
        assert ids("sort=decisions&order=asc") == [3, 2, 5, 6, 4, 1]  # ties by id, in the same direction
        assert ids("sort=decisions") == [1, 4, 6, 5, 2, 3]
        assert ids("sort=game&order=asc") == [2, 6, 4, 1, 3, 5]
        assert ids("sort=agents&order=asc") == [3, 6, 1, 4, 2, 5]
        assert ids("game=seastead") == [5, 3, 1] and ids("game=seastead&agent=heuristic") == [3, 1]
        assert ids("agent=mcts") == [4] and ids("game=resafa") == [] and ids("agent=nobody") == []
        page = c.get("/api/stored?per_page=4&page=2").json()
        assert [g["id"] for g in page["games"]] == [2, 1] and page["pages"] == 2 and page["total"] == 6
        assert ids("game=seastead&per_page=2&page=2&order=asc") == [5]
        for query, reason in [
            ("sort=seed", "sort must be one of id, game, agents, decisions, finished"),
            ("order=up", "order must be asc or desc"),
            ("page=0", "page must be a whole number"),
            ("page=²", "page must be a whole number"),
            ("per_page=201", "per_page must be a whole number from 1 to 200"),
            ("page=3&per_page=4", "page 3 is past the last page (2)"),
            ("game=" + "x" * 501, "game must be at most 500 characters"),
            ("agent=" + "x" * 501, "agent must be at most 500 characters"),
        ]:
            r = c.get(f"/api/stored?{query}")
            assert r.status_code == 400 and r.json()["error"].startswith(reason) and "\n" not in r.json()["error"]


def test_board_royales_watch_chart_plots_escape_points_or_cards_not_its_ranking_score(tmp_path):
    """Board Royale's score is a final ranking (zero-sum survival points): the table names another quantity
    for the Watch chart, escape points (or, with no escape items, cards in hand); other games chart the score."""
    store_random_games(tmp_path / "r.sqlite", LINEUP)
    with TestClient(create_app(tmp_path / "r.sqlite", hosts=HOSTS)) as c:
        frames = c.get("/api/stored/2?seat=0").json()["frames"]
        for f in frames:
            chart, players = f["table"]["chart"], f["table"]["view"]["players"]
            assert chart["label"] == "escape points" and chart["goal"] == {"value": 10, "label": "escape"}
            assert chart["values"] == [p["escape_points"] for p in players]
        frames = c.get("/api/stored/6?seat=all").json()["frames"]
        assert all(f["table"]["chart"]["label"] == "cards in hand" for f in frames)
        assert [f["table"]["chart"]["values"] for f in frames] == [
            [p["hand_size"] for p in f["table"]["view"]["players"]] for f in frames
        ]
        assert len({tuple(f["table"]["chart"]["values"]) for f in frames}) > 1  # it moves as cards are drawn
        assert all("chart" not in f["table"] for f in c.get("/api/stored/1?seat=all").json()["frames"])


def test_board_royales_score_is_what_its_rules_say_and_an_escape_is_told_in_escape_points():
    """The rules page and the env docstring state the score (zero-sum survival points: 3/1/-1/-3 by place at 4
    players when the last one stands, the winner always 3); the win line says what the 10 are (escape points)."""
    from meeplezoo.envs import board_royale_v1
    from meeplezoo.web.session import table_of

    rules = games.manifest("board_royale").rules()
    assert "**3 / 1 / −1 / −3**" in rules and "3/1/-1/-3" in board_royale_v1.__doc__
    seen = set()
    for seed in range(12):  # random 4-player games: about one in five is won by escape points
        env = games.make_env("board_royale", num_players=4)
        env.reset(seed=seed)
        state, rng = env.unwrapped.state_obj, np.random.default_rng(seed)
        while not state.is_terminal():
            state.apply(int(rng.choice(state.legal_actions())))
        scores, ranks = [int(x) for x in state.scores()], state.ranks()
        how = table_of(state, None)["view"]["winner"]["how"]
        seen.add(how)
        assert sum(scores) == 0 and scores[ranks.index(0)] == 3
        if how == "last player standing":
            assert [scores[ranks.index(r)] for r in range(4)] == [3, 1, -1, -3]
        elif how.startswith("escaped (1"):
            assert how == "escaped (10 escape points)" and how in state.render()
    assert {"last player standing", "escaped (10 escape points)"} <= seen, seen
