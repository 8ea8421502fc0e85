"""Action masks that travel with the step results of a vec env, so MaskablePPO asks no worker for them.

MaskablePPO reads the masks with ``env.env_method("action_masks")`` before every step: under
``SubprocVecEnv`` that is one more message to every worker and back per step. :class:`SingleAgentEnv`
already puts the mask in the ``info`` of each step and reset (``info["action_mask"]``), which the workers
send anyway; :class:`MaskCachingVecEnv` keeps the last ones (the reset's for an env that just ended its
episode) and answers ``env_method("action_masks")`` from them. Any other ``env_method`` (``set_state`` for
instance) may change an env, so it drops the cache and the next masks are asked for as before.

:class:`FreshInfoDummyVecEnv` is sb3's ``DummyVecEnv`` (one env in the process) without the deep copy of
every step's infos: a :class:`SingleAgentEnv` returns new info dicts (and a new mask array) each step, which
nothing else keeps, so the copy was pure overhead; and the observation buffers are handed on as array copies
instead of through ``deepcopy`` (the same arrays, a tenth of the cost).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.util import dict_to_obs

MASK_KEY = "action_mask"


class MaskCachingVecEnv(VecEnvWrapper):
    """A vec env of :class:`~meeplezoo.training.single_agent.SingleAgentEnv` whose ``action_masks`` are the
    ones its workers sent with their last step or reset."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self._masks: list[np.ndarray] | None = None

    def _cache(self, infos: Sequence[dict], dones: Sequence[bool] | None = None) -> None:
        resets = getattr(self.venv, "reset_infos", None)
        masks = []
        for i, info in enumerate(infos):
            source = resets[i] if dones is not None and dones[i] else info
            if MASK_KEY not in source:
                self._masks = None
                return
            masks.append(source[MASK_KEY])
        self._masks = masks

    def reset(self) -> Any:
        obs = self.venv.reset()
        self._cache(self.venv.reset_infos)
        return obs

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = self.venv.step_wait()
        self._cache(infos, dones)
        return obs, rewards, dones, infos

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks" and self._masks is not None and not args and not kwargs:
            return [self._masks[i] for i in self._get_indices(indices)]
        if method_name != "action_masks":
            self._masks = None  # the method may change the env
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)


class FreshInfoDummyVecEnv(DummyVecEnv):
    """``DummyVecEnv`` for envs whose ``step`` returns a new info dict each time (:class:`SingleAgentEnv`):
    the infos are handed on as they are instead of deep-copied, and the observations as copies of the buffers
    (the same values; ``tests/training``)."""

    def _obs_from_buf(self) -> Any:
        return dict_to_obs(self.observation_space, {key: buf.copy() for key, buf in self.buf_obs.items()})

    def step_wait(self) -> Any:
        for i, env in enumerate(self.envs):
            obs, self.buf_rews[i], terminated, truncated, info = env.step(self.actions[i])
            self.buf_dones[i] = terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated
            if self.buf_dones[i]:
                info["terminal_observation"] = obs
                obs, self.reset_infos[i] = env.reset()
            self.buf_infos[i] = info
            self._save_obs(i, obs)
        return self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones), list(self.buf_infos)
