"""Baseline agents for MeepleZoo games, the agent registry and helpers to play games between agents.

>>> from meeplezoo.agents import make_agent, play_game
>>> from meeplezoo.games import make_env
>>> env = make_env("seastead")
>>> bots = {a: make_agent("random", "seastead", seed=i) for i, a in enumerate(env.possible_agents)}
>>> play_game(env, bots, seed=7).steps > 0
True

Agents act on a :class:`SeatView` (``agent.act(view) -> int``), never on the env or the true state; they are
made from spec strings (``"mcts:iters=400,rollout=heuristic"``, see :mod:`meeplezoo.agents.spec`).
"""

from .base import Agent, BaseAgent
from .match import Decision, GameRecord, MatchResult, Standing, play_game, play_match
from .random_agent import RandomAgent
from .registry import (
    AgentUnavailableError,
    UnknownAgentError,
    agent_class,
    agent_params,
    available_agents,
    make_agent,
    register_agent,
    unregister_agent,
)
from .spec import AgentSpecError, Param
from .view import NoDeterminizeError, SeatView, seat_view, view_of_state

__all__ = [
    "Agent",
    "AgentSpecError",
    "AgentUnavailableError",
    "BaseAgent",
    "Decision",
    "GameRecord",
    "MatchResult",
    "NoDeterminizeError",
    "Param",
    "RandomAgent",
    "SeatView",
    "Standing",
    "UnknownAgentError",
    "agent_class",
    "agent_params",
    "available_agents",
    "make_agent",
    "play_game",
    "play_match",
    "register_agent",
    "seat_view",
    "unregister_agent",
    "view_of_state",
]
