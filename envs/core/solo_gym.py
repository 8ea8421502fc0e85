"""Any one-seat MeepleZoo engine (a solo mode against an automa) as a Gymnasium env.

The wrapper is game-agnostic: it needs only the engine protocol (:class:`~meeplezoo.envs.core.engine.Game`
with ``num_players == 1``, whose ``ranks()`` is ``[0]`` when the player beats the automa or reaches the solo
goal) and :meth:`State.automa_score` (the score to beat). Every solo env follows one convention:
``gymnasium.make("meeplezoo/SeasteadSolo-v0")`` ("The Rebel Seastead", against the Boss) and
``gymnasium.make("meeplezoo/ResafaSolo-v0")`` (against Resafabot, for the designer's fair target of 150 VP).

* observation: ``float32[observation_size]`` in [-1, 1] (what the player may know, as the AEC env gives it);
* action: ``Discrete(num_actions)``; :meth:`SoloGymEnv.action_masks` is the legal mask sb3-contrib's
  ``MaskablePPO`` reads, and ``info["action_mask"]`` carries it too;
* reward: 0 until the end; then by ``reward=`` (:data:`SOLO_REWARDS`):

  - ``"win"`` (the default for every solo env): +1 for beating the automa's score or reaching the solo goal
    (the game's ``ranks()``; its rules settle a tie), -1 otherwise; the same as the one-agent AEC env;
  - ``"score"``: the own final score (VP);
  - ``"score_margin"``: (own score - score to beat) / ``game.score_scale``;
* the step that ends the game puts the result in ``info``: ``"score"`` (own final score), ``"automa_score"``
  (the score to beat), ``"won"`` (bool) and ``"band"``: the solo rating band the game's rules give the score
  (Resafa: "below fair (under 150)", "fair", "good", "very good", "excellent"), or None for a game whose
  rules define no bands (Seastead's solo mode is won or lost against the Boss). A game passes its bands as
  ``band=``;
* an illegal action (e.g. sampled without the mask) ends the episode with ``illegal_reward`` and
  ``info["illegal_action"] = True``; nothing is applied; a truncated episode (``max_steps``) gets 0 and no
  result;
* ``reset(seed=s)`` draws the game's seed from Gymnasium's seeded ``np_random``: same seed, same game.

>>> from meeplezoo.envs.seastead import SeasteadGame
>>> env = SoloGymEnv(SeasteadGame(num_players=1))
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape and bool(env.action_masks().any())
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from .engine import Game, State
from .errors import ConfigError

#: the ``reward=`` choices of every solo env; the first is the default
SOLO_REWARDS = ("win", "score", "score_margin")
DEFAULT_SOLO_REWARD = SOLO_REWARDS[0]


class SoloGymEnv(gymnasium.Env):
    """Gymnasium env around a one-seat engine; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: Game,
        reward: str = DEFAULT_SOLO_REWARD,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        max_steps: int | None = None,
        band: Callable[[float], str] | None = None,
    ) -> None:
        """``band`` names the solo rating band of a final score (None: the game's rules define no bands)."""
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
        self.band = band
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
        info = self._info()
        if terminated:
            info.update(self.result(state))
        return state.observe(0), reward, terminated, truncated, info

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

    def result(self, state: State) -> dict[str, Any]:
        """The final ``info`` keys of a finished game: score, score to beat, won, band (see the module doc)."""
        score = float(state.scores()[0])
        return {
            "score": score,
            "automa_score": float(state.automa_score()),
            "won": state.ranks()[0] == 0,
            "band": self.band(score) if self.band is not None else None,
        }

    def _final_reward(self, state: State) -> float:
        if self.reward_mode == "score":
            return float(state.scores()[0])
        if self.reward_mode == "score_margin":
            return (state.scores()[0] - state.automa_score()) / self.game.score_scale
        return 1.0 if state.ranks()[0] == 0 else -1.0
