"""B sides and decree cards (seed "Varyantlar", "Ferman Kartları"): setup, config, the decree location effect,
and one scenario per decree showing the rule it changes (against the same position under another decree).

Board used (B sides, :data:`seastead_scenario.DEMAND`: flotilla f demands resource f; values in brackets):
Kelpwood Spires  [2 discard, 3 decree, 3 gain kelp, 4 convert, 5 cleanup 2, 6 gain_any 2]
Rustholm Foundry [2 opponent_gain, 3 move_ship, 4 decree, 4 gain metal 2, 5 refresh, 6 cleanup 2]
Brinemarket Exch.[2 tribute, 3 convert, 3 gain_any 1, 4 decree, 5 swap_demand, 6 gain_any 3]
Lanternreef B.   [2 gain fish, 3 cleanup 1, 4 move_ship, 5 decree, 5 gain_any 2, 6 refresh]
"""

from __future__ import annotations

import numpy as np
import pytest
from seastead_scenario import (
    P0,
    P1,
    attach_dock,
    card,
    fill_board,
    fresh,
    give_spec,
    la,
    loc,
    on_top,
    pending,
    place,
    put_ship,
    res,
    score_now,
    set_res,
    start,
)

from meeplezoo.envs.core import ConfigError
from meeplezoo.envs.seastead import SeasteadGame
from meeplezoo.envs.seastead.actions import BUILD0, DIVE, HALF0, LOC0, PASS, RES0, SLOT0, USE
from meeplezoo.envs.seastead.content import (
    DECREE_BY_NAME,
    DECREES,
    DOCKS,
    LOCATIONS_B,
    NUM_LOCS,
    Bld,
    Res,
)
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step
from meeplezoo.envs.seastead.tokens import empty_locations, loc_cost

FISH2 = card({"fish": 2}, {"artifact": 1, "kelp": 1})
NEUTRAL = "patronage"  # changes only final scoring: the "without" game of each build/dive scenario
DISCARD_SPOT = loc(0, 0)  # value 2
DECREE_SPOT = loc(0, 1)  # value 3, Kelpwood Spires: fish
GAIN_KELP = loc(0, 2)  # value 3
CLEANUP2 = loc(0, 4)  # value 5
CLEANUP1 = loc(3, 1)  # value 3, Lanternreef Beacon: metal


def b_game(decree: str, active: int = P0):
    return fresh(active, sides="BBBB", decree=decree)


def build_at(s, btype: int, where: int, pay: int, kind: Res = Res.FISH) -> None:
    """``s``'s active player holds exactly ``pay`` of ``kind`` and starts building ``btype`` at ``where``."""
    set_res(s.d, s.d.active, **{kind.name.lower(): pay})
    start(s)
    s.apply(BUILD0 + btype)
    s.apply(la(where))


# --- setup, config, the decree deck ---------------------------------------------------------------------
def test_sixteen_decrees_in_data_each_naming_the_rule_it_changes():
    assert len(DECREES) == 16 and len({x.title for x in DECREES}) == 16
    assert {x.rule for x in DECREES} <= {"dive", "build", "ships", "locations", "buildings", "scoring", "bonuses"}
    assert all(x.text for x in DECREES)
    kinds = [x.effect.kind for x in LOCATIONS_B]
    assert kinds.count("decree") == 4  # one location per B side brings a new decree


@pytest.mark.parametrize("seed", range(6))
def test_with_b_sides_one_decree_is_in_force_from_the_start_and_the_rest_form_the_deck(seed):
    d = SeasteadGame(sides="BBBB").new_state(seed).d
    assert d.decree != NO and len(d.decree_deck) == 15 and sorted([d.decree, *d.decree_deck]) == list(range(16))
    chosen = SeasteadGame(sides="BABA", decree="guild_tax").new_state(seed).d
    assert chosen.decree == DECREE_BY_NAME["guild_tax"] and DECREE_BY_NAME["guild_tax"] not in chosen.decree_deck
    base = SeasteadGame().new_state(seed).d
    assert base.decree == NO and base.decree_deck == [] and base.sides == [0, 0, 0, 0]


def test_random_starting_decrees_differ_between_seeds():
    assert len({SeasteadGame(sides="BBBB").new_state(seed).d.decree for seed in range(20)}) > 4


