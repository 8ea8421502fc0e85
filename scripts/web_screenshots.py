"""Screenshots of each game's Play page for the README (docs/screenshots/<game>.png).

Starts ``meeplezoo serve``'s app on a free port, plays 25 random clicks of each game against random bots in
headless Chromium (driven by Playwright; ``MEEPLEZOO_CHROMIUM`` or ``chromium`` on the PATH, see
:mod:`meeplezoo.web.browser`) and saves the page. Run: ``python scripts/web_screenshots.py
[GAME ...]`` (default: every game).
"""

from __future__ import annotations

import random
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from meeplezoo import games
from meeplezoo.web import create_app
from meeplezoo.web.browser import HOW, find_chromium

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


def shrink(path: Path) -> None:
    """3/4 size, 128 colours: a README image of ~60 kB (needs Pillow; kept as is without it)."""
    try:
        from PIL import Image
    except ImportError:
        return
    im = Image.open(path).convert("RGB")
    im = im.resize((im.width * 3 // 4, im.height * 3 // 4), Image.LANCZOS)
    im.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def main(names: list[str], clicks: int = 25) -> None:
    chromium = find_chromium()
    if chromium is None:
        sys.exit(f"web_screenshots: no Chromium found: {HOW}")
    OUT.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = Path(tempfile.mkdtemp()) / "web.sqlite"
    srv = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        for game in names or games.game_names():
            page.goto(f"http://127.0.0.1:{port}/play")
            page.select_option("#game", game)
            page.select_option("#players", "2")
            page.fill("#seed", "1")  # a fixed deal: the same pictures every run (the page's default is a secret seed)
            page.click("#start")
            pick = random.Random(game)  # the same clicks every run
            for _ in range(clicks):
                page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
                buttons = page.locator("#actions button")
                buttons.nth(pick.randrange(buttons.count())).click()
            page.locator("#actions button").first.wait_for(state="visible", timeout=30_000)
            page.wait_for_timeout(300)
            page.screenshot(path=str(OUT / f"{game}.png"), full_page=True)
            shrink(OUT / f"{game}.png")
            print(OUT / f"{game}.png")
        browser.close()
    srv.should_exit = True


if __name__ == "__main__":
    main(sys.argv[1:])
