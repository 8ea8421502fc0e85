"""The Starlette app of ``meeplezoo serve``: static pages, the Play API and the Watch API.

Play: ``POST /api/play`` makes a game (game, config, seat, bots, seed) and returns its id and the human seat's
token; ``GET /api/play/{id}?token=`` is that seat's view; ``POST /api/play/{id}/act`` with ``{token, action}``
makes its move. Watch: ``GET /api/stored`` lists the arena database's games a page at a time, sorted and
filtered (:func:`listing_query`), ``GET /api/stored/{id}?seat=`` replays one (every frame: the table for that
view, the decision named as that view may read it and a solo automa's turns after it, the scores);
``POST /api/replay`` does the same for a JSON export. Every bad request gets a 4xx with ``{"error": one line}``
and changes nothing.

What the server trusts and refuses (docs/security.md): every request passes :class:`~.security.RequestChecks`
(its own Host and Origin only, JSON bodies up to 1 MB); bots come from :class:`~.bots.BotPolicy`; at most
``max_games`` games live at once and one idle for ``idle_seconds`` expires; a game's seed is secret unless the
player fixes it.
"""

from __future__ import annotations

import re
import secrets
import sqlite3
import time
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import games, options
from .bots import BotPolicy
from .security import RequestChecks, RequestError, read_json_object
from .session import THINK_SECONDS, Session, table_of

STATIC = Path(__file__).parent / "static"
#: live games a server holds at most (finished ones make room for a new one first)
MAX_GAMES = 64
#: a game with no request and no bot move for this long expires
IDLE_SECONDS = 3600.0
_NUMBER = re.compile(r"[0-9]{1,18}")  # an ASCII whole number ("²".isdigit() is true, int("²") fails)


def _error(exc: RequestError) -> JSONResponse:
    return JSONResponse({"error": exc.reason}, status_code=exc.status)


async def _body(request: Request) -> dict[str, Any]:
    return read_json_object(await request.body())


def _seed(value: Any, what: str) -> int:
    """A seed from a request: a whole number in 0..MAX_SEED (a bigger one overflows the database)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= options.MAX_SEED:
        raise RequestError(400, f"{what} must be a whole number from 0 to {options.MAX_SEED}")
    return value


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


class Sessions:
    """The games a server holds: at most ``max_games``; one with no request and no bot move for
    ``idle_seconds`` expires (its id then answers 404). Used from the event loop only."""

    def __init__(self, max_games: int, idle_seconds: float) -> None:
        self.games: dict[str, Session] = {}
        self.max_games, self.idle_seconds = max_games, idle_seconds
        self.count = 0

    def expire(self) -> None:
        now = time.monotonic()
        for gid, s in list(self.games.items()):
            if not s.thinking and now - s.last_active > self.idle_seconds:
                del self.games[gid]

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
            del self.games[min(done, key=lambda s: s.last_active).id]
        self.count += 1
        return f"g{self.count}"

    def add(self, s: Session) -> None:
        self.games[s.id] = s


@cache
def _defaults(game: str) -> dict[str, Any]:
    """A game's config keys with their defaults."""
    return dict(games.make_env(game).unwrapped.game.defaults)


def replay_frames(game: str, config: dict, seed: int, actions: list[int], seat: int | None) -> dict[str, Any]:
    """Every position of a game as ``seat`` (None: everything) sees it, with the decision taken there (named as
    ``seat`` may read it: ``State.public_action_name``) and the automa turns that followed it (solo)."""
    try:
        env = games.make_env(game, **config)
        env.reset(seed=seed)
    except Exception as exc:  # a bad config in a stored game or an export
        raise RequestError(422, f"cannot set up this {game} game: {exc}".splitlines()[0]) from exc
    state = env.unwrapped.state_obj
    frames = []
    fixed = None
    setup = state.automa_turns(None)  # a solo automa's turns before the first decision
    for i, action in enumerate([*actions, None]):
        frame: dict[str, Any] = {"index": i, "table": table_of(state, seat)}
        fixed = frame["table"].pop("fixed", fixed)  # the game's fixed content (a map): sent once
        if "view" in frame["table"]:  # the game's view draws it: the field lists are not sent again
            for key in ("players", "board", "legend"):
                frame["table"].pop(key)
        if action is not None:
            s = state.current_player()
            if not isinstance(action, int) or not 0 <= action < state.game.num_actions or not state.is_legal(action):
                raise RequestError(422, f"decision {i}: action {action} is illegal there (a corrupt game)")
            before = state.clone()
            frame["decision"] = {"seat": s, "pending": state.pending(), "name": state.public_action_name(action, seat)}
            state.apply(action)
            frame["decision"]["automa"] = state.automa_turns(before)  # a solo automa's turns that followed
        frames.append(frame)
    return {"game": game, "num_players": state.game.num_players, "fixed": fixed, "setup": setup, "frames": frames}