def test_mixed_sides_use_each_tiles_own_locations():
    d = SeasteadGame(sides="BABA").new_state(0).d
    assert d.sides == [1, 0, 1, 0]
    assert [loc_cost(d, loc(0, p)) for p in range(6)] == [2, 3, 3, 4, 5, 6]
    s = fresh(P0, sides="BABA")
    assert "Kelpwood Spires (B side)" in s.render() and "Flotilla 2 Rustholm: demand" in s.render()


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"sides": "ABAA"}, "at least two B sides"),
        ({"sides": "BAAA"}, "at least two B sides"),
        ({"sides": "ABC"}, "4 letters A or B"),
        ({"sides": "BBBB", "decree": "no_such"}, "decree must be 'random' or one of"),
        ({"decree": "guild_tax"}, "needs B sides"),
        ({"num_players": 1, "sides": "BBBB"}, "solo mode uses only A sides"),
        ({"num_players": 3}, "num_players must be 2 or 1"),
    ],
)
def test_bad_variant_configs_are_one_line_config_errors(config, message):
    with pytest.raises(ConfigError, match=message) as info:
        SeasteadGame(**config)
    assert "\n" not in str(info.value)


def test_a_decree_location_draws_two_one_into_force_the_other_to_the_bottom():
    """Seed: "desteden 2 ferman kartı çekilir, biri oyuna sokulup önceki fermanın yerini alır, diğeri destenin
    altına geri konur. Aynı anda yalnızca 1 ferman kartı geçerlidir."""
    s = b_game(NEUTRAL)
    d = s.d
    old = d.decree
    top, second = d.decree_deck[-1], d.decree_deck[-2]
    build_at(s, Bld.PORT, DECREE_SPOT, 3)
    s.apply(SLOT0)  # dock
    assert pending(s) == (Step.EFFECT_USE, P0)
    s.apply(USE)
    assert pending(s) == (Step.DECREE_CHOICE, P0) and d.decree_drawn == [top, second]
    assert s.legal_actions() == [SLOT0, SLOT0 + 1]
    assert "put " in s.describe_action(SLOT0 + 1)
    s.apply(SLOT0 + 1)
    assert d.decree == second and d.decree_out == [old] and d.decree_deck[0] == top and d.decree_known == 1
    assert len(d.decree_deck) == 14 and d.decree_drawn == []
    s.validate()
    # the decree is public, and determinize keeps the card everybody saw go to the bottom
    for k in range(20):
        det = s.determinize(P1, np.random.default_rng(k))
        assert det.d.decree_deck[0] == top and sorted(det.d.decree_deck) == sorted(d.decree_deck)
        assert np.array_equal(det.observe(P1), s.observe(P1))
    assert len({tuple(s.determinize(P1, np.random.default_rng(k)).d.decree_deck) for k in range(20)}) > 1


def test_the_decree_location_effect_is_optional():
    s = b_game(NEUTRAL)
    d = s.d
    old, deck = d.decree, list(d.decree_deck)
    build_at(s, Bld.PORT, DECREE_SPOT, 3)
    s.apply(SLOT0)
    s.apply(PASS)
    assert d.decree == old and d.decree_deck == deck and pending(s) == (Step.MAIN, P1)


# --- one scenario per decree ----------------------------------------------------------------------------
@pytest.mark.parametrize(("decree", "mine", "theirs"), [("tide_of_plenty", 1, 0), ("fair_shares", 0, 1)])
def test_dive_decrees_add_a_wild_to_one_half(decree, mine, theirs):
    for name, extra_mine, extra_theirs in ((decree, mine, theirs), (NEUTRAL, 0, 0)):
        s = b_game(name)
        d = s.d
        on_top(d, FISH2)
        start(s)
        s.apply(DIVE)
        s.apply(HALF0)
        wilds = 0
        while s.pending_step() == Step.DIVE_WILD:
            s.apply(RES0 + Res.METAL)
            wilds += 1
        assert wilds == extra_mine + extra_theirs
        assert res(d, P0) == [2, 0, 0, extra_mine] and res(d, P1) == [0, 1, 1, extra_theirs]


def test_guild_tax_every_build_costs_one_more():
    s = b_game("guild_tax")
    set_res(s.d, P0, fish=3)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    assert la(GAIN_KELP) not in s.legal_actions() and la(DISCARD_SPOT) in s.legal_actions()
    s = b_game("guild_tax")
    build_at(s, Bld.PORT, GAIN_KELP, 4)
    assert res(s.d, P0) == [0, 0, 0, 0]
    s = b_game(NEUTRAL)
    build_at(s, Bld.PORT, GAIN_KELP, 4)
    assert res(s.d, P0) == [1, 0, 0, 0]


