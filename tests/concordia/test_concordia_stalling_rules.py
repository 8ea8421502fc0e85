"""No credit for stalling (docs/rules/concordia.md, "Stalling and the decision cap"): a game stopped at the decision
cap is ranked by the scores as if it ended now and the Praefectus Magnus tie rule; a seat that plays
``IDLE_TURNS`` turns in a row without building a house or buying a Forum card loses, and the game ends."""

from __future__ import annotations

import json

import pytest
from concordia_scenario import (
    ARCHITECT,
    DIPLOMAT,
    P0,
    P1,
    P2,
    SENATOR,
    TRIBUNE,
    B,
    F,
    T,
    W,
    add_house,
    discard,
    fresh,
    play,
    put_colonist,
    set_city_good,
    set_goods,
    start,
)

from meeplezoo.envs.concordia import ConcordiaState
from meeplezoo.envs.concordia.actions import PASS, SEAT0, SLOT0
from meeplezoo.envs.concordia.content import MAX_HOUSES
from meeplezoo.envs.concordia.stalling import IDLE_TURNS
from meeplezoo.envs.concordia.state import BOARDS
from meeplezoo.envs.concordia.steps import Step
from meeplezoo.envs.core import CorruptStateError


def tribune_turn(s: ConcordiaState) -> None:
    """Play the Tribune and decline its optional colonist: a turn that changes nothing."""
    play(s, TRIBUNE)
    if not s.is_terminal() and s.pending_step() == Step.TRIBUNE_PLACE:
        s.apply(PASS)


# --- adjudication at the decision cap ----------------------------------------------------------------------------
def test_a_game_stopped_mid_way_is_ranked_by_the_scores_as_if_it_ended_now_then_the_tie_rule():
    s = fresh(3, seed=2)
    d = s.d
    for name, good in zip(["Bavzanvm", "Aqvileia", "Mvtina", "Ancona", "Messana"], (B, B, F, T, W), strict=True):
        set_city_good(s, name, good)
        add_house(s, P0, name)  # 2 brick + 3 other cities in 4 provinces, 4 kinds of goods
    put_colonist(s, P0, 1, on=("Casinvm", "ROMA"))  # 3 colonists on the board
    set_goods(s, P0, brick=1, cloth=2)
    d.money[P0] = 15  # Vesta (15 + 3 + 14) // 10 = 3
    d.money[P1] = d.money[P2] = 45  # Vesta (45 + 29) // 10 = 7 each with the starting goods
    start(s, P1)
    assert not s.is_terminal()
    # P0: Vesta 3 + Jupiter 2x3 + Saturnus 2x4 + Mercurius 2x4 + Mars 2x3; P1, P2: Vesta 7 + Mars 2x2
    assert s.scores() == [31.0, 11.0, 11.0]
    assert s.adjudicated_ranks() == [0, 2, 1]  # P1 and P2 tie: P2 holds the Praefectus Magnus


def test_the_standing_at_the_start_is_a_strict_order_by_the_tie_rule():
    s = fresh(4)
    assert s.scores() == [7.0, 7.0, 7.0, 7.0]  # Vesta 3 + Mars 2x2 each
    assert s.adjudicated_ranks() == [3, 2, 1, 0]  # P3 holds the Praefectus Magnus; it passes to P2, P1, P0


# --- the stall limit ------------------------------------------------------------------------------------------
def test_the_limit_th_turn_in_a_row_without_a_house_or_forum_card_loses_the_game():
    s = fresh(3)
    d = s.d
    d.money[P1] = 200  # the best score on the table: the limit, not the scores, puts P1 last
    d.money[P0] = 60
    d.idle[P1] = IDLE_TURNS - 1
    start(s, P1)
    tribune_turn(s)
    assert s.is_terminal()
    assert d.idle == [0, IDLE_TURNS, 0]
    assert s.scores()[P1] > s.scores()[P0] > s.scores()[P2]
    assert s.ranks() == [0, 2, 1] and s.adjudicated_ranks() == [0, 2, 1]
    assert f"P1 lost by the stall limit ({IDLE_TURNS} turns" in s.render()


def test_one_turn_short_of_the_limit_the_game_goes_on():
    s = fresh(2)
    s.d.idle[P0] = IDLE_TURNS - 2
    start(s, P0)
    tribune_turn(s)
    assert not s.is_terminal() and s.current_player() == P1
    assert s.d.idle == [IDLE_TURNS - 1, 0]


