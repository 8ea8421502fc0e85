"""How a Board Royale game ends: one winner when it finishes, and a cut game is unfinished, never a shared win.

While a game runs every living seat ranks 0 (:meth:`BoardRoyaleState.ranks`), so a game cut at a decision
bound is ranked by its standing (:meth:`BoardRoyaleState.adjudicated_ranks`: strikes, escape points, cards in
hand, ...): the records mark it ``truncated``, name one winner, and match standings count it unfinished (the sb3
evaluations that read ranks alone reported such games as shared wins).
"""

from __future__ import annotations

import pytest

from meeplezoo.agents.match import MatchResult, play_game
from meeplezoo.agents.registry import make_agent
from meeplezoo.envs.board_royale.actions import PASS, SEAT0, TRADE
from meeplezoo.games import make_env


@pytest.mark.parametrize("n", [2, 4])
def test_a_finished_game_has_one_winner(n):
    env = make_env("board_royale", num_players=n)
    for seed in range(3):
        agents = {a: make_agent("heuristic", "board_royale", seed=i) for i, a in enumerate(env.possible_agents)}
        record = play_game(env, agents, seed)
        assert not record.truncated
        assert len(record.winners) == 1
        assert sorted(record.ranks.values())[1] >= 1


class _Stalling:
    """Offers a trade and cancels it again and again (legal: an offer may be withdrawn; each is a futile exchange,
    so its turns end at the bound with a strike), else plays heuristic."""

    def __init__(self, seed: int) -> None:
        self.heuristic = make_agent("heuristic", "board_royale", seed=seed)

    def act(self, view):
        legal = view.legal_actions
        if TRADE in legal:
            return TRADE
        if view.pending == "choose a trade partner":
            return next(a for a in legal if a >= SEAT0)
        if view.pending == "trade offer: what you give":
            return PASS
        return self.heuristic.act(view)


def test_a_cut_game_is_unfinished_not_a_shared_win():
    env = make_env("board_royale", num_players=2)
    agents = {"player_0": _Stalling(0), "player_1": make_agent("heuristic", "board_royale", seed=1)}
    labels = {"player_0": "stalling", "player_1": "heuristic"}
    record = play_game(env, agents, 5, max_steps=200, labels=labels)  # before the third strike votes it off
    state = env.unwrapped.state_obj
    assert record.truncated and state.pending_step() is not None  # the game was still running
    assert state.ranks() == [0, 0] and state.d.strikes[0] >= 1  # ranks alone would read as a shared win...
    assert record.winners == ["player_1"]  # ...the standing ranks the staller (a strike) last
    result = MatchResult("board_royale", ["stalling", "heuristic"], [record])
    standings = {s.label: s for s in result.standings()}
    assert standings["stalling"].unfinished == 1 and standings["stalling"].draws == 0  # ...the standings do not
