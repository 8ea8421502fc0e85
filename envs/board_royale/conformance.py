"""How the conformance suite checks Board Royale (:mod:`meeplezoo.envs.core.conformance`): every player count and
the elimination-only variant, the seed's card totals and hand limits checked after every step, and saves that break
a rule."""

from __future__ import annotations

from ..core import State
from ..core.conformance import ConformanceCase, ConformanceSettings, Record, Sizes, StallCheck
from .content import KIND_COUNTS, NUM_KINDS, NUM_RES, RESOURCE_COUNTS
from .resources import hand_limit, hand_size, resources_of
from .state import NO

# Seed totals: 30 Food, 30 Wood, 30 Stone, 30 Iron, 20 Gold (140 resource cards); hand limit 20 (24 with a
# Backpack); a player without resource cards is out and never acts again.
RESOURCE_CARDS = 140


def invariant(state: State) -> None:
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
    assert total == RESOURCE_CARDS, f"{total} resource cards"
    for s in range(n):
        assert hand_size(d, s) <= hand_limit(d, s) or not d.alive[s], f"P{s} above the hand limit"
        if d.alive[s]:
            assert resources_of(d, s) >= 1 or d.winner >= 0, f"P{s} alive without resources"
        else:
            assert hand_size(d, s) == 0 and s not in d.item_owner, f"P{s} is out but holds cards or items"
    if d.stack:
        assert d.alive[state.current_player()], "an eliminated seat is asked to decide"


# --- saves that break a rule: each edit changes a record in place ----------------------------------------------
def extra_gold(s: Record) -> None:  # 21 gold cards
    s["res_discard"][4] += 1


def lost_resource_card(s: Record) -> None:
    s["res_deck"].pop()


def duplicated_item(s: Record) -> None:
    s["item_discard"].append(s["field"][0])


def owner_of_a_seventh_seat(s: Record) -> None:
    s["item_owner"][s["field"][0]] = 7
    s["field"][0] = NO


def negative_hand(s: Record) -> None:
    s["hand"][0] -= 1
    s["res_discard"][0] += 1
    s["hand"][1] = -1


def knowledge_above_the_hand(s: Record) -> None:
    s["known"][NUM_KINDS] = 99


def alive_flag_two(s: Record) -> None:
    s["alive"][0] = 2


def winner_mid_game(s: Record) -> None:
    s["winner"] = 0


def unknown_step(s: Record) -> None:
    s["stack"][-1][0] = 999


def short_field(s: Record) -> None:
    s["item_deck"].append(s["field"].pop())


#: edits of a saved record that each break one rule: a load must refuse every one
BROKEN_EDITS = (
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


# 200-700 decisions and 0.4-1.8 s of CPU per checked game (2-6 players): 6 games per case, each third position
# saved and reloaded (the rest are validated), keep the six cases near 40 s of CPU; six cases
# together still play 36 games a run.
SIZES = Sizes(
    fuzz_games=6,
    save_every=3,
    load_every=40,  # 200-700 decisions: ~5-18 loads a game, each played to the end twice
    to_end_every=60,  # ~4-12 continuations to the end a game
)

# Stallers (docs/rules/board_royale.md, "Stalling and the decision cap"): the passive one ends its turn, refuses,
# votes no, does not join and takes every attack; the counter one answers every offer with a counter-offer
# and every blow with an instant or hidden item (a reflect or an ambush prolongs the fight). Staller games end
# in 200-2,500 decisions (~4 s of CPU for the six cases at 6 games each). The always-last staller also steals,
# crafts and attacks, and can beat the heuristic fairly by an early rush (2 of 600 measured games: 2 players
# seed 123, 3 players elimination-only seed 108), which a run of more than 8 games per case would meet.
STALLING = StallCheck(
    passive_words=("end the turn", "refuse", "vote no", "do not join", "take the attack", "cancel the trade"),
    counter_words=("counter-offer", "defend with", "reveal"),
    games=6,
)

SETTINGS = ConformanceSettings(
    cases=(
        *(ConformanceCase({"num_players": n}) for n in (2, 3, 4, 5, 6)),
        ConformanceCase({"num_players": 3, "elimination_only": True}),
    ),
    sizes=SIZES,
    invariant=invariant,
    broken_edits=BROKEN_EDITS,
    bad_config=(("num_players", 1), ("num_players", 7), ("num_players", "4"), ("elimination_only", 1)),
    stalling=STALLING,
)
