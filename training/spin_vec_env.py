"""Envs stepped by one worker process through shared memory, waiting by spinning instead of sleeping.

``SubprocVecEnv`` sends each step through a pipe: the worker sleeps in ``recv`` and the kernel wakes it. On
a virtual machine a wake-up across cores costs far more than the message (on the 2-core machine of
``docs/lab-notes/training.md``, ~150 us of the learner's time per env step, as much as a Seastead step with its
heuristic reply): a pipelined run (:mod:`~meeplezoo.training.pipelined`) would hide the env's work and
pay it back in wake-ups. Here one worker process holds all the envs; the learner writes a group's moves
into shared memory and bumps the group's request count, the worker (spinning on the counts) steps that
group's envs and writes what they returned (observation, reward, done, mask, the info pickled, the
terminal observation) before bumping the group's answer count, which the learner spins on. After
``spin_seconds`` without a request (PPO's update) the worker checks the counts every half millisecond
instead, asleep in between. Resets, ``env_method``, ``get_attr`` and ``set_attr`` (rare) go through a pipe.

The counts are written after the data they announce and read before it; x86-64 keeps stores and loads in
program order, which this relies on: :func:`available` is false elsewhere (``pipelined`` then uses
``SubprocVecEnv`` groups).
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing as mp
import os
import pickle
import platform
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing import shared_memory
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import CloudpickleWrapper, VecEnv

#: the most bytes of one env's pickled info (and reset info) per step
INFO_BYTES = 1 << 16
#: seconds between two looks at the counts once the worker is idle (asleep in between)
IDLE_POLL = 0.0005
#: the thread counts of the BLAS libraries, set to 1 in the worker
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
#: how often the learner's wait checks that the worker lives (spins between checks)
LIVENESS_SPINS = 200_000


def available() -> bool:
    """True where the shared counts are safe without fences (x86-64)."""
    return platform.machine().lower() in ("x86_64", "amd64")


class _Layout:
    """The shared arrays of ``n`` envs in ``groups`` groups, carved out of one buffer."""

    def __init__(self, n: int, groups: int, obs_shape: tuple[int, ...], n_actions: int, buf: Any) -> None:
        fields = [
            ("requests", np.int64, (groups,)),
            ("answers", np.int64, (groups,)),
            ("failed", np.int64, (1,)),
            ("actions", np.int64, (n,)),
            ("rewards", np.float64, (n,)),
            ("dones", np.bool_, (n,)),
            ("obs", np.float32, (n, *obs_shape)),
            ("terminal_obs", np.float32, (n, *obs_shape)),
            ("masks", np.bool_, (n, n_actions)),
            ("info_sizes", np.int64, (n,)),
            ("infos", np.uint8, (n, INFO_BYTES)),
        ]
        offset = 0
        for name, dtype, shape in fields:
            offset = -(-offset // 8) * 8
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            if buf is not None:
                setattr(self, name, np.ndarray(shape, dtype, buffer=buf, offset=offset))
            offset += size
        self.nbytes = offset


def _step_group(envs: list[gym.Env], first: int, shared: _Layout) -> None:
    for k, env in enumerate(envs):
        i = first + k
        obs, reward, terminated, truncated, info = env.step(int(shared.actions[i]))
        done = terminated or truncated
        info["TimeLimit.truncated"] = truncated and not terminated
        reset_info: dict = {}
        if done:
            shared.terminal_obs[i] = obs
            obs, reset_info = env.reset()
        # the mask of the position the env is in now travels in shared memory, not pickled with its info
        mask = (reset_info if done else info).pop("action_mask", None)
        shared.masks[i] = env.action_masks() if mask is None else mask  # type: ignore[attr-defined]
        shared.obs[i], shared.rewards[i], shared.dones[i] = obs, reward, done
        blob = pickle.dumps((info, reset_info), protocol=pickle.HIGHEST_PROTOCOL)
        if len(blob) > INFO_BYTES:
            raise ValueError(f"env {i}: a step's info takes {len(blob)} bytes pickled, more than {INFO_BYTES}")
        shared.info_sizes[i] = len(blob)
        shared.infos[i, : len(blob)] = np.frombuffer(blob, np.uint8)


def _worker(conn: Any, fns: CloudpickleWrapper, sizes: list[int], spin_seconds: float) -> None:
    envs: list[gym.Env] = [fn() for fn in fns.var]
    firsts = np.cumsum([0, *sizes]).tolist()
    groups = [envs[a:b] for a, b in itertools.pairwise(firsts)]
    space = envs[0].observation_space
    conn.send((space, envs[0].action_space))
    name = conn.recv()
    memory = shared_memory.SharedMemory(name=name)  # registered with the learner's resource tracker, which unlinks
    shared = _Layout(len(envs), len(groups), space.shape, int(envs[0].action_space.n), memory.buf)
    last = time.perf_counter()
    try:
        while True:
            busy = False
            for g, group in enumerate(groups):
                if shared.requests[g] != shared.answers[g]:
                    _step_group(group, firsts[g], shared)
                    shared.answers[g] = shared.requests[g]
                    busy = True
            if busy:
                last = time.perf_counter()
                continue
            idle = time.perf_counter() - last > spin_seconds
            if conn.poll(IDLE_POLL if idle else 0):
                cmd, data = conn.recv()
                if cmd == "close":
                    break
                conn.send(_command(envs, shared, cmd, data))
                last = time.perf_counter()
    except (EOFError, KeyboardInterrupt):
        pass
    except Exception:
        shared.failed[0] = 1
        with contextlib.suppress(OSError):
            conn.send(("error", traceback.format_exc()))
    finally:
        del shared
        with contextlib.suppress(BufferError):  # a view still alive: the process ends anyway
            memory.close()
        for env in envs:
            env.close()


def _command(envs: list[gym.Env], shared: _Layout, cmd: str, data: Any) -> Any:
    if cmd == "reset":
        infos = []
        for i, seed, options in data:
            obs, info = envs[i].reset(seed=seed, **({"options": options} if options else {}))
            shared.obs[i] = obs
            shared.masks[i] = envs[i].action_masks()  # type: ignore[attr-defined]
            infos.append(info)
        return ("ok", infos)
    if cmd == "env_method":
        indices, name, args, kwargs = data
        return ("ok", [envs[i].get_wrapper_attr(name)(*args, **kwargs) for i in indices])
    if cmd == "get_attr":
        indices, name = data
        return ("ok", [envs[i].get_wrapper_attr(name) for i in indices])
    if cmd == "set_attr":
        indices, name, value = data
        for i in indices:
            setattr(envs[i], name, value)
        return ("ok", None)
    if cmd == "is_wrapped":
        from stable_baselines3.common.env_util import is_wrapped

        indices, wrapper = data
        return ("ok", [is_wrapped(envs[i], wrapper) for i in indices])
    raise ValueError(f"unknown command {cmd!r}")


class SpinWorker:
    """One worker process holding the envs of ``env_fns``, in groups of ``sizes``; :meth:`group` is a group's
    vec env."""

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]], sizes: Sequence[int], spin_seconds: float = 0.005):
        if sum(sizes) != len(env_fns) or min(sizes) < 1:
            raise ValueError(f"groups of {list(sizes)} envs do not split {len(env_fns)} envs")
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker, args=(child, CloudpickleWrapper(list(env_fns)), list(sizes), spin_seconds), daemon=True
        )
        # a multithreaded BLAS in the worker (the valued advisor's products) would spin on the learner's core
        blas = {k: os.environ.get(k) for k in BLAS_THREADS}
        os.environ.update({k: "1" for k in BLAS_THREADS})
        try:
            self.process.start()
        finally:
            for k, v in blas.items():
                if v is None:
                    os.environ.pop(k)
                else:
                    os.environ[k] = v
        child.close()
        self.observation_space, self.action_space = self._receive()
        self.sizes = list(sizes)
        self.firsts = np.cumsum([0, *sizes]).tolist()
        n_actions = int(self.action_space.n)  # type: ignore[attr-defined]
        obs_shape = self.observation_space.shape or ()
        nbytes = _Layout(len(env_fns), len(sizes), obs_shape, n_actions, None).nbytes
        self.memory = shared_memory.SharedMemory(create=True, size=nbytes)
        self.shared = _Layout(len(env_fns), len(sizes), obs_shape, n_actions, self.memory.buf)
        self.shared.requests[:] = self.shared.answers[:] = self.shared.failed[:] = 0
        self.conn.send(self.memory.name)
        self.closed = False

    def group(self, g: int) -> SpinVecEnv:
        return SpinVecEnv(self, g)

    def _receive(self) -> Any:
        try:
            reply = self.conn.recv()
        except EOFError:
            raise RuntimeError(f"the env worker exited (code {self.process.exitcode})") from None
        if isinstance(reply, tuple) and len(reply) == 2 and reply[0] == "error":
            raise RuntimeError(f"the env worker failed:\n{reply[1]}")
        return reply

    def call(self, cmd: str, data: Any) -> Any:
        self.conn.send((cmd, data))
        return self._receive()[1]

    def wait(self, g: int) -> None:
        """Spin until group ``g`` answered its last request (a ``RuntimeError`` if the worker failed)."""
        requests, answers = self.shared.requests, self.shared.answers
        spins = 0
        while answers[g] != requests[g]:
            spins += 1
            failed = self.shared.failed[0]
            if (failed or spins % LIVENESS_SPINS == 0) and (failed or not self.process.is_alive()):
                self._receive()  # raises with the worker's traceback
                raise RuntimeError(f"the env worker exited (code {self.process.exitcode})")

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError):
            self.conn.send(("close", None))
        self.process.join(timeout=10)
        if self.process.is_alive():  # pragma: no cover
            self.process.terminate()
        del self.shared
        self.memory.close()
        self.memory.unlink()


class SpinVecEnv(VecEnv):
    """Group ``g`` of a :class:`SpinWorker`'s envs as a vec env (sb3's ``SubprocVecEnv`` results: auto-reset,
    ``terminal_observation``, ``TimeLimit.truncated``, reset infos)."""

    def __init__(self, worker: SpinWorker, g: int) -> None:
        self.worker, self.g = worker, g
        self.first = worker.firsts[g]
        super().__init__(worker.sizes[g], worker.observation_space, worker.action_space)

    def _global(self, indices: Any) -> list[int]:
        return [self.first + i for i in self._get_indices(indices)]

    def reset(self) -> np.ndarray:
        data = [(self.first + i, self._seeds[i], self._options[i]) for i in range(self.num_envs)]
        infos = self.worker.call("reset", data)
        self.reset_infos = infos
        self._reset_seeds()
        self._reset_options()
        part = slice(self.first, self.first + self.num_envs)
        return self.worker.shared.obs[part].copy()

    def step_async(self, actions: np.ndarray) -> None:
        shared = self.worker.shared
        shared.actions[self.first : self.first + self.num_envs] = actions
        shared.requests[self.g] += 1

    def step_wait(self) -> Any:
        self.worker.wait(self.g)
        shared, part = self.worker.shared, slice(self.first, self.first + self.num_envs)
        obs, rewards, dones = shared.obs[part].copy(), shared.rewards[part].copy(), shared.dones[part].copy()
        infos = []
        for k, i in enumerate(range(part.start, part.stop)):
            info, reset_info = pickle.loads(shared.infos[i, : shared.info_sizes[i]].tobytes())
            mask = shared.masks[i].copy()
            if dones[k]:
                info["terminal_observation"] = shared.terminal_obs[i].copy()
                self.reset_infos[k] = {**reset_info, "action_mask": mask}
            else:
                info["action_mask"] = mask
            infos.append(info)
        return obs, rewards, dones, infos

    def close(self) -> None:
        self.worker.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return self.worker.call("get_attr", (self._global(indices), attr_name))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        self.worker.call("set_attr", (self._global(indices), attr_name, value))

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        return self.worker.call("env_method", (self._global(indices), method_name, args, kwargs))

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return self.worker.call("is_wrapped", (self._global(indices), wrapper_class))
