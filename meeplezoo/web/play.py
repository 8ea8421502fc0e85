"""The Play page's API: the catalog of games and bots, a new game against the server's bots, a seat's view and
its moves.

``GET /api/catalog``; ``POST /api/play`` makes a game (game, config, options, seat, bots, seed) and returns its id
and the human seat's token; ``GET /api/play/{id}?token=`` is that seat's view; ``POST /api/play/{id}/act`` with
``{token, action}`` makes its move.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from .. import games, options
from .context import AppContext, body, context, error, read_seed
from .security import RequestError
from .session import Session


def game_options(game: str) -> dict[str, str]:
    """The options the Play page offers for ``game`` (its config keys but the player count), with defaults."""
    return {p.name: str(p.default) for p in options.config_schema(game) if p.name != "num_players"}


async def catalog(request: Request) -> JSONResponse:
    ctx = context(request)
    out = [
        {
            "name": name,
            "players": list(games.player_counts(name)),
            "agents": ctx.bots.names(name),
            "bots": ctx.bots.catalog(name),
            "options": game_options(name),
        }
        for name in games.game_names()
    ]
    db = str(ctx.db) if ctx.db else None
    return JSONResponse({"games": out, "db": db, "think_seconds": ctx.think_seconds, "max_seed": options.MAX_SEED})


def _config(game: str, request: dict[str, Any]) -> dict[str, Any]:
    """The game's config from a new-game request: its ``config`` object, then its ``options`` (``KEY=VALUE``
    texts, read as the CLI reads ``--set``)."""
    config, items = request.get("config", {}), request.get("options", [])
    if not isinstance(config, dict):
        raise RequestError(400, "config must be a JSON object")
    if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
        raise RequestError(400, "options must be a list of KEY=VALUE texts")
    try:
        return {**config, **options.parse_config(items, options.game_params(game), game)}
    except options.OptionError as exc:
        raise RequestError(400, str(exc).replace("--set ", "")) from exc


def _new_session(ctx: AppContext, request: dict[str, Any]) -> Callable[[], Session]:
    """A new game as the request asks, every value checked before anything is made: what makes it (its bots'
    processes start there: call it off the event loop)."""
    game = request.get("game")
    if not isinstance(game, str) or game not in games.game_names():
        raise RequestError(400, f"unknown game {game!r}; known: {', '.join(games.game_names())}")
    config = _config(game, request)
    seat, specs, fixed_seed = request.get("seat", 0), request.get("bots"), request.get("seed")
    if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(specs, list):
        raise RequestError(400, "seat must be an integer and bots a list of agent specs")
    for i, spec in enumerate(specs):
        ctx.bots.check(spec, game, f"bot {i + 1}")
    fixed = fixed_seed is not None  # else a secret seed: who knows it can rebuild the hidden cards
    game_seed = read_seed(fixed_seed, "seed") if fixed else secrets.randbelow(options.MAX_SEED + 1)
    gid = ctx.sessions.new_id()

    def make() -> Session:
        try:
            return Session(
                gid,
                game,
                config,
                seat,
                specs,
                game_seed,
                fixed_seed=fixed,
                think_seconds=ctx.think_seconds,
                store_path=ctx.db,
                isolation=ctx.isolation,
                imports=ctx.imports,
            )
        except RequestError:
            raise
        except Exception as exc:  # a bad config
            raise RequestError(400, f"cannot make {game}: {exc}".splitlines()[0]) from exc

    return make


async def new_game(request: Request) -> JSONResponse:
    try:
        ctx = context(request)
        s = await run_in_threadpool(_new_session(ctx, await body(request)))
        ctx.sessions.add(s)
        s.start_bots()
        return JSONResponse({"id": s.id, "token": s.token, "seat": s.seat})
    except RequestError as exc:
        return error(exc)


async def view(request: Request) -> JSONResponse:
    try:
        s = context(request).sessions.get(request.path_params["gid"])
        # in a thread: the session lock may be held by a bot thinking, the event loop must not wait
        return JSONResponse(await run_in_threadpool(s.view, request.query_params.get("token")))
    except RequestError as exc:
        return error(exc)


async def act(request: Request) -> JSONResponse:
    try:
        s = context(request).sessions.get(request.path_params["gid"])
        move = await body(request)
        await run_in_threadpool(s.act, move.get("token"), move.get("action"))
        return JSONResponse(await run_in_threadpool(s.view, move.get("token")))
    except RequestError as exc:
        return error(exc)


def play_routes() -> list[BaseRoute]:
    return [
        Route("/api/catalog", catalog),
        Route("/api/play", new_game, methods=["POST"]),
        Route("/api/play/{gid}", view),
        Route("/api/play/{gid}/act", act, methods=["POST"]),
    ]