@pytest.mark.parametrize(("decree", "left"), [("open_moorings", 2), (NEUTRAL, 1)])
def test_open_moorings_a_ship_gives_a_discount_of_two(decree, left):
    s = b_game(decree)
    place(s.d, P1, Bld.SHIPYARD, loc(2, 5))
    put_ship(s.d, P1, GAIN_KELP)
    build_at(s, Bld.PORT, GAIN_KELP, 3)
    assert res(s.d, P0) == [left, 0, 0, 0]


@pytest.mark.parametrize(("decree", "paid"), [("stone_foundations", 2), (NEUTRAL, 3)])
def test_stone_foundations_values_two_and_three_cost_one_less_and_still_score_their_value(decree, paid):
    s = b_game(decree)
    d = s.d
    build_at(s, Bld.ACADEMY, GAIN_KELP, 3)
    assert res(d, P0) == [3 - paid, 0, 0, 0]
    s2 = b_game(decree)
    build_at(s2, Bld.ACADEMY, loc(0, 3), 4)  # value 4: no change
    assert res(s2.d, P0) == [0, 0, 0, 0]
    score_now(s)
    assert d.sheet[2] == 3


@pytest.mark.parametrize(("decree", "bonuses"), [("harbour_dues", 2), (NEUTRAL, 1)])
def test_harbour_dues_the_ship_owner_takes_two_resources(decree, bonuses):
    s = b_game(decree)
    d = s.d
    place(d, P1, Bld.SHIPYARD, loc(2, 5))
    put_ship(d, P1, loc(0, 3))  # Kelpwood Spires value 4 (convert)
    build_at(s, Bld.ACADEMY, loc(0, 3), 3)
    s.apply(SLOT0)  # specialist (the convert effect is skipped: P0 holds nothing)
    taken = 0
    while pending(s) == (Step.OWNER_BONUS, P1):
        s.apply(RES0 + Res.KELP)
        taken += 1
    assert taken == bonuses and res(d, P1)[Res.KELP] == bonuses
    assert pending(s) == (Step.SHIP_PLACE, P1)


@pytest.mark.parametrize(("decree", "tokens"), [("salvage_rights", 2), (NEUTRAL, 1)])
def test_salvage_rights_a_boxed_ship_gives_two_cleanup_tokens(decree, tokens):
    s = b_game(decree)
    d = s.d
    fill_board(d, keep=DISCARD_SPOT)
    d.built[0:3] = [2, 2, 1]  # P0 builds a third shipyard
    d.columns[P0] = 1
    build_at(s, Bld.SHIPYARD, DISCARD_SPOT, 2)
    assert d.ships_boxed[P0] == 1 and d.cleanup[P0] == tokens


@pytest.mark.parametrize(("decree", "tokens"), [("clean_seas", 2), (NEUTRAL, 1)])
def test_clean_seas_a_cleanup_effect_gives_one_more_token(decree, tokens):
    s = b_game(decree)
    build_at(s, Bld.ACADEMY, CLEANUP1, 3, Res.METAL)
    s.apply(SLOT0)
    s.apply(USE)
    assert s.d.cleanup[P0] == tokens


@pytest.mark.parametrize(("decree", "kelp"), [("bountiful_shores", 2), (NEUTRAL, 1)])
def test_bountiful_shores_a_printed_resource_effect_gives_one_more(decree, kelp):
    s = b_game(decree)
    build_at(s, Bld.ACADEMY, GAIN_KELP, 3)
    s.apply(SLOT0)
    s.apply(USE)
    assert res(s.d, P0) == [0, 0, kelp, 0]


@pytest.mark.parametrize(("decree", "gives"), [("council_mercy", False), (NEUTRAL, True)])
def test_council_mercy_mandatory_location_effects_are_not_applied(decree, gives):
    s = b_game(decree)
    d = s.d
    build_at(s, Bld.ACADEMY, DISCARD_SPOT, 3)  # pays 2, keeps 1 fish
    s.apply(SLOT0)
    assert (pending(s) == (Step.GIVE_KIND, P0)) == gives
    if gives:
        s.apply(RES0 + Res.FISH)
    assert res(d, P0) == [0 if gives else 1, 0, 0, 0]


@pytest.mark.parametrize(("decree", "tokens"), [("scholars_stipend", 1), (NEUTRAL, 0)])
def test_scholars_stipend_an_academy_also_gives_a_cleanup_token(decree, tokens):
    s = b_game(decree)
    build_at(s, Bld.ACADEMY, DISCARD_SPOT, 2)
    assert s.d.cleanup[P0] == tokens
    s2 = b_game(decree)
    build_at(s2, Bld.PORT, DISCARD_SPOT, 2)
    assert s2.d.cleanup[P0] == 0  # academies only


