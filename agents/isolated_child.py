"""The agent's side of an isolated seat: the main function of an agent process (:mod:`.isolation`).

The process is forked from a clean server process (``multiprocessing``'s forkserver), never from the referee, so
no page of the referee's memory is in it. It confines itself (its own session, no core dumps, the budget's memory
and CPU caps from the kernel, stdin/stdout/stderr on ``/dev/null``), makes the agent from its spec and seed, and
then answers requests: each request is a seat's view in plain parts (the public copy of the position, pickled by
the referee without its ``Game``: this process has its own copy), each answer one line of JSON. The ``--import``
modules are imported only for an agent they bring (one not registered without them): a plugin cannot replace the
built-in agent of another seat. Anything the agent raises, ``sys.exit`` included, is answered as an error and ends
the process.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import json
import operator
import os
import pickle
import resource
import signal
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent dies
#: longest error text an answer carries
MAX_DETAIL = 400


def leave_the_fork_server() -> None:
    """Close this process's copy of the fork server's keep-alive pipe (``multiprocessing`` gives it one): the server
    then ends when its referee does, and takes every agent process with it (``PR_SET_PDEATHSIG``), even one stopped
    between decisions that never reads its requests' end."""
    from multiprocessing import forkserver

    server = forkserver._forkserver
    if server._forkserver_alive_fd is not None:
        with contextlib.suppress(OSError):
            os.close(server._forkserver_alive_fd)
    server._forkserver_alive_fd = None  # a fork server the agent wants for itself is its own, started anew
    server._forkserver_address = None
    server._forkserver_pid = None


def confine(memory_mb: int | None, game_cpu: float | None) -> None:
    """Put this process in its own session with the kernel's caps: address space, CPU seconds, no core file."""
    with contextlib.suppress(OSError):
        os.setsid()  # its own process group: the referee kills the group, children the agent made included
    with contextlib.suppress(OSError, AttributeError):  # Linux: die with the fork server, which dies with the referee
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if memory_mb is not None:
        cap = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    if game_cpu is not None:
        used = sum(os.times()[:2])
        soft = int(used + game_cpu) + 1  # the kernel counts whole seconds; the referee checks the exact figure
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _read(data: bytes, game: Any) -> dict[str, Any]:
    """A request's view parts (unpickled: they come from the referee), the position given this process's ``Game``."""
    parts = pickle.loads(data)
    if parts["public"] is not None:
        parts["public"].game = game
    return parts


def _answer(out: Connection, message: dict[str, Any]) -> None:
    os.write(out.fileno(), json.dumps(message).encode() + b"\n")


def _error(exc: BaseException) -> dict[str, Any]:
    text = f"{type(exc).__name__}: {exc}"
    return {"error": text[:MAX_DETAIL], "kind": type(exc).__name__, "memory": isinstance(exc, MemoryError)}


def _action(value: Any) -> dict[str, Any]:
    """The answer for what ``act`` returned: an int, else what it was (the referee calls it an illegal answer)."""
    try:
        if isinstance(value, bool):
            raise TypeError
        action = operator.index(value)
    except TypeError:
        return {"bad": repr(value)[:MAX_DETAIL], "type": type(value).__name__}
    if action.bit_length() > 63:  # no action id is that large (and JSON would refuse 4,300 digits and more)
        return {"bad": f"an int of {action.bit_length()} bits", "type": "int"}
    return {"action": action}


def _make_game(game: str, config: dict[str, Any] | None) -> Any:
    """This process's own ``Game`` of the referee's config (None for a plain PettingZoo env: no public copy comes)."""
    from ..games import manifest

    found = manifest(game)
    if config is None or found.engine is None:
        return None
    return found.engine_class()(**config)


def serve(
    requests: Connection,
    answers: Connection,
    spec: str,
    game: str,
    engine_config: dict[str, Any] | None,
    seed: int | None,
    imports: Sequence[str],
    limits: tuple[int | None, float | None],
) -> None:
    """Run one agent until the referee says stop (a None request) or goes away; see the module docstring."""
    leave_the_fork_server()
    confine(*limits)
    try:
        from .registry import available_agents, make_agent
        from .spec import parse_spec

        if parse_spec(spec)[0] not in available_agents(game):  # a built-in agent runs none of the plugins' code
            for module in imports:
                importlib.import_module(module)
        agent = make_agent(spec, game, seed=seed)
        own = _make_game(game, engine_config)
        _prepare(agent, game, own)
        _answer(
            answers,
            {
                "ready": True,
                "uses_determinize": bool(getattr(agent, "uses_determinize", True)),
                "owns_its_views": bool(getattr(agent, "owns_its_views", False)),
                "name": str(getattr(agent, "name", type(agent).__name__))[:MAX_DETAIL],
            },
        )
    except BaseException as exc:  # whatever stops the agent being made is the answer
        _answer(answers, _error(exc))
        os._exit(1)
    _loop(requests, answers, agent, own)


def _prepare(agent: Any, game: str, own: Any) -> None:
    """Let ``agent`` load what it needs for its table before its first decision (``prepare(game, num_players)``):
    the loading counts against ``start_seconds``, not a decision's budget."""
    from .base import prepare_agent

    if own is not None:
        prepare_agent(agent, game, int(own.num_players))


def _loop(requests: Connection, answers: Connection, agent: Any, own: Any) -> None:
    from .view import SeatView

    disposable = bool(getattr(agent, "owns_its_views", False))
    while True:
        try:
            data = requests.recv_bytes()
        except (EOFError, OSError):
            os._exit(0)
        if not data:
            os._exit(0)
        try:
            parts = _read(data, own)
            answer = _action(agent.act(SeatView.from_parts(parts, disposable=disposable)))
        except BaseException as exc:  # sys.exit and MemoryError too: they end this agent
            _answer(answers, _error(exc))
            os._exit(1)
        _answer(answers, answer)
