"""How the conformance suite checks Resafa (:mod:`meeplezoo.envs.core.conformance`): solo against Resafabot and
2-4 players, the seed's component totals checked after every step, saves that break a rule and a shared win."""

from __future__ import annotations

import copy

from ..core import State
from ..core.conformance import ConformanceCase, ConformanceSettings, Record, Sizes, StallCheck
from .state import NO
from .steps import Step

# Seed totals: 22 stone, 20 marble, 18 spice, 18 amphora; 17 large + 22 small garden tiles; 21 square + 20
# scarab merchant tokens; 6 action cards per player; 7 canal tiles per player colour, at most 2 water tanks.
ITEMS = (22, 20, 18, 18)
GARDENS = (22, 17)  # small, large
TOKENS = 41


def invariant(state: State) -> None:
    """Component conservation and board consistency, checked independently of ``ResafaState.validate``."""
    d = state.d
    n = d.players
    for k, total in enumerate(ITEMS):
        held = sum(d.store[s * 4 + k] + (d.camel_load[s] if d.camel_item[s] == k else 0) for s in range(n))
        assert d.supply[k] + held == total, f"item {k}: supply {d.supply[k]} + players {held} != {total}"
    for size, total in enumerate(GARDENS):
        assert d.g_supply[size] + sum(d.g_tiles[s * 2 + size] for s in range(n)) == total, f"garden size {size}"
    assert sum(d.tokens) + sum(d.gate) + sum(d.rows) == TOKENS, "merchant tokens"
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
    if d.stack and d.stack[-1][0] == Step.PLAY_CARD:  # between turns the hand limit holds for everyone
        for s in range(n):
            count = len(d.hand[s]) + len(d.bonus_hand[s]) + len(d.sack_hand[s])
            assert count <= 5 + 3, f"P{s} holds {count} cards between turns"


# --- saves that break a rule: each edit changes a record in place ----------------------------------------------
def extra_stone(s: Record) -> None:  # 23 stone in the game
    s["store"][0] += 1


def negative_coins(s: Record) -> None:
    s["coins"][0] = -1


def seventh_action_card(s: Record) -> None:
    other = 1 % s["players"]  # solo: the player's own card twice
    s["deck"][0].append(s["played"][other][0] if s["played"][other] else s["hand"][other][0])


def duplicated_sack_card(s: Record) -> None:
    s["sack_discard"].append((s["sack_deck"] + s["sack_discard"] + [c for h in s["sack_hand"] for c in h])[0])


def lost_special_card(s: Record) -> None:
    s["spec_decks"][0].pop()


def canal_tile_without_owner_record(s: Record) -> None:
    s["canal_placed"][0] = 1 - s["canal_placed"][0]


def garden_strips_without_orientation(s: Record) -> None:
    s["g_strips"][3] = 5
    s["g_orient"][3] = -1


def unknown_step(s: Record) -> None:
    s["stack"][-1][0] = 99


def game_over_without_scores(s: Record) -> None:
    s["stack"] = []


def short_display(s: Record) -> None:
    s["bonus_display"].pop()


def fifth_seat(s: Record) -> None:
    s["stack"][-1][1] = 4


def solo_card_twice(s: Record) -> None:  # solo: a solo card both in the deck and revealed
    s["bot_shown"].append(s["bot_deck"][0])


def bot_canal_tile_lost(s: Record) -> None:
    s["bot_canals"] = s["bot_canals"][1:] if s["bot_canals"] else [0]


#: edits of a saved record that each break one rule: a load must refuse every one
BROKEN_EDITS = (
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
#: the edits of a solo game's record (its case's own)
SOLO_EDITS = (
    solo_card_twice,
    bot_canal_tile_lost,
)


def shared_win(state: Record) -> Record:
    """Equal totals and no canal tiles for anyone (the tiebreak is equal): every seat shares the win."""
    s = copy.deepcopy(state)
    assert s["sheet"], "not a finished game"
    k = len(s["sheet"]) // s["players"]
    for seat in range(1, s["players"]):
        s["sheet"][seat * k : seat * k + k] = s["sheet"][0:k]
    s["canal_owner"] = [NO] * len(s["canal_owner"])
    s["canal_placed"] = [0] * len(s["canal_placed"])
    return s


# Long games (2 players ~300-450 decisions, 4 players ~500-800) whose every position costs a few ms to save, load
# and compare: 4 random games for the invariant/save fuzz (every position), the clone and JSON round trips on every
# 3rd position of one game (each continued 4 decisions, every 9th to the end), env loading every 40th position.
SIZES = Sizes(
    fuzz_games=4,
    roundtrip_every=3,
    load_every=40,
    corrupt_every=40,  # ~70 fields, ~280 broken saves per position: 8-11 positions of a game
    mutation_positions=2,  # ~3,000 edited saves per position, a fifth of them played on: ~3 s a position
)
# 3-4 players: the same engine with more seats (9 water cubes, the 3-4 player board side, more post boxes, the 4th
# player's extra stone) and longer games (500-800 decisions): 2 fuzz games (every position still checked, saved and
# reloaded), round trips on every 6th position, env loading and broken saves every 100th, 8 chance positions. The
# rules are the same at every count, so these sample more sparsely. The advanced setup variant changes only the
# observation and determinize: scenario tests (tests/resafa/test_scoring_and_hidden.py), no case of its own. CPU of
# the cases: docs/rules/resafa.md.
MORE_SIZES = Sizes(
    fuzz_games=2,
    roundtrip_every=6,
    load_every=100,
    corrupt_every=100,
    chance_positions=8,
    mutation_positions=0,  # the 1-2 player cases' record with more seats; 3 positions of a 4-player game: ~25 s
)

SETTINGS = ConformanceSettings(
    cases=(
        # solo against Resafabot: one seat (~150 decisions a random game, half a 2-player game's), Resafabot acting
        # inside automatic steps; reaching the designer's fair target is not shared, so no shared win
        ConformanceCase({"num_players": 1}, shared_win=False, broken_edits=SOLO_EDITS),
        ConformanceCase({"num_players": 2}),
        ConformanceCase({"num_players": 3}, MORE_SIZES),
        ConformanceCase({"num_players": 4}, MORE_SIZES),
    ),
    sizes=SIZES,
    invariant=invariant,
    broken_edits=BROKEN_EDITS,
    shared_win=shared_win,
    # the decisions that do least: "pass", "no, decline", "done: end your turn", "stop producing/converting",
    # "load nothing", "no deal", "build no trading post" (a plain "end" would match pink cards' "end: ..." text)
    stalling=StallCheck(passive_words=("pass", "decline", "done", "stop", "nothing", "no deal", "build no")),
    bad_config=(
        ("num_players", 0),
        ("num_players", 5),
        ("num_players", "3"),
        ("num_players", True),
        ("advanced_setup", "yes"),
    ),
)
