"""Resafa (Vladimír Suchý) for 2-4 players: a 6-card personal action deck, workshops, gardens, canals, trade."""

from .game import ResafaGame, ResafaState

__all__ = ["ResafaGame", "ResafaState"]
