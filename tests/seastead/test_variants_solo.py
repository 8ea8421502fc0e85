"""Solo mode "The Rebel Seastead" (seed "Solo Mod"), played as scenarios.

Seed: setup removals (Depths cards, decrees, Founder/Trawler/Investor/Agent, the orange ships), A sides only,
one extra starting resource; the Boss takes no turns and gets no row or column bonuses; your dives place the
Boss's resources on the cheapest empty location of the flotilla matching its demand token; a location's second
delivery returns its resources and puts a Boss building there; the Boss scores 20 + 3 per building; you win by
scoring more.
"""

from __future__ import annotations

import numpy as np
import pytest
from seastead_scenario import (
    DEMAND,
    P0,
    card,
    fresh,
    la,
    loc,
    on_top,
    pending,
    place,
    res,
    score_now,
    set_res,
    start,
)

from meeplezoo.envs import seastead_v0
from meeplezoo.envs.seastead import SeasteadGame
from meeplezoo.envs.seastead.actions import BUILD0, DIVE, HALF0, PASS, RES0, SLOT0
from meeplezoo.envs.seastead.content import DIVE_CARDS, LOCATION_COST, SPEC_BY_NAME, Bld, Deck, Res
from meeplezoo.envs.seastead.state import BOSS, BOSS_BUILDING, NO
from meeplezoo.envs.seastead.steps import Step

KELP2 = card({"kelp": 2}, {"fish": 1, "metal": 1})


def solo():
    return fresh(P0, num_players=1)


def dive(s, card_id: int, half: int = 0) -> None:
    on_top(s.d, card_id)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0 + half)
    while s.pending_step() in (Step.DIVE_WILD, Step.AFTER):
        s.apply(PASS if PASS in s.legal_actions() else s.legal_actions()[0])


def boss_goods(d, location: int) -> list[int]:
    return d.boss_res[location * 4 : location * 4 + 4]


@pytest.mark.parametrize("seed", range(4))
def test_solo_setup_removes_depths_and_four_specialists_and_gives_an_extra_resource_of_choice(seed):
    s = SeasteadGame(num_players=1).new_state(seed)
    d = s.d
    assert SeasteadGame(num_players=1).num_players == 1
    assert all(DIVE_CARDS[c].deck != Deck.DEPTHS for c in d.dive_deck + d.dive_discard) and len(d.dive_deck) == 15
    specs = d.spec_deck + d.spec_display
    assert len(specs) == 12 and not {SPEC_BY_NAME[n] for n in ("Founder", "Trawler", "Investor", "Agent")} & set(specs)
    assert d.decree == NO and d.sides == [0, 0, 0, 0] and d.res[4:] == [0, 0, 0, 0]
    assert pending(s) == (Step.SOLO_EXTRA, P0) and s.legal_actions() == [RES0 + k for k in Res]
    s.apply(RES0 + Res.KELP)
    assert res(d, P0) == [1, 1, 2, 1] and pending(s) == (Step.MAIN, P0)
    s.validate()


def test_the_boss_never_decides_and_you_play_turn_after_turn():
    s = solo()
    d = s.d
    for _ in range(3):
        dive(s, KELP2)
        assert pending(s) == (Step.MAIN, P0)
    assert d.round_no == 3 and d.active == P0


def test_the_other_half_goes_to_the_cheapest_empty_location_of_the_flotilla_demanding_each_kind():
    s = solo()
    d = s.d
    dive(s, KELP2, half=0)  # you: 2 kelp; the Boss: 1 fish (Kelpwood) + 1 metal (Lanternreef)
    assert res(d, P0) == [0, 0, 2, 0]
    assert DEMAND[0] == Res.FISH and DEMAND[3] == Res.METAL
    assert boss_goods(d, loc(0, 0)) == [1, 0, 0, 0] and boss_goods(d, loc(3, 0)) == [0, 0, 0, 1]
    assert d.boss_visits[loc(0, 0)] == d.boss_visits[loc(3, 0)] == 1
    assert d.supply == [9, 10, 8, 9]
    s.validate()


def test_the_second_delivery_returns_the_resources_and_puts_a_boss_building():
    s = solo()
    d = s.d
    dive(s, KELP2)
    dive(s, card({"fish": 3}, {"metal": 1, "wild": 1}), half=0)
    # the Boss's half: 1 metal + 1 wild; the wild is the kind the supply holds most of (artifact, 10)
    assert d.loc_bld[loc(3, 0)] == BOSS_BUILDING and d.loc_owner[loc(3, 0)] == BOSS
    assert boss_goods(d, loc(3, 0)) == [0, 0, 0, 0] and d.boss_visits[loc(3, 0)] == 0
    assert boss_goods(d, loc(1, 0)) == [0, 1, 0, 0]  # Rustholm demands artifact
    assert d.supply == [6, 9, 8, 10] and res(d, P0) == [3, 0, 2, 0]
    s.validate()


