"""The MeepleZoo games as OpenSpiel games: OpenSpiel's own checks on every game and table size, the information
state consistency check OpenSpiel runs for imperfect-information games, parameters, the deal, returns and saves."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import meeplezoo.openspiel as mo  # noqa: E402
from meeplezoo import games  # noqa: E402
from meeplezoo.envs.core.errors import CorruptStateError  # noqa: E402
from meeplezoo.openspiel.game import DEAL_NODES, DEAL_OUTCOMES, deal_seed  # noqa: E402

#: every game at every table size, and the variants (Concordia's Imperium map, Seastead's B sides, Resafa's
#: advanced setup, Board Royale's elimination-only rule)
CONFIGS = [
    ("seastead", {"num_players": 1}),
    ("seastead", {"num_players": 2}),
    ("seastead", {"num_players": 2, "sides": "BBBB"}),
    ("concordia", {"num_players": 2}),
    ("concordia", {"num_players": 3}),
    ("concordia", {"num_players": 4}),
    ("concordia", {"num_players": 3, "map": "imperium"}),
    ("concordia", {"num_players": 5, "map": "imperium"}),
    ("concordia", {"num_players": 2, "intermediate_scoring": True}),
    ("board_royale", {"num_players": 2}),
    ("board_royale", {"num_players": 3}),
    ("board_royale", {"num_players": 4}),
    ("board_royale", {"num_players": 5}),
    ("board_royale", {"num_players": 6}),
    ("board_royale", {"num_players": 3, "elimination_only": True}),
    ("resafa", {"num_players": 1}),
    ("resafa", {"num_players": 2}),
    ("resafa", {"num_players": 3}),
    ("resafa", {"num_players": 4}),
    ("resafa", {"num_players": 2, "advanced_setup": True}),
]
IDS = [mo.game_string(g, c).removeprefix(mo.PREFIX) for g, c in CONFIGS]
#: one table per game for the slower checks
TWO_PLAYER = [(g, {"num_players": 2}) for g in ("seastead", "concordia", "board_royale", "resafa")]


def _load(game: str, config: dict) -> pyspiel.Game:
    return pyspiel.load_game(mo.game_string(game, config))


def _deal(state: pyspiel.State, seed_bytes: tuple[int, ...] = (1, 2, 3, 4)) -> None:
    for b in seed_bytes:
        state.apply_action(b)


def _random_play(state: pyspiel.State, rng: np.random.Generator, decisions: int) -> None:
    while not state.is_terminal() and decisions > 0:
        if state.is_chance_node():
            state.apply_action(int(rng.integers(DEAL_OUTCOMES)))
            continue
        state.apply_action(int(rng.choice(state.legal_actions())))
        decisions -= 1


def test_importing_registers_every_game_with_an_engine() -> None:
    names = {m.name for m in games.manifests() if m.engine is not None}
    assert {mo.PREFIX + n for n in names} <= set(pyspiel.registered_names())
    assert set(mo.GAMES) == {mo.PREFIX + n for n in names}


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=IDS)
def test_openspiel_random_sim_test_passes(game: str, config: dict) -> None:
    """OpenSpiel's RandomSimTest: clones, serialization, legal-action masks, unique action strings, observation and
    information-state tensors and strings on every state, returns within bounds and summing as the type says."""
    pyspiel.random_sim_test(_load(game, config), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=IDS)
def test_resampling_keeps_what_the_seat_knows(game: str, config: dict) -> None:
    """OpenSpiel's ResampleInfostateTest (C++; here in Python, as a Python game's resample is Python): at every
    decision, for every seat, the resampled state has the seat's information state string and tensor, its
    observation, and the player to act. Sampled at every 7th decision to keep it cheap."""
    rng = np.random.default_rng(11)
    state = _load(game, config).new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    step = 0
    while not state.is_terminal():
        if not state.is_chance_node() and step % 7 == 0:
            for p in range(state.num_players()):
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert other.current_player() == state.current_player()
                assert other.legal_actions() == state.legal_actions() or p != state.current_player()
        _random_play(state, rng, 1)
        step += 1
    assert step > 10


def test_a_resampled_state_holds_nothing_the_seat_did_not_see() -> None:
    """Board Royale's hands are secret: a seat's resampled state reads every seat's log as that seat reads it, its
    deal bytes are not the true ones, and the other seats' hands differ across resamples."""
    state = _load("board_royale", {"num_players": 3}).new_initial_state()
    _deal(state, (9, 8, 7, 6))
    _random_play(state, np.random.default_rng(3), 40)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(0, sampler) for _ in range(6)]
    for other in samples:
        assert other.core.view_of == 0 and other.core.deal != (9, 8, 7, 6)
        assert other.history() == []
        for q in (1, 2):
            assert other.core.read_log(q) == state.core.read_log(0)
    assert len({json.dumps(json.loads(s.serialize())["engine"]["state"]["hand"]) for s in samples}) > 1  # resampled


