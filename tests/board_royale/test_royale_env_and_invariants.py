"""The AEC env: elimination leaving the loop, truncation, PettingZoo's own tests for 2-6 players; random-play
fuzz with the card invariants; clone / JSON round trips; no leak of hands or of a stolen card's identity."""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from royale_scenario import P0, P1, P2, action_phase, begin_turn, fresh, give_item, hand, item_a, seat_a, set_hand

from meeplezoo.envs import board_royale_v1
from meeplezoo.envs.board_royale import BoardRoyaleGame
from meeplezoo.envs.board_royale.actions import NUM_ACTIONS, PASS
from meeplezoo.envs.board_royale.content import KIND_COUNTS, NUM_KINDS, RESOURCE_COUNTS
from meeplezoo.envs.board_royale.resources import hand_limit, hand_size, resources_of
from meeplezoo.envs.board_royale.steps import Step
from meeplezoo.envs.core import CorruptStateError, IllegalActionError


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_pettingzoo_api_seed_and_render_tests(n):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(board_royale_v1.env(num_players=n), num_cycles=5000)
        api_test(board_royale_v1.env(num_players=n, max_cycles=3), num_cycles=100)
        seed_test(partial(board_royale_v1.env, num_players=n), num_cycles=2000)
        render_test(partial(board_royale_v1.env, num_players=n), custom_tests={"ansi": lambda t: bool(t.strip())})


def test_an_eliminated_agent_is_terminated_rewarded_steps_none_and_leaves():
    s = fresh(3)
    d = s.d
    set_hand(d, P0, food=3)
    set_hand(d, P1, wood=1)
    set_hand(d, P2, iron=4)
    knife = give_item(d, P0, "Knife")
    action_phase(s, P0)
    env = board_royale_v1.env(num_players=3)
    env.load(s)
    env.step(item_a(knife))
    env.step(seat_a(P1))
    assert env.agent_selection == "player_1"
    env.step(PASS)  # P1 takes the blow and is out
    assert env.terminations["player_1"] and env.rewards["player_1"] == -0.5
    assert env.agent_selection == "player_1"
    _, reward, terminated, truncated, _ = env.last()
    assert terminated and not truncated and reward == -0.5
    assert not env.observe("player_1")["action_mask"].any()
    env.step(None)
    assert env.agents == ["player_0", "player_2"] and env.agent_selection == "player_2"
    assert env.state_obj.pending_step() == Step.RESOURCE


def test_truncation_gives_zero_to_the_agents_still_in():
    env = board_royale_v1.env(num_players=4, max_cycles=4)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if trunc:
            assert reward == 0
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.state_obj.is_terminal()


def check_invariants(state) -> None:
    d = state.d
    n = d.n
    for kind in range(NUM_KINDS):
        total = d.res_deck.count(kind) + d.res_discard[kind] + sum(d.hand[s * NUM_KINDS + kind] for s in range(n))
        assert total == KIND_COUNTS[kind]
    assert sum(RESOURCE_COUNTS) == 140
    assert (
        sum(d.res_deck.count(k) + d.res_discard[k] + sum(d.hand[s * NUM_KINDS + k] for s in range(n)) for k in range(5))
        == 140
    )
    for s in range(n):
        if d.alive[s]:
            assert hand_size(d, s) <= hand_limit(d, s)
            assert resources_of(d, s) >= 1 or d.winner >= 0
        else:
            assert hand_size(d, s) == 0 and s not in d.item_owner
    if d.stack:
        assert d.alive[state.current_player()]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("elimination_only", [False, True])
def test_random_play_fuzz_keeps_every_invariant(n, elimination_only):
    game = BoardRoyaleGame(num_players=n, elimination_only=elimination_only)
    for seed in range(4):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        out: set[int] = set()
        steps = 0
        while not state.is_terminal():
            assert state.current_player() not in out, "an eliminated seat acts again"
            mask = state.legal_mask()
            assert mask.shape == (NUM_ACTIONS,) and np.flatnonzero(mask).tolist() == state.legal_actions()
            state.apply(int(rng.choice(state.legal_actions())))
            out |= state.eliminated()
            steps += 1
            if steps % 25 == 0:
                check_invariants(state)
                state.validate()
                text = state.to_json()
                assert game.state_from_json(text).to_json() == text
                assert state.clone().to_json() == text
            assert steps < game.max_decisions
        check_invariants(state)
        assert sorted(state.ranks()).count(0) == 1
        with pytest.raises(IllegalActionError):
            state.apply(PASS)


def stolen(kind: str):
    """P0 steals P1's only card kind in a 3-player game; returns the state after the steal."""
    s = fresh(3)
    d = s.d
    set_hand(d, P0, food=3)
    set_hand(d, P1, **{kind: 4})
    set_hand(d, P2, wood=3)
    begin_turn(s, P0)
    s.apply(seat_a(P1))
    s.apply(PASS)
    return s


def test_a_stolen_cards_identity_reaches_only_thief_and_victim():
    gold, food = stolen("gold"), stolen("iron")
    assert hand(gold.d, P0)[4] == 1 and hand(food.d, P0)[3] == 1
    assert np.array_equal(gold.observe(P2), food.observe(P2))  # the third player cannot tell
    assert not np.array_equal(gold.observe(P1), food.observe(P1))  # the victim can (own hand at least)
    # the victim knows the thief holds a Gold: every determinization from its seat keeps it ...
    for k in range(20):
        det = gold.determinize(P1, np.random.default_rng(k))
        assert hand(det.d, P0)[4] >= 1 and sum(hand(det.d, P0)) == 4
        det.validate()
    # ... while the third player's determinizations do not always give P0 a Gold
    kept = [hand(gold.determinize(P2, np.random.default_rng(k)).d, P0)[4] >= 1 for k in range(40)]
    assert not all(kept)
    # and none of them changes what P2 sees
    for k in range(5):
        assert np.array_equal(gold.determinize(P2, np.random.default_rng(k)).observe(P2), gold.observe(P2))


def test_determinize_never_shows_another_hand():
    game = BoardRoyaleGame(num_players=4)
    state = game.new_state(3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        state.apply(int(rng.choice(state.legal_actions())))
    changed = 0
    for k in range(10):
        det = state.determinize(0, np.random.default_rng(k))
        assert np.array_equal(det.observe(0), state.observe(0))
        assert hand(det.d, 0) == hand(state.d, 0)
        assert [hand_size(det.d, s) for s in range(4)] == [hand_size(state.d, s) for s in range(4)]
        changed += det.d.hand != state.d.hand
    assert changed >= 8


def test_corrupt_saves_are_refused():
    game = BoardRoyaleGame(num_players=3)
    state = game.new_state(0)
    data = state.to_dict()
    data["res_discard"][4] += 1  # a 21st Gold
    with pytest.raises(CorruptStateError, match="kind 4"):
        game.state_from_dict(data)
    data = state.to_dict()
    data["score"][0] = 5
    with pytest.raises(CorruptStateError, match="sum to 0"):
        game.state_from_dict(data)
