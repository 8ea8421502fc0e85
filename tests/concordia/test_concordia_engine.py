"""Engine-level checks on Concordia: random-play fuzz with invariants, clone and JSON round trips, determinize
without leaks, the PettingZoo API/seed/render tests for 2-5 players, clear errors."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from meeplezoo.envs import concordia_v0
from meeplezoo.envs.concordia import ConcordiaGame
from meeplezoo.envs.concordia.actions import NUM_ACTIONS, PASS
from meeplezoo.envs.concordia.content import CARDS, MAX_HOUSES, STOREHOUSE
from meeplezoo.envs.concordia.state import NO, board_of, storehouse_used
from meeplezoo.envs.concordia.steps import Step
from meeplezoo.envs.core import CorruptStateError, IllegalActionError

CONFIGS = [(2, "italia"), (3, "italia"), (4, "italia"), (3, "imperium"), (4, "imperium"), (5, "imperium")]


def check_invariants(s) -> None:
    d = s.d
    m = board_of(d)
    assert all(x >= 0 for x in d.money) and all(x >= 0 for x in d.goods)
    overflow = {t[1] for t in d.stack if t[0] == Step.OVERFLOW}
    for seat in range(d.n):
        assert storehouse_used(d, seat) <= STOREHOUSE or seat in overflow
        assert len(d.houses[seat]) <= MAX_HOUSES
    on_routes = [p for p in d.col if p != NO and p >= m.num_cities]
    assert len(on_routes) == len(set(on_routes))  # one colonist per route
    s.validate()


@pytest.mark.parametrize(("n", "board"), CONFIGS)
def test_random_play_keeps_every_invariant_and_ends(n, board):
    game = ConcordiaGame(num_players=n, map=board)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        s = game.new_state(seed)
        steps = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal and np.array_equal(np.flatnonzero(s.legal_mask()), legal)
            s.apply(legal[rng.integers(len(legal))])
            steps += 1
            if steps % 25 == 0:
                check_invariants(s)
        check_invariants(s)
        assert s.d.concordia != NO and len(s.d.final) == n and steps <= game.max_decisions


def play_some(s, k, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(k):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply(legal[rng.integers(len(legal))])


@pytest.mark.parametrize(("n", "board"), [(2, "italia"), (5, "imperium")])
def test_clone_is_exact_and_independent(n, board):
    s = ConcordiaGame(num_players=n, map=board).new_state(3)
    play_some(s, 150)
    c = s.clone()
    assert c.to_json() == s.to_json() and c.d.legal == s.d.legal
    play_some(c, 40, seed=9)
    assert c.to_json() != s.to_json()
    twin = s.clone()
    play_some(s, 60, seed=4)
    play_some(twin, 60, seed=4)
    assert twin.to_json() == s.to_json()


@pytest.mark.parametrize(("n", "board"), [(3, "italia"), (4, "imperium")])
def test_json_round_trip_is_exact(n, board):
    game = ConcordiaGame(num_players=n, map=board, intermediate_scoring=True)
    s = game.new_state(5)
    play_some(s, 200)
    loaded = game.state_from_json(s.to_json())
    assert loaded.to_json() == s.to_json() and loaded.d.legal == s.d.legal
    assert np.array_equal(loaded.observe(1), s.observe(1))


def test_corrupt_saves_raise():
    game = ConcordiaGame(num_players=2)
    s = game.new_state(1)
    good = json.loads(s.to_json())
    for edit in (
        lambda st: st["goods"].__setitem__(0, -1),
        lambda st: st["hand"][0].append(7),  # a Forum card in two places
        lambda st: st["houses"][0].append(board_of(s.d).roma),
        lambda st: st["route_occ"].__setitem__(0, 0),
        lambda st: st.__setitem__("pm", 7),
        lambda st: st.__setitem__("money", [5]),
        lambda st: st.pop("deck"),
    ):
        doc = json.loads(json.dumps(good))
        edit(doc["state"])
        with pytest.raises(CorruptStateError):
            game.state_from_json(json.dumps(doc))


def test_determinize_reshuffles_the_deck_within_its_bands_only_and_leaks_nothing():
    s = ConcordiaGame(num_players=5, map="imperium").new_state(2)
    changed = 0
    for k in range(10):
        det = s.determinize(0, np.random.default_rng(k))
        assert [CARDS[c].deck for c in det.d.deck] == [CARDS[c].deck for c in s.d.deck]
        assert sorted(det.d.deck) == sorted(s.d.deck)
        assert np.array_equal(det.observe(0), s.observe(0)) and np.array_equal(det.observe(3), s.observe(3))
        changed += det.d.deck != s.d.deck
        det_dict, orig = det.to_dict(), s.to_dict()
        det_dict.pop("deck"), orig.pop("deck")
        assert det_dict.pop("chance") != orig.pop("chance")  # fresh chance: the copy's future is its own
        assert det_dict == orig
    assert changed == 10


def test_observation_does_not_depend_on_the_deck_order_but_the_state_vector_does():
    s = ConcordiaGame(num_players=3).new_state(4)
    other = next(det for k in range(20) if (det := s.determinize(1, np.random.default_rng(k))).d.deck != s.d.deck)
    for seat in range(3):
        assert np.array_equal(other.observe(seat), s.observe(seat))
    assert not np.array_equal(other.state_vector(), s.state_vector())


def test_observation_sizes_and_range():
    for n, board in CONFIGS:
        game = ConcordiaGame(num_players=n, map=board)
        s = game.new_state(0)
        play_some(s, 100)
        obs = s.observe(0)
        assert obs.shape == (game.observation_size,) and obs.dtype == np.float32
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        assert s.state_vector().shape == (game.state_size,)
    assert ConcordiaGame().num_actions == NUM_ACTIONS == 367


def test_illegal_action_raises_naming_the_decision_and_changes_nothing():
    s = ConcordiaGame(num_players=2).new_state(0)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="play a personality card"):
        s.apply(PASS)
    assert s.to_json() == before


@pytest.mark.parametrize(("n", "board"), [(2, "italia"), (3, "italia"), (4, "italia"), (5, "imperium")])
def test_pettingzoo_api_seed_and_render_tests(n, board):
    from pettingzoo.test import api_test, render_test, seed_test

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(concordia_v0.env(num_players=n, map=board), num_cycles=300)
        seed_test(lambda: concordia_v0.env(num_players=n, map=board), num_cycles=300)
        render_test(lambda render_mode: concordia_v0.env(num_players=n, map=board, render_mode=render_mode))


def test_env_plays_a_full_game_with_rewards_for_the_winner():
    env = concordia_v0.env(num_players=3, map="imperium")
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    state = env.state_obj
    winner = state.ranks().index(0)
    assert state.is_terminal() and sorted(state.ranks()) == [0, 1, 2]  # the tie rule leaves one winner
    assert total == {a: (1.0 if a == f"player_{winner}" else -0.5) for a in env.possible_agents}