#: how the Watch page's list may be sorted: a stored game's sort key per name (ties: by id)
SORT_KEYS: dict[str, Any] = {
    "id": lambda r: r.id,
    "game": lambda r: r.game,
    "agents": lambda r: " vs ".join(r.seats),
    "decisions": lambda r: r.decisions,
    "finished": lambda r: r.finished_at,
}
PER_PAGE, MAX_PER_PAGE = 20, 200


def listing_query(params: Any) -> dict[str, Any]:
    """The stored-game list's query: ``sort`` (:data:`SORT_KEYS`, default ``id``), ``order`` (``asc`` or
    ``desc``, default ``desc``: newest first), ``game`` and ``agent`` (exact names: games of that game, games
    with that agent in a seat), ``page`` (from 1) and ``per_page`` (1..:data:`MAX_PER_PAGE`). 400 if bad."""
    q: dict[str, Any] = {"sort": params.get("sort", "id"), "order": params.get("order", "desc")}
    if q["sort"] not in SORT_KEYS:
        raise RequestError(400, f"sort must be one of {', '.join(SORT_KEYS)}, got {q['sort'][:40]!r}")
    if q["order"] not in ("asc", "desc"):
        raise RequestError(400, f"order must be asc or desc, got {q['order'][:40]!r}")
    for key in ("game", "agent"):
        q[key] = params.get(key) or None
        if q[key] is not None and len(q[key]) > 500:
            raise RequestError(400, f"{key} must be at most 500 characters")
    for key, default, high in (("page", 1, None), ("per_page", PER_PAGE, MAX_PER_PAGE)):
        raw = params.get(key, str(default))
        if not _NUMBER.fullmatch(raw) or int(raw) < 1 or (high is not None and int(raw) > high):
            limit = f"1 to {high}" if high else "1 on"
            raise RequestError(400, f"{key} must be a whole number from {limit}, got {raw[:40]!r}")
        q[key] = int(raw)
    return q


