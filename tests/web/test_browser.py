"""A real browser (Debian's headless Chromium, driven by Playwright) plays a whole Seastead game against the
random bot by clicking, then opens it on the Watch page. Screenshots of both pages go to reports/web/.
Markup in every string the server hands the pages (seat specs, forfeit reasons, names, an uploaded export's
seats) shows as text and runs nothing. One browser serves the whole module; each test gets a fresh page.

In CI (``CI=true``) this test runs, never skips: ``.ci/run`` installs ``chromium``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from played_games import random_play, store_played

from meeplezoo.web.browser import HOW, find_chromium

CHROMIUM = find_chromium()  # MEEPLEZOO_CHROMIUM, else chromium / chromium-browser / google-chrome on the PATH
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
REPORTS = Path(__file__).resolve().parents[2] / "reports" / "web"

if os.environ.get("CI") != "true" and CHROMIUM is None:
    pytest.skip(f"no Chromium found: {HOW}", allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from meeplezoo.arena.store import Store  # noqa: E402
from meeplezoo.web import create_app  # noqa: E402


@pytest.fixture
def server(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(
        uvicorn.Config(create_app(tmp_path / "web.sqlite"), host="127.0.0.1", port=port, log_level="warning")
    )
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    while not srv.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(10)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_play_a_whole_seastead_game_by_clicking_then_watch_it(server, page, tmp_path):
    REPORTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{server}/play")
    page.select_option("#game", "seastead")
    page.select_option("#players", "2")
    page.select_option("#seat", "0")
    page.fill("#bots", "random")
    page.click("#start")
    clicks = 0
    while not page.locator("#winner").is_visible():
        button = page.locator("#actions button").first
        try:
            button.wait_for(state="visible", timeout=30_000)
        except Exception:
            if page.locator("#winner").is_visible():
                break
            raise
        if clicks == 12:
            page.screenshot(path=str(REPORTS / "play_midgame.png"))
            page.reload()  # a reload keeps the game
            page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
        handle = button.element_handle()
        button.click()
        handle.wait_for_element_state("hidden")  # the page took the move (its buttons are redrawn)
        clicks += 1
        assert clicks < 2000
    assert "winner: P" in page.locator("#winner").inner_text()
    assert page.locator("#seed-told").inner_text().startswith("seed ")  # the secret seed, told once over
    assert page.locator("#result .sheet tr").count() == 3
    assert page.locator("#table .flotilla").count() == 4  # Seastead's own view: its four flotillas
    assert page.locator("#table .pboard").count() == 2
    log = page.locator("#log li").all_inner_texts()  # every decision named, the bot's as well as the human's
    assert all(x.startswith(("P0 ", "P1 ")) and "(" not in x.split()[1] for x in log)
    assert any(x.startswith("P1 ") for x in log)
    page.screenshot(path=str(REPORTS / "play_end.png"), full_page=True)
    page.click("#stored")
    page.wait_for_selector(".pboard")
    assert "position 0 of" in page.locator("#where").inner_text()
    last = int(page.locator("#slider").get_attribute("max"))
    assert last > clicks
    page.fill("#slider", str(last // 2))
    page.locator("#slider").dispatch_event("input")
    assert f"position {last // 2} of {last}" in page.locator("#where").inner_text()
    page.click("#fwd")
    assert f"position {last // 2 + 1} of" in page.locator("#where").inner_text()
    page.wait_for_selector("#table .pboard.me")  # seat 0's view (the link's)
    page.select_option("#view", "all")
    page.wait_for_function("!document.querySelector('#table .pboard.me')")  # everything: nobody's own view
    assert page.locator("#table .flotilla").count() == 4
    assert page.locator("#chart polyline").count() == 2 and page.locator("#legend li").count() == 2  # the chart
    page.screenshot(path=str(REPORTS / "watch.png"), full_page=True)
    assert (REPORTS / "watch.png").stat().st_size > 10_000 and (REPORTS / "play_end.png").stat().st_size > 10_000

    # the same game as a JSON export (meeplezoo replay DB ID --to-json), opened from a file
    from meeplezoo.arena.replay import to_json
    from meeplezoo.arena.store import Store

    with Store(tmp_path / "web.sqlite") as db:
        row = db.game(1)
    export = tmp_path / "game.json"
    export.write_text(json.dumps(to_json(row)))
    page.goto(f"{server}/watch")
    page.set_input_files("#file", str(export))
    page.wait_for_function(f"document.querySelector('#where').textContent.includes('of {last}')")
    page.wait_for_selector("#table .flotilla")  # the view script loads once per page
    assert page.locator("#table .flotilla").count() == 4 and page.locator("#view option").count() == 3


#: what marks each game's own table view (not the generic field list)
DRAWN = {
    "seastead": [".flotilla", ".loc"],
    "concordia": ["svg.map .city", "svg.map .route"],
    "board_royale": [".card.item", ".rescard"],
    "resafa": [".area .cell5", "svg.canal .box", "svg.trade .node", ".acard"],
}


@pytest.mark.parametrize("game", sorted(DRAWN))
def test_each_game_is_drawn_as_its_table(server, page, game):
    page.goto(f"{server}/play")
    page.select_option("#game", game)
    page.select_option("#players", "2")
    page.click("#start")
    page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_selector(f"#table {DRAWN[game][0]}")  # the view script loads once per page, after the buttons
    for selector in DRAWN[game]:
        assert page.locator(f"#table {selector}").count() > 0, selector
    assert page.locator("#table .pboard").count() == 2 and page.locator("#table .pboard.me").count() == 1
    text = page.locator("#table").inner_text()
    assert "[object" not in text and "undefined" not in text and "NaN" not in text


def test_a_game_without_a_table_or_view_is_drawn_as_the_generic_field_list(monkeypatch, server, page):
    """A game whose manifest names no table function and ships no ``view.js`` (Board Royale with both taken away):
    the page draws every field, the decks it may not see as card backs with a count."""
    import dataclasses

    from meeplezoo import games

    bare = dataclasses.replace(games.manifest("board_royale"), table=None, package="meeplezoo.envs.core")
    registry = {**games._manifests(), "board_royale": bare}
    monkeypatch.setattr(games, "_manifests", lambda: registry)
    page.goto(f"{server}/play")
    page.select_option("#game", "board_royale")
    page.select_option("#players", "2")
    page.click("#start")
    page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_selector("#table .board .zone")
    assert page.locator("#table .pboard").count() == 2 and page.locator("#table .pboard.me").count() == 1
    assert page.locator("#table .board .backs").count() > 0  # the decks: backs and a count
    assert page.locator(f"#table {DRAWN['board_royale'][0]}").count() == 0  # not the game's own view
    text = page.locator("#table").inner_text()
    assert "res deck" in text.lower() and "[object" not in text and "undefined" not in text and "NaN" not in text


def test_resafa_solo_shows_resafabot_on_the_table_and_in_the_log(server, page):
    page.goto(f"{server}/play")
    page.select_option("#game", "resafa")
    page.select_option("#players", "1")
    page.click("#start")
    page.wait_for_selector("#table .pboard.bot")
    assert "Resafabot" in page.locator("#table .pboard.bot h4").inner_text()
    for _ in range(300):  # click until Resafabot has had a turn
        if any("Resafabot reveals" in x for x in page.locator("#log li.automa").all_inner_texts()):
            break
        button = page.locator("#actions button").last  # the last choice: usually to pass, a short turn
        button.wait_for(state="visible", timeout=30_000)
        handle = button.element_handle()
        button.click()
        handle.wait_for_element_state("hidden")
    assert any("Resafabot reveals" in x for x in page.locator("#log li.automa").all_inner_texts())
    assert "[object" not in page.locator("#table").inner_text()
    page.screenshot(path=str(REPORTS / "resafa_solo.png"), full_page=True)


#: internal ids a Resafa button must not show (content ids, (row, col) pairs, indexes, "1 coins")
RESAFA_IDS = re.compile(
    r"\b(bc|cb|sp|ws|tt|sack|solo|alpha|beta|gamma|delta)-\w|\(\d+, ?\d+\)|\b(option|half|slot|strip|box) \d|#\d"
    r"|(?<![\d.])1 coins\b|\b(resafa|gerasa|palmyra|sura|dura|antioch|damascus|edessa|bostra|petra)\b"
)
#: every trade-map label's box, every road's points, every node's centre (SVG user units)
TRADE_MAP = """() => {
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.width, b.height]; };
  const labels = [...document.querySelectorAll("svg.trade text")].filter((e) => e.textContent).map(box);
  const roads = [...document.querySelectorAll("svg.trade .road")].map((e) => {
    const n = e.getTotalLength();
    return Array.from({ length: 41 }, (_, k) => { const p = e.getPointAtLength((n * k) / 40); return [p.x, p.y]; });
  });
  const names = [...document.querySelectorAll("svg.trade text.nname, svg.trade text.deal")].map(box);
  const nodes = [...document.querySelectorAll("svg.trade .node")].map((e) => [e.cx.baseVal.value, e.cy.baseVal.value]);
  return { labels, names, roads, nodes };
}"""


def test_resafa_buttons_name_things_in_players_words_and_trade_map_labels_keep_apart(server, page):
    page.goto(f"{server}/play")
    page.select_option("#game", "resafa")
    page.select_option("#players", "3")
    page.click("#start")
    page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
    names = page.locator("#actions button").all_inner_texts()
    assert any(x.startswith("play ") and "/" in x for x in names), names  # a card by its halves ("Trade/blue")
    assert not [x for x in names if RESAFA_IDS.search(x)], names
    page.wait_for_selector("#table svg.trade .node")
    m = page.evaluate(TRADE_MAP)

    def inside(p, b, margin=0.0):
        return b[0] - margin < p[0] < b[0] + b[2] + margin and b[1] - margin < p[1] < b[1] + b[3] + margin

    for b in m["names"]:  # a centre's name and deal: off every road and every other node
        assert not any(inside(p, b) for road in m["roads"] for p in road), b
        assert sum(inside(n, b, 13) for n in m["nodes"]) == 0, b
    for i, a in enumerate(m["labels"]):  # no two labels (names, deals, road costs) overlap
        for b in m["labels"][i + 1 :]:
            assert not (a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]), (a, b)


# --- server strings are text, never markup ------------------------------------------------------------------
#: markup that runs a handler if a page ever parses it as HTML (the image fails to load at once)
MARK = '<img src=x onerror="window.__xss=(window.__xss||0)+1">'


def taint(x: Any, key: str | None = None) -> Any:
    """``x`` with MARK appended to every string but a game's name (the page loads that game's view by it)."""
    if isinstance(x, str):
        return x if key == "game" else x + MARK
    if isinstance(x, list):
        return [taint(v, key) for v in x]
    if isinstance(x, dict):
        return {k: taint(v, k) for k, v in x.items()}
    return x


def tainted(change=None):
    """A route handler: the server's true answer with every string in it tainted (then ``change``d)."""

    def handle(route) -> None:
        response = route.fetch()
        body = taint(response.json())
        if change:
            change(body)
        route.fulfill(response=response, json=body)

    return handle


