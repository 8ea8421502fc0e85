"""Hostile agents for the isolation tests: ``imports=["hostile_agents"]`` (or ``--import hostile_agents``) registers
them. Each plays like the random agent (its own seed) until it does what it is named for.

The spies write one JSON line per decision to the file ``out``: what they could reach from where an agent runs
(every engine state found, as ``to_dict``; how many envs); the tests compare that with the referee's true state.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import resource
import signal
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.agents import register_agent
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.agents.spec import Param
from meeplezoo.envs.core.engine import State

#: the most objects a spy's walk visits per decision (a walk of the referee's whole heap is not needed to find it)
WALK_LIMIT = 200_000


class _Hostile(RandomAgent):
    """A random agent that counts its decisions and misbehaves on decision ``at`` (1-based)."""

    PARAMS = (Param("at", int, 2),)

    def __init__(self, seed: Any = None, at: int = 2) -> None:
        super().__init__(seed)
        self.at = at
        self.calls = 0

    def act(self, view: Any) -> int:
        self.calls += 1
        if self.calls == self.at:
            return self.misbehave(view)
        return super().act(view)

    def misbehave(self, view: Any) -> Any:
        raise NotImplementedError


def _is_env(obj: Any) -> bool:
    """Whether ``obj`` is a MeepleZoo AEC env (it holds the true state as ``state_obj``)."""
    try:  # some objects of a big process (pydantic's, say) raise on any attribute read
        attributes = getattr(obj, "__dict__", None)
        return isinstance(attributes, dict) and "state_obj" in attributes
    except Exception:
        return False


def _walk(roots: list[Any]) -> tuple[list[State], int, int]:
    """The engine states and envs reachable from ``roots`` by attributes and container items (breadth first);
    and how many objects were visited."""
    seen: set[int] = set()
    states: list[State] = []
    envs = 0
    todo = deque(roots)
    while todo and len(seen) < WALK_LIMIT:
        obj = todo.popleft()
        if id(obj) in seen or isinstance(obj, (type, type(len), type(_walk), type(sys), str, bytes, int, float)):
            continue
        seen.add(id(obj))
        if isinstance(obj, State):
            states.append(obj)
        envs += _is_env(obj)
        if isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        elif isinstance(obj, np.ndarray):
            continue
        for cls in type(obj).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if isinstance(slot, str) and hasattr(obj, slot):
                    todo.append(getattr(obj, slot))
        attributes = getattr(obj, "__dict__", None)
        if isinstance(attributes, dict):
            todo.extend(attributes.values())
    return states, envs, len(seen)


def _report(out: str, found: dict[str, Any]) -> None:
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(found) + "\n")


class FrameSpy(RandomAgent):
    """Walks up ``sys._getframe()`` and every frame's locals (and all they reach) for engine states and envs;
    writes what it found to ``out`` at every decision, then plays a random legal action."""

    name = "spy_frames"
    uses_determinize = True  # it asks for the view's public copy, to be sure the walk finds at least that
    PARAMS = (Param("out", str, ""),)

    def __init__(self, seed: Any = None, out: str = "") -> None:
        super().__init__(seed)
        self.out = out

    def act(self, view: Any) -> int:
        frames, roots, globals_ = 0, [], []
        frame = sys._getframe()
        while frame is not None:
            frames += 1
            roots += list(frame.f_locals.values())
            globals_.append(frame.f_globals)
            frame = frame.f_back
        states, envs, visited = _walk(roots + globals_)
        _report(
            self.out,
            {"pid": os.getpid(), "frames": frames, "envs": envs, "visited": visited, "states": _dicts(states)},
        )
        return super().act(view)


class GcSpy(RandomAgent):
    """Looks at every object of its process (``gc.get_objects()``) for engine states and envs, from its view."""

    name = "spy_gc"
    uses_determinize = True
    PARAMS = (Param("out", str, ""),)

    def __init__(self, seed: Any = None, out: str = "") -> None:
        super().__init__(seed)
        self.out = out

    def act(self, view: Any) -> int:
        objects = gc.get_objects()
        states = [o for o in objects if isinstance(o, State)]
        envs = sum(1 for o in objects if _is_env(o))
        _report(self.out, {"pid": os.getpid(), "objects": len(objects), "envs": envs, "states": _dicts(states)})
        return super().act(view)


def _dicts(states: list[State]) -> list[dict[str, Any]]:
    """The states' ``to_dict`` as plain JSON data (a state that cannot say is left out)."""
    out = []
    for s in states:
        try:
            out.append(json.loads(json.dumps(s.to_dict())))
        except Exception:
            continue
    return out


