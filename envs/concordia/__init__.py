"""Concordia (base game, Italia and Imperium maps): the rules engine. The env is :mod:`meeplezoo.envs.concordia_v0`."""

from .game import ConcordiaGame, ConcordiaState

__all__ = ["ConcordiaGame", "ConcordiaState"]
