"""Seastead (base game): the rules engine. The PettingZoo env is :mod:`meeplezoo.envs.seastead_v0`."""

from .game import SeasteadGame, SeasteadState

__all__ = ["SeasteadGame", "SeasteadState"]