def listing(rows: list[Any], q: dict[str, Any]) -> dict[str, Any]:
    """The page ``q`` asks for of the stored games ``rows`` (``page`` past the last one: 400)."""
    from ..arena.contexts import changed_settings

    choices = {"games": sorted({r.game for r in rows}), "agents": sorted({s for r in rows for s in r.seats})}
    if q["game"] is not None:
        rows = [r for r in rows if r.game == q["game"]]
    if q["agent"] is not None:
        rows = [r for r in rows if q["agent"] in r.seats]
    key, desc = SORT_KEYS[q["sort"]], q["order"] == "desc"
    rows = sorted(rows, key=lambda r: r.id, reverse=desc)
    rows.sort(key=key, reverse=desc)  # stable: ties stay in id order, the same way round
    pages = max(1, -(-len(rows) // q["per_page"]))
    if q["page"] > pages:
        raise RequestError(400, f"page {q['page']} is past the last page ({pages})")
    start = (q["page"] - 1) * q["per_page"]
    out = [
        {
            "id": r.id,
            "game": r.game,
            "settings": changed_settings(r.game, r.config),
            "seats": r.seats,
            "scores": r.scores,
            "ranks": r.ranks,
            "decisions": r.decisions,
            "truncated": r.truncated,
            "forfeit": r.forfeit,
            "finished": r.finished_at,
        }
        for r in rows[start : start + q["per_page"]]
    ]
    return {"games": out, "total": len(rows), "pages": pages, "choices": choices, **q}


def create_app(
    db: str | Path | None = None,
    *,
    hosts: Iterable[str] | None = None,
    allow_agents: Iterable[str] = (),
    max_games: int = MAX_GAMES,
    idle_seconds: float = IDLE_SECONDS,
    think_seconds: float = THINK_SECONDS,
) -> Starlette:
    """The app; finished games are stored in, and the Watch page reads, the arena database ``db``.

    Args:
        db: the arena database (None: finished games are not stored).
        hosts: the ``Host`` values it answers to, ``name:port`` or ``name`` for any port
            (:func:`~.security.own_hosts`); None: the loopback names on any port.
        allow_agents: bot specs web games may seat besides :data:`~.bots.SERVER_BOTS`, exactly as written.
        max_games, idle_seconds: the live games it holds at most, and how long an idle one lives.
        think_seconds: a bot's time per decision (past it, the bot forfeits).

    Raises :class:`~meeplezoo.arena.errors.StoreError` (one line) unless ``db`` is an arena database it can
    write or a new one it can create.
    """
    if db is not None:
        check_writable_store(db)
    sessions = Sessions(max_games, idle_seconds)
    bots = BotPolicy(allow_agents)

    def session(request: Request) -> Session:
        return sessions.get(request.path_params["gid"])

    async def page(request: Request) -> FileResponse:
        return FileResponse(STATIC / ("watch.html" if request.url.path.startswith("/watch") else "play.html"))

    async def game_view(request: Request) -> Response:
        """A game's table view (``envs/<game>/view.js``, shipped next to its rules); 404: the generic one."""
        game = request.path_params["game"]
        if game not in games.game_names():
            return Response(f"// no game {game!r}", status_code=404, media_type="text/javascript")
        try:
            source = resources.files(f"meeplezoo.envs.{game}").joinpath("view.js").read_text(encoding="utf-8")
        except (ModuleNotFoundError, FileNotFoundError):
            return Response(f"// {game} has no view", status_code=404, media_type="text/javascript")
        return Response(source, media_type="text/javascript")

    async def catalog(request: Request) -> JSONResponse:
        out = []
        for name in games.game_names():
            keys = {k: v for k, v in _defaults(name).items() if k != "num_players"}
            out.append(
                {
                    "name": name,
                    "players": list(games.player_counts(name)),
                    "agents": bots.names(name),
                    "bots": bots.catalog(name),
                    "options": {k: str(v) for k, v in keys.items()},
                }
            )
        return JSONResponse(
            {"games": out, "db": str(db) if db else None, "think_seconds": think_seconds, "max_seed": options.MAX_SEED}
        )

    async def new_game(request: Request) -> JSONResponse:
        try:
            body = await _body(request)
            game = body.get("game")
            if not isinstance(game, str) or game not in games.game_names():
                raise RequestError(400, f"unknown game {game!r}; known: {', '.join(games.game_names())}")
            config, seat, specs, seed = body.get("config", {}), body.get("seat", 0), body.get("bots"), body.get("seed")
            if not isinstance(config, dict):
                raise RequestError(400, "config must be a JSON object")
            items = body.get("options", [])  # KEY=VALUE texts, read as the CLI reads --config
            if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                raise RequestError(400, "options must be a list of KEY=VALUE texts")
            try:
                config = {**config, **options.parse_config(items, _defaults(game), game)}
            except options.OptionError as exc:
                raise RequestError(400, str(exc).replace("--set ", "")) from exc
            if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(specs, list):
                raise RequestError(400, "seat must be an integer and bots a list of agent specs")
            for i, spec in enumerate(specs):
                bots.check(spec, game, f"bot {i + 1}")
            fixed = seed is not None  # else a secret seed: who knows it can rebuild the hidden cards
            seed = _seed(seed, "seed") if fixed else secrets.randbelow(options.MAX_SEED + 1)
            gid = sessions.new_id()
            try:
                s = Session(
                    gid, game, config, seat, specs, seed, fixed_seed=fixed, think_seconds=think_seconds, store_path=db
                )
            except RequestError:
                raise
            except Exception as exc:  # a bad config
                raise RequestError(400, f"cannot make {game}: {exc}".splitlines()[0]) from exc
            sessions.add(s)
            s.start_bots()
            return JSONResponse({"id": gid, "token": s.token, "seat": seat})
        except RequestError as exc:
            return _error(exc)

    async def view(request: Request) -> JSONResponse:
        try:
            # in a thread: the session lock may be held by a bot thinking, the event loop must not wait
            return JSONResponse(await run_in_threadpool(session(request).view, request.query_params.get("token")))
        except RequestError as exc:
            return _error(exc)

    async def act(request: Request) -> JSONResponse:
        try:
            s = session(request)
            body = await _body(request)
            await run_in_threadpool(s.act, body.get("token"), body.get("action"))
            return JSONResponse(await run_in_threadpool(s.view, body.get("token")))
        except RequestError as exc:
            return _error(exc)

    def _seat(request: Request) -> int | None:
        raw = request.query_params.get("seat", "all")
        if raw == "all":
            return None
        if not _NUMBER.fullmatch(raw):
            raise RequestError(400, f"seat must be a seat number or 'all', got {raw[:40]!r}")
        return int(raw)

    async def stored(request: Request) -> JSONResponse:
        """One page of the stored games, filtered and sorted (:func:`listing_query`), with the games and agents
        any stored game has (the page's filter choices)."""
        try:
            q = listing_query(request.query_params)
            rows = []
            if db is not None and Path(db).exists():
                from ..arena.store import Store

                with Store(db, create=False) as st:
                    rows = list(st.games(actions=False))
            return JSONResponse(listing(rows, q))
        except RequestError as exc:
            return _error(exc)

    async def stored_game(request: Request) -> JSONResponse:
        try:
            if db is None or not Path(db).exists():
                raise RequestError(404, "this server has no arena database (start it with --db FILE)")
            from ..arena.store import Store

            raw = request.path_params["rid"]
            if not _NUMBER.fullmatch(raw):
                raise RequestError(400, f"game id must be a number, got {raw[:40]!r}")
            with Store(db, create=False) as st:
                try:
                    row = st.game(int(raw))
                except Exception as exc:
                    raise RequestError(404, f"no stored game {raw}") from exc
            seat = _seat(request)
            if seat is not None and seat >= len(row.seats):
                raise RequestError(400, f"seat must be 0..{len(row.seats) - 1} or 'all'")
            out = replay_frames(row.game, row.config, row.seed, row.actions, seat)
            out.update(id=row.id, seats=row.seats, scores=row.scores, ranks=row.ranks, forfeit=row.forfeit)
            return JSONResponse(out)
        except RequestError as exc:
            return _error(exc)

    async def replay_export(request: Request) -> JSONResponse:
        """A JSON export (``meeplezoo replay DB ID --to-json``, full view) replayed for the Watch page."""
        try:
            body = await _body(request)
            decisions = body.get("decisions")
            if body.get("game") not in games.game_names() or not isinstance(decisions, list):
                raise RequestError(400, "not a game export: it needs game, config, seed and decisions")
            actions = [d.get("action") if isinstance(d, dict) else None for d in decisions]
            if body.get("view", "full") != "full" or not all(isinstance(a, int) for a in actions):
                raise RequestError(400, "the export hides some choices (a seat view): export the full view")
            seat = _seat(request)
            config, seed = body.get("config", {}), body.get("seed", 0)
            if not isinstance(config, dict) or not isinstance(seed, int):
                raise RequestError(400, "not a game export: config must be an object and seed an integer")
            _seed(seed, "the export's seed")
            out = replay_frames(body["game"], config, seed, actions, seat)
            keys = ("seats", "scores", "ranks", "forfeit")
            out.update({k: body.get(k) for k in keys})
            return JSONResponse(out)
        except RequestError as exc:
            return _error(exc)

    routes = [
        Route("/", page),
        Route("/play", page),
        Route("/watch", page),
        Route("/views/{game}.js", game_view),
        Route("/api/catalog", catalog),
        Route("/api/play", new_game, methods=["POST"]),
        Route("/api/play/{gid}", view),
        Route("/api/play/{gid}/act", act, methods=["POST"]),
        Route("/api/stored", stored),
        Route("/api/stored/{rid}", stored_game),
        Route("/api/replay", replay_export, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(RequestChecks, hosts=hosts)])
