"""The fast observation means exactly what the first one did: equal vectors, bit for bit, for every viewer of
every position of played games (2-4 players, both setups), including the end and determinized copies."""

from __future__ import annotations

import numpy as np
from observation_reference import reference_observe

from meeplezoo.envs.resafa.game import ResafaGame
from meeplezoo.envs.resafa.heuristic import choose
from meeplezoo.envs.resafa.observation import LAYOUT, OBS_SIZE, observe

CASES = [(1, False, 2), (2, False, 3), (3, False, 2), (4, False, 2), (2, True, 1)]  # players, advanced setup, games


def positions(players: int, advanced: bool, games: int, seed: int):
    """Every position of ``games`` games (the heuristic agent, a random move one time in four, so the games
    build, trade and rain like real ones), and a determinized copy of every 7th position."""
    game = ResafaGame(num_players=players, advanced_setup=advanced)
    rng = np.random.default_rng(seed)
    for g in range(games):
        s = game.new_state(seed + g)
        while True:
            yield s
            if s.is_terminal():
                break
            if rng.random() < 1 / 7:
                yield s.determinize(int(rng.integers(players)), rng)
            if rng.random() < 0.25:
                legal = s.legal_actions()
                s.apply(int(legal[rng.integers(len(legal))]))
            else:
                s.apply(choose(s, s.current_player(), rng))


def test_observation_equals_the_reference_everywhere():
    buffer = np.full(OBS_SIZE, 7.0, np.float32)  # a dirty buffer: ``out`` must be overwritten entirely
    seen = np.zeros(OBS_SIZE, bool)
    count = 0
    for players, advanced, games in CASES:
        for s in positions(players, advanced, games, seed=10 * players + advanced):
            for me in range(players):
                want = reference_observe(s.d, me)
                got = observe(s.d, me)
                assert got.dtype == want.dtype and np.array_equal(got, want), (players, s.pending(), me)
                assert observe(s.d, me, buffer) is buffer and np.array_equal(buffer, want)
                seen |= want != 0
                count += 1
    assert count > 10_000
    # every section was compared with something other than zeros
    assert [name for name, sl in LAYOUT.items() if not seen[sl].any()] == []
