"""A real browser (Debian's headless Chromium, driven by Playwright) plays a whole Seastead game against the
random bot by clicking, then opens it on the Watch page. Screenshots of both pages go to reports/web/.

In CI (``CI=true``) this test runs, never skips: ``.ci/run`` installs ``chromium``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
REPORTS = Path(__file__).resolve().parents[2] / "reports" / "web"

if os.environ.get("CI") != "true" and (not Path(CHROMIUM).exists() or shutil.which("chromium") is None):
    pytest.skip("no chromium here (CI installs it; `apt-get install chromium`)", allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

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


@pytest.fixture
def page():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page(viewport={"width": 1280, "height": 900})
        yield pg
        browser.close()


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
    assert page.evaluate(INKED) > 300  # the score chart is drawn
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


INKED = """(() => { const c = document.getElementById('chart'), d = c.getContext('2d').getImageData(0, 0, c.width,
  c.height).data; let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()"""
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
        button = page.locator("#actions button").last  # the last choice: usually pass / done, a short turn
        button.wait_for(state="visible", timeout=30_000)
        handle = button.element_handle()
        button.click()
        handle.wait_for_element_state("hidden")
    assert any("Resafabot reveals" in x for x in page.locator("#log li.automa").all_inner_texts())
    assert "[object" not in page.locator("#table").inner_text()
    page.screenshot(path=str(REPORTS / "resafa_solo.png"), full_page=True)
