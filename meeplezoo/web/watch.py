"""The Watch page's API: the arena database's games a page at a time, one replayed, or a JSON export replayed.

``GET /api/stored`` lists the stored games, sorted and filtered (:func:`listing_query`); ``GET
/api/stored/{id}?seat=`` replays one (every frame: the table for that view, the decision named as that view may
read it and a solo automa's turns after it, the scores); ``POST /api/replay`` does the same for a JSON export.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from .. import games
from .context import NUMBER, body, context, error, read_seat, read_seed
from .security import RequestError
from .tables import table_of

#: how the Watch page's list may be sorted: a stored game's sort key per name (ties: by id)
SORT_KEYS: dict[str, Any] = {
    "id": lambda r: r.id,
    "game": lambda r: r.game,
    "agents": lambda r: " vs ".join(r.seats),
    "decisions": lambda r: r.decisions,
    "finished": lambda r: r.finished_at,
}
PER_PAGE, MAX_PER_PAGE = 20, 200


def _frame(state: Any, index: int, seat: int | None, action: int | None, fixed: Any) -> tuple[dict[str, Any], Any]:
    """One frame of a replay (the table as ``seat`` sees it, and the decision ``action`` taken there, applied to
    ``state``) and the game's fixed content (sent once)."""
    frame: dict[str, Any] = {"index": index, "table": table_of(state, seat)}
    fixed = frame["table"].pop("fixed", fixed)  # the game's fixed content (a map): sent once
    if "view" in frame["table"]:  # the game's view draws it: the field lists are not sent again
        for key in ("players", "board", "legend"):
            frame["table"].pop(key)
    if action is not None:
        s = state.current_player()
        if not isinstance(action, int) or not 0 <= action < state.game.num_actions or not state.is_legal(action):
            raise RequestError(422, f"decision {index}: action {action} is illegal there (a corrupt game)")
        before = state.clone()
        frame["decision"] = {"seat": s, "pending": state.pending(), "name": state.public_action_name(action, seat)}
        state.apply(action)
        frame["decision"]["automa"] = state.automa_turns(before)  # a solo automa's turns that followed
    return frame, fixed


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
        frame, fixed = _frame(state, i, seat, action, fixed)
        frames.append(frame)
    return {"game": game, "num_players": state.game.num_players, "fixed": fixed, "setup": setup, "frames": frames}


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
        if not NUMBER.fullmatch(raw) or int(raw) < 1 or (high is not None and int(raw) > high):
            limit = f"1 to {high}" if high else "1 on"
            raise RequestError(400, f"{key} must be a whole number from {limit}, got {raw[:40]!r}")
        q[key] = int(raw)
    return q


def _listed(r: Any) -> dict[str, Any]:
    """A stored game as the list shows it."""
    from ..arena.contexts import changed_settings

    return {
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


def listing(rows: list[Any], q: dict[str, Any]) -> dict[str, Any]:
    """The page ``q`` asks for of the stored games ``rows`` (``page`` past the last one: 400)."""
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
    out = [_listed(r) for r in rows[start : start + q["per_page"]]]
    return {"games": out, "total": len(rows), "pages": pages, "choices": choices, **q}


async def stored(request: Request) -> JSONResponse:
    """One page of the stored games, filtered and sorted (:func:`listing_query`), with the games and agents any
    stored game has (the page's filter choices)."""
    try:
        q = listing_query(request.query_params)
        db = context(request).db
        rows = []
        if db is not None and Path(db).exists():
            from ..arena.store import Store

            with Store(db, create=False) as st:
                rows = list(st.games(actions=False))
        return JSONResponse(listing(rows, q))
    except RequestError as exc:
        return error(exc)


async def stored_game(request: Request) -> JSONResponse:
    try:
        db = context(request).db
        if db is None or not Path(db).exists():
            raise RequestError(404, "this server has no arena database (start it with --db FILE)")
        from ..arena.store import Store

        raw = request.path_params["rid"]
        if not NUMBER.fullmatch(raw):
            raise RequestError(400, f"game id must be a number, got {raw[:40]!r}")
        with Store(db, create=False) as st:
            try:
                row = st.game(int(raw))
            except Exception as exc:
                raise RequestError(404, f"no stored game {raw}") from exc
        view = read_seat(request)
        if view is not None and view >= len(row.seats):
            raise RequestError(400, f"seat must be 0..{len(row.seats) - 1} or 'all'")
        out = replay_frames(row.game, row.config, row.seed, row.actions, view)
        out.update(id=row.id, seats=row.seats, scores=row.scores, ranks=row.ranks, forfeit=row.forfeit)
        return JSONResponse(out)
    except RequestError as exc:
        return error(exc)


async def replay_export(request: Request) -> JSONResponse:
    """A JSON export (``meeplezoo replay DB ID --to-json``, full view) replayed for the Watch page."""
    try:
        export = await body(request)
        decisions = export.get("decisions")
        if export.get("game") not in games.game_names() or not isinstance(decisions, list):
            raise RequestError(400, "not a game export: it needs game, config, seed and decisions")
        actions = [d.get("action") if isinstance(d, dict) else None for d in decisions]
        if export.get("view", "full") != "full" or not all(isinstance(a, int) for a in actions):
            raise RequestError(400, "the export hides some choices (a seat view): export the full view")
        view = read_seat(request)
        config, game_seed = export.get("config", {}), export.get("seed", 0)
        if not isinstance(config, dict) or not isinstance(game_seed, int):
            raise RequestError(400, "not a game export: config must be an object and seed an integer")
        read_seed(game_seed, "the export's seed")
        out = replay_frames(export["game"], config, game_seed, actions, view)
        out.update({k: export.get(k) for k in ("seats", "scores", "ranks", "forfeit")})
        return JSONResponse(out)
    except RequestError as exc:
        return error(exc)


def watch_routes() -> list[BaseRoute]:
    return [
        Route("/api/stored", stored),
        Route("/api/stored/{rid}", stored_game),
        Route("/api/replay", replay_export, methods=["POST"]),
    ]
