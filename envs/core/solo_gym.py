"""Any one-seat MeepleZoo engine (a solo mode against an automa) as a Gymnasium env.

The wrapper is game-agnostic: it needs only the engine protocol (:class:`~meeplezoo.envs.core.engine.Game`
with ``num_players == 1``) and, for the ``score_margin`` reward, :meth:`State.automa_score`. Seastead's
"The Rebel Seastead" uses it (``gymnasium.make("meeplezoo/SeasteadSolo-v0")``); Resafa's solo mode can too.

* observation: ``float32[observation_size]`` in [-1, 1] (what the player may know, as the AEC env gives it);
* action: ``Discrete(num_actions)``; :meth:`SoloGymEnv.action_masks` is the legal mask sb3-contrib's
  ``MaskablePPO`` reads, and ``info["action_mask"]`` carries it too;
* reward: 0 until the end; then ``"win"`` (default) +1 for beating the automa, -1 otherwise,
  ``"score_margin"`` (own score - automa score) / ``game.score_scale``, or ``"score"`` the own final score
  (a solo mode played for points, like Resafa's against Resafabot);
* an illegal action (e.g. sampled without the mask) ends the episode with ``illegal_reward`` and
  ``info["illegal_action"] = True``; nothing is applied;
* ``reset(seed=s)`` draws the game's seed from Gymnasium's seeded ``np_random``: same seed, same game.

>>> from meeplezoo.envs.seastead import SeasteadGame
>>> env = SoloGymEnv(SeasteadGame(num_players=1))
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape and bool(env.action_masks().any())
True
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from .engine import Game, State
from .errors import ConfigError

SOLO_REWARDS = ("win", "score_margin", "score")


class SoloGymEnv(gymnasium.Env):
    """Gymnasium env around a one-seat engine; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: Game,
        reward: str = "win",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        max_steps: int | None = None,
    ) -> None:
        if game.num_players != 1:
            raise ConfigError(f"SoloGymEnv needs a one-seat game, not {game!r} with {game.num_players} seats")
        if reward not in SOLO_REWARDS:
            raise ConfigError(f"reward must be one of {SOLO_REWARDS}, not {reward!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ConfigError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if (
            isinstance(illegal_reward, bool)
            or not isinstance(illegal_reward, (int, float))
            or not math.isfinite(illegal_reward)
        ):
            raise ConfigError(f"illegal_reward must be a finite number, not {illegal_reward!r}")
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise ConfigError(f"max_steps must be a positive int or None, not {max_steps!r}")
        self.game = game
        self.reward_mode = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.max_steps = max_steps if max_steps is not None else game.max_decisions
        self.observation_space = spaces.Box(-1.0, 1.0, (game.observation_size,), np.float32)
        self.action_space = spaces.Discrete(game.num_actions)
        self.state: State | None = None
        self._steps = 0

    # --- Gymnasium API ---------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.state = self.game.new_state(int(self.np_random.integers(2**31 - 1)))
        self._steps = 0
        return self.state.observe(0), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        state = self._live()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int in Discrete({self.game.num_actions}), not {action!r}")
        a = int(action)
        if not (0 <= a < self.game.num_actions and state.is_legal(a)):
            self.state = None  # the episode is over; reset() starts the next one
            obs = state.observe(0)
            info = {"action_mask": np.zeros(self.game.num_actions, np.int8), "illegal_action": True}
            return obs, self.illegal_reward, True, False, info
        state.apply(a)
        self._steps += 1
        terminated = state.is_terminal()
        truncated = not terminated and self._steps >= self.max_steps
        reward = self._final_reward(state) if terminated else 0.0
        if self.render_mode == "human":
            print(state.render())
        return state.observe(0), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Boolean legal-action mask of the pending decision (what MaskablePPO reads)."""
        return self._live().legal_mask().astype(bool)

    def render(self) -> str | None:
        text = self._live().render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- helpers ---------------------------------------------------------------------------------------
    def _live(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() first (the episode has not started or has ended)")
        return self.state

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._live().legal_mask()}

    def _final_reward(self, state: State) -> float:
        if self.reward_mode == "score":
            return float(state.scores()[0])
        if self.reward_mode == "score_margin":
            return (state.scores()[0] - state.automa_score()) / self.game.score_scale
        return 1.0 if state.ranks()[0] == 0 else -1.0
