"""The ``valued`` Concordia agent: the heuristic's card lookahead scored with a learnt margin."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents import make_agent
from meeplezoo.agents.spec import AgentSpecError
from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.concordia.game import ConcordiaGame
from meeplezoo.envs.concordia.heuristic import ConcordiaHeuristicAgent, evaluate, game_left
from meeplezoo.envs.concordia.steps import Step
from meeplezoo.envs.concordia.valued import (
    MARGIN_SCALE,
    ConcordiaValuedAgent,
    ValueModel,
    features,
    margin,
    shipped_value,
)

GAME2 = ConcordiaGame(num_players=2)
WIDTH = GAME2.observation_size + 3


def _model(width: int = WIDTH, players: int = 2, bias: float = 0.0, seed: int = 0) -> ValueModel:
    rng = np.random.default_rng(seed)
    layers = [
        (rng.normal(0, 0.1, (width, 8)).astype(np.float32), rng.normal(0, 0.1, 8).astype(np.float32)),
        (rng.normal(0, 0.1, (8, 1)).astype(np.float32), np.array([bias], np.float32)),
    ]
    return ValueModel(layers, players, "italia")


def _zero_model(width: int = WIDTH) -> ValueModel:
    return ValueModel([(np.zeros((width, 4), np.float32), np.zeros(4, np.float32)),
                       (np.zeros((4, 1), np.float32), np.zeros(1, np.float32))], 2, "italia")  # fmt: skip


def test_the_model_is_a_relu_mlp_and_saves_and_loads_exactly(tmp_path):
    model = _model(bias=0.25)
    x = np.random.default_rng(1).random(WIDTH, dtype=np.float32)
    (w0, b0), (w1, b1) = model.layers
    expected = float(np.maximum(x @ w0 + b0, 0.0) @ w1[:, 0] + b1[0])
    assert model(x.copy()) == pytest.approx(expected, rel=1e-6)
    loaded = ValueModel.load(model.save(tmp_path / "v.npz"))
    assert (loaded.num_players, loaded.board, loaded.input_size) == (2, "italia", WIDTH)
    assert all(
        np.array_equal(a, b)
        for la, lb in zip(loaded.layers, model.layers, strict=True)
        for a, b in zip(la, lb, strict=True)
    )
    assert loaded(x.copy()) == model(x.copy())


def test_bad_value_models_are_one_line_errors(tmp_path):
    with pytest.raises(AgentSpecError, match="no value model"):
        make_agent(f"valued:path={tmp_path / 'missing.npz'}", "concordia")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not an archive")
    with pytest.raises(AgentSpecError, match="is not a value model") as info:
        ConcordiaValuedAgent(path=str(junk))
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="do not chain"):
        ValueModel([(np.zeros((3, 4)), np.zeros(4)), (np.zeros((5, 1)), np.zeros(1))], 2, "italia")
    with pytest.raises(ValueError, match="one output"):
        ValueModel([(np.zeros((3, 2)), np.zeros(2))], 2, "italia")


def test_features_are_the_seats_observation_and_the_evaluations():
    state = GAME2.new_state(5)
    d = state.d
    for seat in range(2):
        x = features(d, seat)
        assert x.shape == (WIDTH,) and x.dtype == np.float32
        assert np.array_equal(x[:-3], state.observe(seat))
        assert x[-3] == np.float32(evaluate(d, seat) / 100) and x[-2] == np.float32(evaluate(d, 1 - seat) / 100)
        assert x[-1] == np.float32(game_left(d)) == 1.0  # nothing bought, no house yet: the whole game is left
    assert margin([70, 55, 62], 0) == pytest.approx(8 / MARGIN_SCALE)
    assert margin([70, 55, 62], 1) == pytest.approx(-15 / MARGIN_SCALE)


def test_the_lookahead_scores_evaluate_plus_the_learnt_margin():
    agent = ConcordiaValuedAgent(model=_model(bias=0.5))
    state = GAME2.new_state(2)
    for _ in range(30):
        state.apply(ConcordiaHeuristicAgent().choose(state))
    d = state.d
    for seat in range(2):
        want = evaluate(d, seat) + MARGIN_SCALE * agent.model(features(d, seat))
        assert agent.score(d, seat) == want
    heuristic = ConcordiaHeuristicAgent()
    while not state.is_terminal():
        state.apply(heuristic.choose(state))
    scores = state.scores()
    for seat in range(2):  # a trial that ends the game is scored with the true margin
        assert agent.score(state.d, seat) == evaluate(state.d, seat) + MARGIN_SCALE * margin(scores, seat)


def test_the_cached_evaluations_of_the_other_seats_change_no_choice():
    """The lookahead reads the other seats' evaluate() through a cache kept for one decision: a whole 4-player
    game of the shipped model's choices equals the choices with evaluate() read afresh, and the cache hits."""
    cached, fresh = ConcordiaValuedAgent(), ConcordiaValuedAgent()
    fresh._other = evaluate  # type: ignore[method-assign]
    calls, misses, decisions = 0, 0, 0
    lookup = cached._other

    def counting(d, seat):
        nonlocal calls
        calls += 1
        return lookup(d, seat)

    cached._other = counting  # type: ignore[method-assign]
    state = ConcordiaGame(num_players=4).new_state(4)
    while not state.is_terminal():
        choice = cached.choose(state)
        misses += len(cached._others)
        assert fresh.choose(state) == choice
        state.apply(choice)
        decisions += 1
    assert decisions > 300 and 0 < misses < calls / 2


