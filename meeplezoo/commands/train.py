"""``meeplezoo train GAME --out RUN``: train a policy (MaskablePPO self-play, or RLlib), checked before it starts."""

from __future__ import annotations

import argparse
from typing import Any

from .. import games, options
from .common import CLIError, make_env, seed_arg


def add_parser(sub: Any, game_help: str) -> argparse.ArgumentParser:
    t = sub.add_parser(
        "train",
        help="train a policy (MaskablePPO self-play, or RLlib)",
        description="Train MaskablePPO against an opponent pool (baselines + frozen past checkpoints), with "
        "checkpoints, --resume, tensorboard logs and evaluations; --backend rllib: RLlib multi-agent self-play.",
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
    return t


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


def run(args: argparse.Namespace) -> int:
    from ..paths import output_problem

    game = games.resolve(args.game)
    why = output_problem(args.out, folder=True)
    if why:  # before any training: a run that cannot save its checkpoints is lost work
        raise CLIError(f"--out {args.out}: {why}")
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
