"""Double-buffered sampling: the learner picks one group's moves while the other groups' envs step.

sb3's rollout loop is synchronous: the policy's forward pass, then ``env.step`` for all envs, then the next
forward pass. The env's time (the opponents' moves, the advisor, the observation) is added to the learner's,
even when the envs run in worker processes on another core. With ``pipelined = true`` the envs are split into
``groups`` groups (two by default), each a vec env of its own (:class:`PipelinedVecEnv`), and
:class:`PipelinedMaskablePPO` steps them in turn, as Sample Factory's double-buffered sampling does:

    wait for group A's step t -> forward pass for A -> send A's step t+1
    wait for group B's step t -> forward pass for B -> send B's step t+1      (A's envs step meanwhile)

While the learner runs a group's forward pass, the other groups' envs step in their workers; when an env step
takes less CPU than a forward pass, the learner only waits for the pipes. With more than two groups the
worker may be several steps ahead, so a long step (one followed by many opponents' turns) is made up by the
short ones after it instead of stalling the learner. What the rollout buffer receives is what sb3's loop
would store for the same moves (the observations, masks, values, log-probabilities and rewards of each env,
step by step); the moves differ from a synchronous run's only in that each group's are sampled by a forward
pass of its own.

For everything else (reset, ``env_method``, the monitor's figures, checkpoints) a :class:`PipelinedVecEnv` is
one vec env of all the envs, in group order.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.utils import obs_as_tensor
from stable_baselines3.common.vec_env import VecEnv

#: the figures of sb3's ``VecMonitor`` that a checkpoint keeps (the returns of the games in flight)
MONITOR_STATE = ("episode_returns", "episode_lengths", "episode_count")


class PipelinedVecEnv(VecEnv):
    """Vec envs (``groups``, each with its own workers) seen as one vec env of all their envs, in group order;
    :class:`PipelinedMaskablePPO` steps the groups in turn."""

    def __init__(self, groups: Sequence[VecEnv]) -> None:
        if len(groups) < 2:
            raise ValueError("a pipelined vec env needs at least two groups of envs")
        self.groups = list(groups)
        sizes = [g.num_envs for g in self.groups]
        self.offsets = np.cumsum([0, *sizes]).tolist()
        super().__init__(sum(sizes), self.groups[0].observation_space, self.groups[0].action_space)

    def slices(self) -> list[slice]:
        """The envs of each group, as a slice of the whole."""
        return [slice(a, b) for a, b in itertools.pairwise(self.offsets)]

    def _split(self, indices: Any) -> list[tuple[VecEnv, list[int], list[int]]]:
        """``(group, its local indices, their positions in indices)`` for the groups that ``indices`` touches."""
        wanted = list(self._get_indices(indices))
        out = []
        for g, (a, b) in enumerate(itertools.pairwise(self.offsets)):
            where = [k for k, i in enumerate(wanted) if a <= i < b]
            if where:
                out.append((self.groups[g], [wanted[k] - a for k in where], where))
        return out

    def reset(self) -> np.ndarray:
        obs = np.concatenate([g.reset() for g in self.groups])
        self.reset_infos = [info for g in self.groups for info in _reset_infos(g)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        for g, part in zip(self.groups, self.slices(), strict=True):
            g.step_async(actions[part])

    def step_wait(self) -> Any:
        results = [g.step_wait() for g in self.groups]
        obs, rewards, dones = (np.concatenate([r[k] for r in results]) for k in range(3))
        return obs, rewards, dones, [info for r in results for info in r[3]]

    def close(self) -> None:
        for g in self.groups:
            g.close()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Env ``i`` of the whole gets ``seed + i`` at its next reset (as one ``SubprocVecEnv`` of all of them)."""
        out: list[int | None] = []
        for g, start in zip(self.groups, self.offsets[:-1], strict=True):
            out += g.seed(None if seed is None else seed + start)
        return out

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return self._gather(lambda g, local: g.get_attr(attr_name, local), indices)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        for g, local, _ in self._split(indices):
            g.set_attr(attr_name, value, local)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        return self._gather(lambda g, local: g.env_method(method_name, *args, indices=local, **kwargs), indices)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return self._gather(lambda g, local: g.env_is_wrapped(wrapper_class, local), indices)

    def _gather(self, call: Any, indices: Any) -> list[Any]:
        out: list[Any] = [None] * len(list(self._get_indices(indices)))
        for g, local, where in self._split(indices):
            for k, value in zip(where, call(g, local), strict=True):
                out[k] = value
        return out


def monitor_state(venv: VecEnv) -> Any:
    """The ``VecMonitor`` figures of ``venv`` (:data:`MONITOR_STATE`; a list of them, one per group, for a
    :class:`PipelinedVecEnv`)."""
    if isinstance(venv, PipelinedVecEnv):
        return [monitor_state(g) for g in venv.groups]
    return {k: getattr(venv, k) for k in MONITOR_STATE}


