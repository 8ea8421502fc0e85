"""The arena's one seam with :mod:`meeplezoo.agents`: agents from spec strings, one guarded game, a plain result.

Everything the arena needs from the agents package goes through this module: :func:`check_spec` (is the spec
known for the game), :func:`play_task` (make the agents, wrap each in a :class:`~.faults.Guard`, play one
game with ``play_game``, return a plain dict), :func:`seat_text` (a position as one seat may see it).
Agents are made from spec strings by ``make_agent`` (``random``, ``heuristic``, ``mcts:iters=200``...) and
act on their seat's view; the guard passes along whatever ``play_game`` gives them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .. import games
from ..agents.budget import Budget
from ..envs.core.errors import MeepleZooError
from .errors import ArenaError
from .faults import RAISED, Fault, Forfeit, Guard


def import_plugins(modules: tuple[str, ...] | list[str]) -> None:
    """Import modules that register extra agents (``--import mybots``), in this process (an :class:`ArenaError`
    names one that cannot be imported)."""
    from meeplezoo.agents.registry import AgentModuleError, import_agent_modules

    try:
        import_agent_modules(modules)
    except AgentModuleError as exc:
        raise ArenaError(str(exc)) from None


#: agents that cannot play in a tournament (they read a terminal)
NOT_FOR_THE_ARENA = ("human",)


def _check_arena_spec(spec: str) -> None:
    if spec.partition(":")[0].strip() in NOT_FOR_THE_ARENA:
        raise ArenaError(f"agent spec {spec!r}: a human player cannot take part in an arena tournament")


def _make(spec: str, game: str, seed: int | None) -> Any:
    from meeplezoo.agents import make_agent

    _check_arena_spec(spec)
    try:
        return make_agent(spec, game, seed=seed)
    except MeepleZooError as exc:
        raise ArenaError(str(exc)) from exc


def check_spec(spec: str, game: str, imports: Sequence[str] = (), isolation: str = "none") -> None:
    """Raise :class:`ArenaError` (one line) if ``spec`` does not make an agent for ``game``.

    MeepleZoo's own agents are made here. Under ``isolation="process"`` any other agent (a plugin's, an
    ``--import`` module's) is made once in an agent process, with ``imports``: its code never runs in the referee.
    """
    _check_arena_spec(spec)
    if isolation == "none" or _own_agent(spec, game):
        _make(spec, game, seed=0)
        return
    from meeplezoo.agents.isolation import IsolatedAgent

    env = games.make_env(game)
    config = getattr(getattr(env.unwrapped, "game", None), "config", None)
    try:
        IsolatedAgent(
            spec, game, seed=0, seat=0, engine_config=None if config is None else dict(config), imports=imports
        ).close()
    except Forfeit as exc:
        raise ArenaError(f"agent spec {spec!r} for {game}: {exc.fault.detail}") from None


def _own_agent(spec: str, game: str) -> bool:
    """Whether ``spec`` names one of MeepleZoo's own agents (known without importing anyone's code)."""
    from meeplezoo.agents.registry import agent_target
    from meeplezoo.agents.spec import parse_spec

    try:
        return agent_target(parse_spec(spec)[0], game).startswith("meeplezoo.")
    except MeepleZooError:
        return False


def seat_text(state: Any, seat: int) -> str:
    """The text picture of ``state`` as ``seat`` may see it (hidden parts in a canonical order, not true)."""
    from meeplezoo.agents.view import public_copy

    return public_copy(state, seat).render()


def play_task(task: Any) -> dict[str, Any]:
    """Play one scheduled game (a :class:`~.schedule.Task`) and return its result as plain data.

    With ``task.isolation == "process"`` every agent runs in its own process under the task's budget
    (:mod:`meeplezoo.agents.isolation`); with ``"none"`` in this process, each behind a :class:`~.faults.Guard`.
    A fault of a seat's agent ends the game: that seat forfeits (ranked last, the others share first place). A game
    stopped at the engine's decision bound is ranked by the game's standing (``State.adjudicated_ranks``).
    The ``--import`` modules are imported here only for in-process play (or for a game only they register): with
    isolation, only the agent processes of the agents they bring import them.
    """
    if task.isolation == "none" or task.game not in games.game_names():
        import_plugins(task.imports)
    env = games.make_env(task.game, **task.config)
    names = env.possible_agents
    actions: list[int] = []
    fault = None
    truncated = False
    seat_time: list[list[float]] = [[0.0, 0.0, 0, 0.0] for _ in names]
    start = time.perf_counter()
    env.reset(seed=task.seed)  # the opening position, in case an agent cannot even be made
    play = _play_isolated if task.isolation != "none" else _play_in_process
    try:
        truncated = play(task, env, actions, seat_time)
    except Forfeit as exc:
        fault = exc.fault
    duration = time.perf_counter() - start
    final = env.unwrapped.state_obj
    scores = [float(x) for x in final.scores()]
    if fault is not None:
        ranks = [len(names) - 1 if seat == fault.seat else 0 for seat in range(len(names))]
    elif final.is_terminal():
        ranks = [int(r) for r in final.ranks()]
    else:
        ranks = [int(r) for r in final.adjudicated_ranks()]
    env.close()
    return {
        "key": task.key,
        "scores": scores,
        "ranks": ranks,
        "decisions": len(actions),
        "truncated": truncated,
        "forfeit": None if fault is None else fault.to_dict(),
        "duration": duration,
        "seat_time": seat_time,
        "actions": actions,
        "isolation": task.isolation,
        "budget": task_budget(task).to_dict() if task.isolation != "none" else {"decision_seconds": task.time_limit},
    }


def task_budget(task: Any) -> Budget:
    """The budget of each agent process of ``task``: its ``budget`` keys, and ``time_limit`` per decision."""
    budget = Budget.read(task.budget or {}, typed=True)
    return replace(budget, decision_seconds=task.time_limit)


def _play_isolated(task: Any, env: Any, actions: list[int], seat_time: list[list[float]]) -> bool:
    """Play ``task`` with every agent in its own process; raise :class:`Forfeit` on a fault. Returns ``truncated``."""
    from meeplezoo.agents import play_game
    from meeplezoo.agents.isolation import isolated_seats

    for spec in task.seats:
        _check_arena_spec(spec)
    budget = task_budget(task)
    record = None
    with isolated_seats(
        env,
        list(task.seats),
        task.game,
        seeds=list(task.agent_seeds),
        budget=budget,
        imports=task.imports,
        decision_index=actions.__len__,
        preload=task.preload or None,
    ) as seats:
        try:
            record = play_game(env, seats, seed=task.seed, on_decision=lambda e, name, action: actions.append(action))
        finally:
            for seat, name in enumerate(env.possible_agents):
                u = seats[name].usage
                seat_time[seat] = [u.total, u.longest, u.decisions, u.cpu]
    return bool(record.truncated)


def _play_in_process(task: Any, env: Any, actions: list[int], seat_time: list[list[float]]) -> bool:
    """Play ``task`` with the agents in this process (``--isolation none``: trusted agents only)."""
    from meeplezoo.agents import play_game

    num_actions = env.unwrapped.game.num_actions

    def is_legal(action: int) -> bool:
        return 0 <= action < num_actions and bool(env.unwrapped.state_obj.is_legal(action))

    guards: list[Guard] = []
    for seat, (spec, seed) in enumerate(zip(task.seats, task.agent_seeds, strict=True)):
        try:
            guards.append(Guard(_make(spec, task.game, seed), seat, is_legal, actions, task.time_limit))
        except Exception as exc:  # its constructor raised (the spec itself was checked before the run)
            raise Forfeit(Fault(seat, RAISED, f"could not be made: {type(exc).__name__}: {exc}", 0)) from exc
    try:
        record = play_game(env, dict(zip(env.possible_agents, guards, strict=True)), seed=task.seed)
    finally:
        for seat, g in enumerate(guards):
            seat_time[seat] = [g.clock.total, g.clock.longest, g.clock.decisions, 0.0]
    return bool(record.truncated)
