"""Rounds, limited supplies, the four end triggers, the last round, final scoring and the tiebreaks."""

from __future__ import annotations

import pytest
from seastead_scenario import (
    P0,
    P1,
    TRIGGERS,
    attach_dock,
    cleanup_exhausted,
    dive_turn,
    dock_id,
    first_location,
    fresh,
    give_spec,
    la,
    loc,
    pending,
    place,
    put_ship,
    res,
    score_now,
    set_cleanup,
    set_res,
    start,
)

from meeplezoo.envs.core import TERMINAL, IllegalActionError
from meeplezoo.envs.seastead.actions import BUILD0, DIVE, PASS, SLOT0, SPEC0, USE
from meeplezoo.envs.seastead.content import DIVE_CARDS, LOCATION_COST, NUM_LOCS, SPECIALISTS, Bld, Deck, Res
from meeplezoo.envs.seastead.state import (
    NO,
    TRIGGER_CLEANUP_EXHAUSTED,
    TRIGGER_DEPTHS_VISIBLE,
    TRIGGER_FLOTILLA_FULL,
)
from meeplezoo.envs.seastead.steps import Step

CLEANUP1 = first_location("cleanup", n=1)  # Kelpwood (fish), cost 4
CLEANUP2 = first_location("cleanup", n=2)


def test_rounds_the_first_player_moves_first_then_the_other_each_round():
    s = fresh(P1)
    d = s.d
    start(s)
    assert pending(s) == (Step.MAIN, P1) and d.round_no == 0
    dive_turn(s)
    assert pending(s) == (Step.MAIN, P0) and d.round_no == 0 and d.turns_in_round == 1
    dive_turn(s)
    assert pending(s) == (Step.MAIN, P1) and d.round_no == 1 and d.turns_in_round == 0
    for _ in range(6):
        dive_turn(s)
    assert pending(s) == (Step.MAIN, P1) and d.round_no == 4
    assert d.triggers == 0 and d.end_round == NO and not s.is_terminal()
    s.validate()


# --- limited supplies ---------------------------------------------------------------------------------
def test_cleanup_tokens_beyond_the_supply_are_recorded_as_shortfall():
    s = fresh(P0)
    d = s.d
    set_cleanup(d, P1, 19)
    set_res(d, P0, fish=CLEANUP2.cost)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(CLEANUP2))
    s.apply(SLOT0)
    s.apply(USE)
    assert d.cleanup == [1, 19] and d.cleanup_supply == 0 and d.shortfall == [1, 0]
    s.validate()


# --- end triggers -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("make", "bit"), TRIGGERS, ids=lambda x: getattr(x, "__name__", str(x)))
@pytest.mark.parametrize("turn", [0, 1], ids=["first_turn_of_round", "second_turn_of_round"])
def test_each_end_trigger_on_its_own_finishes_the_round_plus_one_more_round(make, bit, turn):
    s = fresh(P0)
    d = s.d
    d.round_no = 3
    d.turns_in_round = turn
    seat = turn  # P0 is the first player
    make(s, seat)
    assert d.triggers == bit
    assert d.end_round == 4
    if bit == TRIGGER_DEPTHS_VISIBLE:
        assert DIVE_CARDS[d.dive_deck[-1]].deck == Deck.DEPTHS
    # the current round is completed, then one more round: (1 - turn) + 2 more turns
    left = 3 - turn
    for i in range(left):
        assert not s.is_terminal(), f"ended after {i} of {left} turns"
        assert pending(s) == (Step.MAIN, (seat + 1 + i) % 2)
        dive_turn(s)
    assert s.is_terminal()
    assert d.round_no == 4 and s.current_player() == TERMINAL
    assert s.legal_actions() == [] and s.pending_step() is None
    assert len(d.sheet) == 12
    with pytest.raises(IllegalActionError):
        s.apply(DIVE)
    s.validate()


def test_no_trigger_with_two_buildings_left_or_a_shelf_card_on_top():
    s = fresh(P0)
    d = s.d
    spots = iter([loc(f, p) for p in range(4) for f in (1, 2, 3)])
    for t, n in ((Bld.PORT, 3), (Bld.ACADEMY, 3), (Bld.SHIPYARD, 3)):
        for _ in range(n):
            place(d, P0, t, next(spots))
    set_res(d, P0, fish=LOCATION_COST[loc(0, 1)])
    start(s)
    s.apply(BUILD0 + Bld.PORT)  # the 10th building: 2 left
    s.apply(la(loc(0, 1)))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.ROW_PORT, P0)  # the fourth port
    s.apply(PASS)
    assert pending(s) == (Step.MAIN, P1)
    assert DIVE_CARDS[d.dive_deck[-1]].deck != Deck.DEPTHS
    assert d.triggers == 0 and d.end_round == NO
    s.validate()


