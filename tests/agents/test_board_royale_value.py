"""Board Royale's fitted cut-off value (IS-MCTS ``estimate=fitted`` and ``fitted2p``): features, weights, fit and
script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from meeplezoo.agents import make_agent
from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.board_royale import BoardRoyaleGame, value
from meeplezoo.envs.board_royale.content import CARD_TYPE, NUM_KINDS, NUM_RES

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fit_board_royale_value.py"


def _table(seed: int = 8):
    """A 4-player position after the preparation round, with no face-up item and resource-only hands."""
    state = BoardRoyaleGame(num_players=4).new_state(seed)
    d = state.d
    d.item_owner = [-1] * len(d.item_owner)
    d.item_used = [0] * len(d.item_used)
    for s, n in {0: 9, 1: 9, 2: 9, 3: 8}.items():
        d.hand[s * NUM_KINDS : (s + 1) * NUM_KINDS] = [n - 6, 2, 2, 2, 0] + [0] * (NUM_KINDS - NUM_RES)
    return state


def _card(name: str, skip: int = 0) -> int:
    return [c for c, t in enumerate(CARD_TYPE) if t.name == name][skip]


def _feature(rows, seat, name):
    return rows[seat][value.FEATURES.index(name)]


def test_the_shipped_weights_match_the_features_and_beat_a_uniform_guess():
    w = value.weights()
    assert set(w) == set(value.BLOCKS) and all(len(v) == len(value.FEATURES) for v in w.values())
    doc = json.loads((Path(value.__file__).parent / "data" / value.WEIGHTS_FILE).read_text())
    for block, fit in doc["fit"].items():  # the held-out games are predicted better than by a uniform guess
        assert fit["test_log_loss"] < fit["test_log_loss_uniform"], block


def test_the_2_player_weights_read_two_living_seats_and_keep_the_4_player_weights_for_more():
    doc = json.loads((Path(value.__file__).parent / "data" / value.MODELS["fitted2p"]).read_text())
    assert doc["fit"]["2"]["test_log_loss"] < doc["fit"]["2"]["test_log_loss_uniform"]
    assert "2-player games" in doc["about"] and doc["command"].endswith("--players 2 --games 8000 --seed 300000")
    duel, four = value.weights("fitted2p"), value.weights()
    assert duel[2] == tuple(doc["weights"]["2"]) != four[2]
    assert duel[3] == four[3] and duel[4] == four[4]
    state = BoardRoyaleGame(num_players=2).new_state(4)
    heuristic = make_agent("heuristic", "board_royale", seed=4)
    for _ in range(40):
        state.apply(heuristic.choose(state))
    rows = value.seat_features(state.d)
    expected = [sum(a * b for a, b in zip(duel[2], r, strict=True)) for r in rows]
    assert value.win_logits_2p(state) == pytest.approx(expected)
    assert value.win_logits_2p(state) != value.win_logits(state)
    table = _table()  # four living seats: the same as the 4-player model
    assert value.win_logits_2p(table) == value.win_logits(table)


def test_features_count_hand_escape_points_sets_items_target_and_turn_order():
    state = _table()
    d = state.d
    d.item_owner[_card("Axe")] = 1  # a draw tool
    d.item_owner[_card("Sail")] = 2
    d.item_owner[_card("Paddle")] = 2  # two items of the Sea Escape set
    rows = value.seat_features(d)
    assert _feature(rows, 3, "log_cards") == pytest.approx(np.log(9)) and _feature(rows, 3, "cards_le_7") == 0
    assert _feature(rows, 1, "items_draw") == 1 and _feature(rows, 0, "items_draw") == 0
    assert _feature(rows, 2, "set_items_2") == 1 and _feature(rows, 2, "set_items_1") == 0
    assert (
        _feature(rows, 2, "escape_points")
        == CARD_TYPE[_card("Sail")].escape_points + CARD_TYPE[_card("Paddle")].escape_points
    )
    assert _feature(rows, 3, "targeted") == 3 and _feature(rows, 3, "targeted_ge_2") == 1  # the weakest seat
    assert _feature(rows, 0, "targeted") == 1  # seat 3's weakest rival
    active = d.active
    assert _feature(rows, active, "order_0") == 1 and _feature(rows, (active + 1) % 4, "order_1") == 1
    d.alive[(active + 1) % 4] = 0  # an eliminated seat is skipped in the turn order
    rows = value.seat_features(d)
    assert _feature(rows, (active + 2) % 4, "order_1") == 1


def test_win_logits_favour_cards_and_escape_points_and_give_eliminated_seats_nothing():
    state = _table()
    d = state.d
    before = value.win_logits(state)
    d.hand[0 * NUM_KINDS] += 4  # seat 0: four more cards
    after = value.win_logits(state)
    assert after[0] > before[0] and after[3] == before[3]  # seat 3 stays everybody's target
    d.item_owner[_card("Raft")] = 1
    assert value.win_logits(state)[1] > after[1]  # an escape item
    d.alive[2] = 0
    logits = value.win_logits(state)
    assert logits[2] == 0.0
    w3 = value.weights()[3]  # three living seats: the three-seat weights apply
    rows = value.seat_features(d)
    assert logits[1] == pytest.approx(sum(a * b for a, b in zip(w3, rows[1], strict=True)))


def test_win_logits_read_only_public_facts_so_every_determinization_agrees():
    state = BoardRoyaleGame(num_players=4).new_state(3)
    heuristic = make_agent("heuristic", "board_royale", seed=3)
    for _ in range(120):
        state.apply(heuristic.choose(state))
    seat = state.d.stack[-1][1]
    view = view_of_state(state, seat)
    assert {tuple(value.win_logits(view.determinize(np.random.default_rng(i)))) for i in range(4)} == {
        tuple(value.win_logits(state))
    }


def test_fit_recovers_the_weights_of_a_conditional_logit():
    from meeplezoo.training.value_fit import fit_win, log_loss, win_probabilities

    rng = np.random.default_rng(0)
    true = np.array([1.0, -0.5, 0.25])
    x = rng.normal(size=(20000, 4, 3))
    alive = rng.random((20000, 4)) < 0.8
    alive[:, 0] = True
    p = win_probabilities(x, alive, true)
    winner = (p.cumsum(1) > rng.random((20000, 1))).argmax(1)
    w = fit_win(x, alive, winner, l2=0.0)
    assert np.abs(w - true).max() < 0.05
    assert log_loss(x, alive, winner, w) < log_loss(x, alive, winner, np.zeros(3))
    assert (win_probabilities(x, alive, w)[~alive] == 0).all()


def test_a_weights_document_that_does_not_match_is_refused():
    doc = {"features": list(value.FEATURES), "weights": {str(b): [0.0] * len(value.FEATURES) for b in value.BLOCKS}}
    assert value.parse_weights(doc)[4] == (0.0,) * len(value.FEATURES)
    with pytest.raises(value.ValueWeightsError, match="features"):
        value.parse_weights({**doc, "features": ["cards"]})
    with pytest.raises(value.ValueWeightsError, match=r"weights\[3\] must be"):
        value.parse_weights({**doc, "weights": {**doc["weights"], "3": [0.0]}})
    duel = {**doc, "weights": {"2": [0.5] * len(value.FEATURES)}}  # a 2-player document holds block 2 alone
    assert value.parse_weights(duel, blocks=(2,)) == {2: (0.5,) * len(value.FEATURES)}
    with pytest.raises(value.ValueWeightsError, match=r"^value_model_2p.json: weights\[2\] must be"):
        value.parse_weights({**doc, "weights": {"3": [0.5] * len(value.FEATURES)}}, (2,), "value_model_2p.json")


def test_the_fit_script_writes_weights_the_value_accepts(tmp_path):
    out = tmp_path / "w.json"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "24", "--every", "9", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    doc = json.loads(out.read_text())
    assert doc["games"] == 24 and doc["test_games"] == 4
    assert set(value.parse_weights(doc)) == set(value.BLOCKS)
    bad = subprocess.run([sys.executable, str(SCRIPT), "--games", "2"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("fit_board_royale_value: --games must be")
    blocked = tmp_path / "a_file"
    blocked.write_text("kept")
    bad = subprocess.run(  # --out under a file: refused before any game, and the file is untouched
        [sys.executable, str(SCRIPT), "--out", str(blocked / "w.json")], capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 2 and bad.stderr.startswith(f"fit_board_royale_value: --out {blocked / 'w.json'}")
    assert bad.stderr.count("\n") == 1 and blocked.read_text() == "kept"


def test_the_fit_script_fits_the_2_player_table_with_players_2(tmp_path):
    out = tmp_path / "w2.json"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--players", "2", "--games", "24", "--every", "9", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    doc = json.loads(out.read_text())
    assert set(doc["weights"]) == {"2"} and "2-player games" in doc["about"]
    assert set(value.parse_weights(doc, blocks=(2,))) == {2}
    bad = subprocess.run([sys.executable, str(SCRIPT), "--players", "3"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--players: invalid choice: 3" in bad.stderr


def test_ismcts_with_the_fitted_estimate_plays_a_legal_move():
    state = BoardRoyaleGame(num_players=4).new_state(5)
    heuristic = make_agent("heuristic", "board_royale", seed=5)
    while len(state.d.legal) < 3:
        state.apply(heuristic.choose(state))
    view = view_of_state(state, state.d.stack[-1][1])
    agent = make_agent("mcts:iters=30,cutoff=5,rollout=heuristic,estimate=fitted", "board_royale", seed=1)
    assert agent.act(view) in view.legal_actions


def test_az_at_two_players_with_the_2_player_estimate_plays_a_legal_move():
    game = BoardRoyaleGame(num_players=2)
    state = game.new_state(6)
    heuristic = make_agent("heuristic", "board_royale", seed=6)
    while len(state.d.legal) < 3:
        state.apply(heuristic.choose(state))
    view = view_of_state(state, state.d.stack[-1][1])
    spec = "az:sims=30,mix=1,rollout=heuristic,cutoff=5,prior=uniform,estimate=fitted2p"
    agent = make_agent(spec, "board_royale", seed=1)
    assert agent.act(view) in view.legal_actions
