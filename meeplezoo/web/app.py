"""The Starlette app of ``meeplezoo serve``: its routes grouped by page.

- :mod:`.pages`: the Play and Watch pages, each game's table view (``/views/{game}.js``) and the static files;
- :mod:`.play`: the Play page's API (the catalog, a new game, a seat's view and moves);
- :mod:`.watch`: the Watch page's API (the stored games, one replayed, a JSON export replayed).

Every bad request gets a 4xx with ``{"error": one line}`` and changes nothing. What the server trusts and refuses
(docs/security.md): every request passes :class:`~.security.RequestChecks` (its own Host and Origin only, JSON
bodies up to 1 MB); bots come from :class:`~.bots.BotPolicy`; at most ``max_games`` games live at once and one
idle for ``idle_seconds`` expires; a game's seed is secret unless the player fixes it.
"""

from __future__ import annotations

import contextlib
import importlib
import sqlite3
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware

from ..agents.run_options import ISOLATION_MODES
from .bots import BotPolicy
from .context import AppContext, Sessions
from .pages import page_routes
from .play import play_routes
from .security import RequestChecks
from .session import THINK_SECONDS
from .watch import listing, listing_query, replay_frames, watch_routes

#: live games a server holds at most (finished ones make room for a new one first)
MAX_GAMES = 64
#: a game with no request and no bot move for this long expires
IDLE_SECONDS = 3600.0


def check_writable_store(db: str | Path) -> None:
    """Raise :class:`~meeplezoo.arena.errors.StoreError` (one line) unless ``db`` is an arena database this
    process can write, or a new one it can create (created now, so a finished game is never lost later)."""
    from ..arena.errors import StoreError
    from ..arena.store import Store

    path = Path(db)
    if not path.parent.is_dir():
        raise StoreError(f"{path}: there is no folder {str(path.parent)!r} to hold it")
    try:
        with Store(path) as store:  # checks the file, creates the tables if needed
            store.con.execute("BEGIN IMMEDIATE")
            try:
                store.con.execute("UPDATE meta SET value = value WHERE key = 'schema'")  # a write, undone
            finally:
                store.con.execute("ROLLBACK")
    except StoreError:
        raise
    except (sqlite3.Error, OSError) as exc:
        raise StoreError(f"{path}: cannot write this arena database ({exc})".splitlines()[0]) from exc


def create_app(
    db: str | Path | None = None,
    *,
    hosts: Iterable[str] | None = None,
    allow_agents: Iterable[str] = (),
    max_games: int = MAX_GAMES,
    idle_seconds: float = IDLE_SECONDS,
    think_seconds: float = THINK_SECONDS,
    isolation: str = "process",
    imports: Iterable[str] = (),
) -> Starlette:
    """The app; finished games are stored in, and the Watch page reads, the arena database ``db``.

    Args:
        db: the arena database (None: finished games are not stored).
        hosts: the ``Host`` values it answers to, ``name:port`` or ``name`` for any port
            (:func:`~.security.own_hosts`); None: the loopback names on any port.
        allow_agents: bot specs web games may seat besides :data:`~.bots.SERVER_BOTS`, exactly as written.
        max_games, idle_seconds: the live games it holds at most, and how long an idle one lives.
        think_seconds: a bot's time per decision (past it, the bot forfeits; an isolated bot's process is killed).
        isolation: ``"process"``: each bot in its own process for its table's life (closed when the game ends, the
            game expires or the server stops); ``"none"``: in the server's process (trusted bots only).
        imports: modules that register agents (``serve --import``): imported here, and by every bot process.

    Raises :class:`~meeplezoo.arena.errors.StoreError` (one line) unless ``db`` is an arena database it can
    write or a new one it can create.
    """
    if isolation not in ISOLATION_MODES:
        raise ValueError(f"isolation must be one of {', '.join(ISOLATION_MODES)}, not {isolation!r}")
    if db is not None:
        check_writable_store(db)
    imports = tuple(imports)
    for module in imports:
        importlib.import_module(module)
    sessions = Sessions(max_games, idle_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            sessions.close()  # no bot process outlives the server

    app = Starlette(
        routes=[*play_routes(), *watch_routes(), *page_routes()],
        middleware=[Middleware(RequestChecks, hosts=hosts)],
        lifespan=lifespan,
    )
    app.state.web = AppContext(db, sessions, BotPolicy(allow_agents), think_seconds, isolation, imports)
    return app


__all__ = ["check_writable_store", "create_app", "listing", "listing_query", "replay_frames"]
