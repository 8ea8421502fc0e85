"""How a command runs its agents, spelled and read alike by ``arena``, ``play`` and ``baselines``: ``--isolation
process|none``, ``--time-limit S`` and ``--budget KEY=VALUE`` (:mod:`.budget`), the line that tells how they ran,
and the exit status of a run whose games ended by a forfeit.

>>> read_budget(30, ["memory_mb=1024"]).memory_mb
1024
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import replace

from ..envs.core.params import ParamError, bind, parse_assignments
from .budget import BUDGET_PARAMS, Budget

#: the process modes: each agent in its own process, or in the referee's (trusted agents only)
ISOLATION_MODES = ("process", "none")
#: seconds per decision before an agent forfeits, unless a command is told otherwise
DEFAULT_TIME_LIMIT = 30.0
#: the exit status of a command whose games were all played, some ended by a forfeit
EXIT_FORFEITS = 4


def add_run_options(parser: argparse.ArgumentParser, *, human: bool = False) -> None:
    """``--isolation``, ``--time-limit`` and ``--budget`` on ``parser`` (``human``: the command may seat a person)."""
    person = " (a human stays in this process: it is you at the keyboard)" if human else ""
    parser.add_argument(
        "--isolation",
        choices=ISOLATION_MODES,
        default="process",
        help="process (default): every agent in its own OS process under the budget, seeing only its seat's view"
        f"{person}; none: in the referee's process (faster; MeepleZoo's own agents only)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"seconds per decision before an agent forfeits (default {DEFAULT_TIME_LIMIT:g}; 0: no limit)",
    )
    parser.add_argument(
        "--budget",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a limit on each agent process (repeatable): "
        + ", ".join(p.name for p in BUDGET_PARAMS if p.name != "decision_seconds")
        + " (--time-limit sets decision_seconds)",
    )


def add_import_option(parser: argparse.ArgumentParser, note: str = "") -> None:
    """``--import MODULE`` (repeatable): modules that register more agents; ``note`` says where they are imported."""
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import a module that registers more agents (repeatable" + (f"; {note}" if note else "") + ")",
    )


def read_budget(time_limit: float, items: Sequence[str]) -> Budget:
    """The budget of ``--time-limit`` (0: no limit) and ``--budget`` items; a :class:`ParamError` (one line)
    names a bad key or value."""
    if not (math.isfinite(time_limit) and time_limit >= 0):
        raise ParamError(f"--time-limit must be positive (0: no limit), not {time_limit:g}")
    raw = parse_assignments(items, "--budget")
    if "decision_seconds" in raw:
        raise ParamError("--budget decision_seconds: give it as --time-limit S")
    budget = Budget.read(bind("--budget", BUDGET_PARAMS, raw), typed=True)
    return replace(budget, decision_seconds=time_limit or None)


def mode_line(isolation: str, budget: Budget) -> str:
    """How the agents ran: ``agents ran each in its own process; budget decision_seconds=30 ...``."""
    if isolation == "none":
        return "agents ran in the referee's process (--isolation none: trusted agents only)"
    return f"agents ran each in its own process; budget {budget.describe()}"


__all__ = [
    "DEFAULT_TIME_LIMIT",
    "EXIT_FORFEITS",
    "ISOLATION_MODES",
    "add_import_option",
    "add_run_options",
    "mode_line",
    "read_budget",
]
