"""Fit Board Royale's cut-off value (IS-MCTS ``estimate=fitted``) on games between heuristic agents.

    python scripts/fit_board_royale_value.py --games 12000 --seed 200000

plays ``--games`` 4-player games of heuristic agents (seeds from ``--seed``), takes every ``--every``-th
position, labels it with the game's winner, fits one conditional logit per number of living seats on the
first five sixths of the games and reports the log loss on the last sixth. The weights, with those figures
and this command, go to ``agents/data/board_royale_value.json`` (or ``--out``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from meeplezoo.agents import board_royale_value as value
from meeplezoo.agents.board_royale_heuristic import BoardRoyaleHeuristicAgent
from meeplezoo.envs.board_royale.game import BoardRoyaleGame

OUT = Path(__file__).resolve().parent.parent / "agents" / "data" / value.WEIGHTS_FILE
PLAYERS = 4


def positions(seed: int, games: int, every: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features (positions, seats, features), alive (positions, seats), the winner and the game of each position."""
    game = BoardRoyaleGame(num_players=PLAYERS)
    x, alive, winner, which = [], [], [], []
    for g in range(games):
        state = game.new_state(seed + g)
        agents = [BoardRoyaleHeuristicAgent(seed=(seed + g) * PLAYERS + s) for s in range(PLAYERS)]
        found, alive_then, k = [], [], 0
        d = state.d
        while d.stack:
            if k % every == 0:
                found.append(value.seat_features(d))
                alive_then.append([bool(a) for a in d.alive])
            state.apply(agents[d.stack[-1][1]].choose(state))
            k += 1
        ranks = state.ranks()
        if ranks.count(0) != 1:
            continue  # no single winner (a game stopped by its safety bound): nothing to learn from
        x += found
        alive += alive_then
        winner += [ranks.index(0)] * len(found)
        which += [g] * len(found)
    return np.array(x), np.array(alive), np.array(winner), np.array(which)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12000)
    parser.add_argument("--seed", type=int, default=200000)
    parser.add_argument("--every", type=int, default=7, help="take every N-th position of a game")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    problem = None
    if args.games < 6 or args.every < 1 or args.l2 < 0:
        problem = "--games must be at least 6, --every at least 1, --l2 not negative"
    else:  # a bad --out fails now, not after the games are played
        existed = args.out.exists()
        try:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            with args.out.open("a"):  # opened for appending: an existing file is not changed
                pass
            if not existed:
                args.out.unlink()
        except OSError as exc:
            problem = f"--out {args.out}: {exc.strerror}"
    if problem:
        print(f"fit_board_royale_value: {problem}", file=sys.stderr)
        return 2
    start = time.process_time()
    x, alive, winner, which = positions(args.seed, args.games, args.every)
    played = time.process_time() - start
    train = which < args.games * 5 // 6
    living = np.array([value.block_of(n) for n in alive.sum(1)])
    weights, report = {}, {}
    for block in value.BLOCKS:
        rows_train, rows_test = train & (living == block), ~train & (living == block)
        w = value.fit(x[rows_train], alive[rows_train], winner[rows_train], l2=args.l2)
        weights[str(block)] = [round(float(v), 6) for v in w]
        zero = np.zeros_like(w)
        report[str(block)] = {
            "train_positions": int(rows_train.sum()),
            "test_positions": int(rows_test.sum()),
            "test_log_loss": round(value.log_loss(x[rows_test], alive[rows_test], winner[rows_test], w), 4),
            "test_log_loss_uniform": round(value.log_loss(x[rows_test], alive[rows_test], winner[rows_test], zero), 4),
        }
        print(f"{block} living: {report[str(block)]}")
    doc = {
        "about": "Board Royale cut-off value (agents/board_royale_value.py): conditional-logit weights per number "
        "of living seats, fitted on positions of 4-player games between heuristic agents",
        "command": "python scripts/fit_board_royale_value.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "games": args.games,
        "seed": args.seed,
        "every": args.every,
        "l2": args.l2,
        "test_games": args.games - args.games * 5 // 6,
        "fit": report,
        "features": list(value.FEATURES),
        "weights": weights,
    }
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {args.out} ({len(winner)} positions of {args.games} games, {played:.0f} CPU s of play)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
