"""The bots a web game may seat: named agents with bounded parameters, from a list the server holds.

A request names each bot by an agent spec (``mcts:iters=500,rollout=heuristic``). The server makes it only if

- it is a generic agent on :data:`SERVER_BOTS` or an agent the game's manifest ships (no plugin agent registered
  over either, no ``human``), and every parameter it sets is one :data:`SERVER_BOTS` lists, within its bounds (a
  game's own agents take none); no parameter names a file, so ``ppo`` is the policy shipped for the game and a
  game's agent plays its shipped model;
- or it is one of the specs the person who started the server allowed (``meeplezoo serve --allow-agent
  SPEC``), exactly as written there: a policy from a path or a plugin agent is code that person vouches for.

A refused spec is a one-line 400 that names the agent and the parameter, never a file: nothing is opened.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import agents, games
from ..agents.registry import agent_params, agent_target, available_agents
from ..agents.spec import AgentSpecError, Param, bind_params, parse_spec
from .security import RequestError

#: agent name -> the parameters a web page may set: ``(low, high)`` for a number (inclusive), None for a flag or
#: a named choice (the agent checks the choice). A parameter not listed is refused: every ``path`` above all.
#: mcts's budgets bound one decision: 2000 iterations with random rollouts take ~10 s on 4-player Resafa (the
#: slowest game); ``seconds`` (time instead of iterations) stops after one iteration past it.
SERVER_BOTS: dict[str, dict[str, tuple[float, float] | None]] = {
    "random": {},
    "ppo": {"deterministic": None, "avoid_repeats": None},
    "mcts": {
        "iters": (1, 2000),
        "seconds": (0.0, 5.0),
        "c": (0.0, 10.0),
        "rollout": None,
        "cutoff": (0, 1000),
        "temp": (0.01, 100.0),
        "value": None,
        "forced": None,
        "bias": (0.0, 10.0),
        "horizon": None,
        "repeat": None,
        "estimate": None,
    },
}
#: the package of MeepleZoo's generic agents (random, mcts, ppo, human)
GENERIC_AGENTS = agents.__name__
#: the longest spec a request may send
MAX_SPEC = 200


def _key(spec: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A spec as (name, sorted raw arguments): ``mcts: iters=9`` and ``mcts:iters=9`` are one spec."""
    name, raw = parse_spec(spec)
    return name, tuple(sorted(raw.items()))


def _shipped(name: str, game: str) -> bool:
    """Whether agent ``name`` of ``game`` is one MeepleZoo ships: a generic agent of :mod:`meeplezoo.agents` or
    the agent the game's manifest names (not a plugin agent registered over it), with what it needs shipped
    (``ppo``: a policy in the game's package)."""
    if name not in available_agents(game):
        return False
    manifest = games.manifest(game)
    target = agent_target(name, game)
    if target != manifest.agents.get(name) and not target.startswith(f"{GENERIC_AGENTS}."):
        return False
    return name != "ppo" or manifest.shipped_policy(0) is not None


def _bounds(name: str) -> dict[str, tuple[float, float] | None]:
    """What a web page may set of agent ``name``: a generic agent's :data:`SERVER_BOTS` entry; nothing of a game's
    own agent (its parameters, such as a model ``path``, stay the operator's: ``serve --allow-agent``)."""
    return SERVER_BOTS.get(name, {})


def _describe(param: Param, bound: tuple[float, float] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": param.type.__name__, "default": param.default}
    if param.choices:
        out["choices"] = list(param.choices)
    if bound is not None:
        out["min"], out["max"] = bound
    return out


class BotPolicy:
    """Which bot specs a web game may seat: :data:`SERVER_BOTS`, plus the exact specs in ``allowed``."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = {_key(spec): spec.strip() for spec in allowed}

    def names(self, game: str) -> list[str]:
        """The agent names a web page may seat in ``game``: the generic ones of :data:`SERVER_BOTS`, then the agents
        the game's manifest ships (its heuristic...) after the first, each with what it needs shipped."""
        generic = list(SERVER_BOTS)
        own = [name for name in games.manifest(game).agents if name not in SERVER_BOTS]
        return [name for name in (*generic[:1], *own, *generic[1:]) if _shipped(name, game)]

    def check(self, spec: Any, game: str, where: str = "bot") -> None:
        """Raise :class:`RequestError` (400, one line, starting with ``where``) unless the bot ``spec`` may sit
        in a web game of ``game``."""
        if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
            raise RequestError(400, f"{where}: an agent spec such as 'mcts:iters=400' (at most {MAX_SPEC} chars)")
        try:
            key = _key(spec)
        except AgentSpecError as exc:
            raise RequestError(400, f"{where}: {exc}") from None
        if key in self.allowed:  # the operator's own choice (made, or refused in one line, as the session makes it)
            return
        name, raw = key[0], dict(key[1])
        if name not in self.names(game):
            allowed = ", ".join(self.names(game))
            raise RequestError(400, f"{where}: this server does not seat {name[:40]!r} in {game}; it seats {allowed}")
        params = agent_params(name, game)
        try:
            values = bind_params(name, params, raw)
        except AgentSpecError as exc:
            raise RequestError(400, f"{where}: {exc}") from None
        bounds = _bounds(name)
        for param in params:
            if param.name not in values:
                continue
            if param.name not in bounds or not (param.type is bool or param.choices or bounds[param.name]):
                settable = ", ".join(bounds) or "none"
                raise RequestError(
                    400, f"{where}: {name} takes no {param.name!r} on this server (it may set: {settable})"
                )
            bound, value = bounds[param.name], values[param.name]
            if bound is not None and not bound[0] <= value <= bound[1]:
                raise RequestError(
                    400, f"{where}: {name} {param.name} must be {bound[0]:g}..{bound[1]:g} on this server, not {value}"
                )

    def catalog(self, game: str) -> list[dict[str, Any]]:
        """What the Play page may offer for ``game``: each allowed agent, the parameters it may set with their
        bounds, and the specs the server's operator allowed."""
        out = []
        for name in self.names(game):
            bounds = _bounds(name)
            params = {p.name: _describe(p, bounds[p.name]) for p in agent_params(name, game) if p.name in bounds}
            text = ", ".join(
                f"{k} {v['min']:g}..{v['max']:g}"
                if "min" in v
                else f"{k}={'|'.join(v.get('choices', ('true', 'false')))}"
                for k, v in params.items()
            )
            out.append({"name": name, "description": text or "no parameters", "params": params})
        for (name, _), spec in self.allowed.items():
            if name in available_agents(game):
                out.append({"name": spec, "description": "allowed by whoever started this server", "params": {}})
        return out
