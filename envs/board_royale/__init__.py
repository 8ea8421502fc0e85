"""Board Royale: The Island: the rules engine. The PettingZoo env is :mod:`meeplezoo.envs.board_royale_v0`."""

from .game import BoardRoyaleGame, BoardRoyaleState

__all__ = ["BoardRoyaleGame", "BoardRoyaleState"]
