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

* an opponent pool: frozen copies of the learner as RLlib modules (``frozen_k``, named in the agent id,
  never trained) and baseline agents played inside the env (``opponents``); see :class:`RLlibMultiAgentEnv`.

:func:`rllib_config` is a ``PPOConfig`` of self-play (the learner is the masked module ``"shared"``)::

    from meeplezoo.training.rllib import rllib_config
    algo = rllib_config("seastead").build_algo()
    print(algo.train()["env_runners"]["num_env_steps_sampled_lifetime"])

``meeplezoo train GAME --backend rllib --out runs/NAME`` (:func:`train_rllib`) runs it on a local Ray
instance with the pool, checkpoints and ``--resume``. Needs
``pip install "ray[rllib]" torch`` (RLlib pins gymnasium 1.2.2; see docs/training.md for 1.4).
"""

from __future__ import annotations

import json
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


def seat_id(seat_agent: str, module: str) -> str:
    """The RLlib agent id of AEC agent ``seat_agent`` played by ``module``: ``player_1`` for the learner,
    ``player_1@frozen_0`` for a frozen copy of it (the policy mapping reads the module from the id)."""
    return seat_agent if module == SHARED_POLICY else f"{seat_agent}@{module}"


def module_of(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """The policy mapping of :func:`rllib_config`: the module named in the agent id (:func:`seat_id`)."""
    return agent_id.split("@", 1)[1] if "@" in agent_id else SHARED_POLICY


class RLlibMultiAgentEnv(_Base):  # type: ignore[misc,valid-type]
    """A MeepleZoo game as an RLlib ``MultiAgentEnv``: one seat acts per step, observations with masks.

    ``config`` (RLlib's ``env_config``): ``game`` (required), ``reward_mode`` (``"win"``), ``illegal_reward``
    (0.0), ``max_decisions`` (the engine's bound), ``seed`` (of the first reset without one), the opponent
    pool (below), and any game config key (``num_players``...).

    The opponent pool: ``opponents`` (baseline agent specs, ``[]`` by default), ``pool_size`` (frozen
    copies of the learner, modules ``frozen_0``.., 0 by default) and ``self_play`` (0.5). Each episode one
    seat, drawn from the env's generator, is the learner (module ``"shared"``); every other seat is, with
    chance ``self_play``, a frozen copy (uniform among ``pool_size``), else a baseline agent (uniform among
    ``opponents``, played inside :meth:`step`: RLlib never sees those seats), else (no baselines) the
    learner too. Defaults: every seat is the learner (plain self-play).
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        if _Base is not object:
            super().__init__()
        config = dict(config or {})
        if "game" not in config:
            raise ValueError("RLlibMultiAgentEnv needs the game: env_config['game'] (a registered game's name)")
        self.game = resolve(config.pop("game"))
        self.reward_mode = config.pop("reward_mode", "win")
        self.illegal_reward = float(config.pop("illegal_reward", 0.0))
        self.baselines = [str(b) for b in config.pop("opponents", [])]
        self.pool_size = int(config.pop("pool_size", 0))
        self.self_play = float(config.pop("self_play", 0.5))
        max_decisions = config.pop("max_decisions", None)
        self._rng = np.random.default_rng(config.pop("seed", None))
        probe = make_env(self.game, **config)
        n = len(probe.possible_agents)
        bound = max_decisions or probe.unwrapped.game.max_decisions
        self.aec = SkipDeadSteps(
            make_env(self.game, reward_mode=self.reward_mode, max_cycles=max(1, -(-bound // n)), **config)
        )
        self.seats = list(self.aec.possible_agents)
        modules = [SHARED_POLICY] + [f"frozen_{k}" for k in range(self.pool_size)]
        self.possible_agents = [seat_id(a, m) for m in modules for a in self.seats]
        self.agents = list(self.seats)
        first = self.seats[0]
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
        self._id: dict[str, str | None] = {a: a for a in self.seats}  # AEC agent -> RLlib id (None: baseline)
        self._baseline: dict[str, Any] = {}  # AEC agent -> baseline agent playing it this episode
        self._done: set[str] = set()

    def _obs(self, seat_agent: str) -> dict[str, np.ndarray]:
        view = self.aec.observe(seat_agent)
        return {"action_mask": view["action_mask"].astype(np.float32), "observations": view["observation"]}

    def _draw_roles(self) -> None:
        from ..agents import make_agent

        rng = self._rng
        learner = int(rng.integers(len(self.seats)))
        self._id, self._baseline = {}, {}
        for seat, a in enumerate(self.seats):
            module = SHARED_POLICY
            if seat != learner:
                if self.pool_size and rng.random() < self.self_play:
                    module = f"frozen_{int(rng.integers(self.pool_size))}"
                elif self.baselines:
                    spec = self.baselines[int(rng.integers(len(self.baselines)))]
                    self._baseline[a] = make_agent(spec, self.game, seed=int(rng.integers(2**31)))
                    module = ""
            self._id[a] = seat_id(a, module) if module else None

    def _over(self) -> bool:
        aec = self.aec
        return not aec.agents or all(aec.terminations[a] or aec.truncations[a] for a in aec.agents)

    def _play_baselines(self, rewards: dict[str, float]) -> None:
        """The baseline seats act until an RLlib seat must, or the game is over; rewards of RLlib seats add up."""
        from ..agents.view import view_for

        aec = self.aec
        while not self._over() and aec.agent_selection in self._baseline:
            a = aec.agent_selection
            agent = self._baseline[a]
            aec.step(agent.act(view_for(aec, a, agent)))
            self._collect(rewards)

    def _collect(self, rewards: dict[str, float]) -> None:
        for a, r in self.aec.rewards.items():
            rid = self._id.get(a)
            if rid is not None and rid in rewards:
                rewards[rid] += float(r)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for _ in range(100):  # a game that ends before an RLlib seat acts is redrawn
            self._draw_roles()
            self.aec.reset(seed=int(self._rng.integers(2**31)))
            self._done = set()
            self._play_baselines({})
            if not self._over():
                break
        else:
            raise RuntimeError(f"{self.game}: 100 games in a row ended before a learning seat could act")
        self.agents = [rid for rid in self._id.values() if rid is not None]
        a = self.aec.agent_selection
        return {self._id[a]: self._obs(a)}, {}

    def step(self, action_dict: dict[str, Any]):
        aec = self.aec
        seat_agent = aec.agent_selection
        me = self._id[seat_agent]
        infos: dict[str, dict] = {}
        action = int(action_dict[me])
        mask = aec.observe(seat_agent)["action_mask"]
        rewards = dict.fromkeys([rid for rid in self._id.values() if rid is not None and rid not in self._done], 0.0)
        if not (0 <= action < mask.size and mask[action]):
            legal = np.flatnonzero(mask)
            infos[me] = {"replaced_action": action}
            rewards[me] += self.illegal_reward
            action = int(legal[self._rng.integers(legal.size)])
        aec.step(action)
        self._collect(rewards)
        self._play_baselines(rewards)
        obs: dict[str, Any] = {}
        terminateds: dict[str, bool] = {}
        truncateds: dict[str, bool] = {}
        over = self._over()
        for a in self.seats:
            rid = self._id[a]
            if rid is None or rid in self._done:
                continue
            term, trunc = aec.terminations.get(a, True), aec.truncations.get(a, False)
            if over or term or trunc:
                obs[rid] = self._obs(a)
                terminateds[rid], truncateds[rid] = bool(term), bool(trunc and not term)
                if truncateds[rid]:
                    rewards[rid] += self._standing_return(a)
                self._done.add(rid)
        if not over:
            nxt = aec.agent_selection
            obs[self._id[nxt]] = self._obs(nxt)
        terminateds["__all__"] = over and all(terminateds.get(a, True) for a in obs)
        truncateds["__all__"] = over and not terminateds["__all__"]
        self.agents = [rid for rid in self._id.values() if rid is not None and rid not in self._done]
        return obs, rewards, terminateds, truncateds, infos

    def _standing_return(self, agent: str) -> float:
        state = self.aec.unwrapped.state_obj
        seat = self.seats.index(agent)
        scale = self.aec.unwrapped.game.score_scale
        return float(seat_return(self.reward_mode, seat, *state.standing(), scale))

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
    """A ``PPOConfig`` of masked self-play on ``game``: the learner is the module ``"shared"``; with
    ``env_config["pool_size"] = k`` the modules ``frozen_0..frozen_{k-1}`` (never trained) play the frozen
    seats, and ``env_config["opponents"]`` baseline agents play inside the env (:class:`RLlibMultiAgentEnv`)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    env_config = {"game": resolve(game), "seed": seed, **dict(env_config or {})}
    modules = [SHARED_POLICY] + [f"frozen_{k}" for k in range(int(env_config.get("pool_size", 0)))]
    model_config = {"head_fcnet_hiddens": list(hiddens), "fcnet_hiddens": list(hiddens)}
    spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model_config)
    return (
        PPOConfig()
        .environment(RLlibMultiAgentEnv, env_config=env_config)
        .multi_agent(policies=set(modules), policy_mapping_fn=module_of, policies_to_train=[SHARED_POLICY])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(modules, spec)))
        .env_runners(num_env_runners=num_env_runners)
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size, num_epochs=num_epochs)
        .debugging(seed=seed)
    )


def freeze(algo: Any, slot: int) -> None:
    """Copy the learner's weights into the frozen module ``frozen_{slot}``, on the learner and the env runners."""
    module = f"frozen_{slot}"
    algo.set_weights({module: algo.get_weights([SHARED_POLICY])[SHARED_POLICY]})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, policies=[module], inference_only=True
    )


def latest_rllib_checkpoint(out: str | Path) -> dict[str, Any] | None:
    file = Path(out) / "rllib" / "latest.json"
    return json.loads(file.read_text()) if file.is_file() else None


def train_rllib(
    game: str,
    out: str | Path,
    config: Any = None,
    total_steps: int | None = None,
    resume: bool = False,
    log: Callable[[str], None] = print,
    **overrides: Any,
) -> dict[str, Any]:
    """Train masked self-play PPO with RLlib on a local Ray instance until ``total_steps`` env steps; return
    the last result dict. ``config`` (a :class:`~meeplezoo.training.config.TrainConfig`) gives the seed, the
    game config and the pool: ``opponents``, ``self_play``, ``pool_size``, and ``snapshot_every`` (env steps
    between copies of the learner into the next frozen slot, round robin; the slots start as copies of the
    initial learner). Checkpoints (``Algorithm.save_to_path``: modules, optimiser, counters, env runners) go
    to ``OUT/rllib/iter_N`` every ``checkpoint_every`` env steps and at the end, ``OUT/rllib/latest.json``
    last; ``resume`` restores the latest and trains on to ``total_steps``."""
    try:
        import ray
    except ImportError as exc:
        from .trainer import TrainError

        raise TrainError(f"--backend rllib needs ray[rllib]: {exc}") from None
    from .config import default_config, dump_config, load_config
    from .trainer import TrainError

    out = Path(out).resolve()
    latest = latest_rllib_checkpoint(out)
    if resume:
        if latest is None:
            raise TrainError(f"no RLlib checkpoint to resume in {out} (no {out / 'rllib' / 'latest.json'})")
        config = load_config(game, out / "config.toml")
    elif latest is not None:
        raise TrainError(f"{out} already holds an RLlib run; add --resume to continue it or choose another --out")
    config = config or default_config(resolve(game))
    if config.advisor:
        raise TrainError("--backend rllib does not take an advisor (the advised policy is the sb3 backend's)")
    steps = total_steps or config.total_steps
    env_config = {
        **dict(config.env),
        "opponents": list(overrides.pop("opponents", config.opponents)),
        "self_play": config.self_play,
        "pool_size": int(overrides.pop("pool_size", config.pool_size)),
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.toml").write_text(dump_config(config))
    run = dict(latest["run"]) if resume else {"snapshots": 0, "next_snapshot": config.snapshot_every}
    ray.init(num_cpus=overrides.pop("num_cpus", 2), include_dashboard=False, ignore_reinit_error=True)
    try:
        algo = rllib_config(game, env_config, seed=config.seed, **overrides).build_algo()
        if resume:
            algo.restore_from_path(str(out / latest["path"]))
            log(f"Resumed {out} at iteration {algo.iteration} ({latest['steps']} env steps)")
        else:
            for slot in range(env_config["pool_size"]):
                freeze(algo, slot)
        sampled = int(latest["steps"]) if resume else 0
        next_checkpoint = (
            (sampled // config.checkpoint_every + 1) * config.checkpoint_every if config.checkpoint_every else 0
        )

        def checkpoint() -> None:
            name = f"rllib/iter_{algo.iteration}"
            algo.save_to_path(str(out / name))
            info = {"game": resolve(game), "path": name, "iteration": algo.iteration, "steps": sampled, "run": run}
            tmp = out / "rllib" / "latest.json.tmp"
            tmp.write_text(json.dumps(info))
            tmp.replace(out / "rllib" / "latest.json")

        start, result, first = time.perf_counter(), {}, sampled
        while sampled < steps:
            result = algo.train()
            sampled = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
            ret = result["env_runners"].get("episode_return_mean", float("nan"))
            log(f"iteration {result['training_iteration']}: {sampled} env steps, mean episode return {ret:.3f}")
            if env_config["pool_size"] and run["next_snapshot"] and sampled >= run["next_snapshot"]:
                freeze(algo, run["snapshots"] % env_config["pool_size"])
                run["snapshots"] += 1
                run["next_snapshot"] = (sampled // config.snapshot_every + 1) * config.snapshot_every
            if next_checkpoint and sampled >= next_checkpoint and sampled < steps:
                checkpoint()
                next_checkpoint = (sampled // config.checkpoint_every + 1) * config.checkpoint_every
        took = time.perf_counter() - start
        done = sampled - first
        log(f"Trained {done} env steps in {took:.1f} s ({done / max(took, 1e-9):.0f} env-steps/s)")
        checkpoint()
        log(f"Saved the algorithm to {out / 'rllib' / f'iter_{algo.iteration}'}")
        algo.stop()
        return result
    finally:
        ray.shutdown()
