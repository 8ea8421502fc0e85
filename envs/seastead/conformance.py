"""How the conformance suite checks Seastead (:mod:`meeplezoo.envs.core.conformance`): its four configurations,
the rulebook's totals checked after every step, saves that break a rule, a shared win and a reshuffle made near.
"""

from __future__ import annotations

import copy

from ..core import State
from ..core.conformance import ConformanceCase, ConformanceSettings, Record, Sizes, StallCheck
from .content import DIVE_CARDS, DOCKS, SPECIALISTS
from .state import NO

# Rulebook totals: 10 tokens of each resource kind, 20 cleanup tokens, 4 buildings of each type and 4 ships
# per player, 20 dive cards, 12 dock tiles, 16 specialists.
RESOURCES_PER_KIND = 10
CLEANUP_TOKENS = 20
BUILDINGS_PER_TYPE = 4
SHIPS_PER_PLAYER = 4


def invariant(state: State) -> None:
    """Token conservation and board consistency, checked independently of ``SeasteadState.validate``."""
    d = state.d
    for kind in range(4):
        total = d.supply[kind] + d.res[kind] + d.res[4 + kind] + sum(d.boss_res[kind::4])
        assert total == RESOURCES_PER_KIND, f"resource {kind}: supply + players + Boss = {total}"
    if d.solo:  # the Boss never holds resources, specialists or ships, and never decides
        assert d.res[4:] == [0] * 4 and 1 not in d.spec_owner and 1 not in d.ship and d.built[3:] == [0] * 3
        assert all(seat == 0 for _, seat, _, _ in d.stack), "the Boss is asked to decide"
        assert all(v in (0, 1) for v in d.boss_visits)
        for loc in range(24):
            held = sum(d.boss_res[loc * 4 : loc * 4 + 4])
            assert held == 0 or (d.boss_visits[loc] and d.loc_bld[loc] == NO), f"Boss goods on location {loc}"
    if any(d.sides):  # exactly one decree in force; the 16 are each in one place
        assert d.decree != NO
        assert sorted([d.decree, *d.decree_deck, *d.decree_drawn, *d.decree_out]) == list(range(16))
    cleanup = d.cleanup_supply + sum(d.cleanup)
    assert cleanup == CLEANUP_TOKENS, f"cleanup: supply + players = {cleanup}"
    counts = {
        "res": d.res,
        "supply": d.supply,
        "cleanup": d.cleanup,
        "cleanup_supply": [d.cleanup_supply],
        "shortfall": d.shortfall,
        "built": d.built,
        "columns": d.columns,
        "ships_boxed": d.ships_boxed,
        "spec_spent": d.spec_spent,
        "round_no": [d.round_no],
    }
    for name, values in counts.items():
        assert all(v >= 0 for v in values), f"negative {name}: {values}"
    assert all(b <= BUILDINGS_PER_TYPE for b in d.built), f"built {d.built}"
    for seat in (0, 1):
        ships = d.ship.count(seat) + d.ships_boxed[seat]
        assert ships <= SHIPS_PER_PLAYER, f"P{seat} has {ships} ships"
    for loc in range(24):
        assert (d.loc_owner[loc] == NO) == (d.loc_bld[loc] == NO), f"location {loc}: owner without building"
        assert d.loc_owner[loc] in (NO, 0, 1) and d.ship[loc] in (NO, 0, 1), f"location {loc}: bad seat"
    if not d.sheet:  # final scoring clears the board
        for seat in (0, 1):
            for btype in range(3):
                on_board = sum(1 for i in range(24) if d.loc_owner[i] == seat and d.loc_bld[i] == btype)
                assert on_board == d.built[seat * 3 + btype], f"P{seat} type {btype}: board != player board"
        assert all(b == 3 for i, b in enumerate(d.loc_bld) if d.loc_owner[i] == 1 and d.solo), "Boss building type"
        docks = sorted(d.dock_deck + [x for x in d.dock_display + d.dock_at if x != NO])
        assert docks == list(range(len(DOCKS))), "dock tiles are not each in exactly one place"
    dive = sorted(d.dive_deck + d.dive_discard + ([d.revealed] if d.revealed != NO else []))
    depths = [c.id for c in DIVE_CARDS if c.deck == 2]  # the seed's solo setup leaves them in the box
    assert dive == (sorted(set(range(len(DIVE_CARDS))) - set(depths)) if d.solo else list(range(len(DIVE_CARDS))))
    owned = [i for i, owner in enumerate(d.spec_owner) if owner != NO]
    specs = sorted(d.spec_deck + [x for x in d.spec_display if x != NO] + owned)
    boxed = {SPECIALISTS[i].name for i in range(len(SPECIALISTS)) if i not in specs}
    assert boxed == ({"Founder", "Trawler", "Investor", "Agent"} if d.solo else set()), f"specialists out: {boxed}"
    assert all(owner in (NO, 0, 1) for owner in d.spec_owner), "specialist owner"
    assert all(d.spec_owner[i] != NO for i in range(len(SPECIALISTS)) if d.spec_spent[i]), "unowned spent card"


