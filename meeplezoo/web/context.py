"""What every route of the web app shares: the server's :class:`AppContext` (its database, live games, bots and
think time), held on the app's state, and the reading of request values every page checks alike."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from .. import options
from .bots import BotPolicy
from .security import RequestError, read_json_object
from .session import Session

#: an ASCII whole number ("²".isdigit() is true, int("²") fails)
NUMBER = re.compile(r"[0-9]{1,18}")


class Sessions:
    """The games a server holds: at most ``max_games``; one with no request and no bot move for
    ``idle_seconds`` expires (its id then answers 404). Used from the event loop only."""

    def __init__(self, max_games: int, idle_seconds: float) -> None:
        self.games: dict[str, Session] = {}
        self.max_games, self.idle_seconds = max_games, idle_seconds
        self.count = 0

    def expire(self) -> None:
        """Drop the games idle for ``idle_seconds`` (their bots' processes end with them)."""
        now = time.monotonic()
        for gid, s in list(self.games.items()):
            if not s.thinking and now - s.last_active > self.idle_seconds:
                del self.games[gid]
                s.close()

    def close(self) -> None:
        """Drop every game and end its bots' processes (the server is stopping)."""
        games, self.games = list(self.games.values()), {}
        for s in games:
            s.close()

    def get(self, gid: str) -> Session:
        self.expire()
        s = self.games.get(gid)
        if s is None:
            raise RequestError(404, f"game {gid[:40]!r} expired or unknown")
        s.last_active = time.monotonic()
        return s

    def new_id(self) -> str:
        """An id for a new game; 503 if the server holds ``max_games`` unfinished ones (a finished game, the
        least recently seen, makes room)."""
        self.expire()
        if len(self.games) >= self.max_games:
            done = [s for s in self.games.values() if s.over and not s.thinking]
            if not done:
                raise RequestError(503, f"this server holds {self.max_games} live games: try again later")
            dropped = min(done, key=lambda s: s.last_active)
            del self.games[dropped.id]
            dropped.close()
        self.count += 1
        return f"g{self.count}"

    def add(self, s: Session) -> None:
        self.games[s.id] = s


@dataclass
class AppContext:
    """One server's state: the arena database finished games go to (None: not stored), its live games, the bots
    it seats, a bot's time per decision, where bots run (``"process"``: each in its own; ``"none"``: in the
    server's) and the modules a bot process imports first (they register agents)."""

    db: str | Path | None
    sessions: Sessions
    bots: BotPolicy
    think_seconds: float
    isolation: str = "process"
    imports: tuple[str, ...] = ()


def context(request: Request) -> AppContext:
    """The server's context (``create_app`` puts it on the app's state)."""
    return request.app.state.web


def error(exc: RequestError) -> JSONResponse:
    """A refused request: its status and ``{"error": one line}``."""
    return JSONResponse({"error": exc.reason}, status_code=exc.status)


async def body(request: Request) -> dict[str, Any]:
    return read_json_object(await request.body())


def read_seed(value: Any, what: str) -> int:
    """A seed from a request: a whole number in 0..MAX_SEED (a bigger one overflows the database)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= options.MAX_SEED:
        raise RequestError(400, f"{what} must be a whole number from 0 to {options.MAX_SEED}")
    return value


def read_seat(request: Request) -> int | None:
    """The ``seat`` query value: a seat number, or None for ``all`` (the default: everything)."""
    raw = request.query_params.get("seat", "all")
    if raw == "all":
        return None
    if not NUMBER.fullmatch(raw):
        raise RequestError(400, f"seat must be a seat number or 'all', got {raw[:40]!r}")
    return int(raw)
