"""A MeepleZoo game as a single-agent Gymnasium env: the learner plays one seat, agents play the others.

Single-agent RL libraries (Stable-Baselines3, sb3-contrib's MaskablePPO) see one seat of the AEC game:

* observation: the learner's ``"observation"`` vector (``float32``);
* action: ``Discrete(num_actions)``; :meth:`SingleAgentEnv.action_masks` gives the legal ones (the method
  MaskablePPO looks for), and every ``info`` holds them too (``info["action_mask"]``, ``bool``: what
  :class:`~meeplezoo.training.masked_vec_env.MaskCachingVecEnv` reads instead of asking the workers);
* reward: the learner's final AEC reward (``reward_mode`` of the adapter, ``"win"`` by default: +1/-1),
  paid on the step that ends its game, also when an opponent's move or elimination ended it; a truncated
  game pays the learner's return of the standing at truncation (``truncation_reward="standing"``; ``"zero"``
  pays 0 as the AEC env does); 0 before;
* the other seats are played inside :meth:`step` by opponent agents (``"random"`` by default), made anew
  each episode with seeds drawn from the env's generator, so ``reset(seed=s)`` fixes the whole episode;
* with ``advisor`` (an agent spec, e.g. ``"heuristic"``) the observation ends with a one-hot of the move that
  agent would make on the learner's view (all zeros once the game is over): the input of
  :class:`~meeplezoo.training.advised_policy.AdvisedPolicy`;
* with ``shaping`` each learner step also pays ``gamma * phi(next) - phi(now)`` (potential-based shaping, Ng,
  Harada and Russell 1999: the same optimal policies, denser credit; ``phi`` is 0 once the game is over):
  ``"standing"`` is the learner's return if the game ended now (its score margin, for ``score_margin``);
  ``"value"`` is its expected ``win`` return under the game's fitted win-chance model (the ``"win"`` entry of
  its manifest's ``value_models``: ``fn(state) -> list[float]``, each seat's chance to win).

An action outside the mask ends the episode with ``illegal_reward`` (the AEC game is left as it was).

Each game is also registered with Gymnasium as ``meeplezoo/<game>-single-v<N>`` (keyword arguments as
:class:`SingleAgentEnv`): ``gymnasium.make("meeplezoo/seastead-single-v0", opponent="heuristic")``.

>>> env = SingleAgentEnv("seastead", opponent="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape and bool(env.action_masks().any())
True
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import gymnasium as gym
import numpy as np

from ..agents import Agent, make_agent
from ..agents.policy import with_advice
from ..agents.view import view_for
from ..envs.core.errors import MeepleZooError
from ..envs.core.manifest import load
from ..games import make_env, manifest, resolve
from .config import SHAPINGS

#: an opponent: an agent name of the registry, or a factory ``seed -> agent``
Opponent = str | Callable[[int], Agent]


class SingleAgentEnv(gym.Env):
    """One seat of a MeepleZoo AEC game as a ``gymnasium.Env`` with action masks.

    Args:
        game: short name, env module or registry id of a registered game.
        opponent: who plays the other seats: a registry name or a factory ``seed -> agent``.
        learner_seat: the learner's seat; ``None`` draws it at random each episode.
        reward_mode: the adapter's reward mode (``"win"``, ``"rank"``, ``"score_margin"``).
        illegal_reward: reward of an action outside the mask (which ends the episode).
        max_decisions: truncate a game after this many decisions (all seats); default: the engine's bound.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the engine's text picture).
        env_kwargs: game config passed to the AEC env.
        truncation_reward: ``"standing"`` (a truncated game pays the learner's standing) or ``"zero"``.
        advisor: agent spec whose move on the learner's view is appended to the observation (one-hot).
        shaping: ``""`` (none), ``"standing"`` or ``"value"``: the potential of the shaping reward.
        shaping_gamma: the discount of the shaping term (the learner's ``gamma``, for an unchanged optimum).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium: a class attribute)

    def __init__(
        self,
        game: str,
        opponent: Opponent = "random",
        learner_seat: int | None = None,
        reward_mode: str = "win",
        illegal_reward: float = -1.0,
        max_decisions: int | None = None,
        render_mode: str | None = None,
        env_kwargs: Mapping[str, Any] | None = None,
        truncation_reward: str = "standing",
        advisor: str = "",
        shaping: str = "",
        shaping_gamma: float = 1.0,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = resolve(game)
        probe = make_env(self.game, **dict(env_kwargs or {}))
        n = len(probe.possible_agents)
        bound = max_decisions or probe.unwrapped.game.max_decisions
        self.aec = make_env(
            self.game,
            reward_mode=reward_mode,
            max_cycles=max(1, math.ceil(bound / n)),
            render_mode="ansi" if render_mode else None,
            **dict(env_kwargs or {}),
        )
        self.possible_agents = list(self.aec.possible_agents)
        if learner_seat is not None and not 0 <= learner_seat < n:
            raise ValueError(f"learner_seat must be in 0..{n - 1} or None, not {learner_seat!r}")
        self.learner_seat = learner_seat
        self.opponent = opponent
        self.illegal_reward = float(illegal_reward)
        if truncation_reward not in ("standing", "zero"):
            raise ValueError(f"truncation_reward must be 'standing' or 'zero', not {truncation_reward!r}")
        self.truncation_reward = truncation_reward
        self.reward_mode = reward_mode
        #: the seat whose action ended the last game ("" before): lets tests see who ended it
        self.last_actor = ""
        self.render_mode = render_mode
        first = self.possible_agents[0]
        self.action_space = self.aec.action_space(first)
        self.observation_space = self.aec.observation_space(first)["observation"]
        check_shaping(self.game, shaping)
        self.shaping = shaping
        self.shaping_gamma = float(shaping_gamma)
        self._phi = 0.0  # the potential at the learner's last decision
        self.advisor_spec = advisor
        self.advisor: Agent | None = None  # made anew each episode, like the opponents
        if advisor:
            make_agent(advisor, self.game, seed=0)  # a bad spec: its one-line error now
            low, high = self.observation_space.low, self.observation_space.high
            extra = np.zeros(self.action_space.n, np.float32)
            self.observation_space = gym.spaces.Box(
                np.concatenate([low, extra]), np.concatenate([high, extra + 1]), dtype=np.float32
            )
        self.learner: str = first
        self.opponents: dict[str, Agent] = {}
        self._mask = np.zeros(self.action_space.n, bool)
        self._done = True

    # --- gymnasium API --------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        rng = self.np_random
        n = len(self.possible_agents)
        for _ in range(100):  # a game that ends before the learner's first decision is redrawn
            seat = self.learner_seat if self.learner_seat is not None else int(rng.integers(n))
            self.learner = self.possible_agents[seat]
            self.opponents = {
                a: self._make_opponent(int(rng.integers(2**31))) for a in self.possible_agents if a != self.learner
            }
            if self.advisor_spec:
                self.advisor = make_agent(self.advisor_spec, self.game, seed=int(rng.integers(2**31)))
            self.aec.reset(seed=int(rng.integers(2**31)))
            self._done = False
            obs, _, terminated, truncated, info = self._advance()
            if not (terminated or truncated):
                self._phi = self._potential()
                return obs, info
        raise RuntimeError(f"{self.game}: 100 games in a row ended before {self.learner} could act")

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError("step() called on a finished episode; call reset()")
        action = int(action)
        if not (0 <= action < self._mask.size and self._mask[action]):
            self._done = True
            obs = self._advised(self.aec.observe(self.learner)["observation"], None)
            info = {"learner": self.learner, "illegal_action": action, "action_mask": self._mask.copy()}
            return obs, self.illegal_reward, True, False, info
        self.last_actor = self.learner
        self.aec.step(action)
        obs, reward, terminated, truncated, info = self._advance()
        if self.shaping:
            phi = 0.0 if terminated or truncated else self._potential()
            reward += self.shaping_gamma * phi - self._phi
            self._phi = phi
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (``bool``; all False once its game is over)."""
        return self._mask.copy()

    def render(self) -> str | None:
        return self.aec.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        self.aec.close()

    # --- checkpoints ----------------------------------------------------------------------------------
    def get_state(self) -> bytes:
        """Everything the env's future depends on, mid-episode included: the game, its opponents (and their
        generators), the learner's seat and mask, the env's generator and the opponent factory (pickled)."""
        return pickle.dumps(self.__dict__, protocol=pickle.HIGHEST_PROTOCOL)

    def set_state(self, state: bytes) -> None:
        """Put the env back where :meth:`get_state` was taken: the same steps then give the same results."""
        self.__dict__.update(pickle.loads(state))

    # --- the other seats ------------------------------------------------------------------------------
    def _make_opponent(self, seed: int) -> Agent:
        if isinstance(self.opponent, str):
            return make_agent(self.opponent, self.game, seed=seed)
        return self.opponent(seed)

    def _advance(self) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play the other seats until the learner must decide or its game is over."""
        aec = self.aec
        for agent in aec.agent_iter():
            _, reward, terminated, truncated, _ = aec.last(observe=False)
            if agent == self.learner:
                view = aec.observe(agent)
                self._mask = view["action_mask"].astype(bool)
                info: dict[str, Any] = {"learner": agent, "action_mask": self._mask}
                if terminated or truncated:
                    self._done = True
                    info.update(self._outcome(finished=bool(terminated)))
                    truncated = bool(truncated and not terminated)
                    if truncated and self.truncation_reward == "standing":
                        reward = self._standing_return()
                    obs = self._advised(view["observation"], None)
                    return obs, float(reward), bool(terminated), truncated, info
                return self._advised(view["observation"], agent), 0.0, False, False, info
            if terminated or truncated:
                aec.step(None)
            else:
                self.last_actor = agent
                opponent = self.opponents[agent]
                aec.step(opponent.act(view_for(aec, agent, opponent)))
        raise RuntimeError(f"{self.game}: the AEC loop ended without reporting {self.learner} as done")

    def _advised(self, observation: np.ndarray, agent: str | None) -> np.ndarray:
        """The observation, followed by the advisor's move on ``agent``'s view (none: zeros) if it has one."""
        if not self.advisor_spec:
            return observation
        advice = -1
        if agent is not None and self.advisor is not None:
            advice = int(self.advisor.act(view_for(self.aec, agent, self.advisor)))
        return with_advice(np.asarray(observation, np.float32), advice, int(self.action_space.n))

    def _potential(self) -> float:
        """The shaping potential of the learner's position now (:data:`SHAPINGS`; 0 without shaping)."""
        if not self.shaping:
            return 0.0
        if self.shaping == "standing":
            return self._standing_return()
        state = self.aec.unwrapped.state_obj
        seat = self.possible_agents.index(self.learner)
        chance = win_model(self.game)(state)[seat]
        n = len(self.possible_agents)
        return float(chance * n / (n - 1) - 1 / (n - 1))  # the expected win-mode return

    def _standing_return(self) -> float:
        """The learner's return if the game ended now (ranks and scores of the truncated position)."""
        from ..envs.core.rewards import seat_return

        state = self.aec.unwrapped.state_obj
        seat = self.possible_agents.index(self.learner)
        scale = self.aec.unwrapped.game.score_scale
        return float(seat_return(self.reward_mode, seat, *state.standing(), scale))

    def _outcome(self, finished: bool) -> dict[str, Any]:
        state = self.aec.unwrapped.state_obj
        seat = self.possible_agents.index(self.learner)
        ranks, scores = state.standing()
        won = finished and ranks[seat] == 0 and ranks.count(0) == 1
        return {"scores": scores, "ranks": ranks, "won": won}


#: the value model of a game's manifest that ``shaping = "value"`` reads (``fn(state) -> list[float]``)
WIN_MODEL = "win"


@cache
def win_model(game: str) -> Callable[[Any], list[float]]:
    """The game's win-chance model (its manifest's ``value_models["win"]``, loaded when first asked for)."""
    check_shaping(game, "value")
    return load(manifest(game).value_models[WIN_MODEL])


class ShapingError(MeepleZooError):
    """A shaping potential that does not exist, or that the game has no model for (one line)."""


def check_shaping(game: str, shaping: str) -> None:
    """Raise :class:`ShapingError` unless ``shaping`` is a potential :data:`SHAPINGS` offers for ``game``."""
    if shaping not in SHAPINGS:
        names = ", ".join(map(repr, SHAPINGS))
        raise ShapingError(f"shaping takes one of {names}, not {shaping!r}")
    if shaping == "value" and WIN_MODEL not in manifest(game).value_models:
        raise ShapingError(
            f"shaping 'value' needs the game's win-chance model (value_models['{WIN_MODEL}'] in its manifest); "
            f"{resolve(game)} has none (use 'standing')"
        )


def gymnasium_id(game: str) -> str:
    """The Gymnasium id of a game's single-agent env: ``seastead`` -> ``meeplezoo/seastead-single-v0``."""
    from ..games import manifest, single_agent_id

    return single_agent_id(manifest(game).env_id)


def _make(game: str, **kwargs: Any) -> SingleAgentEnv:
    return SingleAgentEnv(game, **kwargs)


def register_gymnasium_envs() -> None:
    """Register every MeepleZoo game's single-agent env with Gymnasium (idempotent; ``import meeplezoo``
    already did)."""
    from meeplezoo.games import game_names

    for game in game_names():
        gid = gymnasium_id(game)
        if gid not in gym.registry:
            gym.register(gid, entry_point=f"{__name__}:_make", kwargs={"game": game})


register_gymnasium_envs()