def test_the_log_names_the_bosss_deliveries_and_buildings_after_each_dive():
    s = solo()
    assert s.automa_turns(None) == []  # the Boss has not acted before the first dive
    before = s.clone()
    dive(s, KELP2)
    assert s.automa_turns(before) == [
        "Boss: delivers 1 fish to flotilla 1 location 1",
        "Boss: delivers 1 metal to flotilla 4 location 1",
    ]
    before = s.clone()
    dive(s, card({"fish": 3}, {"metal": 1, "wild": 1}), half=0)
    assert s.automa_turns(before) == [
        "Boss: delivers 1 artifact to flotilla 2 location 1",
        "Boss: a second delivery to flotilla 4 location 1 puts a Boss building there",
    ]
    two = fresh(P0)  # two players: no Boss
    assert two.automa_turns(two.clone()) == []


def test_ties_for_the_cheapest_location_go_to_the_leftmost_and_ships_block_a_location():
    s = solo()
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(2, 5))
    d.ship[loc(0, 0)] = P0
    dive(s, KELP2)
    assert boss_goods(d, loc(0, 0)) == [0, 0, 0, 0] and boss_goods(d, loc(0, 1)) == [1, 0, 0, 0]


def test_building_on_a_location_with_boss_goods_sends_them_back_to_the_supply():
    s = solo()
    d = s.d
    dive(s, KELP2)
    set_res(d, P0, fish=LOCATION_COST[loc(0, 0)])
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(loc(0, 0)))
    assert boss_goods(d, loc(0, 0)) == [0, 0, 0, 0] and d.boss_visits[loc(0, 0)] == 0
    s.apply(SLOT0)
    s.validate()


def test_tribute_goes_to_the_supply_and_the_opponents_free_resource_is_skipped():
    s = solo()
    d = s.d
    set_res(d, P0, fish=LOCATION_COST[loc(0, 0)] + 1)  # Kelpwood 1: tribute
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    s.apply(la(loc(0, 0)))
    s.apply(SLOT0)
    assert pending(s) == (Step.GIVE_KIND, P0)
    s.apply(RES0 + Res.FISH)
    assert res(d, P0) == [0, 0, 0, 0] and d.res[4:] == [0, 0, 0, 0] and d.supply[Res.FISH] == 10
    s2 = solo()
    set_res(s2.d, P0, kelp=2)
    start(s2)
    s2.apply(BUILD0 + Bld.PORT)
    s2.apply(la(loc(2, 0)))  # Brinemarket 1: the opponent takes a free resource - nobody here
    s2.apply(SLOT0)
    assert pending(s2) == (Step.MAIN, P0) and s2.d.res[4:] == [0, 0, 0, 0]


@pytest.mark.parametrize(("second", "mine", "beat"), [(2, 30, True), (1, 29, False), (0, 28, False)])
def test_the_boss_scores_20_plus_3_per_building_and_you_must_score_more(second, mine, beat):
    s = solo()
    d = s.d
    boss_buildings = 3
    for p in range(boss_buildings):
        d.loc_owner[loc(1, p)], d.loc_bld[loc(1, p)] = BOSS, BOSS_BUILDING
    d.cleanup_supply, d.cleanup[P0] = 0, 20
    place(d, P0, Bld.PORT, loc(0, 5))  # value 6
    place(d, P0, Bld.ACADEMY, loc(0, second))  # value 2 + second
    score_now(s)
    assert s.scores() == [float(mine)] and s.automa_score() == 20 + 3 * boss_buildings
    assert s.ranks() == [0 if beat else 1]
    assert "Boss: 20 + 3 x 3 buildings = 29" in s.score_sheet()


def test_an_end_trigger_gives_one_more_turn():
    s = solo()
    d = s.d
    d.cleanup_supply = 1
    d.cleanup[P0] = 19
    set_res(d, P0, fish=4)  # Kelpwood 3: 1 cleanup token
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(loc(0, 2)))
    s.apply(SLOT0)
    s.apply(58)  # USE: the last cleanup token
    assert d.end_round == 1 and d.round_no == 1 and not s.is_terminal()  # a round is one turn
    dive(s, KELP2)
    assert s.is_terminal()


def test_the_solo_env_is_a_one_agent_aec_env_and_the_boss_never_acts():
    env = seastead_v0.env(num_players=1)
    env.reset(seed=0)
    assert env.possible_agents == ["player_0"]
    rng = np.random.default_rng(0)
    while env.agents:
        _, reward, terminated, truncated, _ = env.last()
        assert env.agent_selection == "player_0"
        if terminated or truncated:
            assert reward in (1.0, -1.0)
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe("player_0")["action_mask"]))))