# --- saves that break a rule: each edit changes a record in place ----------------------------------------------
def extra_fish(s: Record) -> None:  # 11 fish in the game
    s["res"][0] += 1


def lost_cleanup(s: Record) -> None:  # 19 cleanup tokens
    s["cleanup_supply"] -= 1


def negative_supply(s: Record) -> None:  # totals kept, but the supply is negative
    s["res"][4 + 1] += s["supply"][1] + 1
    s["supply"][1] = -1


def duplicated_dive_card(s: Record) -> None:
    s["dive_discard"].append(s["dive_discard"][0] if s["dive_discard"] else s["dive_deck"][0])


def missing_specialist(s: Record) -> None:  # one of the 16 specialists vanishes
    if s["spec_deck"]:
        s["spec_deck"].pop()
    else:
        s["spec_owner"] = [NO] * len(s["spec_owner"])


def third_seat(s: Record) -> None:
    s["stack"][-1][1] = 2


def first_player_out_of_range(s: Record) -> None:
    s["first_player"] = 5


def unknown_step(s: Record) -> None:
    s["stack"][-1][0] = 999


def game_over_without_score_sheet(s: Record) -> None:
    s["stack"] = []


def score_sheet_mid_game(s: Record) -> None:
    s["sheet"] = [0] * 12


def short_score_sheet(s: Record) -> None:
    s["sheet"] = [1, 2, 3]


def ship_of_a_third_seat(s: Record) -> None:
    s["ship"][1] = 7


def building_of_a_fourth_type(s: Record) -> None:
    s["loc_bld"][0], s["loc_owner"][0] = 3, 0


def specialist_of_a_third_seat(s: Record) -> None:
    s["spec_owner"][s["spec_deck"][0] if s["spec_deck"] else 0] = 9


def spent_twice(s: Record) -> None:
    s["spec_spent"][0] = 5


def short_spent_list(s: Record) -> None:
    s["spec_spent"].pop()


def long_display(s: Record) -> None:
    s["spec_display"].append(NO)


def short_shortfall(s: Record) -> None:
    s["shortfall"] = [0]


def negative_shortfall(s: Record) -> None:
    s["shortfall"][0] = -3


def negative_boxed_ships(s: Record) -> None:
    s["ships_boxed"][1] = -1


def columns_beyond_the_board(s: Record) -> None:
    s["columns"][0] = 9


def third_turn_in_a_round(s: Record) -> None:
    s["turns_in_round"] = 7


def negative_round(s: Record) -> None:
    s["round_no"] = -5


def end_round_out_of_reach(s: Record) -> None:  # the end round is set to the next round and never moves
    s["end_round"] = s["round_no"] + 2


def unknown_trigger_bits(s: Record) -> None:
    s["triggers"] = 999


def third_half(s: Record) -> None:
    s["mine_half"] = 7


