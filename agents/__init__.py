"""Baseline agents for MeepleZoo games, the agent registry and helpers to play games between agents.

>>> from meeplezoo.agents import make_agent, play_game
>>> from meeplezoo.games import make_env
>>> env = make_env("seastead")
>>> bots = {a: make_agent("random", "seastead", seed=i) for i, a in enumerate(env.possible_agents)}
>>> play_game(env, bots, seed=7).steps > 0
True
"""

from .base import Agent, BaseAgent
from .match import Decision, GameRecord, MatchResult, Standing, play_game, play_match
from .random_agent import RandomAgent
from .registry import (
    AgentUnavailableError,
    UnknownAgentError,
    agent_class,
    available_agents,
    make_agent,
    register_agent,
    unregister_agent,
)

__all__ = [
    "Agent",
    "AgentUnavailableError",
    "BaseAgent",
    "Decision",
    "GameRecord",
    "MatchResult",
    "RandomAgent",
    "Standing",
    "UnknownAgentError",
    "agent_class",
    "available_agents",
    "make_agent",
    "play_game",
    "play_match",
    "register_agent",
    "unregister_agent",
]