def test_with_a_zero_model_it_chooses_as_the_heuristic_until_the_end_is_near():
    """The score hook changes nothing else: a learnt margin of 0 leaves evaluate's choice (a trial that ends
    the game is scored with its true margin, so only the last turns may differ)."""
    agent, heuristic = ConcordiaValuedAgent(model=_zero_model()), ConcordiaHeuristicAgent()
    compared = 0
    for seed in (1, 2):
        state = GAME2.new_state(seed)
        while not state.is_terminal():
            choice = heuristic.choose(state)
            if game_left(state.d) > 0.25 and state.d.stack[-1][0] == int(Step.MAIN):
                assert agent.choose(state) == choice
                compared += 1
            state.apply(choice)
    assert compared > 20


def test_the_learnt_margin_changes_the_card_chosen():
    """A model that reads what the heuristic ignores (the best other seat's evaluation) picks other cards than
    the heuristic, before the end is near."""
    heuristic = ConcordiaHeuristicAgent()
    w0 = np.zeros((WIDTH, 1), np.float32)
    w0[-2] = -3.0  # margin = 10 - 3 x the other's evaluation / 100 (the ReLU stays open): hurt the opponent
    layers = [(w0, np.array([10.0], np.float32)), (np.ones((1, 1), np.float32), np.zeros(1, np.float32))]
    agent = ConcordiaValuedAgent(model=ValueModel(layers, 2, "italia"))
    state, differ = GAME2.new_state(3), 0
    while not state.is_terminal():
        choice = heuristic.choose(state)
        if game_left(state.d) > 0.25 and state.d.stack[-1][0] == int(Step.MAIN):
            differ += agent.choose(state) != choice
        state.apply(choice)
    assert differ > 0


def test_a_model_plays_only_the_table_it_was_fitted_on():
    agent = ConcordiaValuedAgent(model=_model())
    state = ConcordiaGame(num_players=4).new_state(1)
    with pytest.raises(AgentSpecError, match="fitted on 2 players \\(italia\\); this game has 4 \\(italia\\)"):
        agent.act(view_of_state(state, state.current_player()))


def test_the_shipped_value_models_fit_their_tables():
    for players in (2, 4):
        model = ValueModel.load(shipped_value(players))
        width = ConcordiaGame(num_players=players).observation_size + 3
        assert (model.num_players, model.board, model.input_size) == (players, "italia", width)
    agent = make_agent("valued", "concordia", seed=0)  # one agent, the model of each table it meets
    for players in (2, 4, 2):
        state = ConcordiaGame(num_players=players).new_state(9)
        assert state.is_legal(agent.act(view_of_state(state, state.current_player())))
        assert agent.model.num_players == players
    state = ConcordiaGame(num_players=3).new_state(9)
    with pytest.raises(AgentSpecError, match="no value model ships for 3-player Concordia"):
        agent.act(view_of_state(state, state.current_player()))