@pytest.mark.parametrize(("game", "config"), TWO_PLAYER)
def test_open_spiels_ismcts_keys_are_consistent(game: str, config: dict) -> None:
    """OpenSpiel's Python IS-MCTS asserts that every resampled root has the root's information state key."""
    from open_spiel.python.algorithms import ismcts, mcts

    g = _load(game, config)
    state = g.new_initial_state()
    _deal(state)
    rs = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=8, random_state=rs)
    for _ in range(3):
        state.apply_action(int(bot.step(state)))


def test_parameters_are_the_game_config() -> None:
    for m in games.manifests():
        if m.engine is None:
            continue
        spec = pyspiel.load_game(mo.PREFIX + m.name).get_type().parameter_specification
        assert dict(spec) == dict(m.engine_class().defaults)
    game = _load("concordia", {"num_players": 4, "map": "imperium"})
    assert game.engine_game.config == {"num_players": 4, "map": "imperium", "intermediate_scoring": False}
    assert game.num_players() == 4 and game.num_distinct_actions() == game.engine_game.num_actions


def test_a_bad_config_is_one_line_naming_it() -> None:
    with pytest.raises(pyspiel.SpielError, match="num_players=5 is not allowed on the italia map"):
        _load("concordia", {"num_players": 5})
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("meeplezoo_seastead(colour=red)")


def test_the_deal_is_four_chance_bytes_that_seed_the_engine() -> None:
    game = _load("resafa", {"num_players": 2})
    state = game.new_initial_state()
    for i in range(DEAL_NODES):
        assert state.is_chance_node() and len(state.chance_outcomes()) == DEAL_OUTCOMES
        assert state.information_state_string(0) == "seat 0\nbefore the deal"
        state.apply_action(5 + i)
    assert not state.is_chance_node() and state.core.deal == (5, 6, 7, 8)
    same = game.engine_game.new_state(deal_seed((5, 6, 7, 8)))
    assert state.core.engine.to_json() == same.to_json()
    assert deal_seed((0, 0, 1, 0)) == 256


def test_the_same_deal_and_actions_give_the_same_game_bit_for_bit() -> None:
    game = _load("concordia", {"num_players": 3})
    a, b = game.new_initial_state(), game.new_initial_state()
    _random_play(a, np.random.default_rng(4), 10**6)
    rng = np.random.default_rng(4)
    _random_play(b, rng, 10**6)
    assert a.history() == b.history() and a.serialize() == b.serialize() and a.returns() == b.returns()
    c = game.new_initial_state()
    _deal(c, (0, 0, 0, 1))
    d = game.new_initial_state()
    _deal(d, (0, 0, 0, 2))
    assert c.serialize() != d.serialize()


