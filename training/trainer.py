"""``meeplezoo train GAME --out runs/NAME``: MaskablePPO self-play against an opponent pool, with checkpoints.

The learner plays a seat drawn anew each episode of
:class:`~meeplezoo.training.single_agent.SingleAgentEnv`; the other seats are drawn from an
:class:`~meeplezoo.training.pool.OpponentPool` (the config's baseline agents, and frozen past checkpoints of
the learner once there are some). ``n_envs`` envs run in ``SubprocVecEnv`` workers. The run folder holds::

    OUT/config.toml                  the settings of the run
    OUT/checkpoints/step_N.zip       model with its optimiser state and step count
    OUT/checkpoints/step_N.pkl       opponent pool, RNG states (torch, numpy, random), next due steps,
                                     the state of every env (games in flight, opponents, env generators)
    OUT/checkpoints/latest.json      the last complete checkpoint (written last)
    OUT/pool/step_N.zip              frozen checkpoints played by the pool
    OUT/tb/                          tensorboard logs (rollout/, train/, eval/win_rate)
    OUT/value.npz                    the ``valued`` advisor's value model (``value_games > 0``)
    OUT/pretrained.zip               the model after the imitation warm start (``pretrain_games > 0``)
    OUT/final.zip                    the model at the end of the run (a ``ppo:OUT/final.zip`` agent)

Checkpoints are taken between updates only (at the start of a rollout: the rollout buffer is empty), with
the envs as they are, games in flight included (:meth:`SingleAgentEnv.get_state`), and the model's last
observation. ``--resume`` loads the last checkpoint (model, optimiser, pool, RNG states, step count, envs) and
trains on to ``total_steps``: the resumed run is bit-identical to the uninterrupted one
(``tests/training/test_resume.py``). A ``time_limit`` stop also waits for the next update boundary.
:func:`train` runs the steps of a :class:`TrainingRun` in order. Needs the ``training`` extra (torch,
stable-baselines3, sb3-contrib).
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..agents import play_match
from ..envs.core.errors import MeepleZooError
from .config import TrainConfig, dump_config, learning_rate, load_config
from .pool import OpponentPool
from .single_agent import SingleAgentEnv, check_shaping


class TrainError(MeepleZooError):
    """A training run that cannot start (one line)."""


def _env_factory(game: str, config: TrainConfig, pool: OpponentPool) -> Callable[[], SingleAgentEnv]:
    def make() -> SingleAgentEnv:
        return SingleAgentEnv(
            game,
            opponent=pool,
            reward_mode=config.reward_mode,
            env_kwargs=config.env,
            advisor=config.advisor,
            shaping=config.shaping,
            shaping_gamma=config.gamma,
        )

    return make


def make_vec_env(game: str, config: TrainConfig, pool: OpponentPool) -> Any:
    """``n_envs`` single-agent envs: in ``SubprocVecEnv`` workers when more than one; the masks come with the
    step results (:class:`~meeplezoo.training.masked_vec_env.MaskCachingVecEnv`). A ``VecMonitor`` records each
    finished episode, so the logs hold ``rollout/ep_rew_mean`` (the learner's mean return over the last 100
    games: with ``reward_mode = "win"``, 2 x win rate - 1 against the pool) and ``ep_len_mean``. With
    ``pipelined`` the envs are ``groups`` groups, each such a stack
    (:class:`~meeplezoo.training.pipelined.PipelinedVecEnv`), stepped by one worker process through shared
    memory (:mod:`~meeplezoo.training.spin_vec_env`; on x86-64, else each group in ``SubprocVecEnv`` workers)."""
    from stable_baselines3.common.vec_env import SubprocVecEnv, VecMonitor

    from . import spin_vec_env
    from .masked_vec_env import FreshInfoDummyVecEnv, MaskCachingVecEnv
    from .pipelined import PipelinedVecEnv

    fns = [_env_factory(game, config, pool) for _ in range(config.n_envs)]
    if config.pipelined:  # groups of envs, stepped in turn (double-buffered sampling)
        k, n = config.groups, config.n_envs
        sizes = [(n + g) // k for g in range(k)]  # as even as they go, the larger last
        if spin_vec_env.available():  # one worker process, spinning on shared memory
            worker = spin_vec_env.SpinWorker(fns, sizes)
            groups: list[Any] = [worker.group(g) for g in range(k)]
        else:
            firsts = np.cumsum([0, *sizes]).tolist()
            groups = [SubprocVecEnv(fns[a:b], start_method="spawn") for a, b in itertools.pairwise(firsts)]
        return PipelinedVecEnv([VecMonitor(MaskCachingVecEnv(group)) for group in groups])
    return VecMonitor(
        MaskCachingVecEnv(SubprocVecEnv(fns, start_method="spawn") if config.n_envs > 1 else FreshInfoDummyVecEnv(fns))
    )


def evaluate(model: Any, game: str, opponent: str, games: int, seed: int, env_kwargs: dict | None = None):
    """``games`` seat-rotated games of the model against ``opponent`` in every other seat: a MatchResult."""
    from ..agents.policy import PolicyAgent
    from ..games import make_env

    n = len(make_env(game, **dict(env_kwargs or {})).possible_agents)
    entrants = [lambda s: PolicyAgent(model, seed=s)] + [opponent] * (n - 1)
    labels = ["ppo"] + [opponent if i == 1 else f"{opponent}_{i}" for i in range(1, n)]
    return play_match(game, entrants, games, seed, env_kwargs=env_kwargs, labels=labels)


def ppo_standing(result: Any) -> Any:
    return next(s for s in result.standings() if s.label == "ppo")


def ppo_win_rate(result: Any) -> float:
    """The policy's sole wins per game played: unfinished (truncated) games and shared wins count as not won,
    as ``scripts/measure_policies.py`` counts them (a policy that stalls does not read higher)."""
    standing = ppo_standing(result)
    return standing.wins / standing.games if standing.games else 0.0


class _RunState:
    """What a checkpoint holds besides the model."""

    def __init__(self, config: TrainConfig) -> None:
        self.snapshots: list[str] = []  # relative to the run folder
        self.next_checkpoint = config.checkpoint_every or None
        self.next_snapshot = config.snapshot_every or None
        self.next_eval = config.eval_every or None
        self.evals: list[tuple[int, float, int]] = []  # (step, win rate, games)
        self.pretrain: dict[str, float] | None = None  # the warm start's figures (pretrain.py), if any
        self.value: dict[str, float] | None = None  # the value model's figures (value_fit.py), if fitted


def _advice_followed(model: Any) -> float:
    """The share of the rollout's learner moves that were the advisor's move (an advised policy)."""
    buffer = model.rollout_buffer
    size = model.policy.advice_size
    advice = buffer.observations[..., -size:]
    taken = buffer.actions[..., 0].astype(np.int64)
    return float((advice.argmax(axis=-1) == taken).mean())


def _rng_state() -> dict[str, Any]:
    import torch

    return {"torch": torch.get_rng_state(), "numpy": np.random.get_state(), "random": random.getstate()}


def _set_rng_state(state: dict[str, Any]) -> None:
    import torch

    torch.set_rng_state(state["torch"])
    np.random.set_state(state["numpy"])
    random.setstate(state["random"])


def progress_figures(done: int, total: int, elapsed: float, time_limit: float) -> tuple[float, float | None]:
    """The share of a run done and the seconds left (None: not known yet), by its steps, or by its time budget
    (``time_limit`` seconds, 0: none) when that ends the run first.

    >>> progress_figures(100, 1000, 10.0, 0.0)  # 100 steps in 10 s: 90 s for the other 900
    (0.1, 90.0)
    >>> progress_figures(100, 1000, 10.0, 60.0)  # the one-minute budget ends the run first
    (0.16666666666666666, 50.0)
    """
    share = min(done / total, 1.0) if total else 1.0
    left = elapsed * (total - done) / done if done else None
    if time_limit and (left is None or time_limit - elapsed < left):
        return min(elapsed / time_limit, 1.0), max(time_limit - elapsed, 0.0)
    return share, left


class RunProgress:
    """The progress bar of a run (on a terminal): steps done of the run's steps and the time budget, filled and
    timed by whichever ends the run first. ``rich`` draws it (``tqdm`` is not needed)."""

    def __init__(self, step0: int, total_steps: int, time_limit: float, start: float) -> None:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.step0, self.total, self.time_limit, self.start = step0, total_steps - step0, time_limit, start
        self.budget = f" of a {time_limit / 60:g} min budget" if time_limit else ""
        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%"),
            TimeElapsedColumn(),
            TextColumn("{task.fields[left]}"),
        )
        self.task = self.bar.add_task(self._text(step0), total=1.0, left="")
        self.bar.start()

    def _text(self, step: int) -> str:
        return f"step {step:,}/{self.step0 + self.total:,}{self.budget}"

    def update(self, step: int) -> None:
        share, left = progress_figures(step - self.step0, self.total, time.perf_counter() - self.start, self.time_limit)
        eta = "" if left is None else f"{int(left) // 3600}:{int(left) // 60 % 60:02d}:{int(left) % 60:02d} left"
        self.bar.update(self.task, completed=share, description=self._text(step), left=eta)

    def stop(self) -> None:
        self.bar.stop()


def latest_checkpoint(out: Path) -> dict[str, Any] | None:
    file = out / "checkpoints" / "latest.json"
    return json.loads(file.read_text()) if file.is_file() else None


def _learner_class() -> Any:
    """MaskablePPO (pipelined), or a one-line :class:`TrainError` without the training extra."""
    try:
        import torch  # noqa: F401 (the extra's first need)

        from .pipelined import PipelinedMaskablePPO
    except ImportError as exc:
        raise TrainError(f"training needs the training extra (torch, sb3-contrib): {exc}") from None
    return PipelinedMaskablePPO


class TrainingRun:
    """One run of :func:`train`, step by step: :meth:`prepare` (the settings, checked, and the run folder),
    :meth:`fit_value` (the ``valued`` advisor's value model), :meth:`restore` (a resumed run's saved state),
    :meth:`build_envs`, :meth:`build_model`, :meth:`learn` (the warm start, :meth:`pretrain`, runs inside it,
    when training starts) and :meth:`finish` (the last checkpoint and ``final.zip``). Between updates
    :meth:`boundary` does the run's duties: :meth:`snapshot`, :meth:`evaluation`, :meth:`checkpoint`.

    ``state`` is what a checkpoint holds besides the model (:class:`_RunState`); ``saved`` the checkpoint a
    resumed run starts from."""

    def __init__(
        self,
        game: str,
        out: str | Path,
        config: TrainConfig | None = None,
        resume: bool = False,
        log: Callable[[str], None] = print,
    ) -> None:
        from ..games import resolve

        self.learner_class = _learner_class()
        self.game, self.out, self.resume, self.log = resolve(game), Path(out), resume, log
        self.latest = latest_checkpoint(self.out)
        self.config = self._settings(config)
        self.state = _RunState(self.config)
        self.saved: dict[str, Any] = {}
        self.step0 = int(self.latest["step"]) if resume and self.latest else 0
        self.pool: OpponentPool | None = None
        self.vec_env: Any = None
        self.model: Any = None
        self.bar: RunProgress | None = None
        self.start = 0.0  #: the wall clock at the start of learning (the time limit counts from there)
        self.stopping = False  #: past the time limit or stop_at: the rollout now starting is the last
        self.warm_seconds = 0.0  #: wall seconds of the warm start (and its evaluation), inside the run's clock

    def _settings(self, config: TrainConfig | None) -> TrainConfig:
        """The run's config: its own ``config.toml`` when resumed, else ``config`` or the game's defaults."""
        out, latest = self.out, self.latest
        if not self.resume:
            if latest is not None:
                raise TrainError(f"{out} already holds a run; add --resume to continue it or choose another --out")
            return config or load_config(self.game, None)
        if latest is None:
            raise TrainError(f"no checkpoint to resume in {out} (no {out / 'checkpoints' / 'latest.json'})")
        config = load_config(self.game, out / "config.toml")
        if latest.get("game", self.game) != self.game:
            raise TrainError(f"{out} is a run of {latest['game']}, not {self.game}")
        return config

    # --- the steps, in order -----------------------------------------------------------------------------
    def prepare(self, total_steps: int | None = None, time_limit: float | None = None) -> None:
        """Apply the run's overrides, check what a worker would fail on, write ``config.toml``."""
        import torch

        config = self.config
        if total_steps is not None:
            config.total_steps = total_steps
        if time_limit is not None:
            config.time_limit = float(time_limit)
        check_shaping(self.game, config.shaping)  # before the env workers are made: one line, not a traceback
        if (config.pretrain_games or config.advisor) and not self.resume:
            from ..agents import make_agent

            for spec in (config.pretrain_agent if config.pretrain_games else "", config.advisor):
                if spec:
                    make_agent(spec, self.game, seed=0)  # a bad demonstrator or advisor: one line first
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            (self.out / "config.toml").write_text(dump_config(config))
        except OSError as exc:  # a path under a file, a read-only folder: one line before any training
            raise TrainError(f"cannot write the run folder {self.out}: {exc.strerror or exc}") from None
        torch.set_num_threads(1)  # small MLPs; the cores go to the env workers

    def fit_value(self) -> None:
        """With ``value_games``: fit the ``valued`` advisor's value model into ``OUT/value.npz`` (a resumed run
        finds it there) and point the advisor at it (``config.toml`` keeps plain ``valued``)."""
        config = self.config
        if not config.value_games:
            return
        value_file = self.out / "value.npz"
        if not self.resume:
            from .value_fit import fit_value_model

            self.state.value = fit_value_model(
                self.game,
                config.advisor,
                config.env,
                config.value_games,
                value_file,
                seed=config.seed,
                hidden=config.value_net_arch,
                epochs=config.value_epochs,
                log=self.log,
            )
        elif not value_file.is_file():
            raise TrainError(f"{self.out} has no {value_file.name}: the value model of its advisor")
        config.advisor = f"{config.advisor}:path={value_file}"

    def restore(self) -> None:
        """A resumed run: read its last checkpoint's state (the run's figures, RNG states, envs)."""
        if not self.resume:
            return
        assert self.latest is not None
        with open(self.out / self.latest["state"], "rb") as f:
            self.saved = pickle.load(f)
        self.state.__dict__.update(self.saved["run"])

    def build_envs(self) -> None:
        """The opponent pool (its frozen checkpoints included) and the vectorised envs, seeded by the step."""
        config = self.config
        snapshots = [str(self.out / s) for s in self.state.snapshots]
        self.pool = OpponentPool(self.game, list(config.opponents), snapshots, config.self_play)
        self.vec_env = make_vec_env(self.game, config, self.pool)
        self.vec_env.seed(config.seed * 1_000_003 + self.step0)

    def build_model(self) -> None:
        """A new MaskablePPO (an :class:`AdvisedPolicy` with an advisor), or the checkpoint's, with its envs."""
        if self.resume:
            self._load_model()
            return
        config = self.config
        policy_kwargs: dict[str, Any] = {"net_arch": list(config.net_arch)}
        policy: Any = "MlpPolicy"
        if config.advisor:
            from .advised_policy import AdvisedPolicy

            policy = AdvisedPolicy
            policy_kwargs.update(
                advice_size=int(self.vec_env.action_space.n),
                advisor=config.advisor,
                advice_weight=config.advice_weight,
                advice_anchor=config.advice_anchor,
            )
        self.model = self.learner_class(
            policy,
            self.vec_env,
            n_steps=config.n_steps,
            batch_size=config.batch_size,
            n_epochs=config.n_epochs,
            learning_rate=learning_rate(config),
            ent_coef=config.ent_coef,
            gamma=config.gamma,
            gae_lambda=config.gae_lambda,
            policy_kwargs=policy_kwargs,
            tensorboard_log=str(self.out / "tb"),
            seed=config.seed,
            device="cpu",
        )

    def _load_model(self) -> None:
        """The checkpoint's model (optimiser included), its envs' states (games in flight) and RNG states."""
        from .pipelined import set_monitor_state

        assert self.latest is not None
        out, latest, saved, vec_env = self.out, self.latest, self.saved, self.vec_env
        envs = saved.get("envs")  # None: a checkpoint without env states (the envs start fresh episodes)
        self.model = self.learner_class.load(
            out / latest["model"], env=vec_env, device="cpu", tensorboard_log=str(out / "tb"), force_reset=envs is None
        )
        if envs is not None:
            if len(envs) != vec_env.num_envs:
                raise TrainError(f"{out / latest['state']} holds {len(envs)} envs, the run has {vec_env.num_envs}")
            for i, env_state in enumerate(envs):
                vec_env.env_method("set_state", env_state, indices=[i])
            if "monitor" in saved:
                try:
                    set_monitor_state(vec_env, saved["monitor"])
                except ValueError as exc:
                    raise TrainError(f"{out / latest['state']}: {exc}") from None
        _set_rng_state(saved["rng"])
        self.log(
            f"Resumed {out} at step {self.model.num_timesteps} (pool: {len(self.state.snapshots)} frozen checkpoints)"
        )

    def learn(self, progress: bool = False) -> None:
        """PPO on to ``total_steps`` (or the time limit, or ``stop_at``), with :class:`RunCallback`."""
        from .callbacks import RunCallback

        model, config = self.model, self.config
        self.start = time.perf_counter()
        remaining = max(0, config.total_steps - model.num_timesteps)
        if progress:
            self.bar = RunProgress(model.num_timesteps, config.total_steps, config.time_limit, self.start)
        if remaining:
            model.learn(
                total_timesteps=remaining,
                callback=RunCallback(self),
                reset_num_timesteps=not self.resume,
                tb_log_name="ppo",
            )
            model.logger.dump(model.num_timesteps)  # the last update's train/ values

    def finish(self) -> None:
        """Report the pace, take the last checkpoint (the end is a boundary too) and save ``final.zip``."""
        model = self.model
        took = time.perf_counter() - self.start
        if self.stopping:  # the step taken after the boundary checkpoint was not stored: not counted
            model.num_timesteps -= self.vec_env.num_envs
        done = model.num_timesteps - self.step0
        warm = self.warm_seconds
        rate = done / max(took - warm, 1e-9)
        spent = f"{took:.1f} s, {warm:.1f} s of them the warm start (" if warm else f"{took:.1f} s ("
        self.log(f"Trained {done} steps in {spent}{rate:.0f} env-steps/s of PPO); at step {model.num_timesteps}")
        # (a time-limit stop checkpointed at its own boundary already)
        if not self.stopping and model.num_timesteps != self.step0 and not self.boundary():
            self.checkpoint()
        model.save(self.out / "final.zip")
        self.log(f"Saved {self.out / 'final.zip'} (agent spec: ppo:{self.out / 'final.zip'})")

    def close(self) -> None:
        """Stop the progress bar and the env workers (also when the run failed)."""
        if self.bar is not None:
            if self.model is not None:
                self.bar.update(self.model.num_timesteps)
            self.bar.stop()
        if self.vec_env is not None:
            self.vec_env.close()

    # --- what sb3's callback asks of the run (:class:`~meeplezoo.training.callbacks.RunCallback`) -----------
    def on_training_start(self) -> None:
        """The warm start when training starts (not on resume: the checkpoints hold its weights)."""
        if self.config.pretrain_games and not self.resume:
            began = time.perf_counter()
            self.pretrain()
            self.warm_seconds = time.perf_counter() - began

    def on_rollout_start(self) -> None:
        """:meth:`boundary`; past ``time_limit`` or ``stop_at``, a checkpoint there and a stop (the step the
        rollout then takes is not stored)."""
        config, step = self.config, self.model.num_timesteps
        saved = step == self.step0 or self.boundary()  # a resumed run did step0's duties before its checkpoint
        out_of_time = config.time_limit and time.perf_counter() - self.start > config.time_limit
        if out_of_time or (config.stop_at and step >= config.stop_at):
            if not saved:
                self.checkpoint()
            self.stopping = True

    def on_rollout_end(self) -> None:
        if self.config.advisor:  # the buffer is full here (sb3 zeroes it before the next rollout starts)
            self.model.logger.record("train/advice_followed", _advice_followed(self.model))

    def on_step(self) -> bool:
        """Move the progress bar; False (stop) once :meth:`on_rollout_start` decided so."""
        if self.bar is not None:
            self.bar.update(self.model.num_timesteps)
        return not self.stopping

    # --- the duties ---------------------------------------------------------------------------------------
    def pretrain(self) -> None:
        """The imitation warm start (:mod:`~meeplezoo.training.pretrain`) before step 0, then an evaluation of
        what it gave (at step 0, if the run evaluates at all)."""
        from .pretrain import pretrain

        model = self.model

        def record(tag: str, value: float, epoch: int) -> None:
            model.logger.record(tag, value)
            if tag == "pretrain/heldout_accuracy":  # the last figure of an epoch
                model.logger.dump(epoch)

        self.state.pretrain = pretrain(model, self.game, self.config, self.pool, log=self.log, record=record)
        model.save(self.out / "pretrained.zip")
        self.log(f"Saved {self.out / 'pretrained.zip'} (the warm start alone)")
        if self.state.next_eval:
            self.evaluation()
            model.logger.dump(0)

    def boundary(self) -> bool:
        """The duties due between two updates: frozen checkpoint into the pool, evaluation, checkpoint (in that
        order; the checkpoint is taken last, so a run resumed from it skips them at its first boundary).
        True if a checkpoint was written."""
        config, state, model = self.config, self.state, self.model
        step = model.num_timesteps
        if state.next_snapshot and step >= state.next_snapshot:
            self.snapshot()
            state.next_snapshot = (step // config.snapshot_every + 1) * config.snapshot_every
        if state.next_eval and step >= state.next_eval:
            self.evaluation()
            state.next_eval = (step // config.eval_every + 1) * config.eval_every
        model.logger.record("pool/frozen_checkpoints", len(state.snapshots))
        if config.advisor:
            model.logger.record("train/advice_weight", model.policy.advice_weight.item())
        model.logger.dump(step)  # the evaluation and the last update's train/ values, at the step they describe
        if state.next_checkpoint and step >= state.next_checkpoint:
            state.next_checkpoint = (step // config.checkpoint_every + 1) * config.checkpoint_every
            self.checkpoint()
            return True
        return False

    def checkpoint(self) -> None:
        """Model, optimiser, run state, RNG states and envs; only between updates (the buffer is empty)."""
        from .pipelined import monitor_state

        model, vec_env = self.model, self.vec_env
        step = model.num_timesteps
        folder = self.out / "checkpoints"
        folder.mkdir(exist_ok=True)
        model.save(folder / f"step_{step}.zip")
        state = {
            "run": dict(self.state.__dict__),
            "rng": _rng_state(),
            "envs": vec_env.env_method("get_state"),
            "buffer_pos": model.rollout_buffer.pos,
            "monitor": monitor_state(vec_env),  # the returns of the games in flight
        }
        with open(folder / f"step_{step}.pkl", "wb") as f:
            pickle.dump(state, f)
        info = {
            "game": self.game,
            "step": step,
            "model": f"checkpoints/step_{step}.zip",
            "state": f"checkpoints/step_{step}.pkl",
        }
        tmp = folder / "latest.json.tmp"
        tmp.write_text(json.dumps(info))
        tmp.replace(folder / "latest.json")

    def snapshot(self) -> None:
        """The model as it is, frozen into the pool (the newest ``pool_size`` are played)."""
        (self.out / "pool").mkdir(exist_ok=True)
        name = f"pool/step_{self.model.num_timesteps}.zip"
        self.model.save(self.out / name)
        self.state.snapshots = [*self.state.snapshots, name][-self.config.pool_size :]
        self.pool.snapshots = [str(self.out / s) for s in self.state.snapshots]
        self.vec_env.set_attr("opponent", self.pool)

    def evaluation(self) -> None:
        """``eval_games`` seat-rotated games against ``eval_opponent``: logged and kept in the run state."""
        config, model = self.config, self.model
        start = time.perf_counter()
        result = evaluate(
            model, self.game, config.eval_opponent, config.eval_games, 10_000 + model.num_timesteps, config.env
        )
        rate = ppo_win_rate(result)
        self.state.evals.append((model.num_timesteps, rate, config.eval_games))
        model.logger.record(f"eval/win_rate_vs_{config.eval_opponent}", rate)
        unfinished = ppo_standing(result).unfinished
        self.log(
            f"step {model.num_timesteps}: win rate vs {config.eval_opponent} {100 * rate:.1f}% over "
            f"{config.eval_games} seat-rotated games"
            + (f" ({unfinished} unfinished, counted as not won)" if unfinished else "")
            + f" ({time.perf_counter() - start:.1f} s)"
        )


def train(
    game: str,
    out: str | Path,
    config: TrainConfig | None = None,
    resume: bool = False,
    total_steps: int | None = None,
    progress: bool = False,
    log: Callable[[str], None] = print,
    time_limit: float | None = None,
) -> Any:
    """Train (or resume) the run in ``out``; return the model. ``total_steps`` and ``time_limit`` (seconds,
    0: none) override the config's; ``progress`` shows a progress bar. The steps: :class:`TrainingRun`."""
    run = TrainingRun(game, out, config, resume=resume, log=log)
    run.prepare(total_steps, time_limit)
    run.fit_value()
    run.restore()
    run.build_envs()
    try:
        run.build_model()
        run.learn(progress)
        run.finish()
    finally:
        run.close()
    return run.model


def export_policy(model_path: str | Path, dest: str | Path, half: bool = False, advisor: str | None = None) -> Path:
    """Save the model of ``model_path`` to ``dest`` without its optimiser state (a shipped policy: smaller).

    ``advisor`` replaces an advised model's advisor spec (a run's ``valued:path=OUT/value.npz`` becomes
    ``valued``, the shipped value model, once that file is shipped).

    With ``half`` the weights are stored as float16 (half the size again); loading casts them back into the
    float32 policy, so the exported file plays like any other model, its weights rounded to float16. The
    archive is deflated (sb3 stores its members uncompressed; it reads both)."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(model_path), device="cpu")
    if advisor is not None:
        if not getattr(model.policy, "advisor", ""):
            raise TrainError(f"{model_path} is not an advised model: it has no advisor to replace")
        model.policy.advisor = model.policy_kwargs["advisor"] = advisor
    opt = model.policy.optimizer
    model.policy.optimizer = type(opt)(model.policy.parameters(), **opt.defaults)  # fresh: no moments saved
    if half:
        model.policy.half()
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    model.save(dest)
    with zipfile.ZipFile(dest) as stored:
        members = [(info.filename, stored.read(info)) for info in stored.infolist()]
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as deflated:
        for name, data in members:
            deflated.writestr(name, data)
    return dest