class ConfigMutator(RandomAgent):
    """Writes into everything its view reaches: the position's ``Game`` config (``sides="BBBB"`` and every key),
    the view's read-only config (through the dict behind it), the public copy and the observation; reports to
    ``out`` what it changed, then plays the first legal action (the test compares with a staller)."""

    name = "config_mutator"
    uses_determinize = True
    PARAMS = (Param("out", str, ""),)

    def __init__(self, seed: Any = None, out: str = "") -> None:
        super().__init__(seed)
        self.out = out

    def act(self, view: Any) -> int:
        first = int(view.legal_actions[0])
        public = view.public_state()
        config = public.game.config
        for key in list(config):
            config[key] = "BBBB" if key == "sides" else 99
        config["sides"] = "BBBB"
        for backing in gc.get_referents(view.config):  # the dict behind the MappingProxyType
            if isinstance(backing, dict):
                backing["sides"] = "BBBB"
        public.game.__dict__["_mutated"] = True
        for name in list(getattr(public.d, "__slots__", ())):
            value = getattr(public.d, name, None)
            if isinstance(value, list):
                value.clear()
        view.observation[:] = 7.0
        _report(self.out, {"pid": os.getpid(), "config": dict(public.game.config), "view": dict(view.config)})
        return first


class FirstLegal(RandomAgent):
    """The staller: always the first legal action (no fault: the game's own rules deal with stalling)."""

    name = "first_legal"

    def act(self, view: Any) -> int:
        return int(view.legal_actions[0])


class Stubborn(_Hostile):
    """Ignores every attempt to interrupt it: ``while True: try: sleep except BaseException: pass``."""

    name = "stubborn"

    def misbehave(self, view: Any) -> Any:
        while True:
            try:  # noqa: SIM105 (the point: catch whatever interrupts it, and go on)
                time.sleep(1)
            except BaseException:
                pass


class Exit(_Hostile):
    """``sys.exit(3)``."""

    name = "sys_exit"

    def misbehave(self, view: Any) -> Any:
        sys.exit(3)


class Abort(_Hostile):
    """``os.abort()``: SIGABRT."""

    name = "abort"

    def misbehave(self, view: Any) -> Any:
        os.abort()


class HardExit(_Hostile):
    """``os._exit(5)``: no clean-up, no answer."""

    name = "hard_exit"

    def misbehave(self, view: Any) -> Any:
        os._exit(5)


class MemoryHog(_Hostile):
    """Allocates blocks of ``kib`` KiB until it fails; ``keep=1`` keeps them (in the agent) when the
    ``MemoryError`` comes, so that its process has next to no memory left to answer with."""

    name = "memory_hog"
    PARAMS = (*_Hostile.PARAMS, Param("keep", int, 0), Param("kib", int, 16384))

    def __init__(self, seed: Any = None, at: int = 2, keep: int = 0, kib: int = 16384) -> None:
        super().__init__(seed, at)
        self.keep = keep
        self.kib = kib
        self.blocks: list[bytes] = []

    def misbehave(self, view: Any) -> Any:
        blocks = self.blocks if self.keep else []
        size = self.kib * 1024
        while True:
            blocks.append(bytearray(size))


class CapLifter(_Hostile):
    """Lifts its own address-space cap (a process with ``CAP_SYS_RESOURCE`` can), then fills up to ``mib`` MiB (no
    more: the test must not eat the machine), holds it a moment and answers."""

    name = "cap_lifter"
    PARAMS = (*_Hostile.PARAMS, Param("mib", int, 1024))

    def __init__(self, seed: Any = None, at: int = 2, mib: int = 1024) -> None:
        super().__init__(seed, at)
        self.mib = mib
        self.blocks: list[bytearray] = []

    def misbehave(self, view: Any) -> Any:
        with contextlib.suppress(ValueError, OSError):  # refused unless privileged: the cap stays
            resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        while len(self.blocks) < self.mib // 16:  # past the cap: a MemoryError where the cap stayed
            self.blocks.append(bytearray(16 * 1024 * 1024))
        time.sleep(1)
        return view.legal_actions[0]


class Sleeper(_Hostile):
    """Sleeps 30 s."""

    name = "long_sleeper"

    def misbehave(self, view: Any) -> Any:
        time.sleep(30)
        return view.legal_actions[0]


class CpuBurner(_Hostile):
    """Burns ``seconds`` of CPU time (-1: forever), then answers a legal action."""

    name = "cpu_burner"
    PARAMS = (*_Hostile.PARAMS, Param("seconds", float, 1.0))

    def __init__(self, seed: Any = None, at: int = 2, seconds: float = 1.0) -> None:
        super().__init__(seed, at)
        self.seconds = seconds

    def misbehave(self, view: Any) -> Any:
        start = time.process_time()
        while self.seconds < 0 or time.process_time() - start < self.seconds:
            pass
        return view.legal_actions[0]


#: what ``bad_answer:kind=K`` answers
BAD_ANSWERS: dict[str, Any] = {
    "str": "3",
    "bool": True,
    "float": 0.0,
    "none": None,
    "huge_str": "x" * 10_000_000,
    "huge_int": 10**40,
    "giant_int": 10**5000,  # more digits than Python turns into text by default
    "negative": -1,
    "list": [0],
}


class BadAnswer(_Hostile):
    """Answers ``BAD_ANSWERS[kind]`` instead of an action id."""

    name = "bad_answer"
    PARAMS = (*_Hostile.PARAMS, Param("kind", str, "str"))

    def __init__(self, seed: Any = None, at: int = 2, kind: str = "str") -> None:
        super().__init__(seed, at)
        self.kind = kind

    def misbehave(self, view: Any) -> Any:
        return BAD_ANSWERS[self.kind]