@pytest.mark.parametrize("game", ["seastead", "concordia", "board_royale", "resafa"])
def test_returns_are_the_win_reward(game: str) -> None:
    rng = np.random.default_rng(2)
    for config in ({"num_players": 3} if game not in ("seastead",) else {"num_players": 2}, {"num_players": 2}):
        state = _load(game, config).new_initial_state()
        _random_play(state, rng, 10**6)
        ranks = state.core.engine.ranks()
        n = len(ranks)
        winners = ranks.count(0)
        expected = [(n / winners - 1) / (n - 1) if r == 0 else -1 / (n - 1) for r in ranks]
        assert state.returns() == pytest.approx(expected) and sum(state.returns()) == pytest.approx(0.0)
    if game in ("seastead", "resafa"):
        solo = _load(game, {"num_players": 1})
        assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
        state = solo.new_initial_state()
        _random_play(state, rng, 10**6)
        assert state.returns() == [1.0 if state.core.engine.ranks()[0] == 0 else -1.0]


def test_the_decision_cap_ends_the_game_ranked_by_its_standing(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _load("concordia", {"num_players": 2})
    monkeypatch.setattr(type(game.engine_game), "max_decisions", property(lambda self: 25))
    state = game.new_initial_state()
    _random_play(state, np.random.default_rng(1), 10**6)
    assert state.is_terminal() and state.core.capped and state.core.decisions == 25
    assert not state.core.engine.is_terminal()
    ranks = state.core.engine.adjudicated_ranks()
    assert state.returns() == [1.0 if r == 0 and ranks.count(0) == 1 else (0.0 if r == 0 else -1.0) for r in ranks]
    assert "decision cap" in str(state)


@pytest.mark.parametrize(("game", "config"), TWO_PLAYER)
def test_json_and_pickled_saves_load_into_the_same_playable_state(game: str, config: dict) -> None:
    g = _load(game, config)
    state = g.new_initial_state()
    rng = np.random.default_rng(8)
    _random_play(state, rng, 30)
    for copy in (
        g.deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(g, state))[1],
        pickle.loads(pickle.dumps(state)),
    ):
        assert str(copy) == str(state) and copy.serialize() == state.serialize()
        for p in range(state.num_players()):
            assert copy.information_state_string(p) == state.information_state_string(p)
        moves = np.random.default_rng(9)
        twin = state.clone()
        _random_play(copy, moves, 10**6)
        _random_play(twin, np.random.default_rng(9), 10**6)
        assert copy.serialize() == twin.serialize() and copy.returns() == twin.returns()


def test_a_corrupt_json_save_is_refused_with_corrupt_state_error() -> None:
    g = _load("seastead", {"num_players": 2})
    state = g.new_initial_state()
    _random_play(state, np.random.default_rng(1), 12)
    doc = json.loads(state.serialize())
    bad = [
        "not json",
        json.dumps([1, 2]),
        json.dumps({**doc, "format": 9}),
        json.dumps({**doc, "deal": [1, 2, 3, 999]}),
        json.dumps({**doc, "engine": None}),
        json.dumps({**doc, "decisions": -1}),
        json.dumps({**doc, "log": doc["log"][:-1]}),
        json.dumps({**doc, "view_of": 7}),
        json.dumps({**doc, "engine": {**doc["engine"], "game": "resafa"}}),
        json.dumps({k: v for k, v in doc.items() if k != "capped"}),
    ]
    for text in bad:
        with pytest.raises(CorruptStateError):
            g.deserialize_state(text)
    assert g.deserialize_state(json.dumps(doc)).serialize() == state.serialize()


def test_action_strings_are_unique_where_two_actions_share_a_name() -> None:
    """Concordia's starting hand holds two Prefects: the two plays get the action id after the name."""
    state = _load("concordia", {"num_players": 2}).new_initial_state()
    _deal(state)
    names = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert len(set(names)) == len(names)
    prefects = [n for n in names if n.startswith("play Prefect")]
    assert prefects and all("(action " in n for n in prefects)