@pytest.mark.parametrize(("decree", "extra"), [("dockmasters_guild", 1), (NEUTRAL, 0)])
def test_dockmasters_guild_a_port_gives_one_resource_of_its_docks_kind(decree, extra):
    s = b_game(decree)
    d = s.d
    build_at(s, Bld.PORT, GAIN_KELP, 3)
    dock = d.dock_display[0]
    s.apply(SLOT0)
    assert res(d, P0)[DOCKS[dock].resource] == extra


def test_shipwrights_charter_a_new_ship_may_go_to_any_empty_location():
    s = b_game("shipwrights_charter")
    build_at(s, Bld.SHIPYARD, DISCARD_SPOT, 2)
    assert pending(s) == (Step.SHIP_PLACE, P0)
    assert s.legal_actions() == [LOC0 + i for i in empty_locations(s.d)]
    assert len(s.legal_actions()) == NUM_LOCS - 1
    s2 = b_game(NEUTRAL)
    build_at(s2, Bld.SHIPYARD, DISCARD_SPOT, 2)
    assert len(s2.legal_actions()) < 8  # the cheapest of each flotilla only
    # a displaced ship still follows normal placement
    s3 = b_game("shipwrights_charter")
    place(s3.d, P1, Bld.SHIPYARD, loc(2, 5))
    put_ship(s3.d, P1, GAIN_KELP)
    build_at(s3, Bld.ACADEMY, GAIN_KELP, 2)
    s3.apply(SLOT0)
    s3.apply(PASS)
    s3.apply(PASS)  # owner's bonus
    assert pending(s3) == (Step.SHIP_PLACE, P1) and len(s3.legal_actions()) < 8


@pytest.mark.parametrize(("decree", "points"), [("deep_dock_charter", 4), (NEUTRAL, 3)])
def test_deep_dock_charter_a_dock_counts_four_resources(decree, points):
    s = b_game(decree)
    d = s.d
    place(d, P0, Bld.PORT, loc(3, 0))
    kelp_dock = next(x.id for x in DOCKS if x.resource == Res.KELP)
    attach_dock(d, kelp_dock, loc(3, 0))
    set_res(d, P0, kelp=5)
    score_now(s)
    assert d.sheet[0] == points


@pytest.mark.parametrize(("decree", "vp"), [("patronage", 3), ("guild_tax", 2)])
def test_patronage_face_up_specialists_score_one_more(decree, vp):
    s = b_game(decree)
    d = s.d
    give_spec(d, P0, "Scout")  # 2 VP
    give_spec(d, P0, "Salvager", spent=True)
    score_now(s)
    assert d.sheet[3] == vp


@pytest.mark.parametrize(("decree", "gift"), [("free_market", True), (NEUTRAL, False)])
def test_free_market_a_column_bonus_also_gives_a_resource(decree, gift):
    s = b_game(decree)
    d = s.d
    place(d, P0, Bld.PORT, loc(3, 0))
    place(d, P0, Bld.ACADEMY, loc(3, 2))
    build_at(s, Bld.SHIPYARD, DISCARD_SPOT, 2)
    s.apply(s.legal_actions()[0])  # the new ship
    assert pending(s) == (Step.DEMAND_A, P0)
    s.apply(PASS)  # no swap
    if gift:
        assert pending(s) == (Step.EFFECT_KIND, P0)
        s.apply(RES0 + Res.ARTIFACT)
    assert res(d, P0) == [0, int(gift), 0, 0] and pending(s) == (Step.MAIN, P1)


def test_a_new_decree_replaces_the_old_rule_for_both_players():
    """Guild Tax in force, then replaced by Clean Seas: P1's build costs the printed value again."""
    s = b_game("guild_tax")
    d = s.d
    clean = DECREE_BY_NAME["clean_seas"]
    d.decree_deck.remove(clean)
    d.decree_deck.append(clean)  # on top
    build_at(s, Bld.PORT, DECREE_SPOT, 4)
    s.apply(SLOT0)
    s.apply(USE)
    s.apply(SLOT0)  # Clean Seas into force
    assert d.decree == clean and d.decree_out == [DECREE_BY_NAME["guild_tax"]]
    build_at(s, Bld.PORT, GAIN_KELP, 3)  # P1's turn now: 3 fish pay the value 3
    assert s.d.active == P1 and res(d, P1) == [0, 0, 0, 0] and d.loc_owner[GAIN_KELP] == P1