def assert_inert(page) -> None:
    page.wait_for_timeout(300)  # an injected <img src=x> fails to load within this and would run its handler
    assert page.evaluate("window.__xss") is None
    assert page.locator("img").count() == 0  # no page draws an image: any <img> was injected


def played(game: str, moves: int, seed: int = 3) -> tuple[dict[str, Any], list[int], list[float]]:
    """A 2-player ``game`` after ``moves`` random legal moves: its config, the actions, the scores."""
    state, actions = random_play(game, {"num_players": 2}, seed, moves)
    return dict(state.game.config), actions, [float(x) for x in state.scores()]


def store_game(db: Path, game: str, seats: list[str], forfeit: dict[str, Any]) -> None:
    """Store a short 2-player game as the web server does (``Session.finish``), lost by ``forfeit``."""
    state, actions = random_play(game, {"num_players": 2}, 3, 8)
    ranks = [1 - forfeit["seat"], forfeit["seat"]]
    with Store(db) as store:
        store_played(
            store, f"xss-{game}", state, actions, seats, ranks, seed=3, agent_seeds=[3000, 3001], forfeit=forfeit,
            source="web",
        )  # fmt: skip


def test_watch_shows_stored_seats_forfeits_and_every_served_string_as_text(server, page, tmp_path):
    # seat specs and forfeit reasons with markup, as a crafted bot spec or a bot's exception text would store them
    for game in sorted(DRAWN):
        store_game(tmp_path / "web.sqlite", game, [MARK, f"mcts:iters=5{MARK}"], {"seat": 1, "reason": f"E: {MARK}"})
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.route(re.compile(r"/api/stored/\d+"), tainted())  # and markup in every string of each replay
    page.route(re.compile(r"/api/stored\?"), tainted())  # and of the list
    page.goto(f"{server}/watch")
    page.wait_for_function("document.querySelectorAll('#games tbody tr').length === 4")  # the list, once fetched
    listed = page.locator("#games tbody td:nth-child(3)").all_inner_texts()
    assert listed == [f"P0 {MARK}{MARK} vs P1 mcts:iters=5{MARK}{MARK}"] * 4, listed
    assert page.locator("#f-agent option").all_inner_texts()[1:] == [f"{MARK}{MARK}", f"mcts:iters=5{MARK}{MARK}"]
    values = page.locator("#games tbody tr").evaluate_all("rs => rs.map((r) => r.dataset.id)")
    names = page.locator("#games tbody td:nth-child(2)").all_inner_texts()
    for value, text in zip(values, names, strict=True):
        game = text.split()[0]
        page.click(f"#games tr[data-id='{value}'] button.open")
        page.wait_for_selector(f"#table[data-game={game}] {DRAWN[game][0]}")  # the game's own view drew it
        assert page.locator("#view option").all_inner_texts() == ["everything", f"P0 {MARK}{MARK}",
                                                                  f"P1 mcts:iters=5{MARK}{MARK}"]  # fmt: skip
        assert page.locator("#forfeit").inner_text() == f"P1 forfeits: E: {MARK}{MARK}"
        assert page.locator("#decision").inner_text().endswith(MARK)  # the decision's name, served tainted
        assert f"{MARK}{MARK}" in page.locator("#table .pboard h4").first.inner_text()  # the seat's name
        page.select_option("#view", "0")
        page.wait_for_selector("#table .pboard.me")
        page.click("#fwd")
        assert "position 1 of 8" in page.locator("#where").inner_text()
        assert MARK in page.locator("#table").inner_text()  # the table's own strings
    assert_inert(page)
    assert not errors, errors  # every view copes with any string


