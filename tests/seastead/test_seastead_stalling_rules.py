"""No credit for stalling (issue 39; docs/rules/seastead.md, "Stalling and the decision cap"), as scenarios.

A game stopped at its decision cap is ranked by the final scoring of the position as if the game ended now, then
the seed's tiebreaks (``SeasteadState.adjudicated_ranks``). Every turn uses up the game's clock: a dive draws a
dive card, a build takes a building off the player board. In the solo mode, where the Depths stay in the box and
the dive deck is reshuffled, the reshuffled deck drawn to its end triggers the end (filled in): a player whose
dives can no longer give the Boss anything cannot keep the game going.
"""

from __future__ import annotations

from seastead_scenario import DEMAND, P0, P1, dive_turn, fresh, loc, place, put_ship, set_cleanup, start

from meeplezoo.envs.seastead.content import DIVE_CARDS, LOCATION_COST, WILD, Bld, Deck
from meeplezoo.envs.seastead.state import BOSS, BOSS_BUILDING, NO, TRIGGER_DEPTHS_VISIBLE


def where(cost: int, nth: int = 0) -> int:
    """The ``nth`` location (board order) whose value is ``cost``."""
    return [i for i, c in enumerate(LOCATION_COST) if c == cost][nth]


def boss_builds(d, location: int) -> None:
    d.loc_owner[location], d.loc_bld[location] = BOSS, BOSS_BUILDING


# --- adjudication at the decision cap ------------------------------------------------------------------
def test_a_stopped_game_is_ranked_by_its_points_as_if_it_ended_now_and_nothing_changes():
    s = fresh()
    d = s.d
    place(d, P0, Bld.PORT, where(5))  # 5 points for P0's location
    place(d, P1, Bld.ACADEMY, where(3))  # 3 for P1's
    start(s)
    before = s.to_dict()
    assert s.ranks() == [0, 0]  # the blank score sheet: what the cap would have shared
    assert s.adjudicated_ranks() == [0, 1]
    assert s.to_dict() == before  # scored on a copy: the board, the sheet and the supply are untouched
    assert not s.is_terminal()


def test_equal_points_go_to_more_buildings_left_then_more_cleanup_tokens_then_a_shared_place():
    s = fresh()
    d = s.d
    place(d, P0, Bld.PORT, where(4))  # 4 points, 11 buildings left
    place(d, P1, Bld.PORT, where(2, 0))
    place(d, P1, Bld.ACADEMY, where(2, 1))  # 2 + 2 points, 10 buildings left
    start(s)
    assert s.adjudicated_ranks() == [0, 1]

    s = fresh()
    d = s.d
    place(d, P0, Bld.PORT, where(3))  # 3 points
    place(d, P1, Bld.PORT, where(2))
    set_cleanup(d, P1, 1)  # 2 + 1 cleanup token = 3 points, one building each: the cleanup tokens decide
    start(s)
    assert s.adjudicated_ranks() == [1, 0]

    s = fresh()
    d = s.d
    place(d, P0, Bld.PORT, where(3, 0))
    place(d, P1, Bld.PORT, where(3, 1))
    start(s)
    assert s.adjudicated_ranks() == [0, 0]  # equal on every count: the seed's shared win


def test_solo_a_stopped_game_is_won_only_with_more_points_than_the_bosss_so_far():
    s = fresh(num_players=1)
    d = s.d
    for cost, nth in ((6, 0), (6, 1), (5, 0), (4, 0)):  # 21 points of locations
        place(d, P0, (Bld.PORT, Bld.ACADEMY, Bld.SHIPYARD)[nth], where(cost, nth))
    start(s)
    assert s.adjudicated_ranks() == [0]  # 21 beats the Boss's 20 + 3 x 0
    boss_builds(d, where(2, 0))
    assert s.adjudicated_ranks() == [1]  # 21 against 20 + 3 x 1 = 23


# --- the solo clock ------------------------------------------------------------------------------------
def blocked_solo():
    """Solo: every flotilla holds the player's shipyard, four Boss buildings and the player's ship on its last
    location, so no dive can bring the Boss anything and no flotilla fills while the player only dives. The dive
    deck holds 2 cards (the other 14 of the solo deck are discarded), not yet reshuffled."""
    s = fresh(num_players=1)
    d = s.d
    for f in range(len(DEMAND)):
        place(d, P0, Bld.SHIPYARD, loc(f, 0))
        for p in range(1, 5):
            boss_builds(d, loc(f, p))
        put_ship(d, P0, loc(f, 5))
    solo_cards = [c.id for c in DIVE_CARDS if c.deck != Deck.DEPTHS]
    plain = [c for c in solo_cards if not DIVE_CARDS[c].halves[0][WILD]]
    d.dive_deck = plain[:2]
    d.dive_discard = [c for c in solo_cards if c not in d.dive_deck]
    d.dive_reshuffled = 0
    start(s)
    s.validate()
    return s


def test_solo_the_reshuffled_dive_deck_drawn_to_its_end_triggers_the_end_and_one_more_turn_follows():
    s = blocked_solo()
    d = s.d
    for _ in range(17):  # 2 cards, the reshuffle (16 cards), 15 of them: no end yet
        dive_turn(s)
    assert (d.dive_reshuffled, len(d.dive_deck), d.end_round, d.triggers) == (1, 1, NO, 0)
    dive_turn(s)  # the 18th dive draws the reshuffled deck's last card
    assert (d.dive_deck, d.triggers, d.end_round, d.round_no) == ([], TRIGGER_DEPTHS_VISIBLE, 18, 18)
    assert "End triggered (the reshuffled dive deck is used up)" in s.render()
    dive_turn(s)  # the one more turn (a solo round is one turn)
    assert s.is_terminal()
    assert s.automa_score() == 20 + 3 * 16
    assert s.ranks() == [1]


def test_the_two_player_game_keeps_the_depths_as_its_clock():
    s = fresh()
    d = s.d
    plain = [c.id for c in DIVE_CARDS if c.deck == Deck.SHELF and not c.halves[0][WILD] and not c.halves[1][WILD]]
    d.dive_deck = [plain[0]]
    d.dive_discard = [c.id for c in DIVE_CARDS if c.id != plain[0]]
    d.dive_reshuffled = 1
    start(s)
    dive_turn(s)
    assert (d.dive_deck, d.triggers, d.end_round) == ([], 0, NO)  # the solo clock is not a 2-player rule
