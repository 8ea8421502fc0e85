"""``meeplezoo train GAME --out RUN``: train a policy (MaskablePPO self-play, or RLlib), or with ``--algo az`` the
``az`` agent's policy-value network by expert iteration; checked before it starts."""

from __future__ import annotations

import argparse
import re
from typing import Any

from .. import games, options
from .common import CLIError, make_env, seed_arg


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    t = sub.add_parser(
        "train",
        help="train a policy (MaskablePPO self-play, or RLlib; --algo az: expert iteration)",
        description="Train MaskablePPO against an opponent pool (baselines + frozen past checkpoints), with "
        "checkpoints, --resume, tensorboard logs and evaluations; --backend rllib: RLlib multi-agent self-play; "
        "--algo az: the az agent's network by expert iteration (self-play searched by the network, fitted to the "
        "searches' visits and the games' results).",
    )
    t.add_argument("game", help=game_help)
    t.add_argument("--out", required=True, help="run folder (runs/NAME): checkpoints, logs, final.zip")
    t.add_argument(
        "--config", default=None, metavar="FILE", help="TOML settings over the run's defaults (game options: [env])"
    )
    options.add_set_option(
        t, "a game option (repeatable; the game's own keys), over the TOML's [env] table: --set num_players=2"
    )
    t.add_argument("--steps", type=options.bounded_int("--steps", 1, 10**10), default=None, help="total env steps")
    t.add_argument(
        "--minutes",
        type=options.bounded_float("--minutes", 0.0, 60 * 24 * 366),
        default=None,
        help="time budget: stop at the first update past it (or at --steps, whichever comes first) and save",
    )
    t.add_argument("--n-envs", type=options.bounded_int("--n-envs", 1, 256), default=None, help="parallel envs")
    seed_arg(t, None)
    t.add_argument(
        "--opponent", action="append", default=None, metavar="SPEC", help="baseline agent of the pool (repeatable)"
    )
    t.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    t.add_argument("--backend", choices=["sb3", "rllib"], default="sb3")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    t.add_argument(
        "--algo", choices=["ppo", "az"], default="ppo", help="ppo (default), or az: expert iteration for the az agent"
    )
    t.add_argument(
        "--iterations", type=options.bounded_int("--iterations", 1, 10**7), default=None, help="az: iterations"
    )
    t.add_argument(
        "--sims", type=options.bounded_int("--sims", 1, 10**6), default=None, help="az: simulations per decision"
    )
    t.add_argument(
        "--budget", type=duration, default=None, metavar="TIME", help="az: CPU time of the whole run (90s, 30m, 4h)"
    )
    t.add_argument(
        "--workers",
        type=options.bounded_int("--workers", 1, 256),
        default=None,
        help="az: processes playing the run's games (the weights are the same for any number)",
    )
    return t


def duration(text: str) -> float:
    """An argparse ``type``: seconds from ``90``, ``90s``, ``30m`` or ``4h`` (above 0).

    >>> duration("4h"), duration("1.5m"), duration("90")
    (14400.0, 90.0, 90.0)
    """
    found = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([smh]?)\s*", text)
    seconds = float(found.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[found.group(2)] if found else 0.0
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"takes a duration above 0 such as 90s, 30m or 4h, not {text!r}")
    return seconds