def test_watch_uploads_an_export_as_json_and_shows_its_seats_as_text(server, page, tmp_path):
    config, actions, scores = played("seastead", 6)
    export = tmp_path / "export.json"
    export.write_text(json.dumps({
        "game": "seastead", "config": config, "seed": 3, "seats": [MARK, f"random{MARK}"], "view": "full",
        "decisions": [{"action": a, "name": MARK} for a in actions], "scores": scores, "ranks": [0, 1],
    }))  # fmt: skip
    page.goto(f"{server}/watch")
    with page.expect_request(re.compile(r"/api/replay")) as sent:
        page.set_input_files("#file", str(export))
    assert sent.value.method == "POST" and sent.value.headers.get("content-type") == "application/json"
    page.wait_for_selector("#table .flotilla")
    assert page.locator("#view option").all_inner_texts() == ["everything", f"P0 {MARK}", f"P1 random{MARK}"]
    assert page.locator("#err").inner_text() == ""
    assert [x.inner_text() for x in page.locator("#table .pboard h4").all()][1].startswith(f"P1 random{MARK}")
    assert page.locator("#forfeit").is_hidden()
    assert_inert(page)


def test_play_shows_seats_log_status_actions_and_forfeit_as_text(server, page):
    def game_over(view: dict[str, Any]) -> None:  # the answer to the move: the game ends, lost by a forfeit
        view.update(over=True, your_turn=False, thinking=False, legal=[])
        view["result"] = {"scores": [0.0, 1.0], "ranks": [1, 0], "forfeit": {"seat": 0, "reason": f"E: {MARK}"},
                          "stored_id": f"1{MARK}"}  # fmt: skip

    page.route(re.compile(r"/api/play/[^/?]+\?"), tainted())  # the seat's view
    page.route(re.compile(r"/api/play/[^/?]+/act$"), tainted(game_over))
    page.goto(f"{server}/play")
    page.select_option("#game", "seastead")
    page.select_option("#players", "2")
    page.click("#start")
    page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
    assert all(x.endswith(MARK) for x in page.locator("#actions button").all_inner_texts())  # legal action names
    status = page.locator("#status").inner_text()
    assert status.startswith("Your move: ") and status.endswith(MARK)  # the pending decision's name
    assert MARK in page.locator("#table .pboard.me h4").inner_text()  # the seat's name ("human")
    page.locator("#actions button").first.click()
    page.wait_for_selector("#winner")
    assert page.locator("#forfeit").inner_text() == f"P0 forfeits: E: {MARK}"
    rows = page.locator("#result .sheet tr").all_inner_texts()
    assert len(rows) == 3 and rows[1].startswith(f"P0 human{MARK}") and rows[2].startswith(f"P1 random{MARK}")
    assert page.locator("#stored").count() == 0  # the stored game's link is built from numbers only
    log = page.locator("#log li").all_inner_texts()
    assert log and all(x.endswith(MARK) for x in log)
    assert_inert(page)
    # el() takes no handler as a string, no server string as an attribute name, and links into this site only
    refused = page.evaluate("""() => [{ href: "javascript:window.__xss=1" }, { src: "//example.com/x.js" },
      { onclick: "window.__xss=1" }, { "x onload": "1" }].map((a) => { try { el("a", a); return "made"; }
      catch (e) { return e.name; } })""")
    assert refused == ["TypeError"] * 4


