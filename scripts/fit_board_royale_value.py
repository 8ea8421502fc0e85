"""Fit Board Royale's cut-off value (IS-MCTS ``estimate=fitted``) on games between heuristic agents.

    python scripts/fit_board_royale_value.py --games 12000 --seed 200000
    python scripts/fit_board_royale_value.py --players 2 --games 8000 --seed 300000

plays ``--games`` games of ``--players`` heuristic agents (seeds from ``--seed``), takes every ``--every``-th
position, labels it with the game's winner, fits one conditional logit per number of living seats on the
first five sixths of the games and reports the log loss on the last sixth. The weights, with those figures
and this command, go to the game's ``data/value_model.json`` (4 players) or ``data/value_model_2p.json``
(2 players: ``estimate=fitted2p``), or ``--out``.

A thin caller of the generic fitter (:mod:`meeplezoo.training.value_fit`, Board Royale's ``win`` model):
``python -m meeplezoo.training.value_fit board_royale win --games 12000 --seed 200000 --set num_players=4
--out FILE`` does the same.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from meeplezoo.envs.board_royale.value import MODELS
from meeplezoo.games import manifest
from meeplezoo.training import value_fit

GAME, MODEL = "board_royale", "win"
#: the shipped weights documents by table size (the value's own file names)
OUT = {
    n: Path(str(manifest(GAME).files().joinpath("data", MODELS[model])))
    for n, model in ((4, "fitted"), (2, "fitted2p"))
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12000)
    parser.add_argument("--seed", type=int, default=200000)
    parser.add_argument("--every", type=int, default=7, help="take every N-th position of a game")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--players", type=int, choices=sorted(OUT), default=4, help="the table size")
    parser.add_argument("--out", type=Path, help="the weights document (default: the shipped one of the table size)")
    args = parser.parse_args(argv)
    words = argv if argv is not None else sys.argv[1:]
    out = args.out or OUT[args.players]
    generic = [GAME, MODEL, "--games", str(args.games), "--seed", str(args.seed), "--out", str(out)]
    generic += ["--set", f"num_players={args.players}", "--option", f"every={args.every}", "--l2", repr(args.l2)]
    command = "python scripts/fit_board_royale_value.py " + " ".join(words)
    return value_fit.main(generic, prog="fit_board_royale_value", command=command)


if __name__ == "__main__":
    sys.exit(main())
