"""Measure how often Board Royale's engine safety bounds bind in random play (a script, not a test).

    nice -n 10 .venv/bin/python tests/board_royale/measure_bounds.py --games 10000 --jobs 2
    .venv/bin/python tests/board_royale/measure_bounds.py --games 200 --check   # also validate + JSON every state

Random games cycle through 2-6 players and both variants (seed = game index). Printed: how many times the
per-turn decision bound (``max_decisions_per_turn``) and the counter-offer bound (``max_counter_offers``) were
reached, the largest turn and trade seen, game lengths against the engine's ``max_decisions``, and with
``--check`` how many reached states were validated and round-tripped through JSON.
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool

import numpy as np

from meeplezoo.envs.board_royale import BoardRoyaleGame
from meeplezoo.envs.board_royale.content import RULES
from meeplezoo.envs.board_royale.steps import Step


def play(args: tuple[int, bool]) -> dict[str, int]:
    index, check = args
    n = 2 + index % 5
    game = BoardRoyaleGame(num_players=n, elimination_only=bool(index // 5 % 2))
    state = game.new_state(index)
    rng = np.random.default_rng(index)
    d = state.d
    out = {"turn_bound": 0, "counter_bound": 0, "max_turn": 0, "max_counters": 0, "checked": 0, "truncated": 0}
    steps = 0
    while not state.is_terminal():
        if steps >= game.max_decisions:
            out["truncated"] = 1
            break
        step = state.pending_step()
        if step == Step.ACTION and state.d.turn_decisions >= RULES.max_decisions_per_turn:
            out["turn_bound"] += 1
        if step == Step.TRADE_ANSWER and d.counters >= RULES.max_counter_offers:
            out["counter_bound"] += 1
        state.apply(int(rng.choice(state.legal_actions())))
        d = state.d
        steps += 1
        out["max_turn"] = max(out["max_turn"], d.turn_decisions)
        out["max_counters"] = max(out["max_counters"], d.counters)
        if check:
            state.validate()
            text = state.to_json()
            assert game.state_from_json(text).to_json() == text, f"game {index}: JSON round trip differs"
            out["checked"] += 1
    out["decisions"] = steps
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="validate and JSON round-trip every reached state")
    a = parser.parse_args()
    jobs = [(i, a.check) for i in range(a.games)]
    if a.jobs > 1:
        with Pool(a.jobs) as pool:
            results = pool.map(play, jobs, chunksize=20)
    else:
        results = [play(j) for j in jobs]
    lengths = np.array([r["decisions"] for r in results])
    print(f"{a.games} random games (2-6 players, both variants)")
    print(
        f"per-turn decision bound ({RULES.max_decisions_per_turn}) reached: "
        f"{sum(r['turn_bound'] for r in results)} times; longest turn {max(r['max_turn'] for r in results)} decisions"
    )
    print(
        f"counter-offer bound ({RULES.max_counter_offers}) reached: {sum(r['counter_bound'] for r in results)} "
        f"times; most counter offers in one trade {max(r['max_counters'] for r in results)}"
    )
    print(
        f"game length: mean {lengths.mean():.0f}, p99 {np.percentile(lengths, 99):.0f}, max {lengths.max()} "
        f"decisions; truncated at max_decisions: {sum(r['truncated'] for r in results)}"
    )
    if a.check:
        print(f"states validated and round-tripped through JSON: {sum(r['checked'] for r in results)}")


if __name__ == "__main__":
    main()
