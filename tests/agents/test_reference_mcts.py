"""``mcts-ref``: each game's tuned IS-MCTS by one name (:mod:`meeplezoo.agents.reference`)."""

from __future__ import annotations

import pytest

from meeplezoo import games
from meeplezoo.agents import AgentSpecError, make_agent
from meeplezoo.agents.reference import reference_spec, tuned_table
from meeplezoo.agents.view import view_of_state


def test_the_table_nearest_the_tuned_ones_and_the_smaller_on_a_tie():
    assert games.manifest("board_royale").tuned_mcts.keys() == {2, 4}
    assert [tuned_table("board_royale", n) for n in (2, 3, 4, 5, 6)] == [2, 2, 4, 4, 4]
    assert tuned_table("seastead", 1) == 2  # solo plays the two-player search
    assert tuned_table("goofspiel", 3) is None  # a game that tunes none: the generic defaults
    assert reference_spec("goofspiel", 3) == "mcts"


def test_given_parameters_override_the_tuned_ones_and_keep_the_rest():
    tuned = games.manifest("board_royale").tuned_mcts[4]
    assert reference_spec("board_royale", 5) == tuned
    assert reference_spec("board_royale", 5, {"iters": 50, "c": 1.5}) == tuned.replace("iters=400", "iters=50,c=1.5")
    agent = make_agent("mcts-ref:iters=50", "board_royale")
    assert agent.spec_for("board_royale", 4) == tuned.replace("iters=400", "iters=50")


@pytest.mark.parametrize(("game", "players"), [("seastead", 2), ("board_royale", 4), ("resafa", 2)])
def test_it_plays_exactly_as_the_tuned_spec_written_out(game, players):
    """The same seed and positions give the same choices (a small budget keeps it quick)."""
    spec = reference_spec(game, players, {"iters": 12})
    ours, theirs = make_agent("mcts-ref:iters=12", game, seed=5), make_agent(spec, game, seed=5)
    state = games.manifest(game).engine_class()(num_players=players).new_state(3)
    for _ in range(15):
        seat = state.current_player()
        a, b = ours.act(view_of_state(state, seat)), theirs.act(view_of_state(state, seat))
        assert a == b
        state.apply(a)


def test_a_bad_parameter_or_one_the_game_lacks_is_one_line():
    with pytest.raises(AgentSpecError, match="agent 'mcts-ref' has no parameter 'iterz'"):
        make_agent("mcts-ref:iterz=3", "seastead")
    with pytest.raises(AgentSpecError, match="estimate"):  # checked for every table the game tunes
        make_agent("mcts-ref:estimate=nonsense", "board_royale")
