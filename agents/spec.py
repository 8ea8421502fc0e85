"""Agent spec strings: ``NAME[:ARGS]`` (or ``NAME(ARGS)``, OpenSpiel's spelling) with ``ARGS`` = ``key=value``
pairs separated by commas, read by the one parameter system (:mod:`meeplezoo.envs.core.params`).

A bare value (no ``=``) sets the agent's first parameter: ``ppo:models/seastead.zip`` is
``ppo:path=models/seastead.zip``. An agent class declares what it takes in ``PARAMS``, a tuple of
:class:`Param`, and its keyword defaults are read from them (:func:`bind_keywords`); values are converted to the
parameter's type, and an unknown or malformed one is a one-line :class:`AgentSpecError` listing what exists.

>>> parse_spec("mcts:iters=400,rollout=heuristic")
('mcts', {'iters': '400', 'rollout': 'heuristic'})
>>> parse_spec("ppo:models/a.zip")
('ppo', {'': 'models/a.zip'})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..envs.core.params import Param, ParamError, bind, defaults_of, describe_params, parse_call
from ..envs.core.params import bind_keywords as keywords

#: a malformed agent spec, an unknown parameter or a bad parameter value (the parameter system's error)
AgentSpecError = ParamError


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``spec`` into the agent name and its raw arguments (a bare value is keyed ``""``)."""
    return parse_call(spec, "agent spec")


def bind_params(agent: str, params: Sequence[Param], raw: dict[str, str]) -> dict[str, Any]:
    """Convert raw spec arguments with the agent's ``params`` (keyword arguments for its class)."""
    return bind(f"agent {agent!r}", params, raw)


def bind_keywords(agent: str, params: Sequence[Param], given: Mapping[str, Any]) -> dict[str, Any]:
    """An agent class's keyword arguments: its ``PARAMS`` defaults with ``given`` checked over them."""
    return keywords(f"agent {agent!r}", params, given)


__all__ = [
    "AgentSpecError",
    "Param",
    "bind_keywords",
    "bind_params",
    "defaults_of",
    "describe_params",
    "parse_spec",
]
