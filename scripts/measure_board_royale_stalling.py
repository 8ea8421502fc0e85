"""Measure how often Board Royale's stall rules bind, and game lengths (a script, not a test).

    nice -n 10 .venv/bin/python scripts/measure_board_royale_stalling.py --games 400 --agents heuristic
    nice -n 10 .venv/bin/python scripts/measure_board_royale_stalling.py --games 400 --agents random
    nice -n 10 .venv/bin/python scripts/measure_board_royale_stalling.py --games 30 --staller passive

Games cycle through 2-6 players (``--elimination-only`` for the variant); game ``i`` has seed ``1000 + i``. With
``--staller KIND`` (passive, first, last, counter) seat ``i % n`` stalls against the heuristic. Printed: game
lengths (decisions and days), how many games a strike was given in, a seat was voted off, exposure took cards,
the tide rose, and how often the staller won.
"""

from __future__ import annotations

import argparse
import re

import numpy as np

from meeplezoo.agents import make_agent
from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.board_royale import BoardRoyaleGame
from meeplezoo.envs.board_royale.content import RULES

_WORDS = {
    "passive": re.compile("end the turn|refuse|vote no|do not join|take the attack|cancel the trade"),
    "counter": re.compile("counter-offer|defend with|reveal"),
}


def staller_action(kind: str, state) -> int:
    """The staller's choice: ``last`` the last legal action, ``first`` the first, ``passive``/``counter`` the first
    whose name holds one of their words (else the first)."""
    legal = state.legal_actions()
    if kind == "last":
        return legal[-1]
    words = _WORDS.get(kind)
    for action in legal if words is not None else ():
        if words.search(state.describe_action(action)):
            return action
    return legal[0]


def play(index: int, args: argparse.Namespace) -> dict[str, int]:
    n = 2 + index % 5
    seed = 1000 + index
    state = BoardRoyaleGame(num_players=n, elimination_only=args.elimination_only).new_state(seed)
    rng = np.random.default_rng(seed)
    staller = index % n if args.staller else -1
    agents = {p: make_agent(args.agents, "board_royale", seed=seed * 10 + p) for p in range(n)}
    out = {"exposure": 0, "tide": 0, "truncated": 0}
    steps = 0
    while not state.is_terminal():
        if steps >= state.game.max_decisions:
            out["truncated"] = 1
            break
        d = state.d
        out["exposure"] |= max(d.idle) >= RULES.idle_turns
        out["tide"] |= d.round_no >= RULES.tide_day
        p = state.current_player()
        if p == staller:
            action = staller_action(args.staller, state)
        elif args.agents == "random":
            action = int(rng.choice(state.legal_actions()))
        else:
            action = int(agents[p].act(view_of_state(state, p)))
        state.apply(action)
        steps += 1
    d = state.d
    out |= {"decisions": steps, "days": d.round_no, "strike": int(sum(d.strikes) > 0)}
    out["voted_off"] = int(max(d.strikes) >= RULES.max_strikes)
    out["staller_won"] = int(staller >= 0 and state.is_terminal() and state.ranks()[staller] == 0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--agents", default="heuristic", help="the players (an agent spec, or random)")
    parser.add_argument("--staller", choices=("passive", "first", "last", "counter"), default=None)
    parser.add_argument("--elimination-only", action="store_true")
    args = parser.parse_args()
    if args.staller and args.agents == "random":
        parser.error("--staller plays against an agent, not random")
    rows = [play(i, args) for i in range(args.games)]
    for key in ("decisions", "days"):
        v = np.array([r[key] for r in rows])
        print(f"{key}: mean {v.mean():.0f}, p99 {np.percentile(v, 99):.0f}, max {v.max()}")
    for key in ("strike", "voted_off", "exposure", "tide", "truncated", "staller_won"):
        print(f"games with {key}: {sum(r[key] for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
