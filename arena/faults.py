"""Forfeits: an agent that raises, returns an illegal action or overruns the per-decision time limit loses.

An action is an int (a numpy integer too); anything else, a bool or a float included, is an illegal action.

:class:`Guard` wraps one seat's agent. It times every decision, checks the returned action against the true
position held by the referee (never by the agent), and turns any fault into a :class:`Forfeit` that ends the
game: the faulty seat is ranked last, every other seat shares first place, and the tournament goes on.

The time limit is enforced twice: a ``SIGALRM`` interrupts a decision that runs past the limit (when the
guard runs in a process's main thread, as in the arena's workers), and a decision that returns late is a
forfeit too.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..agents.faults import ILLEGAL, RAISED, REASONS, TIMEOUT, Fault, Forfeit
from ..agents.match import action_id
from ..envs.core.errors import ActionTypeError

__all__ = ["ILLEGAL", "RAISED", "REASONS", "TIMEOUT", "DecisionTimeout", "Fault", "Forfeit", "Guard", "deadline"]


class DecisionTimeout(BaseException):
    """Raised inside an agent whose decision overran the limit (a BaseException: ``except Exception`` in an
    agent cannot swallow it)."""


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Interrupt the block with :class:`DecisionTimeout` after ``seconds`` (main thread only; else no-op)."""
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise DecisionTimeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class SeatClock:
    """Decision times of one seat."""

    decisions: int = 0
    total: float = 0.0
    longest: float = 0.0


class Guard:
    """Wraps the agent of ``seat``: forwards ``act`` and raises :class:`Forfeit` on a fault.

    Args:
        agent: anything with an ``act(...)`` method; the guard passes whatever the game loop passes.
        seat: the seat it plays.
        is_legal: the referee's check of an action id against the true position.
        actions: the game's shared action log; the guard appends each accepted action.
        time_limit: seconds allowed per decision (None: no limit).
    """

    def __init__(
        self,
        agent: Any,
        seat: int,
        is_legal: Callable[[int], bool],
        actions: list[int],
        time_limit: float | None = None,
    ) -> None:
        self.agent = agent
        self.seat = seat
        self.is_legal = is_legal
        self.actions = actions
        self.time_limit = time_limit
        self.clock = SeatClock()
        self.name = getattr(agent, "name", type(agent).__name__)

    def __getattr__(self, attr: str) -> Any:
        # anything else the game loop asks of the agent (a name, a reset hook) comes from the agent itself
        return getattr(self.agent, attr)

    def _fault(self, reason: str, detail: str) -> Forfeit:
        return Forfeit(Fault(self.seat, reason, detail, len(self.actions)))

    def act(self, *args: Any, **kwargs: Any) -> int:
        start = time.perf_counter()
        try:
            with deadline(self.time_limit):
                action = self.agent.act(*args, **kwargs)
        except DecisionTimeout:
            raise self._fault(TIMEOUT, f"interrupted after {self.time_limit:g} s") from None
        except (Exception, SystemExit) as exc:  # sys.exit() in an agent ends its game, not the worker or the run
            raise self._fault(RAISED, f"{type(exc).__name__}: {exc}") from exc
        spent = time.perf_counter() - start
        clock = self.clock
        clock.decisions += 1
        clock.total += spent
        clock.longest = max(clock.longest, spent)
        if self.time_limit and spent > self.time_limit:
            raise self._fault(TIMEOUT, f"decision took {spent:.3f} s, limit {self.time_limit:g} s")
        try:
            action = action_id(action, f"seat {self.seat}")
        except ActionTypeError:
            raise self._fault(ILLEGAL, f"returned {action!r} ({type(action).__name__}), not an action id") from None
        if not self.is_legal(action):
            raise self._fault(ILLEGAL, f"action {action} is not legal now")
        self.actions.append(action)
        return action