def test_the_end_trigger_is_remembered_even_if_the_condition_goes_away():
    s = fresh(P0)
    d = s.d
    cleanup_exhausted(s, P0)
    assert d.triggers == TRIGGER_CLEANUP_EXHAUSTED and d.end_round == 1
    dive_turn(s)  # P1 ends round 0
    set_cleanup(d, P1, 10)  # (by hand) the supply is no longer empty
    dive_turn(s)
    dive_turn(s)
    assert s.is_terminal()
    s.validate()


def test_a_flotilla_filled_and_emptied_in_the_same_turn_still_triggers_the_end():
    """Issue 7 item 10. Seed: the end triggers once every location of a flotilla holds a building; P0 fills
    Kelpwood with a port and then moves their academy off it with the Architect in the same turn."""
    s = fresh(P0)
    d = s.d
    architect = give_spec(d, P0, "Architect")
    for p in (0, 2, 3, 4):
        place(d, P1, Bld.PORT if p < 3 else Bld.SHIPYARD, loc(0, p))
    place(d, P0, Bld.ACADEMY, loc(0, 5))
    set_res(d, P0, fish=LOCATION_COST[loc(0, 1)])
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(loc(0, 1)))  # Kelpwood is full now
    assert d.triggers == TRIGGER_FLOTILLA_FULL and d.end_round == 1  # recorded at once
    s.apply(SLOT0)
    s.apply(PASS)  # the location's optional fish
    assert pending(s) == (Step.AFTER, P0)
    s.apply(SPEC0 + architect)
    s.apply(la(loc(0, 5)))
    s.apply(la(loc(1, 0)))  # the academy leaves Kelpwood: the condition no longer holds
    assert d.loc_bld[loc(0, 5)] == NO
    assert pending(s) == (Step.MAIN, P1)
    assert d.triggers == TRIGGER_FLOTILLA_FULL and d.end_round == 1
    dive_turn(s)  # P1 ends round 0
    dive_turn(s)
    dive_turn(s)  # round 1, the last one
    assert s.is_terminal()
    s.validate()


# --- final scoring ------------------------------------------------------------------------------------
def test_final_scoring_in_five_categories_with_exact_numbers():
    s = fresh(P0)
    d = s.d
    fish_a = dock_id(Res.FISH, (None, Bld.ACADEMY, Bld.SHIPYARD, None), 2)
    fish_p = dock_id(Res.FISH, (Bld.PORT, None, None, Bld.PORT), 3)
    kelp_s = dock_id(Res.KELP, (Bld.SHIPYARD, Bld.PORT, None, Bld.SHIPYARD), 2)
    art_a = dock_id(Res.ARTIFACT, (Bld.ACADEMY, None, None, Bld.ACADEMY), 3)
    p0 = {loc(0, 2): Bld.PORT, loc(1, 2): Bld.PORT, loc(3, 0): Bld.PORT, loc(1, 0): Bld.PORT}
    p0 |= {loc(0, 3): Bld.SHIPYARD, loc(2, 4): Bld.ACADEMY}
    p1 = {loc(2, 2): Bld.PORT, loc(0, 1): Bld.ACADEMY, loc(1, 4): Bld.ACADEMY, loc(2, 0): Bld.ACADEMY}
    p1 |= {loc(3, 2): Bld.SHIPYARD}
    for seat, where in ((P0, p0), (P1, p1)):
        for i, t in where.items():
            place(d, seat, t, i)
    attach_dock(d, fish_a, loc(0, 2))  # marks Kelpwood 2 (academy) and 4 (shipyard)
    attach_dock(d, fish_p, loc(1, 2))  # marks Rustholm 1 (port) and 5 (port)
    attach_dock(d, kelp_s, loc(3, 0))  # off the tile on the left; marks Lanternreef 3 (shipyard)
    attach_dock(d, art_a, loc(2, 2))  # P1's dock: marks Brinemarket 1 (academy) and 5 (academy)
    put_ship(d, P0, loc(3, 5))  # ships are not scored
    set_res(d, P0, fish=5, artifact=2, kelp=4)
    set_res(d, P1, artifact=1, metal=3)
    give_spec(d, P0, "Patron")
    give_spec(d, P0, "Scout", spent=True)
    give_spec(d, P1, "Trawler")
    give_spec(d, P1, "Agent")
    set_cleanup(d, P0, 2)
    set_cleanup(d, P1, 5)
    s.validate()
    score_now(s)

    # 1. dock resources: P0's two fish docks share 5 fish (3 + 2), the kelp dock counts 3 of 4 kelp;
    #    P1's artifact dock counts its 1 artifact. Counted resources go back to the supply.
    # 2. dock buildings, for both players: P0 shipyard Kelpwood 4 (2), port Rustholm 1 (3), academy
    #    Brinemarket 5 (3); P1 academy Kelpwood 2 (2), academy Brinemarket 1 (3), shipyard Lanternreef 3 (2);
    #    P1's academy on Rustholm 5 is not a port: nothing.
    # 3. locations: the values of each player's locations.
    # 4. face-up specialists: Patron 3 (the spent Scout scores nothing); Trawler 1 + Agent 2.
    # 5. cleanup tokens.
    p0_locations = sum(LOCATION_COST[i] for i in p0)
    p1_locations = sum(LOCATION_COST[i] for i in p1)
    assert (p0_locations, p1_locations) == (4 + 3 + 2 + 2 + 4 + 5, 3 + 3 + 5 + 2 + 4)
    vp = {x.name: x.vp for x in SPECIALISTS}
    assert (vp["Patron"], vp["Trawler"], vp["Agent"]) == (3, 1, 2)
    assert d.sheet == [5 + 3, 2 + 3 + 3, 20, 3, 2, 41, 1, 2 + 3 + 2, 17, 3, 5, 33]
    assert s.scores() == [41.0, 33.0] and s.ranks() == [0, 1]
    assert res(d, P0) == [0, 2, 1, 0] and res(d, P1) == [0, 0, 0, 3]
    assert d.supply == [10, 8, 9, 7]
    # scored docks and buildings leave the game
    assert d.dock_at == [NO] * NUM_LOCS and d.loc_owner == [NO] * NUM_LOCS and d.loc_bld == [NO] * NUM_LOCS
    s.validate()


