"""MeepleZoo games in Ray RLlib: a turn-based ``MultiAgentEnv`` with action masks, and a self-play PPO config.

The glue an RLlib user would otherwise write ships here:

* :class:`RLlibMultiAgentEnv` gives each seat the observation ``{"observations": ..., "action_mask": ...}``
  with a ``float32`` mask, the keys RLlib's ``ActionMaskingTorchRLModule`` reads;
* an action outside the mask (RLlib's env checker steps unmasked samples) does not end the game: it is
  replaced by a legal action drawn from the env's generator, and ``infos[agent]["replaced_action"]`` says so
  (``illegal_reward`` is paid for it, 0 by default);
* it drives the AEC env itself, so RLlib's ``PettingZooEnv`` wrapper (which calls ``render()`` with an
  argument) is not needed; ``render()`` takes an optional argument anyway;
* the reward of a seat reaches it whoever ended the game: at the end (or at its elimination) every seat
  still in the episode gets an observation, its return and ``terminated``; a truncated game pays each seat
  the return of the standing at truncation (as :class:`~meeplezoo.training.single_agent.SingleAgentEnv`).

:func:`rllib_config` is a ``PPOConfig`` of self-play (every seat plays one shared, masked policy)::

    from meeplezoo.training.rllib import rllib_config
    algo = rllib_config("seastead").build_algo()
    print(algo.train()["env_runners"]["num_env_steps_sampled_lifetime"])

``meeplezoo train GAME --backend rllib --out runs/NAME`` runs it on a local Ray instance. Needs
``pip install "ray[rllib]" torch`` (RLlib pins gymnasium 1.2.2; see docs/training.md for 1.4).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from ..envs.core.rewards import seat_return
from ..games import make_env, resolve
from ..wrappers import SkipDeadSteps

try:  # RLlib is optional: the env is a plain class without it (the same API)
    from ray.rllib.env.multi_agent_env import MultiAgentEnv as _Base
except ImportError:  # pragma: no cover - exercised without ray
    _Base = object  # type: ignore[assignment,misc]

SHARED_POLICY = "shared"


class RLlibMultiAgentEnv(_Base):  # type: ignore[misc,valid-type]
    """A MeepleZoo game as an RLlib ``MultiAgentEnv``: one seat acts per step, observations with masks.

    ``config`` (RLlib's ``env_config``): ``game`` (required), ``reward_mode`` (``"win"``), ``illegal_reward``
    (0.0), ``max_decisions`` (the engine's bound), ``seed`` (of the first reset without one), and any game
    config key (``num_players``...).
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        if _Base is not object:
            super().__init__()
        config = dict(config or {})
        self.game = resolve(config.pop("game", "seastead"))
        self.reward_mode = config.pop("reward_mode", "win")
        self.illegal_reward = float(config.pop("illegal_reward", 0.0))
        max_decisions = config.pop("max_decisions", None)
        self._rng = np.random.default_rng(config.pop("seed", None))
        probe = make_env(self.game, **config)
        n = len(probe.possible_agents)
        bound = max_decisions or probe.unwrapped.game.max_decisions
        self.aec = SkipDeadSteps(
            make_env(self.game, reward_mode=self.reward_mode, max_cycles=max(1, -(-bound // n)), **config)
        )
        self.possible_agents = list(self.aec.possible_agents)
        self.agents = list(self.possible_agents)
        first = self.possible_agents[0]
        base = self.aec.observation_space(first)["observation"]
        num_actions = int(self.aec.action_space(first).n)
        space = gym.spaces.Dict(
            {
                "action_mask": gym.spaces.Box(0.0, 1.0, (num_actions,), np.float32),
                "observations": base,
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: gym.spaces.Discrete(num_actions) for a in self.possible_agents}
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.action_space = gym.spaces.Dict(self.action_spaces)
        self._done: set[str] = set()

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        view = self.aec.observe(agent)
        return {"action_mask": view["action_mask"].astype(np.float32), "observations": view["observation"]}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.aec.reset(seed=int(self._rng.integers(2**31)))
        self._done = set()
        self.agents = list(self.possible_agents)
        agent = self.aec.agent_selection
        return {agent: self._obs(agent)}, {}

    def step(self, action_dict: dict[str, Any]):
        aec = self.aec
        agent = aec.agent_selection
        infos: dict[str, dict] = {}
        action = int(action_dict[agent])
        mask = aec.observe(agent)["action_mask"]
        rewards = dict.fromkeys([a for a in self.possible_agents if a not in self._done], 0.0)
        if not (0 <= action < mask.size and mask[action]):
            legal = np.flatnonzero(mask)
            infos[agent] = {"replaced_action": action}
            rewards[agent] += self.illegal_reward
            action = int(legal[self._rng.integers(legal.size)])
        aec.step(action)
        for a, r in aec.rewards.items():
            if a in rewards:
                rewards[a] += float(r)
        obs: dict[str, Any] = {}
        terminateds: dict[str, bool] = {}
        truncateds: dict[str, bool] = {}
        over = not aec.agents or all(aec.terminations[a] or aec.truncations[a] for a in aec.agents)
        for a in self.possible_agents:
            if a in self._done:
                continue
            term, trunc = aec.terminations.get(a, True), aec.truncations.get(a, False)
            if over or term or trunc:
                obs[a] = self._obs(a)
                terminateds[a], truncateds[a] = bool(term), bool(trunc and not term)
                if truncateds[a]:
                    rewards[a] += self._standing_return(a)
                self._done.add(a)
        if not over:
            nxt = aec.agent_selection
            obs[nxt] = self._obs(nxt)
        terminateds["__all__"] = over and all(terminateds.get(a, True) for a in obs)
        truncateds["__all__"] = over and not terminateds["__all__"]
        self.agents = [a for a in self.possible_agents if a not in self._done]
        return obs, rewards, terminateds, truncateds, infos

    def _standing_return(self, agent: str) -> float:
        state = self.aec.unwrapped.state_obj
        seat = self.possible_agents.index(agent)
        scale = self.aec.unwrapped.game.score_scale
        return float(seat_return(self.reward_mode, seat, state.ranks(), state.scores(), scale))

    def render(self, mode: str | None = None) -> str | None:
        """The engine's text picture (``mode`` is accepted and ignored: RLlib wrappers pass one)."""
        return self.aec.unwrapped.state_obj.render() if hasattr(self.aec.unwrapped, "state_obj") else None


def rllib_config(
    game: str,
    env_config: dict[str, Any] | None = None,
    hiddens: tuple[int, ...] = (128, 128),
    train_batch_size: int = 2000,
    minibatch_size: int = 256,
    num_epochs: int = 4,
    num_env_runners: int = 0,
    seed: int = 0,
) -> Any:
    """A ``PPOConfig`` of masked self-play on ``game``: every seat maps to the one policy ``"shared"``."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    model_config = {"head_fcnet_hiddens": list(hiddens), "fcnet_hiddens": list(hiddens)}
    return (
        PPOConfig()
        .environment(RLlibMultiAgentEnv, env_config={"game": resolve(game), "seed": seed, **dict(env_config or {})})
        .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=_shared)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    SHARED_POLICY: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model_config)
                }
            )
        )
        .env_runners(num_env_runners=num_env_runners)
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size, num_epochs=num_epochs)
        .debugging(seed=seed)
    )


def _shared(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    return SHARED_POLICY


def train_rllib(
    game: str,
    out: str | Path,
    config: Any = None,
    total_steps: int | None = None,
    log: Callable[[str], None] = print,
    **overrides: Any,
) -> dict[str, Any]:
    """Train masked self-play PPO with RLlib on a local Ray instance until ``total_steps`` env steps; save the
    algorithm under ``OUT/rllib``; return the last result dict."""
    try:
        import ray
    except ImportError as exc:
        from .trainer import TrainError

        raise TrainError(f"--backend rllib needs ray[rllib]: {exc}") from None
    steps = total_steps or (config.total_steps if config is not None else 4000)
    env_config = dict(config.env) if config is not None else {}
    seed = config.seed if config is not None else 0
    ray.init(num_cpus=overrides.pop("num_cpus", 2), include_dashboard=False, ignore_reinit_error=True)
    try:
        algo = rllib_config(game, env_config, seed=seed, **overrides).build_algo()
        start, result, sampled = time.perf_counter(), {}, 0
        while sampled < steps:
            result = algo.train()
            sampled = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
            ret = result["env_runners"].get("episode_return_mean", float("nan"))
            log(f"iteration {result['training_iteration']}: {sampled} env steps, mean episode return {ret:.3f}")
        took = time.perf_counter() - start
        log(f"Trained {sampled} env steps in {took:.1f} s ({sampled / max(took, 1e-9):.0f} env-steps/s)")
        path = Path(out).resolve() / "rllib"
        algo.save_to_path(str(path))
        log(f"Saved the algorithm to {path}")
        algo.stop()
        return result
    finally:
        ray.shutdown()