def test_play_hints_the_allowed_bots_in_either_catalog_shape(server, page):
    page.goto(f"{server}/play")  # names, as the catalog lists them
    page.select_option("#game", "seastead")
    page.wait_for_selector("#bot-names option", state="attached")
    assert "random" in page.locator("#bot-names option").evaluate_all("os => os.map((o) => o.value)")
    assert "random" in page.get_attribute("#bots", "title")

    def described(catalog: dict[str, Any]) -> None:  # agents as entries with a description or bounds
        for g in catalog["games"]:
            g.pop("bots", None)
            g["agents"] = [{"name": "random", "description": f"uniform{MARK}"}, {"name": "mcts", "iters": [1, 1000]}]

    page.route(re.compile(r"/api/catalog$"), tainted(described))  # and markup in the games' names and options
    page.goto(f"{server}/play")
    page.wait_for_selector("#bot-names option", state="attached")
    assert page.locator("#game option").first.inner_text().endswith(MARK)
    assert page.locator("#bot-names option").evaluate_all("os => os.map((o) => o.value)") == ["random", "mcts"]
    assert f"random (uniform{MARK}), mcts (iters [1,1000])" in page.get_attribute("#bots", "title")
    assert page.locator("#bots").input_value() == "random"  # still free text, a bot for every seat
    assert_inert(page)


