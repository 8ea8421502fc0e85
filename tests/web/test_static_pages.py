"""The browser pages and every game's view build the page from DOM nodes and text, never by parsing a string as
HTML: a server-supplied string (a seat's agent spec, a forfeit reason, an uploaded export's seats) is shown as
text and cannot run script. A plain scan of the sources, so it runs where no browser is installed
(tests/web/test_browser.py checks the same in Chromium).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted([*(ROOT / "meeplezoo" / "web" / "static").glob("*.js"), *(ROOT / "envs").glob("*/view.js")])
PAGES = sorted((ROOT / "meeplezoo" / "web" / "static").glob("*.html"))

#: the DOM's ways of turning a string into markup or code
SINKS = re.compile(
    r"innerHTML|outerHTML|insertAdjacentHTML|document\s*\.\s*write|createContextualFragment|srcdoc|"
    r"HTMLUnsafe|DOMParser|\beval\s*\(|new\s+Function\b|set(?:Timeout|Interval)\s*\(\s*[`'\"]|javascript:",
    re.IGNORECASE,
)


def test_the_scan_covers_the_shared_pages_and_every_games_view():
    names = {p.name for p in SCRIPTS}
    assert {"frame.js", "play.js", "watch.js"} <= names
    views = {p.parent.name for p in SCRIPTS if p.name == "view.js"}
    assert {"seastead", "concordia", "board_royale", "resafa"} <= views
    assert {p.name for p in PAGES} == {"play.html", "watch.html"}


def test_no_script_parses_a_string_as_html():
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in SCRIPTS
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SINKS.search(line)
    ]
    hint = "build nodes with el()/svg() or set textContent; clear with replaceChildren()"
    assert not found, hint + ":\n" + "\n".join(found)


def test_pages_have_no_inline_script_or_handler():
    for path in PAGES:
        html = path.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), f"{path.name}: an inline <script>"
        assert not re.search(r"\son[a-z]+\s*=", html, re.IGNORECASE), f"{path.name}: an inline event handler"
        assert not SINKS.search(html), f"{path.name}: {SINKS.search(html).group(0)}"