duration.__name__ = "--budget"  # argparse names the type in its own messages


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The run settings given as options (``--steps`` is ``total_steps``, ``--minutes`` ``time_limit``), checked
    against ``--backend`` and ``--resume``."""
    overrides: dict[str, Any] = {}
    for key in ("steps", "n_envs", "seed", "opponent"):
        value = getattr(args, key)
        if value is not None:
            overrides[{"steps": "total_steps", "opponent": "opponents"}.get(key, key)] = value
    if args.minutes is not None:
        if args.backend == "rllib":
            raise CLIError("--minutes is for the sb3 backend; RLlib runs stop at --steps")
        overrides["time_limit"] = args.minutes * 60
    if args.resume and (args.config or args.set or overrides.keys() - {"total_steps", "time_limit"}):
        raise CLIError("--resume takes the run's own config.toml; only --steps and --minutes may change")
    return overrides


def _config(game: str, args: argparse.Namespace, overrides: dict[str, Any]) -> Any:
    """The run's config (None on ``--resume``: the run's own), its game options and agents checked now: a bad one
    is one line before any training, not a traceback in a worker."""
    from ..agents import make_agent
    from ..training.config import load_config

    if args.config:
        options.check_config_path(args.config)
    if args.resume:
        return None
    config = load_config(game, args.config, overrides)
    if args.set:  # game options over the TOML's [env] table, checked by making the env
        schema = options.game_params(game, adapter=False)
        config.env = {**config.env, **options.parse_config(args.set, schema, game, "--set", adapter=False)}
        make_env(game, config.env)
    demonstrator = [config.pretrain_agent] if config.pretrain_games else []
    for spec in [*config.opponents, config.eval_opponent, *demonstrator]:
        make_agent(spec, game, seed=0)
    return config


def _az_settings(game: str, args: argparse.Namespace) -> dict[str, Any]:
    """The settings of an ``--algo az`` run given on the command line (``--config`` TOML, then the options);
    PPO's options are refused in one line."""
    ppo_only = [f"--{k.replace('_', '-')}" for k in ("steps", "n_envs") if getattr(args, k) is not None]
    ppo_only += ["--backend rllib"] if args.backend != "sb3" else []
    if ppo_only:
        raise CLIError(
            f"{', '.join(ppo_only)}: for --algo ppo; --algo az takes --iterations, --sims, --budget and --workers"
        )
    values: dict[str, Any] = {}
    if args.config:
        options.check_config_path(args.config)
        values = _read_toml(_az_config_file(game, args.config))
        algo = values.pop("algo", "az")
        if algo != "az":
            raise CLIError(f"--config {args.config} is a config for --algo {algo}, not az")
    given = {"iterations": args.iterations, "sims": args.sims, "seed": args.seed, "cpu_limit": args.budget}
    given["workers"] = args.workers
    given["opponents"] = args.opponent
    given["time_limit"] = args.minutes * 60 if args.minutes is not None else None
    values.update({k: v for k, v in given.items() if v is not None})
    if args.set:
        schema = options.game_params(game, adapter=False)
        env = {**values.get("env", {}), **options.parse_config(args.set, schema, game, "--set", adapter=False)}
        values["env"] = env
    if args.resume and values.keys() - {"iterations", "time_limit", "cpu_limit", "workers"}:
        raise CLIError(
            "--resume takes the run's own config.json; only --iterations, --minutes, --budget and --workers may change"
        )
    return values


def _az_config_file(game: str, path: str) -> str:
    """The file ``--config`` names: a path, else a config ``game`` ships by name (``seastead_az_2p``)."""
    from ..training.config import TrainConfigError, config_file

    try:
        return str(config_file(game, path))
    except TrainConfigError as exc:
        raise CLIError(f"--config: {exc}") from None


def _read_toml(path: str) -> dict[str, Any]:
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise CLIError(f"--config {path}: cannot be read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise CLIError(f"--config {path} is not a valid TOML file: {exc}") from None


def _run_az(game: str, args: argparse.Namespace) -> int:
    from ..training.az_train import train_az

    train_az(game, args.out, _az_settings(game, args), resume=args.resume, progress=not args.no_progress)
    return 0


def run(args: argparse.Namespace) -> int:
    from ..paths import output_problem

    game = games.resolve(args.game)
    why = output_problem(args.out, folder=True)
    if why:  # before any training: a run that cannot save its checkpoints is lost work
        raise CLIError(f"--out {args.out}: {why}")
    if args.algo == "az":
        return _run_az(game, args)
    az_only = [f"--{k}" for k in ("iterations", "sims", "budget", "workers") if getattr(args, k) is not None]
    if az_only:
        raise CLIError(f"{', '.join(az_only)}: for --algo az")
    overrides = _overrides(args)
    config = _config(game, args, overrides)
    if args.backend == "rllib":
        from ..training.rllib import train_rllib

        train_rllib(game, args.out, config, total_steps=overrides.get("total_steps"), resume=args.resume)
        return 0
    from ..training.trainer import train

    train(
        game,
        args.out,
        config,
        resume=args.resume,
        total_steps=overrides.get("total_steps"),
        time_limit=overrides.get("time_limit"),
        progress=not args.no_progress,
    )
    return 0
