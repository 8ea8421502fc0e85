"""The Board Royale heuristic against random play: >= 90% of 200 seeded 2-player games, and >= 60% of 200
4-player tables (1 heuristic + 3 random). A game is capped at MAX_DECISIONS; a capped game counts as lost."""

from __future__ import annotations

import numpy as np

from meeplezoo.agents.view import seat_view, view_of_state
from meeplezoo.envs import board_royale_v1
from meeplezoo.envs.board_royale import BoardRoyaleGame
from meeplezoo.envs.board_royale.heuristic import BoardRoyaleHeuristicAgent

GAMES = 200
MAX_DECISIONS = 5_000


def heuristic_wins(n: int, seed: int) -> bool:
    """Engine loop: the heuristic sits at seat ``seed % n``, the others play uniformly random legal actions."""
    state = BoardRoyaleGame(num_players=n).new_state(seed)
    rng = np.random.default_rng(seed)
    agent = BoardRoyaleHeuristicAgent(seed)
    seat = seed % n
    for _ in range(MAX_DECISIONS):
        if state.is_terminal():
            return state.d.winner == seat
        player = state.current_player()
        state.apply(agent.act(view_of_state(state, seat)) if player == seat else int(rng.choice(state.legal_actions())))
    return False


def test_heuristic_beats_random_in_two_player_games():
    wins = sum(heuristic_wins(2, seed) for seed in range(GAMES))
    assert wins >= 0.9 * GAMES, f"won {wins} of {GAMES}"


def test_heuristic_wins_a_four_player_table_against_three_random():
    wins = sum(heuristic_wins(4, seed) for seed in range(GAMES))
    assert wins >= 0.6 * GAMES, f"won {wins} of {GAMES}"


def test_heuristic_acts_through_the_env_with_legal_actions():
    env = board_royale_v1.env(num_players=3, max_cycles=400)
    env.reset(seed=5)
    agent = BoardRoyaleHeuristicAgent(seed=5)
    rng = np.random.default_rng(5)
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = (
            agent.act(seat_view(env, name))
            if name == "player_0"
            else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        assert obs["action_mask"][action] == 1
        env.step(action)
