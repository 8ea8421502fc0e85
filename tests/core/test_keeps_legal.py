"""``keeps_legal``: where a game says the pending decision's legal actions read nothing hidden from a seat, the
public copy and the determinization keep them; they must equal what re-reading them gives, for every seat."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from meeplezoo.agents import make_agent
from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.core.chance import Chance
from meeplezoo.games import make_env

CASES = [
    ("seastead", {}),
    ("seastead", {"sides": "BBBB"}),
    ("seastead", {"num_players": 1}),
    ("concordia", {"num_players": 2}),
    ("concordia", {"num_players": 5, "map": "imperium"}),
    ("resafa", {"num_players": 1}),
    ("resafa", {"num_players": 3}),
    ("board_royale", {"num_players": 2}),
    ("board_royale", {"num_players": 4}),
]


def positions(game: str, config: dict, seed: int) -> Iterator:
    """Every third position of a game with a heuristic in seat 0 and random moves elsewhere (both kinds of
    decision: the heuristic's plans, random trades and answers)."""
    state = make_env(game, **config).unwrapped.game.new_state(seed)
    heuristic = make_agent("heuristic", game, seed=seed)
    rng = np.random.default_rng(seed)
    for k in range(3000):
        if state.is_terminal():
            return
        if k % 3 == 0:
            yield state
        seat = state.current_player()
        state.apply(heuristic.act(view_of_state(state, seat)) if seat == 0 else int(rng.choice(state.legal_actions())))


def reread(copy, player: int, rng: np.random.Generator | None):
    """What determinize (``rng``) or the public copy (None) gave before ``keeps_legal``: always re-read."""
    s = copy.clone()
    s.d.chance = Chance.fresh(rng) if rng is not None else Chance(0, 0)
    s.resample_hidden(player, rng)
    s.machine.relegal(s.d)
    return s


@pytest.mark.parametrize(("game", "config"), CASES)
def test_kept_legal_actions_equal_the_re_read_ones(game, config):
    kept = checked = 0
    games = (positions(game, config, seed) for seed in range(20))
    for state in (state for positions_of_one in games if checked < 60 for state in positions_of_one):
        for player in range(state.game.num_players):
            kept += state.keeps_legal(player)
            public, expected = state.public_copy(player), reread(state, player, None)
            assert public.to_dict() == expected.to_dict() and public.d.legal == expected.d.legal
            a, b = np.random.default_rng(checked), np.random.default_rng(checked)
            sampled, expected = state.determinize(player, a), reread(state, player, b)
            assert sampled.to_dict() == expected.to_dict() and sampled.d.legal == expected.d.legal
            assert a.bit_generator.state == b.bit_generator.state
            checked += 1
    assert kept >= 20 and checked >= 60, (kept, checked)
