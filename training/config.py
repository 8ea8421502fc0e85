"""Training settings: the game's defaults (its manifest's ``training``), then a TOML file, then command-line flags.

A config file is flat TOML with the keys of :class:`TrainConfig`; a ``[env]`` table holds the game config::

    total_steps = 200_000
    n_envs = 2
    opponents = ["random", "heuristic"]
    self_play = 0.5
    [env]
    num_players = 2

Every key is a :class:`~meeplezoo.envs.core.params.Param` derived from its field (:func:`train_params`: type,
default, help, bounds and choices), so a bad value fails as every typed option does, in one line:
``config.toml: self_play takes a number from 0 to 1, not 1.5``; the ``[env]`` table is checked against the game's
config schema (:meth:`~meeplezoo.envs.core.manifest.GameManifest.config_params`). Checks across keys
(pipelined runs and their groups, the value model and its advisor) are in :func:`validate`. The games ship
configs of their own (``configs/NAME.toml`` in the game's package): ``--config NAME`` finds them.
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..envs.core.params import Param, ParamError, bind
from ..envs.core.rewards import REWARD_MODES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class TrainConfigError(ParamError):
    """A bad training setting (one line)."""


#: how the learning rate moves over the run
LR_SCHEDULES = ("constant", "linear")
#: the potentials of the shaping reward ("" none; :class:`~meeplezoo.training.single_agent.SingleAgentEnv`)
SHAPINGS = ("", "standing", "value")
#: the advisor whose value model ``value_games`` fits
VALUED = "valued"
#: the fewest ``value_games``: every tenth game is held out to pick the weights
HOLDOUT_GAMES = 20


def about(help: str = "", **bounds: Any) -> dict[str, Any]:
    """A :class:`TrainConfig` field's metadata: its help line and its ``minimum``/``maximum``/``choices`` (read
    by :func:`train_params`)."""
    return {"help": help, **bounds}


def setting(default: Any, help: str = "", **bounds: Any) -> Any:
    """A :class:`TrainConfig` field of an immutable default, with its :func:`about`."""
    return field(default=default, metadata=about(help, **bounds))


@dataclass
class TrainConfig:
    """Everything a training run depends on (saved as ``config.toml`` in the run folder)."""

    total_steps: int = setting(200_000, "learner decisions over the whole run", minimum=1)
    n_envs: int = setting(2, "parallel envs (SubprocVecEnv when > 1)", minimum=1)
    pipelined: bool = setting(
        False, "groups of envs stepped in turn, one stepping while the learner picks another's moves"
    )
    groups: int = setting(2, "a pipelined run's groups (2 to n_envs): more let the envs' worker run further ahead")
    seed: int = setting(0, minimum=0)
    n_steps: int = setting(512, "rollout length per env per update", minimum=1)
    batch_size: int = setting(256, minimum=1)
    n_epochs: int = setting(4, minimum=1)
    learning_rate: float = setting(3e-4)
    lr_schedule: str = setting("constant", "constant, or linear: falls to 0 at total_steps", choices=LR_SCHEDULES)
    ent_coef: float = setting(0.01)
    gamma: float = setting(0.995, "the discount, in (0, 1]")  # validate checks it: a Param's bounds are closed
    gae_lambda: float = setting(0.95, minimum=0.0, maximum=1.0)
    net_arch: list[int] = field(
        default_factory=lambda: [128, 128], metadata=about("hidden sizes of the policy and value nets")
    )
    reward_mode: str = setting("win", choices=REWARD_MODES)
    opponents: list[str] = field(
        default_factory=lambda: ["random", "heuristic"], metadata=about("baseline agents of the pool")
    )
    self_play: float = setting(
        0.5, "chance that an opponent seat is a frozen past checkpoint (once there is one)", minimum=0.0, maximum=1.0
    )
    snapshot_every: int = setting(20_000, "steps between frozen checkpoints added to the pool", minimum=0)
    pool_size: int = setting(5, "frozen checkpoints kept in the pool (the newest)", minimum=1)
    checkpoint_every: int = setting(10_000, "steps between checkpoints under OUT/checkpoints", minimum=0)
    eval_every: int = setting(20_000, "steps between evaluations against eval_opponent (0: never)", minimum=0)
    eval_games: int = setting(20, "seat-rotated games per evaluation", minimum=0)
    eval_opponent: str = setting("heuristic")
    time_limit: float = setting(
        0.0,
        "stop at the first update boundary after this many seconds of training (0: no limit; train --minutes), "
        "then save as at the end",
        minimum=0.0,
    )
    stop_at: int = setting(
        0,
        "stop at the first update boundary at or past this step (0: none), then save as at the end; unlike a "
        "smaller total_steps it leaves the learning-rate schedule as it is (a time-limited run, replayed)",
        minimum=0,
    )
    pretrain_games: int = setting(0, "imitation warm start: demonstration games before step 0 (0: none)", minimum=0)
    pretrain_agent: str = setting("heuristic", "the demonstrator in the learner's seat")
    pretrain_epochs: int = setting(10, "passes over the demonstrations (per round)", minimum=1)
    pretrain_rounds: int = setting(
        1, "1: behaviour cloning; more: DAgger rounds, the policy playing and the demonstrator labelling", minimum=1
    )
    pretrain_lr: float = setting(1e-3, "Adam's learning rate for the warm start (above 0)")
    pretrain_value: bool = setting(True, "also fit the value head to the demonstrations' returns")
    advisor: str = setting(
        "", "residual policy: an agent whose move on the learner's view is an input and a prior on the logits"
    )
    advice_weight: float = setting(
        4.0, "the prior's start (a trained parameter): logits += weight x one-hot(advice)", minimum=0.0
    )
    advice_anchor: float = setting(
        0.0, "weight of the loss -mean log pi(advice) that anchors PPO to the advisor (0: none)", minimum=0.0
    )
    value_games: int = setting(
        0,
        'fit the value model of advisor = "valued" before PPO: heuristic self-play games on all cores '
        "(meeplezoo.training.value_fit; 0: none, the advisor's own model)",
        minimum=0,
    )
    value_net_arch: list[int] = field(
        default_factory=lambda: [128, 128], metadata=about("hidden sizes of the value model")
    )
    value_epochs: int = setting(3, "passes over the value rows (the best held-out weights are kept)", minimum=1)
    shaping: str = setting(
        "",
        'potential-based reward shaping: "" (none), "standing" (the learner\'s return if the game ended now) or '
        '"value" (its expected win return under the win-chance model of the game\'s manifest)',
        choices=SHAPINGS,
    )
    env: dict[str, Any] = field(
        default_factory=dict, metadata=about("game config (make_env keywords), checked by its schema")
    )


@cache
def train_params() -> dict[str, Param]:
    """The :class:`~meeplezoo.envs.core.params.Param` of every :class:`TrainConfig` key, from its field."""
    hints = typing.get_type_hints(TrainConfig)
    params = {}
    for f in dataclasses.fields(TrainConfig):
        kind = typing.get_origin(hints[f.name]) or hints[f.name]
        element = typing.get_args(hints[f.name])[0] if kind is list else None
        default = f.default_factory() if f.default is dataclasses.MISSING else f.default  # type: ignore[misc]
        meta = dict(f.metadata)
        choices = tuple(meta.pop("choices", ()))
        params[f.name] = Param(f.name, kind, default, meta.pop("help", ""), choices=choices, element=element, **meta)
    return params


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


def default_config(game: str) -> TrainConfig:
    """The class defaults under ``game``'s own (its manifest's ``training``), checked as any setting."""
    from ..games import manifest

    found = manifest(game)
    return apply_overrides(TrainConfig(), dict(found.training), f"{found.name}'s manifest (training)", game=found.name)


def apply_overrides(
    config: TrainConfig, values: dict[str, Any], where: str = "config", game: str | None = None
) -> TrainConfig:
    """``config`` with ``values`` set, each checked by its :func:`train_params` (the ``[env]`` table by ``game``'s
    config schema when given), then :func:`validate`: a one-line :class:`TrainConfigError` otherwise."""
    try:
        checked = bind(where, list(train_params().values()), values, typed=True)
        if "env" in checked and game is not None:
            checked["env"] = check_env(game, checked["env"], where)
    except TrainConfigError:
        raise
    except ParamError as exc:
        raise TrainConfigError(str(exc)) from None
    for key, value in checked.items():
        setattr(config, key, value)
    validate(config, where)
    return config


def check_env(game: str, env: dict[str, Any], where: str) -> dict[str, Any]:
    """The ``[env]`` table checked against ``game``'s config schema (a game with no engine takes any keys)."""
    from ..games import manifest

    found = manifest(game)
    if found.engine is None:
        return dict(env)
    return bind(f"{where} [env]", found.config_params(), env, typed=True)


