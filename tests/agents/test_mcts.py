"""IS-MCTS: legal, reproducible for a seed, budgets in iterations or seconds, a tree with availability counts,
values per seat; and agent spec strings (parameters, one-line errors)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents import make_agent
from meeplezoo.agents.mcts import ESTIMATES, ISMCTSAgent, _estimate_values, _final_values, _Node
from meeplezoo.agents.spec import AgentSpecError
from meeplezoo.agents.view import view_of_state
from meeplezoo.games import game_names, make_env

CONFIGS = [("seastead", {}), ("concordia", {"num_players": 3}), ("board_royale", {"num_players": 4})]


def position(game: str, config: dict, seed: int, decisions: int):
    """A state after ``decisions`` random decisions, at a decision with more than one legal action."""
    state = make_env(game, **config).unwrapped.game.new_state(seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not state.is_terminal() and (step < decisions or len(state.legal_actions()) < 2):
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        step += 1
    return state


@pytest.mark.parametrize(("game", "config"), CONFIGS)
def test_mcts_picks_a_legal_action_and_replays_for_the_same_seed(game, config):
    for seed in (1, 2):
        state = position(game, config, seed, 20 * seed)
        view = view_of_state(state, state.current_player())
        for spec in ("mcts:iters=40", "mcts:iters=20,cutoff=10", "mcts:iters=8,rollout=heuristic,cutoff=6"):
            a = make_agent(spec, game, seed=3).act(view)
            assert a in view.legal_actions
            assert make_agent(spec, game, seed=3).act(view) == a, spec


def test_root_statistics_count_every_iteration_and_availability():
    state = position("seastead", {}, 4, 10)
    view = view_of_state(state, state.current_player())
    agent = ISMCTSAgent(seed=0, iters=60)
    captured = {}
    original = agent._iterate

    def spy(root, *args):
        captured["root"] = root
        return original(root, *args)

    agent._iterate = spy
    agent.act(view)
    root = captured["root"]
    assert agent.last_iterations == 60
    assert sum(c.n for c in root.children.values()) == 60  # each iteration goes through one root child
    assert set(root.children) == set(view.legal_actions)  # every root action was tried
    for child in root.children.values():
        # the root's actions are legal in every determinization: available in every iteration after creation
        assert child.n <= child.avail <= 60
        assert abs(sum(child.w) - child.n) < 1e-6  # values of a 2-player game sum to 1 per iteration


def test_a_time_budget_stops_the_search():
    state = position("concordia", {"num_players": 2}, 5, 30)
    agent = ISMCTSAgent(seed=0, seconds=0.05, cutoff=5)
    action = agent.act(view_of_state(state, state.current_player()))
    assert action in state.legal_actions() and agent.last_iterations >= 1


def test_values_share_the_win_and_estimates_skip_eliminated_seats():
    state = position("board_royale", {"num_players": 4}, 6, 10_000)  # random play to the end
    values = _final_values(state, 4)
    assert sum(values) == pytest.approx(1.0) and values[state.ranks().index(0)] > 0
    alive = position("board_royale", {"num_players": 3}, 7, 40)
    estimate, scale = ESTIMATES["board_royale"]
    est = _estimate_values(alive, estimate, scale)
    assert sum(est) == pytest.approx(1.0)
    assert all(est[s] == 0.0 for s in alive.eliminated())


def test_a_node_starts_empty():
    node = _Node(1, 3)
    assert (node.n, node.avail, node.w, node.children, node.mover) == (0, 0, [0.0] * 3, {}, 1)


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_random_heuristic_mcts_and_a_cutoff_estimate(game):
    for spec in ("random", "heuristic", "mcts", "mcts:iters=400,rollout=heuristic", "mcts:seconds=0.5"):
        assert make_agent(spec, game, seed=0) is not None
    assert game in ESTIMATES


def test_spec_parameters_are_converted():
    agent = make_agent("mcts:iters=400,rollout=heuristic,c=1.2,cutoff=30", "seastead", seed=0)
    assert (agent.iters, agent.rollout, agent.c, agent.cutoff, agent.seconds) == (400, "heuristic", 1.2, 30, 0.0)
    assert make_agent("mcts:seconds=0.5", "seastead").seconds == 0.5
    assert make_agent("mcts:iters=400", "seastead").spec == "mcts:iters=400"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:depth=3", r"agent 'mcts' has no parameter 'depth'; its parameters: iters, seconds, c, rollout"),
        ("mcts:iters=many", r"parameter 'iters': expected int, got 'many'"),
        ("mcts:iters=0", r"parameter 'iters': must be at least 1"),
        ("mcts:rollout=smart", r"expected one of random, heuristic, fast, got 'smart'"),
        ("random:fast=1", r"agent 'random' has no parameter 'fast'; its parameters: none"),
        ("nobody", r"no agent 'nobody' for seastead; available: heuristic, human, mcts, ppo, random"),
        ("ppo:/no/such/model.zip", r"no model file '/no/such/model.zip'"),
        ("mcts:iters=1,iters=2", r"empty or repeated parameter"),
        ("", r"non-empty string"),
    ],
)
def test_a_bad_spec_is_a_one_line_error_naming_what_exists(spec, message):
    with pytest.raises(AgentSpecError, match=message) as info:
        make_agent(spec, "seastead", seed=0)
    assert "\n" not in str(info.value)