def build_ready(s: ConcordiaState, seat: int) -> None:
    """A colonist of ``seat`` next to Casinvm and Neapolis, and the goods and money for a house."""
    put_colonist(s, seat, 0, on=("Casinvm", "Neapolis"))
    set_goods(s, seat, 2, 2, 2, 2, 2)
    s.d.money[seat] = 30


def test_a_house_on_the_last_turn_before_the_limit_starts_the_count_again():
    s = fresh(2)
    build_ready(s, P0)
    s.d.idle[P0] = IDLE_TURNS - 1
    start(s, P0)
    play(s, ARCHITECT)
    s.apply(PASS)  # no move
    s.apply(s.legal_actions()[0])  # a house
    s.apply(PASS)
    assert len(s.d.houses[P0]) == 1
    assert not s.is_terminal() and s.current_player() == P1 and s.d.idle[P0] == 0


def test_a_forum_card_on_the_last_turn_before_the_limit_starts_the_count_again():
    s = fresh(2)
    set_goods(s, P0, 2, 2, 2, 2, 2)
    s.d.idle[P0] = IDLE_TURNS - 1
    start(s, P0)
    play(s, SENATOR)
    s.apply(SLOT0 + 0)
    while s.current_player() == P0 and s.pending_step() == Step.PAY_ANY:
        s.apply(s.legal_actions()[0])
    if s.current_player() == P0:
        s.apply(PASS)  # no second card
    assert len(s.d.hand[P0]) == 7  # 6 starting cards left in hand (the Senator is in the pile) + the bought one
    assert not s.is_terminal() and s.d.idle[P0] == 0


def test_a_diplomat_copying_an_architect_that_builds_counts_as_a_house():
    s = fresh(2)
    build_ready(s, P0)
    discard(s, P1, ARCHITECT)
    s.d.idle[P0] = IDLE_TURNS - 1
    start(s, P0)
    play(s, DIPLOMAT)
    s.apply(SEAT0 + P1)
    s.apply(PASS)  # no move
    s.apply(s.legal_actions()[0])
    s.apply(PASS)
    assert not s.is_terminal() and s.d.idle[P0] == 0 and len(s.d.houses[P0]) == 1


@pytest.mark.parametrize(("n", "ranks"), [(2, [1, 0]), (3, [2, 1, 0])])
def test_every_seat_playing_only_tribunes_ends_when_the_first_seat_reaches_the_limit(n, ranks):
    s = fresh(n)
    for _ in range(n * IDLE_TURNS):  # more turns than the limit lets the game last
        if s.is_terminal():
            break
        tribune_turn(s)
    assert s.is_terminal()
    # P0 reaches the limit first, after the others' IDLE_TURNS - 1 turns each; equal scores rank by the tie rule
    assert s.d.turns == n * (IDLE_TURNS - 1) + 1
    assert s.d.idle == [IDLE_TURNS] + [IDLE_TURNS - 1] * (n - 1)
    assert s.ranks() == ranks


# --- saves and bounded turns ------------------------------------------------------------------------------
def saved(s: ConcordiaState) -> dict:
    return json.loads(s.to_json())


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda st: st["idle"].__setitem__(P1, -1), "must be 0"),
        (lambda st: st["idle"].__setitem__(P0, IDLE_TURNS + 1), "must be 0"),
        (lambda st: st["idle"].__setitem__(P1, IDLE_TURNS), "outside its own turn"),  # P0 to play
        (lambda st: st["idle"].__setitem__(P0, IDLE_TURNS), "outside its own turn"),  # its card not yet played
        (lambda st: st.__setitem__("idle", [0]), "idle must have 2 entries"),
    ],
)
def test_impossible_turn_counts_in_a_save_are_refused(edit, why):
    s = fresh(2)
    doc = saved(s)
    edit(doc["state"])
    with pytest.raises(CorruptStateError, match=why):
        s.game.state_from_json(json.dumps(doc))


def test_a_seat_at_the_limit_during_its_own_turn_loads():
    s = fresh(2)
    s.d.idle[P0] = IDLE_TURNS - 1
    start(s, P0)
    play(s, TRIBUNE)  # the colonist offer is pending: the turn is under way
    assert s.pending_step() == Step.TRIBUNE_PLACE and s.d.idle[P0] == IDLE_TURNS
    loaded = s.game.state_from_json(s.to_json())
    loaded.apply(PASS)
    assert loaded.is_terminal() and loaded.ranks() == [1, 0]


def test_every_colonist_move_spends_a_movement_point_so_an_architect_ends():
    for m in BOARDS:
        for table in (m.moves_land, m.moves_sea):
            assert min(cost for moves in table for cost, _ in moves) == 1, m.name
    assert MAX_HOUSES == 15  # and each house built is one of the 15