def test_a_typed_seed_is_sent_and_noted_an_empty_one_is_left_to_the_server(server, page):
    posts = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" and r.url.endswith("/api/play") else None)
    page.goto(f"{server}/play")
    page.select_option("#game", "seastead")
    assert page.locator("#seed").input_value() == "" and page.get_attribute("#seed", "placeholder") == "secret"
    page.fill("#seed", "-3")
    page.click("#start")
    assert page.locator("#err").inner_text().startswith("seed must be a whole number") and not posts
    page.fill("#seed", "12345")
    page.click("#start")
    page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
    assert posts[-1].post_data_json["seed"] == 12345
    page.wait_for_selector("#fixed-seed", state="visible")  # the page says the deal can be rebuilt
    assert "fixed seed" in page.locator("#fixed-seed").inner_text()

    page.goto(f"{server}/play")
    page.select_option("#game", "seastead")
    page.click("#start")
    page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
    assert len(posts) == 2 and "seed" not in posts[-1].post_data_json  # the server picks a secret seed
    assert page.locator("#fixed-seed").is_hidden()


# --- the Watch page's list and chart ---------------------------------------------------------------------------
def store_random_games(db: Path, lineup: list[tuple[str, list[str], int]]) -> None:
    """Store short 2-player random games as the arena does, ids from 1 in ``lineup`` order: (game, seats, moves)."""
    with Store(db) as store:
        for i, (game, seats, moves) in enumerate(lineup):
            state, actions = random_play(game, {"num_players": 2}, i, moves)
            store_played(store, f"list-{i}", state, actions, seats, [0, 1], seed=i)


