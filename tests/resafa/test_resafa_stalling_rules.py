"""No credit for stalling (issue 39; docs/rules/resafa.md, "Stalling and the decision cap"), as scenarios.

A game stopped at its decision cap is ranked by each seat's total if the end scoring were done now, then the
seed's tiebreak, the canal tiles (``ResafaState.adjudicated_ranks``); solo, by reaching the fair target. No stall
rule is needed: every turn plays one of the 18 action cards a seat plays in a game, and every decision of a turn
either goes on with that card's actions or uses up something (a held card, the once-per-turn look at the deck).
"""

from __future__ import annotations

import pytest
from resafa_scenario import P0, P1, empty_store, fresh, give

from meeplezoo.envs.resafa.game import ResafaGame
from meeplezoo.envs.resafa.steps import Step


def bare(players: int = 2):
    """A fresh game in which no seat holds coins or items: the end scoring counts only what a test gives."""
    s = fresh(players)
    for seat in range(players):
        empty_store(s, seat)
        s.d.coins[seat] = 0
    return s


def canal_tile(s, seat: int, box: int) -> None:
    """Canal tile number ``box`` of ``seat`` placed on the network box ``box``."""
    d = s.d
    d.canal_owner[box], d.canal_design[box] = seat, box
    d.canal_placed[seat * 7 + box] = 1


def test_a_stopped_game_is_ranked_by_the_end_scoring_done_now_not_by_the_vp_track_alone():
    s = bare()
    d = s.d
    d.vp[P0], d.vp[P1] = 10, 12
    give(s, P0, spice=2, amphora=1)  # 1 VP per spice and amphora left at the end: P0 13, P1 12
    before = s.to_dict()
    assert s.ranks() == [1, 0]  # the VP track alone
    assert s.adjudicated_ranks() == [0, 1]
    assert s.to_dict() == before and d.sheet == []  # nothing scored in the position itself


def test_equal_totals_go_to_more_canal_tiles_then_the_place_is_shared():
    s = bare()
    d = s.d
    d.vp[P0] = d.vp[P1] = 20
    canal_tile(s, P1, 0)  # 1 tile: no canal strip VP (3 tiles give 5), no canal row worth yet
    assert s.adjudicated_ranks() == [1, 0]
    canal_tile(s, P0, 1)
    assert s.adjudicated_ranks() == [0, 0]


def test_four_seats_ranked_by_their_totals_with_shared_places_where_equal():
    s = bare(4)
    d = s.d
    d.vp[:] = [30, 25, 30, 10]
    give(s, 3, spice=18, amphora=2)  # seat 3: 10 + 20 goods = 30
    assert s.adjudicated_ranks() == [0, 3, 0, 0]


@pytest.mark.parametrize(("vp", "ranks"), [(150, [0]), (149, [1])])
def test_solo_a_stopped_game_counts_as_reaching_the_fair_target_only_with_150_points_now(vp, ranks):
    s = bare(1)
    s.d.vp[P0] = vp
    assert s.adjudicated_ranks() == ranks


@pytest.mark.parametrize("players", [1, 2, 4])
def test_every_seat_stalling_plays_its_eighteen_cards_and_the_game_ends(players):
    """Each seat takes the first legal action every time: each turn still plays one card, and the game ends after
    each seat's 18th card, far below the decision cap."""
    game = ResafaGame(num_players=players)
    s = game.new_state(7)
    played = [0] * players
    steps = 0
    while not s.is_terminal():
        if s.pending_step() == Step.PLAY_CARD:
            played[s.current_player()] += 1
        s.apply(s.legal_actions()[0])
        steps += 1
    assert played == [18] * players
    assert steps < game.max_decisions // 5
    assert all(0 <= r < max(players, 2) for r in s.ranks())
