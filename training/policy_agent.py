"""A trained policy as a MeepleZoo agent (kept for imports: the agent is :mod:`meeplezoo.agents.policy`)."""

from __future__ import annotations

from ..agents.policy import PolicyAgent, load_model

__all__ = ["PolicyAgent", "load_model"]
