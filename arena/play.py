"""The arena's one seam with :mod:`meeplezoo.agents`: agents from spec strings, one guarded game, a plain result.

Everything the arena needs from the agents package goes through this module: :func:`check_spec` (is the spec
known for the game), :func:`play_task` (make the agents, wrap each in a :class:`~.faults.Guard`, play one
game with ``play_game``, return a plain dict), :func:`seat_text` (a position as one seat may see it).
Agents are made from spec strings by ``make_agent`` (``random``, ``heuristic``, ``mcts:iters=200``...) and
act on their seat's view; the guard passes along whatever ``play_game`` gives them.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from .. import games
from ..envs.core.errors import MeepleZooError
from .errors import ArenaError
from .faults import RAISED, Fault, Forfeit, Guard


def import_plugins(modules: tuple[str, ...] | list[str]) -> None:
    """Import modules that register extra agents (``--import mybots``), in this process."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise ArenaError(f"cannot import agent module {module!r}: {exc}") from exc


#: agents that cannot play in a tournament (they read a terminal)
NOT_FOR_THE_ARENA = ("human",)


def _make(spec: str, game: str, seed: int | None) -> Any:
    from meeplezoo.agents import make_agent

    if spec.partition(":")[0].strip() in NOT_FOR_THE_ARENA:
        raise ArenaError(f"agent spec {spec!r}: a human player cannot take part in an arena tournament")
    try:
        return make_agent(spec, game, seed=seed)
    except MeepleZooError as exc:
        raise ArenaError(str(exc)) from exc


def check_spec(spec: str, game: str) -> None:
    """Raise :class:`ArenaError` (one line) if ``spec`` does not make an agent for ``game``."""
    _make(spec, game, seed=0)


def seat_text(state: Any, seat: int) -> str:
    """The text picture of ``state`` as ``seat`` may see it (hidden parts in a canonical order, not true)."""
    from meeplezoo.agents.view import public_copy

    return public_copy(state, seat).render()


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
    guards: list[Guard] = []
    fault = None
    truncated = False
    start = time.perf_counter()
    env.reset(seed=task.seed)  # the opening position, in case an agent cannot even be made
    for seat, (spec, seed) in enumerate(zip(task.seats, task.agent_seeds, strict=True)):
        try:
            guards.append(Guard(_make(spec, task.game, seed), seat, is_legal, actions, task.time_limit))
        except Exception as exc:  # its constructor raised (the spec itself was checked before the run)
            fault = Fault(seat, RAISED, f"could not be made: {type(exc).__name__}: {exc}", 0)
            break
    if fault is None:
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
        "seat_time": [[g.clock.total, g.clock.longest, g.clock.decisions] for g in guards]
        + [[0.0, 0.0, 0]] * (len(names) - len(guards)),
        "actions": actions,
    }
