"""A real browser (Debian's headless Chromium, driven by Playwright) plays a whole Seastead game against the
random bot by clicking, then opens it on the Watch page. Screenshots of both pages go to reports/web/.

In CI (``CI=true``) this test runs, never skips: ``.ci/run`` installs ``chromium``.
"""

from __future__ import annotations

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


def test_play_a_whole_seastead_game_by_clicking_then_watch_it(server, page):
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
    page.select_option("#view", "all")
    page.wait_for_function("document.querySelector('#where').textContent.includes('position')")
    page.screenshot(path=str(REPORTS / "watch.png"), full_page=True)
    assert (REPORTS / "watch.png").stat().st_size > 10_000 and (REPORTS / "play_end.png").stat().st_size > 10_000