def _problem(where: str, key: str, takes: str, value: Any) -> TrainConfigError:
    """The params error format for a check no single :class:`Param` can say."""
    return TrainConfigError(f"{where}: {key} takes {takes}, not {value!r}")


def validate(config: TrainConfig, where: str = "config") -> None:
    """The checks across keys, and the bounds a :class:`Param` cannot say (open intervals, list items)."""
    if config.pipelined and not 2 <= config.groups <= config.n_envs:
        raise TrainConfigError(
            f"{where}: pipelined needs at least 2 groups and n_envs of at least groups; "
            f"got groups = {config.groups}, n_envs = {config.n_envs}"
        )
    if not config.pipelined and config.groups != 2:
        raise TrainConfigError(f"{where}: groups = {config.groups} is for pipelined runs; set pipelined = true")
    if not 0 < config.gamma <= 1:
        raise _problem(where, "gamma", "a number in (0, 1]", config.gamma)
    if config.pretrain_lr <= 0:
        raise _problem(where, "pretrain_lr", "a number above 0", config.pretrain_lr)
    for key in ("net_arch", "value_net_arch"):
        sizes = getattr(config, key)
        if not sizes or min(sizes) < 1:
            raise _problem(where, key, "a list of positive layer sizes", sizes)
    if not config.opponents:
        raise _problem(where, "opponents", "a list of at least one baseline agent", config.opponents)
    if config.advice_anchor and not config.advisor:
        raise TrainConfigError(f'{where}: advice_anchor needs an advisor (set advisor, e.g. "heuristic")')
    if config.value_games and config.advisor != VALUED:
        raise TrainConfigError(
            f'{where}: value_games fits the value model of advisor = "{VALUED}" (no path: the run\'s own model); '
            f"the advisor is {config.advisor!r}"
        )
    if 0 < config.value_games < HOLDOUT_GAMES:
        raise _problem(where, "value_games", f"0 or a whole number of at least {HOLDOUT_GAMES}", config.value_games)