def test_watch_sorts_filters_and_pages_the_stored_games_and_charts_with_axes_and_a_legend(server, page, tmp_path):
    kinds = ["seastead", "board_royale", "concordia"]
    agents = [["random", "heuristic"], ["heuristic", "random"], ["random", "random"], ["mcts", "random"]]
    lineup = [(kinds[i % 3], agents[i % 4], 3 + i) for i in range(12)]  # ids 1..12, id i made i + 2 decisions
    store_random_games(tmp_path / "web.sqlite", lineup)
    page.goto(f"{server}/watch")
    rows = page.locator("#games tbody tr")

    def shown(column: int) -> list[str]:
        return page.locator(f"#games tbody td:nth-child({column})").all_inner_texts()

    expect(rows.first).to_have_attribute("data-id", "12")  # newest first, ten to a page
    assert shown(1) == [f"#{i}" for i in range(12, 2, -1)] and page.locator("#page").inner_text() == "page 1 of 2"
    assert page.locator("#count").inner_text() == "(12)" and page.locator("#prev").is_disabled()
    page.click("#next")
    expect(rows).to_have_count(2)
    assert shown(1) == ["#2", "#1"] and page.locator("#next").is_disabled()
    assert page.locator("#page").inner_text() == "page 2 of 2"

    page.click("th button[data-sort=game]")  # back to page 1, by game name
    expect(rows).to_have_count(10)
    assert page.get_attribute("th:has(button[data-sort=game])", "aria-sort") == "ascending"
    assert [x.split()[0] for x in shown(2)] == ["board_royale"] * 4 + ["concordia"] * 4 + ["seastead"] * 2
    page.click("th button[data-sort=decisions]")
    expect(rows.first).to_have_attribute("data-id", "12")
    page.click("th button[data-sort=decisions]")  # again: the other way
    expect(rows.first).to_have_attribute("data-id", "1")
    assert [int(x) for x in shown(5)] == list(range(3, 13))

    page.select_option("#f-game", "board_royale")
    expect(rows).to_have_count(4)
    assert shown(1) == ["#2", "#5", "#8", "#11"] and page.locator("#page").inner_text() == "page 1 of 1"
    page.select_option("#f-agent", "heuristic")
    expect(rows).to_have_count(2)
    assert shown(1) == ["#2", "#5"] and all("heuristic" in x for x in shown(3))
    assert page.locator("#count").inner_text() == "(2 shown by the filter)"

    # Board Royale's score is a final ranking: its chart plots escape points, with the goal, axes and a legend
    rows.first.click()
    page.wait_for_selector("#table .card.item, #table .rescard")
    assert page.locator("#chart .axis-label").all_text_contents() == ["position (decisions made)", "escape points"]
    assert page.locator("#chart-title").inner_text() == "Escape points" and page.locator("#chart .goal").count() == 1
    legend = page.locator("#legend li").all_inner_texts()
    assert [x.split("\n")[0].strip() for x in legend] == ["P0 heuristic", "P1 random"], legend
    assert page.locator("#chart polyline").count() == 2
    assert page.locator("#chart .tick.x").all_text_contents() == ["0", "4"]
    assert page.get_attribute("#games tbody tr.on", "data-id") == "2"
    REPORTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(REPORTS / "watch_list.png"), full_page=True)
    page.select_option("#f-game", "")
    page.select_option("#f-agent", "")
    expect(rows).to_have_count(10)
    page.click("#games tr[data-id='4'] button.open")  # a Seastead game charts its score
    page.wait_for_selector("#table .flotilla")
    page.wait_for_function("document.querySelector('#chart .axis-label.y').textContent === 'score'")
    assert page.locator("#chart-title").inner_text() == "Scores" and page.locator("#chart .goal").count() == 0
