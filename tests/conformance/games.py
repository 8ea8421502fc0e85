"""The games the conformance suite runs on (test-only).

A :class:`GameSpec` says what the suite needs to know about one game (its engine class, its env module
and optional game-specific hooks); a :class:`GameCase` is one configuration of it. Adding a configuration
is one line in :data:`CASES`, e.g. ``GameCase.of(CONCORDIA, num_players=3)``.

Hooks (all optional, all read-only on the state they are given):

``invariant(state)``
    Extra checks after every step of the random playouts, beyond ``State.validate()``; raise
    ``AssertionError`` naming what is broken.
``broken_saves(state_dict)``
    ``(name, edited copy of State.to_dict())`` pairs that each break a rule invariant of the game, so
    loading them must raise ``CorruptStateError``.
``shared_win(state_dict)``
    An edited copy of a *finished* game's ``to_dict()`` where every seat shares the win.
``random_event_soon(state)``
    An edited copy of a position in which a random event is a few decisions away, for games whose random
    play seldom reaches one (Seastead reshuffles its dive deck only when it runs out).

Sizes: every case says how much it plays (``fuzz_games`` and the sampling fields) and why, so that each game's
share of the suite's time stays proportionate (issue 8: well under a minute per game on 2 cores with -n 2).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import meeplezoo
from meeplezoo.envs.board_royale import BoardRoyaleGame
from meeplezoo.envs.board_royale.content import KIND_COUNTS, NUM_KINDS, NUM_RES, RESOURCE_COUNTS
from meeplezoo.envs.board_royale.resources import hand_limit, hand_size, resources_of
from meeplezoo.envs.concordia import ConcordiaGame
from meeplezoo.envs.core import Game, State
from meeplezoo.envs.resafa import ResafaGame
from meeplezoo.envs.seastead import SeasteadGame
from meeplezoo.envs.seastead.content import DIVE_CARDS, DOCKS, SPECIALISTS

NO = -1


@dataclass(frozen=True)
class GameSpec:
    """One game: its engine, its env module and the hooks the generic tests cannot guess."""

    name: str
    game_cls: type[Game]
    #: module under ``meeplezoo.envs``; its registry id is looked up in ``meeplezoo.ENV_IDS``
    env_module: str
    invariant: Callable[[State], None] | None = None
    broken_saves: Callable[[dict[str, Any]], list[tuple[str, dict[str, Any]]]] | None = None
    shared_win: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    #: ``(config key, value)`` pairs the game must reject with ``ConfigError``
    bad_config: tuple[tuple[str, Any], ...] = ()
    #: whether some state is hidden from the players (then ``determinize`` must change something)
    hidden_information: bool = True
    #: whether a higher final score always means a better rank (ties may be broken either way)
    ranks_follow_scores: bool = True
    #: random games played to the end on the engine by the fuzz test; the other tests scale from it
    fuzz_games: int = 60
    #: the fuzz test saves and reloads every ``save_every``-th position (and the last) of its games
    save_every: int = 1
    #: the env-loading test loads every ``load_every``-th position of a game and plays each to the end
    load_every: int = 10
    #: the clone and JSON tests play a copy to the end from every ``to_end_every``-th position (4 steps from
    #: the others): their cost grows with the square of a game's length, so long games sample fewer
    to_end_every: int = 9
    #: the clone and JSON round-trip tests check every ``roundtrip_every``-th position of their game (the fuzz
    #: test still saves and reloads every position)
    roundtrip_every: int = 1
    #: the corrupt-save test breaks the saves of every ``corrupt_every``-th position (~4 broken saves per field)
    corrupt_every: int = 13
    #: the save-mutation fuzz (test_save_mutations.py) edits every field of the saves of this many positions of one
    #: random game, spread from the start to the last decision, and of the finished game; 0 leaves the case out
    mutation_positions: int = 3
    #: whether the game draws random events after the setup (reshuffles, random steals); if so the fresh
    #: chance test compares ``chance_copies`` determinized copies at ``chance_positions`` positions taken
    #: every ``chance_every`` decisions of random games
    random_events: bool = True
    random_event_soon: Callable[[State], State] | None = None
    chance_positions: int = 20
    chance_copies: int = 10
    chance_every: int = 7


@dataclass(frozen=True)
class GameCase:
    """One configuration of a game: ``GameCase.of(spec, **config)``."""

    spec: GameSpec
    config: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, spec: GameSpec, **config: Any) -> GameCase:
        return cls(spec, dict(config))

    @property
    def id(self) -> str:
        return "-".join([self.spec.name, *(f"{k}={v}" for k, v in self.config.items())])

    def game(self) -> Game:
        return self.spec.game_cls(**self.config)


# --- Seastead -------------------------------------------------------------------------------------------
# Rulebook totals: 10 tokens of each resource kind, 20 cleanup tokens, 4 buildings of each type and 4 ships
# per player, 20 dive cards, 12 dock tiles, 16 specialists.
SEASTEAD_RESOURCES_PER_KIND = 10
SEASTEAD_CLEANUP_TOKENS = 20
SEASTEAD_BUILDINGS_PER_TYPE = 4
SEASTEAD_SHIPS_PER_PLAYER = 4


def seastead_invariant(state: State) -> None:
    """Token conservation and board consistency, checked independently of ``SeasteadState.validate``."""
    d = state.d
    for kind in range(4):
        total = d.supply[kind] + d.res[kind] + d.res[4 + kind] + sum(d.boss_res[kind::4])
        assert total == SEASTEAD_RESOURCES_PER_KIND, f"resource {kind}: supply + players + Boss = {total}"
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
    assert cleanup == SEASTEAD_CLEANUP_TOKENS, f"cleanup: supply + players = {cleanup}"
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
    assert all(b <= SEASTEAD_BUILDINGS_PER_TYPE for b in d.built), f"built {d.built}"
    for seat in (0, 1):
        ships = d.ship.count(seat) + d.ships_boxed[seat]
        assert ships <= SEASTEAD_SHIPS_PER_PLAYER, f"P{seat} has {ships} ships"
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


def seastead_broken_saves(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    def edit(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        new = copy.deepcopy(state)
        change(new)
        return new

    def extra_fish(s):  # 11 fish in the game
        s["res"][0] += 1

    def lost_cleanup(s):  # 19 cleanup tokens
        s["cleanup_supply"] -= 1

    def negative_supply(s):  # totals kept, but the supply is negative
        s["res"][4 + 1] += s["supply"][1] + 1
        s["supply"][1] = -1

    def duplicated_dive_card(s):
        s["dive_discard"].append(s["dive_discard"][0] if s["dive_discard"] else s["dive_deck"][0])

    def missing_specialist(s):  # one of the 16 specialists vanishes
        if s["spec_deck"]:
            s["spec_deck"].pop()
        else:
            s["spec_owner"] = [NO] * len(s["spec_owner"])

    def third_seat(s):
        s["stack"][-1][1] = 2

    def first_player_out_of_range(s):
        s["first_player"] = 5

    def unknown_step(s):
        s["stack"][-1][0] = 999

    def game_over_without_score_sheet(s):
        s["stack"] = []

    def score_sheet_mid_game(s):
        s["sheet"] = [0] * 12

    def short_score_sheet(s):
        s["sheet"] = [1, 2, 3]

    def ship_of_a_third_seat(s):
        s["ship"][1] = 7

    def building_of_a_fourth_type(s):
        s["loc_bld"][0], s["loc_owner"][0] = 3, 0

    def specialist_of_a_third_seat(s):
        s["spec_owner"][s["spec_deck"][0] if s["spec_deck"] else 0] = 9

    def spent_twice(s):
        s["spec_spent"][0] = 5

    def short_spent_list(s):
        s["spec_spent"].pop()

    def long_display(s):
        s["spec_display"].append(NO)

    def short_shortfall(s):
        s["shortfall"] = [0]

    def negative_shortfall(s):
        s["shortfall"][0] = -3

    def negative_boxed_ships(s):
        s["ships_boxed"][1] = -1

    def columns_beyond_the_board(s):
        s["columns"][0] = 9

    def third_turn_in_a_round(s):
        s["turns_in_round"] = 7

    def negative_round(s):
        s["round_no"] = -5

    def end_round_out_of_reach(s):  # the end round is set to the next round and never moves
        s["end_round"] = s["round_no"] + 2

    def unknown_trigger_bits(s):
        s["triggers"] = 999

    def third_half(s):
        s["mine_half"] = 7

    def double_trawler(s):
        s["trawler"] = 5

    def fifth_resource_kind(s):
        s["prospector"] = 9

    def fourth_building_type(s):
        s["build_type"] = 9

    def location_off_the_board(s):
        s["built_loc"] = 99

    return [
        (f.__name__, edit(f))
        for f in (
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
    ]


def seastead_shared_win(state: dict[str, Any]) -> dict[str, Any]:
    """Equal totals, equal buildings left and equal cleanup tokens: the seed's "galibiyet paylaşılır"."""
    s = copy.deepcopy(state)
    assert s["sheet"], "not a finished game"
    s["sheet"][6:12] = s["sheet"][0:6]
    s["built"][3:6] = s["built"][0:3]
    tokens = sum(s["cleanup"])
    s["cleanup"] = [tokens // 2, tokens // 2]
    s["cleanup_supply"] += tokens % 2
    return s


def seastead_reshuffle_soon(state: State) -> State:
    """A copy whose dive deck is empty (its cards moved onto the discard pile): the next dive reshuffles."""
    s = state.clone()
    s.d.dive_discard += s.d.dive_deck
    s.d.dive_deck = []
    return s


SEASTEAD = GameSpec(
    name="seastead",
    game_cls=SeasteadGame,
    env_module="seastead_v0",
    invariant=seastead_invariant,
    broken_saves=seastead_broken_saves,
    shared_win=seastead_shared_win,
    bad_config=(
        ("sides", "ABAA"),  # a mix needs at least two B sides
        ("sides", "AAAAB"),
        ("sides", "abab"),
        ("decree", "no_such_decree"),
        ("decree", None),
        ("num_players", 3),
        ("num_players", True),
    ),
    # ~180 decisions and ~0.26 s of CPU per checked and saved game: 40 games (~10 s) cover the end triggers,
    # the specialist windows and every location effect many times over; the derived tests (1/4 .. 1/10 of
    # the games, heavier per position) cost about as much again: ~20 s of CPU for this case
    fuzz_games=40,
    random_event_soon=seastead_reshuffle_soon,  # random play never empties the 19-card dive deck
)

# --- Board Royale --------------------------------------------------------------------------------------
# Seed totals: 30 Food, 30 Wood, 30 Stone, 30 Iron, 20 Gold (140 resource cards); hand limit 20 (24 with a
# Backpack); a player without resource cards is out and never acts again.
BOARD_ROYALE_RESOURCE_CARDS = 140


def board_royale_invariant(state: State) -> None:
    """The 140 resource cards (and the hidden items) are each in one place; hands respect their limits;
    eliminated seats hold nothing and never decide; living seats hold a resource."""
    d = state.d
    n = d.n
    total = 0
    for kind in range(NUM_KINDS):
        count = d.res_deck.count(kind) + d.res_discard[kind] + sum(d.hand[s * NUM_KINDS + kind] for s in range(n))
        assert count == KIND_COUNTS[kind], f"kind {kind}: {count} cards"
        if kind < NUM_RES:
            assert count == RESOURCE_COUNTS[kind]
            total += count
    assert total == BOARD_ROYALE_RESOURCE_CARDS, f"{total} resource cards"
    for s in range(n):
        assert hand_size(d, s) <= hand_limit(d, s) or not d.alive[s], f"P{s} above the hand limit"
        if d.alive[s]:
            assert resources_of(d, s) >= 1 or d.winner >= 0, f"P{s} alive without resources"
        else:
            assert hand_size(d, s) == 0 and s not in d.item_owner, f"P{s} is out but holds cards or items"
    if d.stack:
        assert d.alive[state.current_player()], "an eliminated seat is asked to decide"


def board_royale_broken_saves(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    def edit(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        new = copy.deepcopy(state)
        change(new)
        return new

    def extra_gold(s):  # 21 gold cards
        s["res_discard"][4] += 1

    def lost_resource_card(s):
        s["res_deck"].pop()

    def duplicated_item(s):
        s["item_discard"].append(s["field"][0])

    def owner_of_a_seventh_seat(s):
        s["item_owner"][s["field"][0]] = 7
        s["field"][0] = NO

    def negative_hand(s):
        s["hand"][0] -= 1
        s["res_discard"][0] += 1
        s["hand"][1] = -1

    def knowledge_above_the_hand(s):
        s["known"][NUM_KINDS] = 99

    def alive_flag_two(s):
        s["alive"][0] = 2

    def winner_mid_game(s):
        s["winner"] = 0

    def unknown_step(s):
        s["stack"][-1][0] = 999

    def short_field(s):
        s["item_deck"].append(s["field"].pop())

    return [
        (f.__name__, edit(f))
        for f in (
            extra_gold,
            lost_resource_card,
            duplicated_item,
            owner_of_a_seventh_seat,
            negative_hand,
            knowledge_above_the_hand,
            alive_flag_two,
            winner_mid_game,
            unknown_step,
            short_field,
        )
    ]


BOARD_ROYALE = GameSpec(
    name="board_royale",
    game_cls=BoardRoyaleGame,
    env_module="board_royale_v0",
    invariant=board_royale_invariant,
    broken_saves=board_royale_broken_saves,
    bad_config=(("num_players", 1), ("num_players", 7), ("num_players", "4"), ("elimination_only", 1)),
    # 200-700 decisions and 0.4-1.8 s of CPU per checked game (2-6 players): 6 games per case, each third
    # position saved and reloaded (the rest are validated), keep the six cases near 40 s of CPU (they took
    # ~110 s with 12 games, issue 8); six player counts together still play 36 games a run
    fuzz_games=6,
    save_every=3,
    load_every=40,  # 200-700 decisions: ~5-18 loads a game, each played to the end twice
    to_end_every=60,  # ~4-12 continuations to the end a game (at 9 these two tests took ~80 s of CPU)
)

# --- Concordia ----------------------------------------------------------------------------------------
# Rulebook limits: a storehouse of 12 slots, 15 houses and 6 colonists per player, one colonist per route.
CONCORDIA_STOREHOUSE = 12
CONCORDIA_HOUSES = 15


def concordia_invariant(state: State) -> None:
    d = state.d
    nc = len(d.city_good)
    assert all(x >= 0 for x in d.money), f"negative money {d.money}"
    assert all(x >= 0 for x in d.goods), f"negative goods {d.goods}"
    discarding = {t[1] for t in d.stack if t[0] == 12}  # Step.OVERFLOW: a seat discarding down to 12
    for seat in range(d.n):
        used = sum(d.goods[seat * 5 : seat * 5 + 5]) + d.col[seat * 6 : seat * 6 + 6].count(NO)
        assert used <= CONCORDIA_STOREHOUSE or seat in discarding, f"P{seat} storehouse holds {used}"
        assert len(d.houses[seat]) <= CONCORDIA_HOUSES, f"P{seat} has {len(d.houses[seat])} houses"
        assert len(set(d.houses[seat])) == len(d.houses[seat]), f"P{seat} has two houses in a city"
    on_routes = [p for p in d.col if p != NO and p >= nc]
    assert len(on_routes) == len(set(on_routes)), "two colonists on one route"


def concordia_broken_saves(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    def edit(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        new = copy.deepcopy(state)
        change(new)
        return new

    def negative_money(s):
        s["money"][0] = -1

    def negative_goods(s):
        s["goods"][3] = -2

    def card_in_two_places(s):
        s["hand"][0].append(s["deck"][0] if s["deck"] else 7)
        s["hand"][0].sort()

    def lost_starting_card(s):
        s["hand"][0] = [c for c in s["hand"][0] if c != 0]
        s["discard"][0] = [c for c in s["discard"][0] if c != 0]

    def house_count_mismatch(s):
        s["city_houses"][0] += 1

    def colonist_off_the_board(s):
        s["col"][0] = 999

    def route_occupancy_mismatch(s):
        s["route_occ"][0] = 0 if s["route_occ"][0] == NO else NO

    def seventh_praefectus_magnus_seat(s):
        s["pm"] = 9

    def unknown_step(s):
        s["stack"][-1][0] = 99

    def game_over_without_scores(s):
        s["stack"] = []

    def short_forum(s):
        s["forum"].pop()

    def marker_three(s):
        s["marker"][0] = 3

    return [
        (f.__name__, edit(f))
        for f in (
            negative_money,
            negative_goods,
            card_in_two_places,
            lost_starting_card,
            house_count_mismatch,
            colonist_off_the_board,
            route_occupancy_mismatch,
            seventh_praefectus_magnus_seat,
            unknown_step,
            game_over_without_scores,
            short_forum,
            marker_three,
        )
    ]


CONCORDIA = GameSpec(
    name="concordia",
    game_cls=ConcordiaGame,
    env_module="concordia_v0",
    invariant=concordia_invariant,
    broken_saves=concordia_broken_saves,
    shared_win=None,  # the Praefectus Magnus tie rule always leaves a single winner
    bad_config=(("map", "gallia"), ("num_players", 6), ("num_players", "4"), ("intermediate_scoring", "yes")),
    # 630-890 decisions and 1.3-2.2 s of CPU per checked game: 4 games per case, each third position saved,
    # keep the six cases near 40 s of CPU (they took ~90 s with 8 games, issue 8); 24 games a run in all
    fuzz_games=4,
    save_every=3,
    load_every=60,  # ~13 loads of a ~800-decision game, each played to the end twice (93 s of CPU at 10)
    to_end_every=90,  # ~9 continuations to the end a game (at 9 the clone and JSON tests took ~90 s of CPU)
    random_events=False,  # Concordia shuffles only at the setup; the test checks that claim
)

# --- Resafa ---------------------------------------------------------------------------------------------
# Seed totals: 22 stone, 20 marble, 18 spice, 18 amphora; 17 large + 22 small garden tiles; 21 square + 20
# scarab merchant tokens; 6 action cards per player; 7 canal tiles per player colour, at most 2 water tanks.
RESAFA_ITEMS = (22, 20, 18, 18)
RESAFA_GARDENS = (22, 17)  # small, large
RESAFA_TOKENS = 41


def resafa_invariant(state: State) -> None:
    """Component conservation and board consistency, checked independently of ``ResafaState.validate``."""
    d = state.d
    n = d.players
    for k, total in enumerate(RESAFA_ITEMS):
        held = sum(d.store[s * 4 + k] + (d.camel_load[s] if d.camel_item[s] == k else 0) for s in range(n))
        assert d.supply[k] + held == total, f"item {k}: supply {d.supply[k]} + players {held} != {total}"
    for size, total in enumerate(RESAFA_GARDENS):
        assert d.g_supply[size] + sum(d.g_tiles[s * 2 + size] for s in range(n)) == total, f"garden size {size}"
    assert sum(d.tokens) + sum(d.gate) + sum(d.rows) == RESAFA_TOKENS, "merchant tokens"
    for s in range(n):
        assert len(d.hand[s]) + len(d.deck[s]) + len(d.played[s]) == 6, f"P{s} does not hold 6 action cards"
        assert d.coins[s] >= 0 and all(x >= 0 for x in d.store[s * 4 : s * 4 + 4]), f"P{s} negative stock"
        tanks = sum(1 for b, o in enumerate(d.canal_owner) if o == s and d.canal_side[b])
        assert tanks <= 2, f"P{s} has {tanks} water tanks"
        assert d.canal_owner.count(s) <= 7, f"P{s} has more than 7 canal tiles"
        assert d.post_owner.count(s) <= 9, f"P{s} posts"
        for node in range(len(d.trade_tile)):
            assert d.post_owner[node * 4 : node * 4 + 4].count(s) <= 1, f"P{s} has two posts at node {node}"
        assert d.gate[s] <= 2 and (d.gate[s] == 2 or sum(d.rows[s * 3 : s * 3 + 3]) == 0), f"P{s} gate first"
        for c in range(4):
            assert 0 <= d.track[s * 4 + c] <= 10
        levels = [d.track[s * 4 + c] for c in range(3)]  # blue, white, yellow: level II on 2, III on 1
        assert sum(1 for p in levels if p >= 5) <= 2 and sum(1 for p in levels if p >= 8) <= 1, f"P{s} {levels}"
        assert d.camel_load[s] <= 6
    if d.stack and d.stack[-1][0] == 0:  # PLAY_CARD: between turns the hand limit holds for everyone
        for s in range(n):
            count = len(d.hand[s]) + len(d.bonus_hand[s]) + len(d.sack_hand[s])
            assert count <= 5 + 3, f"P{s} holds {count} cards between turns"


def resafa_broken_saves(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    def edit(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        new = copy.deepcopy(state)
        change(new)
        return new

    def extra_stone(s):  # 23 stone in the game
        s["store"][0] += 1

    def negative_coins(s):
        s["coins"][0] = -1

    def seventh_action_card(s):
        other = 1 % s["players"]  # solo: the player's own card twice
        s["deck"][0].append(s["played"][other][0] if s["played"][other] else s["hand"][other][0])

    def duplicated_sack_card(s):
        s["sack_discard"].append((s["sack_deck"] + s["sack_discard"] + [c for h in s["sack_hand"] for c in h])[0])

    def lost_special_card(s):
        s["spec_decks"][0].pop()

    def canal_tile_without_owner_record(s):
        s["canal_placed"][0] = 1 - s["canal_placed"][0]

    def garden_strips_without_orientation(s):
        s["g_strips"][3] = 5
        s["g_orient"][3] = -1

    def unknown_step(s):
        s["stack"][-1][0] = 99

    def game_over_without_scores(s):
        s["stack"] = []

    def short_display(s):
        s["bonus_display"].pop()

    def fifth_seat(s):
        s["stack"][-1][1] = 4

    def solo_card_twice(s):  # solo: a solo card both in the deck and revealed
        s["bot_shown"].append(s["bot_deck"][0])

    def bot_canal_tile_lost(s):
        s["bot_canals"] = s["bot_canals"][1:] if s["bot_canals"] else [0]

    solo = (solo_card_twice, bot_canal_tile_lost) if state["players"] == 1 else ()
    return [
        (f.__name__, edit(f))
        for f in (
            *solo,
            extra_stone,
            negative_coins,
            seventh_action_card,
            duplicated_sack_card,
            lost_special_card,
            canal_tile_without_owner_record,
            garden_strips_without_orientation,
            unknown_step,
            game_over_without_scores,
            short_display,
            fifth_seat,
        )
    ]


def resafa_shared_win(state: dict[str, Any]) -> dict[str, Any]:
    """Equal totals and no canal tiles for anyone (the tiebreak is equal): every seat shares the win."""
    s = copy.deepcopy(state)
    assert s["sheet"], "not a finished game"
    k = len(s["sheet"]) // s["players"]
    for seat in range(1, s["players"]):
        s["sheet"][seat * k : seat * k + k] = s["sheet"][0:k]
    s["canal_owner"] = [NO] * len(s["canal_owner"])
    s["canal_placed"] = [0] * len(s["canal_placed"])
    return s


RESAFA = GameSpec(
    name="resafa",
    game_cls=ResafaGame,
    env_module="resafa_v0",
    invariant=resafa_invariant,
    broken_saves=resafa_broken_saves,
    shared_win=resafa_shared_win,
    bad_config=(
        ("num_players", 0),
        ("num_players", 5),
        ("num_players", "3"),
        ("num_players", True),
        ("advanced_setup", "yes"),
    ),
    # Long games (2 players ~300-450 decisions, 4 players ~500-800) whose every position costs a few ms to
    # save, load and compare: 4 random games for the invariant/save fuzz (every position), the clone and JSON
    # round trips on every 3rd position of one game (each continued 4 decisions, every 9th to the end), env
    # loading every 40th position. The rules are the same at every count; the 3-4 player cases (below) only
    # add seats, board side and post boxes, so they sample more sparsely.
    fuzz_games=4,
    roundtrip_every=3,
    load_every=40,
    corrupt_every=40,  # ~70 fields, ~280 broken saves per position: 8-11 positions of a game
    mutation_positions=2,  # ~3,000 edited saves per position, a fifth of them played on: ~3 s a position
)

# Resafa with 3-4 players: the same engine with more seats (9 water cubes, the 3-4 player board side, more
# post boxes, the 4th player's extra stone) and longer games (500-800 decisions): 2 fuzz games (every position
# still checked, saved and reloaded), round trips on every 6th position, env loading and broken saves every
# 100th, 8 chance positions. The advanced setup variant changes only the observation and determinize: scenario
# tests (tests/resafa/test_scoring_and_hidden.py), no case of its own. CPU of the three cases: docs/rules/resafa.md.
RESAFA_MORE = dataclasses.replace(
    RESAFA,
    fuzz_games=2,
    roundtrip_every=6,
    load_every=100,
    corrupt_every=100,
    chance_positions=8,
    mutation_positions=0,  # the 1-2 player cases' record with more seats; 3 positions of a 4-player game: ~25 s
)
# Resafa solo against Resafabot: the same engine with one seat (~150 decisions a random game, half a 2-player
# game's), Resafabot acting inside automatic steps: 4 fuzz games, the 2-player sampling otherwise. Reaching the
# designer's fair target is not shared, so no shared-win case.
RESAFA_SOLO = dataclasses.replace(RESAFA, shared_win=None)

# --- the cases: one line per configuration --------------------------------------------------------------
# The variants share the rules engine with the base game, so half its random games each (20 games at ~0.35 s,
# solo ~0.18 s, still reach every B-side location effect, decree changes and, solo, Boss buildings); with
# the base case Seastead's four cases cost ~60 s of CPU, ~30 s of the suite's time with -n 2.
SEASTEAD_VARIANT = dataclasses.replace(SEASTEAD, fuzz_games=20)
SEASTEAD_SOLO = dataclasses.replace(SEASTEAD, fuzz_games=20, shared_win=None)  # beating the Boss is not shared

CASES: list[GameCase] = [
    GameCase.of(SEASTEAD),
    GameCase.of(SEASTEAD_VARIANT, sides="BBBB"),  # every decree may come into force
    GameCase.of(SEASTEAD_VARIANT, sides="BABA", decree="harbour_dues"),  # the advanced mixed setup
    GameCase.of(SEASTEAD_SOLO, num_players=1),  # The Rebel Seastead
]
# Concordia joins the suite as soon as meeplezoo.ENV_IDS registers it (the registry tests need the id).
if "concordia_v0" in meeplezoo.ENV_IDS.values():
    CASES += [
        GameCase.of(CONCORDIA, num_players=2, map="italia"),
        GameCase.of(CONCORDIA, num_players=3, map="italia"),
        GameCase.of(CONCORDIA, num_players=4, map="italia"),
        GameCase.of(CONCORDIA, num_players=3, map="imperium"),
        GameCase.of(CONCORDIA, num_players=4, map="imperium"),
        GameCase.of(CONCORDIA, num_players=5, map="imperium"),
    ]
# Board Royale joins the suite as soon as meeplezoo.ENV_IDS registers it (the registry tests need the id).
if "board_royale_v0" in meeplezoo.ENV_IDS.values():
    CASES += [
        GameCase.of(BOARD_ROYALE, num_players=2),
        GameCase.of(BOARD_ROYALE, num_players=3),
        GameCase.of(BOARD_ROYALE, num_players=4),
        GameCase.of(BOARD_ROYALE, num_players=5),
        GameCase.of(BOARD_ROYALE, num_players=6),
        GameCase.of(BOARD_ROYALE, num_players=3, elimination_only=True),
    ]
# Resafa joins the suite as soon as meeplezoo.ENV_IDS registers it (the registry tests need the id).
if "resafa_v0" in meeplezoo.ENV_IDS.values():
    CASES += [
        GameCase.of(RESAFA_SOLO, num_players=1),
        GameCase.of(RESAFA, num_players=2),
        GameCase.of(RESAFA_MORE, num_players=3),
        GameCase.of(RESAFA_MORE, num_players=4),
    ]
