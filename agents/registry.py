"""Agents by spec string: ``make_agent("mcts:iters=400,rollout=heuristic", "seastead", seed=7)``.

A spec is an agent name and optional parameters (:mod:`meeplezoo.agents.spec`). A name maps, per game,
to an import path ``"module:Class"`` that is imported only when the agent is made,
so an agent whose module is missing or needs an optional dependency costs nothing until asked for. The
game ``"*"`` means every game: the generic agents (random, mcts, mcts-ref, ppo, az, human). A game's own agents (its
heuristic...) are the ones its manifest names (``agents``), registered for that game only; plugins add more
through the ``meeplezoo.agents`` entry point. The class is called as ``Class(seed=seed, **params)``, the
parameters converted with its ``PARAMS``.

>>> sorted(available_agents("seastead"))
['az', 'heuristic', 'human', 'mcts', 'mcts-ref', 'openspiel', 'ppo', 'random']
>>> make_agent("random", "seastead", seed=1).name
'random'
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterable
from typing import Any

from .. import games
from ..envs.core.errors import MeepleZooError
from ..plugins import register_plugin_agents
from .base import Seed
from .spec import AgentSpecError, Param, bind_params, parse_spec

ANY_GAME = "*"

#: name -> game (or ANY_GAME) -> "module:Class"
_REGISTRY: dict[str, dict[str, str]] = {}


class UnknownAgentError(AgentSpecError):
    """No agent of that name is registered for the game."""


class AgentModuleError(MeepleZooError):
    """A module named to register agents (``--import MODULE``) cannot be imported."""


def import_agent_modules(modules: Iterable[str]) -> None:
    """Import modules that register more agents (``--import mybots``) in this process; an agent process imports
    them again. One that cannot be imported raises :class:`AgentModuleError` (one line)."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise AgentModuleError(f"--import {module}: cannot import it ({exc})") from None


class AgentUnavailableError(MeepleZooError):
    """The agent is registered but its class cannot be imported."""


def register_agent(name: str, target: str, game: str = ANY_GAME) -> None:
    """Register ``target`` (``"package.module:Class"``) as agent ``name`` for ``game`` (default: all games).

    A game-specific entry wins over an ``ANY_GAME`` one. Registering again replaces the entry. A game that
    is not registered yet (:mod:`meeplezoo.games`) may be named by its short name: the entry waits for it.
    """
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"agent target must look like 'package.module:Class', got {target!r}")
    _REGISTRY.setdefault(name, {})[_key(game)] = target


def _key(game: str) -> str:
    if game == ANY_GAME:
        return game
    try:
        return games.resolve(game)
    except games.UnknownGameError:
        return game  # a game still to come


def unregister_agent(name: str, game: str = ANY_GAME) -> None:
    """Remove the entry of ``name`` for ``game`` (no error if there is none)."""
    per_game = _REGISTRY.get(name, {})
    per_game.pop(_key(game), None)
    if not per_game:
        _REGISTRY.pop(name, None)


def available_agents(game: str) -> list[str]:
    """Names of the agents registered for ``game`` (registered, not necessarily importable)."""
    game = games.resolve(game)
    return sorted(n for n, per_game in _REGISTRY.items() if game in per_game or ANY_GAME in per_game)


def agent_target(name: str, game: str) -> str:
    """The ``"module:Class"`` registered as ``name`` for ``game``."""
    game = games.resolve(game)
    per_game = _REGISTRY.get(name, {})
    target = per_game.get(game) or per_game.get(ANY_GAME)
    if target is None:
        known = ", ".join(available_agents(game)) or "(none)"
        raise UnknownAgentError(f"no agent {name!r} for {game}; available: {known}")
    return target


def agent_class(name: str, game: str) -> type:
    """Import and return the class registered as ``name`` for ``game``."""
    target = agent_target(name, game)
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # only a missing agent module (or package) is "unavailable"; a broken import inside it propagates
        if exc.name is None or not module_name.startswith(exc.name):
            raise
        raise AgentUnavailableError(
            f"agent {name!r} for {games.resolve(game)} is registered as {target} but module {module_name} "
            f"does not exist (yet): {exc}"
        ) from exc
    try:
        return getattr(module, attr)
    except AttributeError as exc:
        raise AgentUnavailableError(
            f"agent {name!r} for {games.resolve(game)} is registered as {target} but {module_name} has no {attr}"
        ) from exc


def agent_params(name: str, game: str) -> tuple[Param, ...]:
    """The parameters agent ``name`` takes in its spec string (its class's ``PARAMS``)."""
    return tuple(getattr(agent_class(name, game), "PARAMS", ()))


def canonical_spec(spec: str, game: str) -> str:
    """``spec`` written one way, so that equal agents get equal labels in records and tables: parameters in
    the order the agent declares them, values as their type prints them, a bare value named.

    >>> canonical_spec("mcts: cutoff=20 , iters=0400", "seastead")
    'mcts:iters=400,cutoff=20'
    """
    name, raw = parse_spec(spec)
    params = agent_params(name, game)
    bound = bind_params(name, params, raw)
    parts = [f"{p.name}={_spec_value(bound[p.name])}" for p in params if p.name in bound]
    return name + (":" + ",".join(parts) if parts else "")


def _spec_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def make_agent(spec: str, game: str, seed: Seed = None, **kwargs: Any):
    """Create the agent of ``spec`` (``"random"``, ``"mcts:iters=400"``, ``"ppo:model.zip"``...) for ``game``,
    with its own generator seeded by ``seed``; ``kwargs`` are passed to its class as they are.

    Raises :class:`UnknownAgentError` for a name not registered for the game, :class:`AgentSpecError` for
    an unknown parameter or a bad value, :class:`AgentUnavailableError` when its module cannot be found.
    """
    name, raw = parse_spec(spec)
    cls = agent_class(name, game)
    params = bind_params(name, getattr(cls, "PARAMS", ()), raw)
    agent = cls(seed=seed, **params, **kwargs)
    check_game = getattr(agent, "check_game", None)  # an agent whose parameters depend on the game checks them
    if callable(check_game):
        check_game(game)
    with contextlib.suppress(AttributeError):  # a slotted class without the attribute keeps its name
        agent.spec = spec.strip()  # its label in records and tables
    return agent


def _register_builtin_agents() -> None:
    """The generic agents (every game), then the agents each registered game ships (its manifest's ``agents``)."""
    register_agent("random", "meeplezoo.agents.random_agent:RandomAgent")
    register_agent("mcts", "meeplezoo.agents.mcts:ISMCTSAgent")
    register_agent("mcts-ref", "meeplezoo.agents.reference:ReferenceMCTS")
    register_agent("ppo", "meeplezoo.agents.policy:PolicyAgent")
    register_agent("az", "meeplezoo.agents.az:AZAgent")
    register_agent("human", "meeplezoo.agents.human:HumanAgent")
    register_agent("openspiel", "meeplezoo.openspiel.bots:OpenSpielAgent")
    for game in games.manifests():
        for name, target in game.agents.items():
            register_agent(name, target, game=game.name)


_register_builtin_agents()

# third-party agents from the "meeplezoo.agents" entry point group; built-in names win (meeplezoo.plugins)
register_plugin_agents(
    register_agent, lambda name, game: bool({_key(game or ANY_GAME), ANY_GAME} & set(_REGISTRY.get(name, ())))
)
