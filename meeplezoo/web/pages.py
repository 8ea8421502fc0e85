"""The web app's pages: Play and Watch (static HTML), each game's table view script, and the static files."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .. import games

STATIC = Path(__file__).parent / "static"


async def page(request: Request) -> FileResponse:
    return FileResponse(STATIC / ("watch.html" if request.url.path.startswith("/watch") else "play.html"))


async def game_view(request: Request) -> Response:
    """A game's table view (its manifest's ``view_script()``: ``view.js`` beside its rules); 404 for a game
    without one: the page then draws the generic table."""
    game = request.path_params["game"]
    if game not in games.game_names():
        return Response(f"// no game {game!r}", status_code=404, media_type="text/javascript")
    source = games.manifest(game).view_script()
    if source is None:
        return Response(f"// {game} has no view", status_code=404, media_type="text/javascript")
    return Response(source, media_type="text/javascript")


def page_routes() -> list[BaseRoute]:
    return [
        Route("/", page),
        Route("/play", page),
        Route("/watch", page),
        Route("/views/{game}.js", game_view),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
