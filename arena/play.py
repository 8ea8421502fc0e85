"""The arena's one seam with :mod:`meeplezoo.agents`: agents from spec strings, one guarded game, a plain result.

Everything the arena needs from the agents package goes through this module: :func:`check_spec` (is the spec
known for the game), :func:`play_task` (make the agents, wrap each in a :class:`~.faults.Guard`, play one
game with ``play_game``, return a plain dict). Until the agents package parses spec strings itself, specs
``name[:key=value,...]`` are parsed here and the parameters go to the agent's constructor.
"""

from __future__ import annotations

import importlib
import inspect
import json
import time
from typing import Any

from .. import games
from .errors import ArenaError
from .faults import Forfeit, Guard


def import_plugins(modules: tuple[str, ...] | list[str]) -> None:
    """Import modules that register extra agents (``--import mybots``), in this process."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise ArenaError(f"cannot import agent module {module!r}: {exc}") from exc


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iters=200,c=1.4"`` -> ``("mcts", {"iters": 200, "c": 1.4})``; values are JSON or text."""
    name, _, rest = spec.partition(":")
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise ArenaError(f"bad agent spec {spec!r}: expected NAME or NAME:KEY=VALUE,...")
    params: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise ArenaError(f"bad agent spec {spec!r}: parameter {item!r} is not KEY=VALUE")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return name, params


def _make(spec: str, game: str, seed: int | None) -> Any:
    from meeplezoo.agents import agent_class, available_agents, make_agent

    name, params = parse_spec(spec)
    if name not in available_agents(game):
        raise ArenaError(f"unknown agent {name!r} for {game}; available: {', '.join(available_agents(game))}")
    if params:
        accepted = [p for p in inspect.signature(agent_class(name, game)).parameters if p != "seed"]
        unknown = sorted(set(params) - set(accepted))
        if unknown:
            raise ArenaError(
                f"agent {name!r} has no parameter(s) {unknown}; it accepts: {', '.join(accepted) or '(none)'}"
            )
    try:
        return make_agent(name, game, seed=seed, **params)
    except (TypeError, ValueError) as exc:
        raise ArenaError(f"agent spec {spec!r}: {exc}") from exc


def check_spec(spec: str, game: str) -> None:
    """Raise :class:`ArenaError` (one line) if ``spec`` does not make an agent for ``game``."""
    _make(spec, game, seed=0)


def play_task(task: Any) -> dict[str, Any]:
    """Play one scheduled game (a :class:`~.schedule.Task`) and return its result as plain data.

    A fault of a seat's agent ends the game: that seat forfeits (ranked last, the others share first place).
    """
    from meeplezoo.agents import play_game

    import_plugins(task.imports)
    env = games.make_env(task.game, **task.config)
    names = env.possible_agents
    state = lambda: env.unwrapped.state_obj  # noqa: E731 (the referee's view of the true position)
    num_actions = env.unwrapped.game.num_actions

    def is_legal(action: int) -> bool:
        return 0 <= action < num_actions and bool(state().is_legal(action))

    actions: list[int] = []
    guards = [
        Guard(_make(spec, task.game, seed), seat, is_legal, actions, task.time_limit)
        for seat, (spec, seed) in enumerate(zip(task.seats, task.agent_seeds, strict=True))
    ]
    start = time.perf_counter()
    fault = None
    truncated = False
    try:
        record = play_game(env, dict(zip(names, guards, strict=True)), seed=task.seed)
        truncated = bool(record.truncated)
    except Forfeit as exc:
        fault = exc.fault
    duration = time.perf_counter() - start
    final = state()
    scores = [float(x) for x in final.scores()]
    if fault is None:
        ranks = [int(r) for r in final.ranks()]
    else:
        ranks = [len(names) - 1 if seat == fault.seat else 0 for seat in range(len(names))]
    env.close()
    return {
        "key": task.key,
        "scores": scores,
        "ranks": ranks,
        "decisions": len(actions),
        "truncated": truncated,
        "forfeit": None if fault is None else fault.to_dict(),
        "duration": duration,
        "seat_time": [[g.clock.total, g.clock.longest] for g in guards],
        "actions": actions,
    }
