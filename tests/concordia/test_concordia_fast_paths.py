"""The fast paths of Concordia's engine and heuristic give exactly what the reference copies in
``concordia_reference`` give (the code as first written), on positions reached by legal play: scores, the
heuristic's evaluation, city values, colonist moves and choices, neighbour cities, the legal builds and
purchases, the Forum deck's resampling."""

from __future__ import annotations

import concordia_reference as ref
import numpy as np
import pytest

from meeplezoo.envs.concordia import ConcordiaGame
from meeplezoo.envs.concordia import heuristic as fast
from meeplezoo.envs.concordia.architect import legal_build, neighbour_cities, sorted_neighbour_cities
from meeplezoo.envs.concordia.forum import legal_buy
from meeplezoo.envs.concordia.scoring import final_scores, seat_score, seat_sheet
from meeplezoo.envs.concordia.state import CODEC
from meeplezoo.envs.concordia.steps import Step

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 3, "map": "imperium"},
    {"num_players": 5, "map": "imperium"},
]


def positions(config: dict, seed: int, every: int = 1):
    """The true states of one game: a mix of random and heuristic play (random more often early on)."""
    state = ConcordiaGame(**config).new_state(seed)
    rng = np.random.default_rng(seed)
    agent = fast.ConcordiaHeuristicAgent()
    k = 0
    while not state.is_terminal():
        if k % every == 0:
            yield state
        k += 1
        legal = state.legal_actions()
        if rng.random() < 0.35:
            action = legal[rng.integers(len(legal))]
        else:
            action = agent.choose(state.public_copy(state.current_player()))
        state.apply(action)
    yield state


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['num_players']}p-{c.get('map', 'italia')}")
def test_scores_evaluation_and_rule_parts_match_the_reference(config: dict) -> None:
    checked = 0
    for seed in range(3):
        for state in positions(config, seed, every=2):
            d = state.d
            for s in range(d.n):
                assert seat_score(d, s) == seat_sheet(d, s)[-1]
                assert fast.evaluate(d, s) == ref.evaluate(d, s)
                assert fast._ready(d, s) == ref._ready(d, s)
                assert fast._city_values(d, s) == ref._city_values(d, s)
                assert neighbour_cities(d, s) == ref.neighbour_cities(d, s)
                assert sorted_neighbour_cities(d, s) == tuple(sorted(ref.neighbour_cities(d, s)))
                assert legal_build(d, s, 0, 0) == ref.legal_build(d, s, 0, 0)
                for mode in (0, 1):
                    for bought in (0, 1):
                        assert legal_buy(d, s, mode, bought) == ref.legal_buy(d, s, mode, bought)
                for points in (1, 3, 6):
                    assert fast._best_move(d, s, points) == ref._best_move(d, s, points)
            assert final_scores(d) == [seat_sheet(d, s)[-1] for s in range(d.n)]
            checked += 1
    assert checked > 150


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['num_players']}p-{c.get('map', 'italia')}")
def test_the_heuristic_chooses_as_the_reference(config: dict) -> None:
    reference = ref.ReferenceAgent()
    agent = fast.ConcordiaHeuristicAgent()
    checked = 0
    for seed in range(10, 12):
        for state in positions(config, seed):
            if state.is_terminal():
                continue
            public = state.public_copy(state.current_player())
            assert agent.choose(public.clone()) == reference.choose(public.clone())
            d = public.d
            step, seat, a, b = d.stack[-1]
            if step not in (Step.MAIN, Step.DIPLOMAT):
                assert fast.rule_choice(d, step, seat, a, b, d.legal) == ref.rule_choice(d, step, seat, a, b, d.legal)
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("config", CONFIGS[2:], ids=lambda c: f"{c['num_players']}p-{c.get('map', 'italia')}")
def test_the_deck_is_resampled_as_the_reference_does(config: dict) -> None:
    for state in positions(config, 3, every=25):
        for scramble in (False, True):
            if scramble:  # bands out of order too (the set-up keeps each band in one run)
                state = state.clone()
                np.random.default_rng(len(state.d.deck)).shuffle(state.d.deck)
            for seed in (None, 1, 2):
                mine, theirs = CODEC.clone(state.d), CODEC.clone(state.d)
                rng_mine = None if seed is None else np.random.default_rng(seed)
                rng_theirs = None if seed is None else np.random.default_rng(seed)
                type(state)(state.game, mine).resample_hidden(0, rng_mine)
                ref.resample_hidden(theirs, rng_theirs)
                assert mine.deck == theirs.deck
                if seed is not None:  # the generator was drawn from the same way
                    assert rng_mine.integers(1 << 30) == rng_theirs.integers(1 << 30)
