"""Agent spec strings: ``NAME[:ARGS]`` with ``ARGS`` = ``key=value`` pairs separated by commas.

A bare value (no ``=``) sets the agent's first parameter: ``ppo:models/seastead.zip`` is
``ppo:path=models/seastead.zip``. An agent class declares what it takes in ``PARAMS``, a tuple of
:class:`Param`; values are converted to the parameter's type, and an unknown or malformed one is a
one-line :class:`AgentSpecError` listing what exists.

>>> parse_spec("mcts:iters=400,rollout=heuristic")
('mcts', {'iters': '400', 'rollout': 'heuristic'})
>>> parse_spec("ppo:models/a.zip")
('ppo', {'': 'models/a.zip'})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..envs.core.errors import MeepleZooError

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


class AgentSpecError(MeepleZooError):
    """A malformed agent spec, an unknown parameter or a bad parameter value."""


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an agent: name, type (int, float, bool, str), default, and a short help.

    ``choices`` restricts a ``str`` parameter; ``minimum`` a number (inclusive).
    """

    name: str
    type: type
    default: Any
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: float | None = None

    def convert(self, agent: str, text: str) -> Any:
        """``text`` as this parameter's value (raise :class:`AgentSpecError` naming what was wrong)."""
        where = f"agent {agent!r}, parameter {self.name!r}"
        if self.type is bool:
            low = text.strip().lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise AgentSpecError(f"{where}: expected true or false, got {text!r}")
        try:
            value = self.type(text)
        except ValueError:
            raise AgentSpecError(f"{where}: expected {self.type.__name__}, got {text!r}") from None
        if self.choices and value not in self.choices:
            raise AgentSpecError(f"{where}: expected one of {', '.join(self.choices)}, got {text!r}")
        if self.minimum is not None and value < self.minimum:
            raise AgentSpecError(f"{where}: must be at least {self.minimum:g}, got {text!r}")
        return value

    def describe(self) -> str:
        if self.choices:
            return f"{self.name}={'|'.join(self.choices)} (default {self.default})"
        return f"{self.name}={self.type.__name__} (default {self.default})"


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``spec`` into the agent name and its raw arguments (a bare value is keyed ``""``)."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"an agent spec is a non-empty string like 'mcts:iters=400', not {spec!r}")
    name, _, rest = spec.strip().partition(":")
    args: dict[str, str] = {}
    if rest:
        for i, item in enumerate(rest.split(",")):
            key, sep, value = item.partition("=")
            if not sep:
                if i == 0:
                    args[""] = item
                    continue
                raise AgentSpecError(f"agent spec {spec!r}: {item!r} is not KEY=VALUE")
            key = key.strip()
            if not key or key in args:
                raise AgentSpecError(f"agent spec {spec!r}: empty or repeated parameter in {item!r}")
            args[key] = value.strip()
    return name, args


def bind_params(agent: str, params: Sequence[Param], raw: dict[str, str]) -> dict[str, Any]:
    """Convert raw spec arguments with the agent's ``params`` (keyword arguments for its class)."""
    by_name = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for key, text in raw.items():
        if key == "":
            if not params:
                raise AgentSpecError(f"agent {agent!r} takes no parameters, got {text!r}")
            key = params[0].name
        param = by_name.get(key)
        if param is None:
            known = ", ".join(p.name for p in params) or "none"
            raise AgentSpecError(f"agent {agent!r} has no parameter {key!r}; its parameters: {known}")
        out[param.name] = param.convert(agent, text)
    return out


def describe_params(params: Sequence[Param]) -> str:
    """One line: ``iters=int (default 200), rollout=random|heuristic (default random)``; ``-`` if none."""
    return ", ".join(p.describe() for p in params) or "-"


__all__ = ["AgentSpecError", "Param", "bind_params", "describe_params", "parse_spec"]