def test_dock_resources_are_capped_at_3_per_dock_and_the_rest_stays():
    s = fresh(P0)
    d = s.d
    place(d, P1, Bld.PORT, loc(0, 0))
    attach_dock(d, dock_id(Res.METAL, (Bld.SHIPYARD, None, None, Bld.SHIPYARD), 3), loc(0, 0))
    set_res(d, P1, metal=7)
    score_now(s)
    assert d.sheet[6:] == [3, 0, LOCATION_COST[loc(0, 0)], 0, 0, 3 + LOCATION_COST[loc(0, 0)]]
    assert res(d, P1) == [0, 0, 0, 4] and d.supply[Res.METAL] == 6
    s.validate()


def test_the_score_sheet_text_shows_the_cleanup_shortfall():
    """Issue 7 item 12. Seed: the missing cleanup tokens are written on the score pad."""
    s = fresh(P0)
    d = s.d
    set_cleanup(d, P0, 3)
    d.shortfall[:] = [2, 0]
    score_now(s)
    lines = s.score_sheet().splitlines()
    assert [line.split() for line in lines if line.startswith("cleanup shortfall")] == [
        ["cleanup", "shortfall", "2", "0"]
    ]
    assert lines[-1].split() == ["total", "3", "0"]  # the shortfall is recorded, never subtracted


def test_shortfall_is_only_recorded_and_does_not_change_the_cleanup_score():
    s = fresh(P0)
    d = s.d
    set_cleanup(d, P0, 3)
    d.shortfall[P0] = 2
    score_now(s)
    assert d.sheet[:6] == [0, 0, 0, 0, 3, 3] and d.shortfall == [2, 0]
    s.validate()


# --- tiebreaks ----------------------------------------------------------------------------------------
def test_tie_on_points_goes_to_more_buildings_left_on_the_board_before_cleanup():
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.PORT, loc(0, 5))  # 6 points, 11 buildings left, no cleanup
    place(d, P1, Bld.PORT, loc(0, 0))
    place(d, P1, Bld.PORT, loc(1, 0))  # 2 + 2 points, 10 left
    set_cleanup(d, P1, 2)  # + 2 points
    assert LOCATION_COST[loc(0, 5)] == 6 and LOCATION_COST[loc(0, 0)] == LOCATION_COST[loc(1, 0)] == 2
    score_now(s)
    assert s.scores() == [6.0, 6.0]
    assert s.ranks() == [0, 1]
    s.validate()


def test_tie_on_points_and_buildings_goes_to_more_cleanup_tokens():
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.PORT, loc(0, 2))  # 4 points
    place(d, P1, Bld.PORT, loc(0, 0))  # 2 points + 2 cleanup
    set_cleanup(d, P1, 2)
    score_now(s)
    assert s.scores() == [4.0, 4.0]
    assert s.ranks() == [1, 0]
    s.validate()


def test_full_tie_is_a_shared_win():
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.PORT, loc(0, 2))
    place(d, P1, Bld.ACADEMY, loc(0, 3))
    set_cleanup(d, P0, 1)
    set_cleanup(d, P1, 1)
    score_now(s)
    assert s.scores() == [5.0, 5.0]
    assert s.ranks() == [0, 0]
    s.validate()
