"""What an isolated agent may spend: wall and CPU time per decision and per game, memory, and time to start.

The referee enforces a :class:`Budget` on each agent process (:mod:`.isolation`): it waits for an answer no
longer than the decision's wall budget (then kills the process), reads the process's CPU time from the kernel
after every decision, and has the kernel cap the process's address space (``RLIMIT_AS``) and its CPU time for the
whole game (``RLIMIT_CPU``). Past any of them the seat forfeits (:mod:`.faults`).

>>> Budget.read({"decision_seconds": "2", "memory_mb": "1024"}).decision_seconds
2.0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from ..envs.core.params import Param, bind

#: the keys of a budget, with what each takes (``--budget KEY=VALUE`` and the stored games name them so)
BUDGET_PARAMS: tuple[Param, ...] = (
    Param(
        "decision_seconds",
        float,
        60.0,
        "wall seconds per decision (the process is killed past it; none: no limit)",
        minimum=0.001,
        optional=True,
    ),
    Param("decision_cpu", float, None, "CPU seconds per decision (none: no limit)", minimum=0.001, optional=True),
    Param("game_seconds", float, 3600.0, "wall seconds of a seat's decisions in a game", minimum=0.001, optional=True),
    Param("game_cpu", float, 3600.0, "CPU seconds of a seat's process in a game", minimum=0.001, optional=True),
    Param("memory_mb", int, 4096, "address space of an agent process in MiB (none: no cap)", minimum=64, optional=True),
    Param("start_seconds", float, 120.0, "wall seconds to start an agent (imports, loading a model)", minimum=0.001),
)


@dataclass(frozen=True)
class Budget:
    """Limits on one agent process (see the module docstring); None: no limit of that kind."""

    decision_seconds: float | None = 60.0
    decision_cpu: float | None = None
    game_seconds: float | None = 3600.0
    game_cpu: float | None = 3600.0
    memory_mb: int | None = 4096
    start_seconds: float = 120.0

    @classmethod
    def read(cls, values: Mapping[str, Any], where: str = "budget", *, typed: bool = False) -> Budget:
        """A budget from ``KEY=VALUE`` texts (typed values with ``typed``) over the defaults; an unknown key or a
        bad value raises ``ParamError`` naming it."""
        return cls(**bind(where, BUDGET_PARAMS, values, typed=typed))

    def with_time_limit(self, seconds: float | None) -> Budget:
        """This budget with ``seconds`` of wall time per decision (the arena's ``--time-limit``)."""
        return self if seconds is None else replace(self, decision_seconds=float(seconds))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        """``decision_seconds=60 memory_mb=4096 start_seconds=120`` (the limits set, in key order)."""
        values = ((f.name, getattr(self, f.name)) for f in fields(self))
        return " ".join(f"{name}={value:g}" for name, value in values if value is not None)


__all__ = ["BUDGET_PARAMS", "Budget"]
