"""Training settings: defaults per game, overridden by a TOML file (``meeplezoo train GAME --config FILE``).

A config file is flat TOML with the keys of :class:`TrainConfig`; a ``[env]`` table holds the game config::

    total_steps = 200_000
    n_envs = 2
    opponents = ["random", "heuristic"]
    self_play = 0.5
    [env]
    num_players = 2

An unknown key, a value of the wrong type or a bad opponent is a one-line :class:`TrainConfigError`.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..envs.core.errors import MeepleZooError
from ..options import fits_default

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class TrainConfigError(MeepleZooError):
    """A bad training setting (one line)."""


@dataclass
class TrainConfig:
    """Everything a training run depends on (saved as ``config.toml`` in the run folder)."""

    total_steps: int = 200_000  #: learner decisions over the whole run
    n_envs: int = 2  #: parallel envs (SubprocVecEnv when > 1)
    #: groups of envs stepped in turn, one stepping while the learner picks another's moves (n_envs >= groups)
    pipelined: bool = False
    #: a pipelined run's groups (2 to n_envs): with more, the envs' worker may run further ahead of the learner
    groups: int = 2
    seed: int = 0
    n_steps: int = 512  #: rollout length per env per update
    batch_size: int = 256
    n_epochs: int = 4
    learning_rate: float = 3e-4
    lr_schedule: str = "constant"  #: ``constant``, or ``linear``: falls to 0 at ``total_steps``
    ent_coef: float = 0.01
    gamma: float = 0.995
    gae_lambda: float = 0.95
    net_arch: list[int] = field(default_factory=lambda: [128, 128])  #: hidden sizes of the policy and value nets
    reward_mode: str = "win"
    opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])  #: baseline agents of the pool
    self_play: float = 0.5  #: chance that an opponent seat is a frozen past checkpoint (once there is one)
    snapshot_every: int = 20_000  #: steps between frozen checkpoints added to the pool
    pool_size: int = 5  #: frozen checkpoints kept in the pool (the newest)
    checkpoint_every: int = 10_000  #: steps between checkpoints under ``OUT/checkpoints``
    eval_every: int = 20_000  #: steps between evaluations against ``eval_opponent`` (0: never)
    eval_games: int = 20  #: seat-rotated games per evaluation
    eval_opponent: str = "heuristic"
    #: stop at the first update boundary after this many seconds of training (0: no limit; ``train --minutes``),
    #: then save as at the end
    time_limit: float = 0.0
    #: stop at the first update boundary at or past this step (0: none), then save as at the end; unlike a
    #: smaller ``total_steps`` it leaves the learning-rate schedule as it is (a time-limited run, replayed)
    stop_at: int = 0
    pretrain_games: int = 0  #: imitation warm start: demonstration games before step 0 (0: none)
    pretrain_agent: str = "heuristic"  #: the demonstrator in the learner's seat
    pretrain_epochs: int = 10  #: passes over the demonstrations (per round)
    #: 1: behaviour cloning; more: DAgger rounds, the policy playing and the demonstrator labelling
    pretrain_rounds: int = 1
    pretrain_lr: float = 1e-3  #: Adam's learning rate for the warm start
    pretrain_value: bool = True  #: also fit the value head to the demonstrations' returns
    #: residual policy: an agent whose move on the learner's view is an input and a prior on the logits ("": none)
    advisor: str = ""
    advice_weight: float = 4.0  #: the prior's start (a trained parameter): logits += weight x one-hot(advice)
    advice_anchor: float = 0.0  #: weight of the loss -mean log pi(advice) that anchors PPO to the advisor (0: none)
    #: fit the ``valued`` advisor's value model before PPO (Concordia, ``advisor = "valued"``): heuristic self-play
    #: games, played on all cores (:mod:`meeplezoo.training.value_fit`; 0: none, the advisor's own model)
    value_games: int = 0
    value_net_arch: list[int] = field(default_factory=lambda: [128, 128])  #: hidden sizes of the value model
    value_epochs: int = 3  #: passes over the value rows (the best held-out weights are kept)
    #: potential-based reward shaping: "" (none), "standing" (the learner's return if the game ended now) or
    #: "value" (its expected win return under the game's fitted win-chance model; Board Royale)
    shaping: str = ""
    env: dict[str, Any] = field(default_factory=dict)  #: game config (``make_env`` keywords)


#: the advisor whose value model ``value_games`` fits
VALUED = "valued"
#: the fewest ``value_games``: every tenth game is held out to pick the weights
HOLDOUT_GAMES = 20

#: how the learning rate moves over the run
LR_SCHEDULES = ("constant", "linear")


@dataclass(frozen=True)
class LinearSchedule:
    """``start`` at the first step, falling linearly to 0 at the run's ``total_steps`` (sb3's progress runs over
    the whole run, a resumed one too), and 0 past it: the last rollout can end beyond ``total_steps`` (sb3 stops
    at the first update boundary past it), where sb3's progress is negative. A class, not a closure, so a saved
    model loads it by reference."""

    start: float

    def __call__(self, progress_remaining: float) -> float:
        return self.start * max(progress_remaining, 0.0)


def learning_rate(config: TrainConfig) -> float | LinearSchedule:
    """The ``learning_rate`` argument of MaskablePPO for ``config``."""
    return LinearSchedule(config.learning_rate) if config.lr_schedule == "linear" else config.learning_rate


#: per-game defaults over :class:`TrainConfig` (games not listed take the class defaults)
GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "seastead": {},
    "concordia": {"n_steps": 256, "gamma": 0.998},
    "board_royale": {"n_steps": 256, "gamma": 0.998},
    # ~9800 observation values: smaller hidden layers keep the model (and the shipped policy) small
    "resafa": {"net_arch": [32, 32], "n_steps": 256},
}


def default_config(game: str) -> TrainConfig:
    return TrainConfig(**GAME_DEFAULTS.get(game, {}))


def _check_type(key: str, value: Any, default: Any) -> Any:
    if not fits_default(value, default):
        raise TrainConfigError(f"{key} must be {type(default).__name__}, not {value!r}")
    return float(value) if isinstance(default, float) else value


def apply_overrides(config: TrainConfig, values: dict[str, Any], where: str = "config") -> TrainConfig:
    """``config`` with ``values`` set, each checked: unknown keys and wrong types are one-line errors."""
    known = {f.name: f for f in dataclasses.fields(config)}
    for key, value in values.items():
        if key not in known:
            raise TrainConfigError(f"{where}: unknown key {key!r} (known: {', '.join(known)})")
        setattr(config, key, _check_type(f"{where}: {key}", value, getattr(config, key)))
    validate(config, where)
    return config


def validate(config: TrainConfig, where: str = "config") -> None:
    if config.pipelined and not 2 <= config.groups <= config.n_envs:
        raise TrainConfigError(
            f"{where}: pipelined needs at least 2 groups and n_envs of at least groups; "
            f"got groups = {config.groups}, n_envs = {config.n_envs}"
        )
    if not config.pipelined and config.groups != 2:
        raise TrainConfigError(f"{where}: groups = {config.groups} is for pipelined runs; set pipelined = true")
    for key in ("total_steps", "n_envs", "n_steps", "batch_size", "n_epochs", "pool_size"):
        if getattr(config, key) < 1:
            raise TrainConfigError(f"{where}: {key} must be at least 1, not {getattr(config, key)}")
    for key in (
        "snapshot_every",
        "checkpoint_every",
        "eval_every",
        "eval_games",
        "seed",
        "pretrain_games",
        "stop_at",
        "value_games",
    ):
        if getattr(config, key) < 0:
            raise TrainConfigError(f"{where}: {key} must be at least 0, not {getattr(config, key)}")
    if not 0.0 < config.gamma <= 1.0:
        raise TrainConfigError(f"{where}: gamma must be in (0, 1], not {config.gamma}")
    if not 0.0 <= config.gae_lambda <= 1.0:
        raise TrainConfigError(f"{where}: gae_lambda must be in [0, 1], not {config.gae_lambda}")
    if not 0.0 <= config.self_play <= 1.0:
        raise TrainConfigError(f"{where}: self_play must be in [0, 1], not {config.self_play}")
    if config.lr_schedule not in LR_SCHEDULES:
        names = ", ".join(LR_SCHEDULES)
        raise TrainConfigError(f"{where}: lr_schedule must be one of {names}, not {config.lr_schedule!r}")
    for key in ("pretrain_epochs", "pretrain_rounds", "value_epochs"):
        if getattr(config, key) < 1:
            raise TrainConfigError(f"{where}: {key} must be at least 1, not {getattr(config, key)}")
    if config.pretrain_lr <= 0:
        raise TrainConfigError(f"{where}: pretrain_lr must be positive, not {config.pretrain_lr}")
    from .single_agent import SHAPINGS

    if config.shaping not in SHAPINGS:
        names = ", ".join(map(repr, SHAPINGS))
        raise TrainConfigError(f"{where}: shaping must be one of {names}, not {config.shaping!r}")
    if config.advice_weight < 0:
        raise TrainConfigError(f"{where}: advice_weight must be at least 0, not {config.advice_weight}")
    if config.advice_anchor < 0:
        raise TrainConfigError(f"{where}: advice_anchor must be at least 0, not {config.advice_anchor}")
    if config.advice_anchor and not config.advisor:
        raise TrainConfigError(f'{where}: advice_anchor needs an advisor (set advisor, e.g. "heuristic")')
    if config.value_games and config.advisor != VALUED:
        raise TrainConfigError(
            f'{where}: value_games fits the value model of advisor = "{VALUED}" (no path: the run\'s own model); '
            f"the advisor is {config.advisor!r}"
        )
    if config.value_games and config.value_games < HOLDOUT_GAMES:
        raise TrainConfigError(f"{where}: value_games must be 0 or at least {HOLDOUT_GAMES}, not {config.value_games}")
    if not config.value_net_arch or min(config.value_net_arch) < 1:
        raise TrainConfigError(f"{where}: value_net_arch must be positive layer sizes, not {config.value_net_arch}")
    if not config.opponents:
        raise TrainConfigError(f"{where}: opponents must name at least one baseline agent")
    if not config.net_arch or min(config.net_arch) < 1:
        raise TrainConfigError(f"{where}: net_arch must be positive layer sizes, not {config.net_arch}")


def load_config(game: str, path: str | Path | None, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """The defaults of ``game``, then the TOML file ``path``, then ``overrides`` (command-line flags)."""
    config = default_config(game)
    if path is not None:
        file = Path(path)
        try:
            values = tomllib.loads(file.read_text())
        except FileNotFoundError:
            raise TrainConfigError(f"no config file {str(file)!r}") from None
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise TrainConfigError(f"{file} is not a valid TOML file: {exc}") from None
        apply_overrides(config, values, where=str(file))
    if overrides:
        apply_overrides(config, overrides, where="command line")
    return config


def dump_config(config: TrainConfig) -> str:
    """``config`` as TOML (flat keys, then the ``[env]`` table)."""

    def fmt(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(fmt(x) for x in v) + "]"
        return repr(v)

    lines = [f"{f.name} = {fmt(getattr(config, f.name))}" for f in dataclasses.fields(config) if f.name != "env"]
    lines.append("[env]")
    lines += [f"{k} = {fmt(v)}" for k, v in config.env.items()]
    return "\n".join(lines) + "\n"
