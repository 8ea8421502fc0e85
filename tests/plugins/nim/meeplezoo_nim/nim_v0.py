"""Nim as a MeepleZoo plugin game: 2-3 players take turns taking 1, 2 or 3 sticks from one pile of ``sticks``
(15); whoever takes the last stick wins (score 1), the others score 0.

Actions ``Discrete(3)``: take 1, 2, 3 sticks. Observations ``float32[2]`` in [0, 1]: sticks left / sticks,
whether it is the viewer's turn.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core import TERMINAL, ConfigError, CorruptStateError, Game, IllegalActionError, State, env_factory

PLAYER_COUNTS = (2, 3)


class Nim(Game):
    name = "nim"
    defaults: ClassVar[dict[str, Any]] = {"num_players": 2, "sticks": 15}

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        if config["num_players"] not in PLAYER_COUNTS:
            raise ConfigError(f"nim: num_players must be 2 or 3, not {config['num_players']!r}")
        if isinstance(config["sticks"], bool) or not isinstance(config["sticks"], int) or config["sticks"] < 1:
            raise ConfigError(f"nim: sticks must be a positive int, not {config['sticks']!r}")
        return config

    num_actions = 3
    observation_size = 2
    state_size = 2

    @property
    def num_players(self) -> int:
        return self.config["num_players"]

    def new_state(self, seed: int) -> NimState:
        return NimState(self, self.config["sticks"], 0, -1)

    def state_from_dict(self, data: dict[str, Any]) -> NimState:
        return NimState(self, int(data["left"]), int(data["turn"]), int(data["winner"]))


class NimState(State):
    __slots__ = ("game", "left", "turn", "winner")

    def __init__(self, game: Nim, left: int, turn: int, winner: int) -> None:
        self.game, self.left, self.turn, self.winner = game, left, turn, winner

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.turn

    def pending(self) -> str:
        return "game over" if self.is_terminal() else "take"

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(3, np.int8)
        if not self.is_terminal():
            mask[: min(3, self.left)] = 1
        return mask

    def apply(self, action: int) -> None:
        if not (0 <= action < 3 and self.legal_mask()[action]):
            raise IllegalActionError(action, self.turn, self.pending())
        self.left -= action + 1
        if self.left == 0:
            self.winner = self.turn
        self.turn = (self.turn + 1) % self.game.num_players

    def is_terminal(self) -> bool:
        return self.left == 0

    def scores(self) -> list[float]:
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.game.num_players)]

    def clone(self) -> NimState:
        return NimState(self.game, self.left, self.turn, self.winner)

    def to_dict(self) -> dict[str, Any]:
        return {"left": self.left, "turn": self.turn, "winner": self.winner}

    def validate(self) -> None:
        if not 0 <= self.left <= self.game.config["sticks"]:
            raise CorruptStateError(f"nim: {self.left} sticks left")

    def determinize(self, player: int, rng: np.random.Generator) -> NimState:
        return self.clone()  # nothing is hidden

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        out = np.zeros(2, np.float32) if out is None else out
        out[0] = self.left / self.game.config["sticks"]
        out[1] = float(player == self.turn and not self.is_terminal())
        return out

    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        return self.observe(self.turn, out)

    def describe_action(self, action: int) -> str:
        return f"take {action + 1} stick{'s' if action else ''}"

    def render(self) -> str:
        return f"Nim: {self.left} stick(s) left" + (f"; P{self.winner} took the last" if self.winner >= 0 else "")


raw_env = env_factory(Nim, "nim_v0")
env = raw_env
