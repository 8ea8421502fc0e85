"""Measure trained policies: win rates against random and heuristic, training speed, the env's share of time.

::

    python scripts/measure_policies.py seastead board_royale --games 200 --profile-steps 2048
    python scripts/measure_policies.py board_royale --players 2 --games 200 --profile-steps 0

For each game (its default config, or ``--players`` seats): the policy (``--policy`` or the shipped one) plays
``--games`` seat-rotated games against random players and as many against heuristic ones (fewer if ``--seconds``
runs out: the counts are printed), taking its most likely action as the ``ppo`` agent does by default
(``--sample``: sampling); then ``--profile-steps`` MaskablePPO steps (one env in the process, with as many
seats, the default config's opponent pool) run under cProfile, and the script prints the env-steps/s and the
share of wall time spent inside the env (``SingleAgentEnv.reset``/``step``, opponents' moves included).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from meeplezoo.agents import make_agent
from meeplezoo.agents.match import agent_seed, play_game, seat_order
from meeplezoo.agents.policy import PolicyAgent, load_model, shipped_policy
from meeplezoo.envs.core.errors import MeepleZooError
from meeplezoo.games import make_env, resolve


def win_rate(
    game: str,
    model,
    opponent: str,
    games: int,
    seconds: float,
    seed: int = 50_000,
    deterministic: bool = True,
    config: dict | None = None,
    avoid_repeats: bool = True,
) -> tuple[int, int, int, int]:
    """(wins, shared wins, unfinished games, games played) of the model against ``opponent`` in every other seat,
    seats rotating. A game cut at the engine's decision bound is unfinished, not shared: while a game runs every
    living seat ranks 0, so its ranks would read as a win shared by the survivors."""
    env = make_env(game, **(config or {}))
    n = len(env.possible_agents)
    wins = shared = unfinished = played = 0
    stop = time.perf_counter() + seconds
    for g in range(games):
        if time.perf_counter() > stop:
            break
        order = seat_order(n, g)
        agents = {}
        for seat, name in enumerate(env.possible_agents):
            s = agent_seed(seed + g, seat)
            agents[name] = (
                PolicyAgent(model, seed=s, deterministic=deterministic, avoid_repeats=avoid_repeats)
                if order[seat] == 0
                else make_agent(opponent, game, seed=s)
            )
        record = play_game(env, agents, seed + g)
        ranks = env.unwrapped.state_obj.ranks()
        me = next(seat for seat in range(n) if order[seat] == 0)
        if record.truncated:
            unfinished += 1
        elif ranks[me] == 0:
            if ranks.count(0) == 1:
                wins += 1
            else:
                shared += 1
        played += 1
    return wins, shared, unfinished, played


def profile_training(game: str, steps: int, env_config: dict | None = None) -> tuple[float, float, float]:
    """(env-steps per wall second, per CPU second, share of CPU time in the env) of ``steps`` MaskablePPO steps on one
    in-process env (``env_config``: the game's config, default when None). CPU time (``time.process_time``)
    keeps the figures meaningful on a machine shared with other jobs; on an idle machine wall and CPU time
    agree."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from meeplezoo.training.config import default_config
    from meeplezoo.training.pool import OpponentPool
    from meeplezoo.training.single_agent import SingleAgentEnv

    torch.set_num_threads(1)
    config = default_config(game)
    pool = OpponentPool(game, list(config.opponents), [], config.self_play)
    env = DummyVecEnv([lambda: SingleAgentEnv(game, opponent=pool, env_kwargs=env_config)])
    n_steps = min(config.n_steps, steps)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=min(config.batch_size, n_steps),
        n_epochs=config.n_epochs,
        policy_kwargs={"net_arch": list(config.net_arch)},
        device="cpu",
        seed=0,
    )
    prof = cProfile.Profile(time.process_time)
    start, cpu = time.perf_counter(), time.process_time()
    prof.enable()
    model.learn(total_timesteps=steps)
    prof.disable()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    stats = pstats.Stats(prof)
    in_env = sum(
        v[3]
        for (file, _, func), v in stats.stats.items()  # type: ignore[attr-defined]
        if file.endswith("single_agent.py") and func in ("step", "reset")
    )
    return model.num_timesteps / wall, model.num_timesteps / cpu, in_env / cpu


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="+")
    p.add_argument("--policy", default=None, help="a .zip (default: the shipped policy of each game)")
    p.add_argument("--games", dest="n", type=int, default=200, help="games per opponent (0: only the profile)")
    p.add_argument("--seconds", type=float, default=600.0, help="time budget per game and opponent")
    p.add_argument("--players", type=int, default=None, help="players per game (default: the game's default)")
    p.add_argument("--sample", action="store_true", help="the policy samples its actions (default: most likely)")
    p.add_argument("--profile-steps", type=int, default=2048, help="0: no training profile")
    p.add_argument(
        "--opponents", nargs="+", default=["random", "heuristic"], help="the opponents to play (default: both)"
    )
    p.add_argument("--seed", type=int, default=50_000, help="the first game's seed (game g: seed + g)")
    p.add_argument(
        "--allow-repeats", action="store_true", help="plain greedy play: no guard against cycles (agents/policy.py)"
    )
    args = p.parse_args()
    config = {} if args.players is None else {"num_players": args.players}
    try:
        if args.seed < 0:
            raise MeepleZooError(f"--seed must be 0 or more, not {args.seed}")
        games = [resolve(game) for game in args.games]
        for game in games:  # a bad game, player count or opponent fails here, before anything is measured
            make_env(game, **config)
            for opponent in args.opponents:
                make_agent(opponent, game)
        for game in games:
            measure(game, args, config)
    except MeepleZooError as exc:
        p.exit(2, f"measure_policies: {exc}\n")


def measure(game: str, args: argparse.Namespace, config: dict) -> None:
    """Print one game's win rates and training profile (``main``'s options)."""
    label = game if args.players is None else f"{game} ({args.players} players)"
    model = load_model(args.policy or str(shipped_policy(game, args.players))) if args.n else None
    for opponent in args.opponents if args.n else ():
        start = time.perf_counter()
        wins, shared, unfinished, played = win_rate(
            game,
            model,
            opponent,
            args.n,
            args.seconds,
            seed=args.seed,
            deterministic=not args.sample,
            config=config,
            avoid_repeats=not args.allow_repeats,
        )
        print(
            f"{label}: vs {opponent}: {wins}/{played} wins ({100 * wins / max(played, 1):.1f}%), {shared} shared, "
            f"{unfinished} unfinished (cut at the engine's decision bound), "
            f"seat-rotated; {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    if args.profile_steps:
        rate, cpu_rate, share = profile_training(game, args.profile_steps, config)
        print(
            f"{label}: training {rate:.1f} env-steps/s wall, {cpu_rate:.1f} per CPU second (one env, cProfile "
            f"on); env share of CPU time {100 * share:.1f}%",
            flush=True,
        )


if __name__ == "__main__":
    main()