def double_trawler(s: Record) -> None:
    s["trawler"] = 5


def fifth_resource_kind(s: Record) -> None:
    s["prospector"] = 9


def fourth_building_type(s: Record) -> None:
    s["build_type"] = 9


def location_off_the_board(s: Record) -> None:
    s["built_loc"] = 99


#: edits of a saved record that each break one rule: a load must refuse every one
BROKEN_EDITS = (
    extra_fish,
    lost_cleanup,
    negative_supply,
    duplicated_dive_card,
    missing_specialist,
    third_seat,
    first_player_out_of_range,
    unknown_step,
    game_over_without_score_sheet,
    score_sheet_mid_game,
    short_score_sheet,
    ship_of_a_third_seat,
    building_of_a_fourth_type,
    specialist_of_a_third_seat,
    spent_twice,
    short_spent_list,
    long_display,
    short_shortfall,
    negative_shortfall,
    negative_boxed_ships,
    columns_beyond_the_board,
    third_turn_in_a_round,
    negative_round,
    end_round_out_of_reach,
    unknown_trigger_bits,
    third_half,
    double_trawler,
    fifth_resource_kind,
    fourth_building_type,
    location_off_the_board,
)


def shared_win(state: Record) -> Record:
    """Equal totals, equal buildings left and equal cleanup tokens: the seed's "galibiyet paylaşılır"."""
    s = copy.deepcopy(state)
    assert s["sheet"], "not a finished game"
    s["sheet"][6:12] = s["sheet"][0:6]
    s["built"][3:6] = s["built"][0:3]
    tokens = sum(s["cleanup"])
    s["cleanup"] = [tokens // 2, tokens // 2]
    s["cleanup_supply"] += tokens % 2
    return s


def reshuffle_soon(state: State) -> State:
    """A copy whose dive deck is empty (its cards moved onto the discard pile): the next dive reshuffles."""
    s = state.clone()
    s.d.dive_discard += s.d.dive_deck
    s.d.dive_deck = []
    return s


# ~180 decisions and ~0.26 s of CPU per checked and saved game: 40 games (~10 s) cover the end triggers, the
# specialist windows and every location effect many times over; the derived tests (1/4 .. 1/10 of the games,
# heavier per position) cost about as much again: ~20 s of CPU for this case.
SIZES = Sizes(fuzz_games=40)
# The variants share the rules engine with the base game, so half its random games each (20 games at ~0.35 s,
# solo ~0.18 s, still reach every B-side location effect, decree changes and, solo, Boss buildings); with the
# base case Seastead's four cases cost ~60 s of CPU, ~30 s of the suite's time with -n 2.
VARIANT_SIZES = Sizes(fuzz_games=20)

STALLING = StallCheck(passive_words=("pass", "end the turn"))

SETTINGS = ConformanceSettings(
    cases=(
        ConformanceCase(),
        ConformanceCase({"sides": "BBBB"}, VARIANT_SIZES),  # every decree may come into force
        ConformanceCase({"sides": "BABA", "decree": "harbour_dues"}, VARIANT_SIZES),  # the advanced mixed setup
        ConformanceCase({"num_players": 1}, VARIANT_SIZES, shared_win=False),  # The Rebel Seastead: no shared win
    ),
    sizes=SIZES,
    invariant=invariant,
    broken_edits=BROKEN_EDITS,
    shared_win=shared_win,
    random_event_soon=reshuffle_soon,  # random play never empties the 19-card dive deck
    # the decisions that do least: "pass" (an optional effect, bonus or reaction) and "end the turn" (the
    # end-of-turn specialist window); a plain "end" would also match a decree's text
    stalling=STALLING,
    bad_config=(
        ("sides", "ABAA"),  # a mix needs at least two B sides
        ("sides", "AAAAB"),
        ("sides", "abab"),
        ("decree", "no_such_decree"),
        ("decree", None),
        ("num_players", 3),
        ("num_players", True),
    ),
)
