"""Profile a short ``meeplezoo train`` run per game: the env's share of training time, and where it goes.

    python scripts/profile_training.py seastead concordia --steps 1024
    python scripts/profile_training.py seastead --round-trips 2000   # masks asked vs cached, 2 workers
    python scripts/profile_training.py seastead --config ship.toml --plain --steps 20480   # no cProfile
    python scripts/profile_training.py seastead --config seastead --wall --steps 8192   # a shipped config

Runs :func:`meeplezoo.training.trainer.train` (the game's default config and opponent pool, one env in the
process so that cProfile sees it, no evaluation or snapshots) under cProfile with CPU time as its clock
(``time.process_time``: the figures hold on a machine shared with other jobs). Prints env-steps per CPU
second of ``learn`` and the env's share of it: the vec env's ``step_wait``/``reset``/``env_method`` (the
mask-caching wrapper's, or DummyVecEnv's on a tree without it): the learner's game, the opponents' moves,
the action masks, the wrappers. The env's time is then split by cumulative time of its parts:

    opponents   the opponents' ``act`` (heuristics' lookahead on their determinized copy included)
    views       ``seat_view`` for the opponents (observation, mask, the public copy)
    aec step    ``EngineEnv.step`` (the engine's ``apply`` and the adapter's bookkeeping)
    observe     ``EngineEnv.observe`` (the learner's observation and mask)
    wrapper     the rest: PettingZoo's wrappers, ``SingleAgentEnv``, sb3's vec env, ``action_masks``

``learn``'s own time (the model's forward passes, the updates) is the rest of the run. Imports and the
model's construction are outside ``learn`` and not counted. cProfile slows Python code more than torch's
kernels, so the env's share reads somewhat higher than without it.

``--config FILE`` profiles a run's settings (the TOML of ``meeplezoo train --config``, or the name of a config the
game ships; ``n_envs``, the step
count, evaluations, snapshots and checkpoints are overridden as above, and the imitation warm start and the value
fit are skipped: what is profiled is PPO's loop; a ``valued`` advisor reads the shipped value model).
``--plain`` runs without cProfile:
the vec env's ``step_wait``/``reset``/``env_method`` and ``learn`` are timed with ``time.process_time``
only, so the share is the unprofiled one (no split into parts).
``--wall`` runs the config as it is (its ``n_envs``, ``pipelined``) and prints env-steps per wall second of
``learn`` and the share of ``learn``'s wall time that the learner spends in the vec env's calls (stepping,
resetting, asking for masks): waiting for the env and talking to it. In a pipelined run the envs step
while the learner works on the other group's moves, so that share is what the env costs the run.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time

import numpy as np

#: the vec env's methods, outermost first: the mask-caching wrapper, else sb3's DummyVecEnv
ENV_ENTRIES = {
    file: ((file, "step_wait"), (file, "reset"), (file, "env_method"))
    for file in ("training/masked_vec_env.py", "dummy_vec_env.py")
}
PARTS = {
    "opponents": lambda f: f[2] == "act" and f[0].endswith(("heuristic.py", "random_agent.py", "pool.py")),
    "views": lambda f: f[0].endswith("agents/view.py") and f[2] == "seat_view",
    "aec step": lambda f: f[0].endswith("envs/core/adapter.py") and f[2] == "step",
    "observe": lambda f: f[0].endswith("envs/core/adapter.py") and f[2] == "observe",
}


def _cum(raw: dict, match) -> float:
    return sum(v[3] for f, v in raw.items() if match(f))


def _config(game: str, steps: int, config_file: str | None, n_envs: int | None = 1):
    from meeplezoo.training.config import load_config

    overrides = {
        **({"n_envs": n_envs, "pipelined": False} if n_envs else {}),  # one env in the process: synchronous
        "total_steps": steps,
        "eval_every": 0,
        "snapshot_every": 0,
        "checkpoint_every": 0,
        "pretrain_games": 0,  # the imitation warm start is a phase of its own, before PPO's first step
        "value_games": 0,  # so is the value fit: a "valued" advisor then reads the shipped value model
    }
    config = load_config(game, config_file, overrides)
    config.time_limit = 0.0
    return config


def plain(game: str, steps: int, config_file: str | None = None) -> dict[str, float]:
    """Env-steps per CPU second of ``learn`` and the env's CPU seconds, without cProfile: ``learn`` and the vec
    env's entry points wrapped in ``time.process_time`` (one env in the process)."""
    import torch
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.masked_vec_env import MaskCachingVecEnv
    from meeplezoo.training.trainer import train

    torch.set_num_threads(1)
    spent = {"env": 0.0, "learn": 0.0}

    def timed(fn, key):
        def wrapper(*args, **kwargs):
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[key] += time.process_time() - t

        return wrapper

    patched = [(MaskCachingVecEnv, name) for name in ("step_wait", "reset", "env_method")] + [(MaskablePPO, "learn")]
    saved = [(cls, name, getattr(cls, name)) for cls, name in patched]
    for cls, name, fn in saved:
        setattr(cls, name, timed(fn, "learn" if name == "learn" else "env"))
    try:
        with tempfile.TemporaryDirectory() as out:
            train(game, out, _config(game, steps, config_file), log=lambda _: None)
    finally:
        for cls, name, fn in saved:
            setattr(cls, name, fn)
    return {"steps_per_cpu_s": steps / spent["learn"], **spent}