def config_file(game: str, path: str | Path) -> Any:
    """The config file ``path`` names: a file, else the name of a config ``game`` ships (``configs/NAME.toml``
    in its package, :meth:`~meeplezoo.envs.core.manifest.GameManifest.training_configs`)."""
    file = Path(path)
    if file.is_file() or file.suffix == ".toml" or len(file.parts) > 1:
        return file
    from ..games import manifest

    shipped = manifest(game).training_configs()
    if str(path) not in shipped:
        names = ", ".join(shipped) or "none"
        raise TrainConfigError(f"no config file {str(path)!r}, nor a config of {game} by that name (it ships: {names})")
    return shipped[str(path)]


def load_config(game: str, path: str | Path | None, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """The defaults of ``game``, then the TOML file ``path`` (or the name of a config the game ships), then
    ``overrides`` (command-line flags)."""
    config = default_config(game)
    if path is not None:
        file = config_file(game, path)
        try:
            values = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise TrainConfigError(f"no config file {str(file)!r}") from None
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise TrainConfigError(f"{file} is not a valid TOML file: {exc}") from None
        if values.get("algo", "ppo") != "ppo":
            raise TrainConfigError(f"{file} is a config for --algo {values['algo']}, not ppo")
        values.pop("algo", None)
        apply_overrides(config, values, where=str(file), game=game)
    if overrides:
        apply_overrides(config, overrides, where="command line", game=game)
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
