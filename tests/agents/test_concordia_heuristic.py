"""The Concordia heuristic beats uniformly random play: >= 95% of 200 seeded 2-player games (Italia) and a
4-player table of 1 heuristic + 3 random in >= 80% of 200 seeded games (Italia)."""

from __future__ import annotations

import numpy as np

from meeplezoo.agents.view import seat_view, view_of_state
from meeplezoo.envs import concordia_v0
from meeplezoo.envs.concordia import ConcordiaGame
from meeplezoo.envs.concordia.heuristic import ConcordiaHeuristicAgent

GAMES = 200


def play(seed: int, n: int, heuristic_seat: int) -> list[int]:
    state = ConcordiaGame(num_players=n, map="italia").new_state(seed)
    heuristic = ConcordiaHeuristicAgent(seed=seed)
    rng = np.random.default_rng(seed + 10_000)
    while not state.is_terminal():
        if state.current_player() == heuristic_seat:
            action = heuristic.act(view_of_state(state, heuristic_seat))
        else:
            legal = state.legal_actions()
            action = legal[rng.integers(len(legal))]
        state.apply(action)
    return state.ranks()


def test_heuristic_beats_random_in_95_percent_of_200_two_player_games() -> None:
    wins = sum(play(seed, 2, seed % 2)[seed % 2] == 0 for seed in range(GAMES))
    assert wins / GAMES >= 0.95, f"heuristic won only {wins}/{GAMES}"


def test_heuristic_wins_80_percent_of_200_four_player_tables_against_three_random_players() -> None:
    wins = sum(play(seed, 4, seed % 4)[seed % 4] == 0 for seed in range(GAMES))
    assert wins / GAMES >= 0.80, f"heuristic won only {wins}/{GAMES}"


def test_heuristic_only_chooses_legal_actions_and_acts_through_the_env() -> None:
    env = concordia_v0.env(num_players=3, map="imperium")
    env.reset(seed=5)
    agent = ConcordiaHeuristicAgent(seed=0)
    decisions = 0
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agent.act(seat_view(env, name))
        assert obs["action_mask"][action] == 1, (env.state_obj.pending(), action)
        env.step(action)
        decisions += 1
    assert decisions > 100 and env.state_obj.is_terminal()


def test_the_projected_score_runs_from_the_start_to_the_true_final_score() -> None:
    from meeplezoo.envs.concordia.heuristic import evaluate, game_left, projected_score

    state = ConcordiaGame(num_players=3, map="italia").new_state(4)
    rng = np.random.default_rng(4)
    assert game_left(state.d) == 1.0
    assert projected_score(state.d, 0) == evaluate(state.d, 0)  # all the potential counts at the start
    left = 1.0
    while not state.is_terminal():
        now = game_left(state.d)
        assert 0.0 <= now <= left  # Forum cards are only bought, houses only built
        left = now
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    assert game_left(state.d) == 0.0
    assert [projected_score(state.d, s) for s in range(3)] == state.scores()