def set_monitor_state(venv: VecEnv, state: Any) -> None:
    """Restore figures read by :func:`monitor_state` (a ``ValueError`` if they are another layout's)."""
    if isinstance(venv, PipelinedVecEnv):
        if not isinstance(state, list) or len(state) != len(venv.groups):
            raise ValueError(f"the saved monitor figures are not those of {len(venv.groups)} pipelined groups")
        for g, figures in zip(venv.groups, state, strict=True):
            set_monitor_state(g, figures)
        return
    if not isinstance(state, dict):
        raise ValueError("the saved monitor figures are those of pipelined groups; this run is not pipelined")
    for k, v in state.items():
        setattr(venv, k, v)


def _reset_infos(venv: VecEnv) -> list[dict]:
    """The reset infos of the innermost vec env (wrappers keep their own, empty ones)."""
    while hasattr(venv, "venv"):
        venv = venv.venv  # type: ignore[attr-defined]
    return list(venv.reset_infos)


class PipelinedMaskablePPO(MaskablePPO):
    """``MaskablePPO`` whose rollouts step a :class:`PipelinedVecEnv`'s groups in turn (any other vec env:
    sb3-contrib's loop). A saved model is a ``MaskablePPO`` file: ``MaskablePPO.load`` reads it."""

    def collect_rollouts(
        self,
        env: VecEnv,
        callback: BaseCallback,
        rollout_buffer: Any,
        n_rollout_steps: int,
        use_masking: bool = True,
    ) -> bool:
        if not isinstance(env, PipelinedVecEnv):
            return super().collect_rollouts(env, callback, rollout_buffer, n_rollout_steps, use_masking)
        assert isinstance(rollout_buffer, MaskableRolloutBuffer), "a pipelined rollout needs masks"
        assert self._last_obs is not None, "no previous observation"
        self.policy.set_training_mode(False)
        rollout_buffer.reset()
        callback.on_rollout_start()

        parts = env.slices()
        n = env.num_envs
        masks = np.empty((n, int(self.action_space.n)), bool)  # type: ignore[attr-defined]
        actions = np.empty(n, np.int64)
        values = th.empty(n)
        log_probs = th.empty(n)

        def send(g: int, observations: np.ndarray) -> None:
            """The forward pass for group ``g`` on its part of ``observations``, then its step, sent to its workers."""
            group, part = env.groups[g], parts[g]
            masks[part] = np.stack(group.env_method("action_masks"))
            with th.no_grad():
                act, val, logp = self.policy(obs_as_tensor(observations[part], self.device), action_masks=masks[part])
            actions[part] = act.cpu().numpy()
            values[part], log_probs[part] = val.flatten(), logp
            group.step_async(actions[part])

        for g in range(len(parts)):
            send(g, self._last_obs)  # type: ignore[arg-type]
        new_obs = np.empty_like(self._last_obs)
        rewards = np.empty(n, np.float32)
        dones = np.empty(n, bool)
        infos: list[dict] = [{}] * n
        for step in range(n_rollout_steps):
            step_masks, step_actions = masks.copy(), actions.copy()
            step_values, step_log_probs = values.clone(), log_probs.clone()
            for g, part in enumerate(parts):
                new_obs[part], rewards[part], dones[part], infos[part] = env.groups[g].step_wait()
                if step + 1 < n_rollout_steps:
                    send(g, new_obs)
            self.num_timesteps += n
            callback.update_locals(locals())
            if not callback.on_step():
                self._drain(env, step + 1 < n_rollout_steps)
                return False
            self._update_info_buffer(infos, dones)
            step_rewards = rewards.copy()
            for idx, done in enumerate(dones):  # time-limit truncation: bootstrap with the value (as sb3)
                if (
                    done
                    and infos[idx].get("terminal_observation") is not None
                    and infos[idx].get("TimeLimit.truncated", False)
                ):
                    terminal_obs = self.policy.obs_to_tensor(infos[idx]["terminal_observation"])[0]
                    with th.no_grad():
                        step_rewards[idx] += self.gamma * self.policy.predict_values(terminal_obs)[0].item()
            rollout_buffer.add(
                self._last_obs,
                step_actions.reshape(-1, 1) if isinstance(self.action_space, spaces.Discrete) else step_actions,
                step_rewards,
                self._last_episode_starts,
                step_values,
                step_log_probs,
                action_masks=step_masks,
            )
            self._last_obs = new_obs.copy()
            self._last_episode_starts = dones.copy()

        with th.no_grad():
            last_values = self.policy.predict_values(obs_as_tensor(self._last_obs, self.device))  # type: ignore[arg-type]
        rollout_buffer.compute_returns_and_advantage(last_values=last_values, dones=dones)
        callback.on_rollout_end()
        return True

    @staticmethod
    def _drain(env: PipelinedVecEnv, in_flight: bool) -> None:
        """Wait for the steps already sent (a stopped rollout leaves no worker mid-message)."""
        if in_flight:
            for group in env.groups:
                group.step_wait()