class SlowStart(RandomAgent):
    """Takes 30 s to be made (a constructor that hangs)."""

    name = "slow_start"

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        time.sleep(30)


class Flooder(_Hostile):
    """Finds its process's answer pipe (the ``answers`` of a frame above it) and writes 1 MiB without a newline."""

    name = "flooder"

    def misbehave(self, view: Any) -> Any:
        frame = sys._getframe()
        while frame is not None and "answers" not in frame.f_locals:
            frame = frame.f_back
        if frame is not None:
            answers = frame.f_locals["answers"]
            with contextlib.suppress(OSError):
                answers.send_bytes(b"{" * (1024 * 1024))
        time.sleep(30)


class NumpyAnswer(RandomAgent):
    """Answers its random legal action as a ``numpy.int64`` (an integer: a fine answer)."""

    name = "numpy_answer"

    def act(self, view: Any) -> Any:
        return np.int64(super().act(view))


class Forker(_Hostile):
    """Forks a grandchild that writes its pid to ``out`` and sleeps for a minute (SIGTERM ignored); then plays
    on (random), or with ``hang=1`` hangs itself."""

    name = "forker"
    PARAMS = (*_Hostile.PARAMS, Param("out", str, ""), Param("hang", int, 0))

    def __init__(self, seed: Any = None, at: int = 2, out: str = "", hang: int = 0) -> None:
        super().__init__(seed, at)
        self.out = out
        self.hang = hang

    def misbehave(self, view: Any) -> Any:
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            Path(self.out).write_text(str(os.getpid()))
            time.sleep(60)
            os._exit(0)
        while not Path(self.out).exists() or not Path(self.out).read_text():
            time.sleep(0.01)
        if self.hang:
            time.sleep(60)
        return RandomAgent.act(self, view)


class BackgroundBurner(_Hostile):
    """Forks a child (in its process group) that writes its pid to ``out`` and burns CPU forever: it would take
    CPU from the other seats while they decide."""

    name = "background_burner"
    PARAMS = (*_Hostile.PARAMS, Param("out", str, ""))

    def __init__(self, seed: Any = None, at: int = 2, out: str = "") -> None:
        super().__init__(seed, at)
        self.out = out

    def misbehave(self, view: Any) -> Any:
        if os.fork() == 0:
            Path(self.out).write_text(str(os.getpid()))
            while True:
                pass
        while not Path(self.out).exists() or not Path(self.out).read_text():
            time.sleep(0.01)
        return RandomAgent.act(self, view)


class Slow(RandomAgent):
    """Thinks ``seconds`` (wall, sleeping) at every decision, then plays a random legal action."""

    name = "slow"
    PARAMS = (Param("seconds", float, 0.1),)

    def __init__(self, seed: Any = None, seconds: float = 0.1) -> None:
        super().__init__(seed)
        self.seconds = seconds

    def act(self, view: Any) -> int:
        time.sleep(self.seconds)
        return super().act(view)


class ServerKiller(_Hostile):
    """Kills its parent, the fork server every agent process of its referee is forked from; then plays on."""

    name = "server_killer"

    def misbehave(self, view: Any) -> Any:
        os.kill(os.getppid(), signal.SIGKILL)
        return RandomAgent.act(self, view)


class Printer(RandomAgent):
    """Prints a marker on stdout and stderr (through Python and the file descriptors) at every decision."""

    name = "printer"
    MARKER = "PRINTED-BY-THE-AGENT"

    def act(self, view: Any) -> int:
        print(self.MARKER, flush=True)
        print(self.MARKER, file=sys.stderr, flush=True)
        os.write(1, f"{self.MARKER}\n".encode())
        return super().act(view)


NAMES = {
    "spy_frames": "FrameSpy",
    "spy_gc": "GcSpy",
    "config_mutator": "ConfigMutator",
    "first_legal": "FirstLegal",
    "stubborn": "Stubborn",
    "sys_exit": "Exit",
    "abort": "Abort",
    "hard_exit": "HardExit",
    "memory_hog": "MemoryHog",
    "cap_lifter": "CapLifter",
    "long_sleeper": "Sleeper",
    "cpu_burner": "CpuBurner",
    "bad_answer": "BadAnswer",
    "numpy_answer": "NumpyAnswer",
    "flooder": "Flooder",
    "slow_start": "SlowStart",
    "forker": "Forker",
    "server_killer": "ServerKiller",
    "background_burner": "BackgroundBurner",
    "slow": "Slow",
    "printer": "Printer",
}
for _name, _cls in NAMES.items():
    register_agent(_name, f"hostile_agents:{_cls}")

if os.environ.get("HOSTILE_IMPORT_LOG"):  # which processes run this module's code (the tests read it)
    import multiprocessing

    with open(os.environ["HOSTILE_IMPORT_LOG"], "a", encoding="utf-8") as _log:
        _log.write(multiprocessing.current_process().name + "\n")
