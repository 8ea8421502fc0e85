"""The Starlette app of ``meeplezoo serve``: static pages, the Play API and the Watch API.

Play: ``POST /api/play`` makes a game (game, config, seat, bots, seed) and returns its id and the human seat's
token; ``GET /api/play/{id}?token=`` is that seat's view; ``POST /api/play/{id}/act`` with ``{token, action}``
makes its move. Watch: ``GET /api/stored`` lists the arena database's games, ``GET /api/stored/{id}?seat=``
replays one (every frame: the table for that view, the decision named as that view may read it and a solo
automa's turns after it, the scores); ``POST /api/replay`` does the same for a JSON export. Every bad
request gets a 4xx with ``{"error": one line}`` and changes nothing.
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import games, options
from ..agents.registry import available_agents
from .session import RequestError, Session, table_of

STATIC = Path(__file__).parent / "static"


def _error(exc: RequestError) -> JSONResponse:
    return JSONResponse({"error": exc.reason}, status_code=exc.status)


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(400, "the request body is not JSON") from exc
    if not isinstance(body, dict):
        raise RequestError(400, "the request body must be a JSON object")
    return body


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


def create_app(db: str | Path | None = None) -> Starlette:
    """The app; finished games are stored in, and the Watch page reads, the arena database ``db``.

    Raises :class:`~meeplezoo.arena.errors.StoreError` (one line) if ``db`` is a file but no arena database.
    """
    if db is not None:
        from ..arena.store import check

        check(db)
    sessions: dict[str, Session] = {}
    counter = itertools.count(1)

    def session(request: Request) -> Session:
        gid = request.path_params["gid"]
        if gid not in sessions:
            raise RequestError(404, f"no game {gid!r} on this server")
        return sessions[gid]

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
                    "agents": available_agents(name),
                    "options": {k: str(v) for k, v in keys.items()},
                }
            )
        return JSONResponse({"games": out, "db": str(db) if db else None})

    async def new_game(request: Request) -> JSONResponse:
        try:
            body = await _body(request)
            game = body.get("game")
            if not isinstance(game, str) or game not in games.game_names():
                raise RequestError(400, f"unknown game {game!r}; known: {', '.join(games.game_names())}")
            config, seat, bots, seed = body.get("config", {}), body.get("seat", 0), body.get("bots"), body.get("seed")
            if not isinstance(config, dict):
                raise RequestError(400, "config must be a JSON object")
            items = body.get("options", [])  # KEY=VALUE texts, read as the CLI reads --config
            if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                raise RequestError(400, "options must be a list of KEY=VALUE texts")
            try:
                config = {**config, **options.parse_config(items, _defaults(game), game)}
            except options.OptionError as exc:
                raise RequestError(400, str(exc).replace("--config ", "")) from exc
            if not isinstance(seat, int) or not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
                raise RequestError(400, "seat must be an integer and bots a list of agent specs")
            if seed is None:
                seed = next(counter) * 7919 % 100_000
            if not isinstance(seed, int):
                raise RequestError(400, "seed must be an integer")
            gid = f"g{len(sessions) + 1}"
            try:
                s = Session(gid, game, config, seat, bots, seed)
            except RequestError:
                raise
            except Exception as exc:  # a bad config
                raise RequestError(400, f"cannot make {game}: {exc}".splitlines()[0]) from exc
            s.store_path = db
            sessions[gid] = s
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
        if not raw.isdigit():
            raise RequestError(400, f"seat must be a seat number or 'all', got {raw!r}")
        return int(raw)

    async def stored(request: Request) -> JSONResponse:
        if db is None or not Path(db).exists():
            return JSONResponse({"games": []})
        from ..arena.store import Store

        with Store(db, create=False) as st:
            rows = [
                {"id": r.id, "game": r.game, "seats": r.seats, "scores": r.scores, "decisions": r.decisions}
                for r in st.games(actions=False)
            ]
        return JSONResponse({"games": rows})

    async def stored_game(request: Request) -> JSONResponse:
        try:
            if db is None or not Path(db).exists():
                raise RequestError(404, "this server has no arena database (start it with --db FILE)")
            from ..arena.store import Store

            raw = request.path_params["rid"]
            if not raw.isdigit():
                raise RequestError(400, f"game id must be a number, got {raw!r}")
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
            out = replay_frames(body["game"], config, seed, actions, seat)
            out.update(seats=body.get("seats"), scores=body.get("scores"), ranks=body.get("ranks"))
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
    return Starlette(routes=routes)
