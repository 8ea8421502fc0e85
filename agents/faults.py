"""Forfeits: why a seat's agent lost its game without playing it out.

An agent forfeits when it raises, answers with something that is not a legal action, overruns a budget (wall or
CPU time per decision or per game, memory), or when its process crashes, exits, aborts or hangs. The referee
records a :class:`Fault` (seat, reason, what happened, at which decision) and stops the game: the faulty seat is
ranked last, every other seat shares first place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RAISED = "raised"
ILLEGAL = "illegal action"
TIMEOUT = "time limit"
CPU = "cpu limit"
MEMORY = "memory limit"
CRASHED = "crashed"
#: every reason a fault may give
REASONS = (RAISED, ILLEGAL, TIMEOUT, CPU, MEMORY, CRASHED)


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a seat forfeited: ``reason`` is one of :data:`REASONS`; ``detail`` says what happened."""

    seat: int
    reason: str
    detail: str
    decision: int  # index of the decision (in the whole game) where it happened

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "reason": self.reason, "detail": self.detail, "decision": self.decision}


class Forfeit(Exception):
    """Raised by the referee's side of an agent to stop the game; carries the :class:`Fault`."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(f"seat {fault.seat} forfeits ({fault.reason}): {fault.detail}")
        self.fault = fault


__all__ = ["CPU", "CRASHED", "ILLEGAL", "MEMORY", "RAISED", "REASONS", "TIMEOUT", "Fault", "Forfeit"]