def wall(game: str, steps: int, config_file: str | None = None) -> dict[str, float]:
    """Env-steps per wall second of ``learn`` and the wall seconds the learner spends in the vec env's calls
    (stepping, resetting, asking for masks: waiting for the workers and talking to them), with the config's own
    ``n_envs`` and ``pipelined`` (a pipelined run's envs step while the learner picks the other group's moves)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnvWrapper, VecMonitor

    from meeplezoo.training.masked_vec_env import MaskCachingVecEnv
    from meeplezoo.training.pipelined import PipelinedVecEnv
    from meeplezoo.training.spin_vec_env import SpinVecEnv
    from meeplezoo.training.trainer import train

    torch.set_num_threads(1)
    spent = {"env": 0.0, "learn": 0.0}
    depth = [0]  # only the outermost vec env call is timed (the wrappers call the ones inside)

    def timed(fn, key):
        def wrapper(*args, **kwargs):
            outer = key == "learn" or depth[0] == 0
            depth[0] += key == "env"
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                depth[0] -= key == "env"
                if outer:
                    spent[key] += time.perf_counter() - t

        return wrapper

    names = ("step_async", "step_wait", "reset", "env_method")
    classes = (PipelinedVecEnv, VecMonitor, VecEnvWrapper, MaskCachingVecEnv, SpinVecEnv, SubprocVecEnv, DummyVecEnv)
    saved = [(cls, name, cls.__dict__[name]) for cls in classes for name in names if name in cls.__dict__]
    saved.append((MaskablePPO, "learn", MaskablePPO.learn))
    for cls, name, fn in saved:
        setattr(cls, name, timed(fn, "learn" if name == "learn" else "env"))
    try:
        with tempfile.TemporaryDirectory() as out:
            train(game, out, _config(game, steps, config_file, n_envs=None), log=lambda _: None)
    finally:
        for cls, name, fn in saved:
            setattr(cls, name, fn)
    return {"steps_per_s": steps / spent["learn"], **spent}


def profile(game: str, steps: int, top: int = 0, config_file: str | None = None) -> dict[str, float]:
    import torch

    from meeplezoo.training.trainer import train

    torch.set_num_threads(1)
    config = _config(game, steps, config_file)
    prof = cProfile.Profile(time.process_time)
    with tempfile.TemporaryDirectory() as out:
        prof.enable()
        train(game, out, config, log=lambda _: None)
        prof.disable()
    stats = pstats.Stats(prof)
    raw = stats.stats  # type: ignore[attr-defined]
    learn = _cum(raw, lambda f: f[0].endswith("ppo_mask.py") and f[2] == "learn")
    for entries in ENV_ENTRIES.values():
        # the outermost method of each name (the mask-caching wrapper's; the file also holds a DummyVecEnv)
        env = sum(
            max((v[3] for f, v in raw.items() if f[0].endswith(a) and f[2] == b), default=0.0) for a, b in entries
        )
        if env:
            break
    parts = {name: _cum(raw, match) for name, match in PARTS.items()}
    parts["wrapper"] = env - sum(parts.values())
    if top:
        stats.sort_stats("tottime").print_stats(top)
    return {"steps_per_cpu_s": steps / learn, "learn": learn, "env": env, **parts}


def mask_round_trips(game: str, steps: int) -> dict[str, tuple[float, float]]:
    """Main-process CPU and wall microseconds per vec-env step of ``steps`` steps (random legal actions, masks
    read as MaskablePPO reads them) on 2 ``SubprocVecEnv`` workers: masks asked for (sb3's way) or cached
    from the step results (:class:`MaskCachingVecEnv`)."""
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from meeplezoo.training.config import load_config
    from meeplezoo.training.masked_vec_env import MaskCachingVecEnv
    from meeplezoo.training.pool import OpponentPool
    from meeplezoo.training.trainer import _env_factory

    config = load_config(game, None, {"opponents": ["random"]})  # light workers: the round trips show
    pool = OpponentPool(game, ["random"], [], 0.0)
    out = {}
    for name, wrap in (("asked", lambda v: v), ("cached", MaskCachingVecEnv)):
        venv = wrap(SubprocVecEnv([_env_factory(game, config, pool)] * 2, start_method="spawn"))
        venv.seed(0)
        venv.reset()
        rng = np.random.default_rng(0)
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(steps):
            masks = get_action_masks(venv)
            venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        venv.close()
        out[name] = (1e6 * cpu / steps, 1e6 * wall / steps)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="+")
    p.add_argument("--steps", type=int, default=1024, help="learner steps of each run")
    p.add_argument("--top", type=int, default=0, help="also print the N functions with most own time in the env")
    p.add_argument("--round-trips", type=int, default=0, help="also time N SubprocVecEnv steps, masks asked/cached")
    p.add_argument("--config", default=None, metavar="FILE", help="a run's TOML settings over the game's defaults")
    p.add_argument("--plain", action="store_true", help="no cProfile: the env's and learn's CPU time only")
    p.add_argument("--wall", action="store_true", help="wall time in the vec env's calls, the config's n_envs")
    args = p.parse_args()
    if args.round_trips:
        for game in args.games:
            r = mask_round_trips(game, args.round_trips)
            print(
                f"{game}: main-process CPU / wall per step on 2 workers: masks asked {r['asked'][0]:.0f} / "
                f"{r['asked'][1]:.0f} us, cached {r['cached'][0]:.0f} / {r['cached'][1]:.0f} us",
                flush=True,
            )
        return
    if args.wall or args.plain:
        if args.wall:
            run, rate, speed, what = wall, "steps/s", "steps_per_s", "wall time of learn in the vec env's calls"
        else:
            run, rate, speed = plain, "steps/CPU s", "steps_per_cpu_s"
            what = "no cProfile: CPU time of learn, the vec env"
        print(f"{'game':14} {rate:>11} {'env share':>9}   ({what})")
        for game in args.games:
            r = run(game, args.steps, args.config)
            print(f"{game:14} {r[speed]:11.0f} {100 * r['env'] / r['learn']:8.1f}%", flush=True)
        return
    names = (*PARTS, "wrapper")
    print(f"{'game':14} {'steps/CPU s':>11} {'env share':>9}   share of learn: " + ", ".join(names))
    for game in args.games:
        r = profile(game, args.steps, args.top, args.config)
        split = ", ".join(f"{100 * r[n] / r['learn']:.1f}%" for n in names)
        print(f"{game:14} {r['steps_per_cpu_s']:11.0f} {100 * r['env'] / r['learn']:8.1f}%   {split}", flush=True)


if __name__ == "__main__":
    main()
