"""How the conformance suite checks Concordia (:mod:`meeplezoo.envs.core.conformance`): both maps at each of their
player counts, the rulebook's limits checked after every step, and saves that break a rule."""

from __future__ import annotations

from ..core import State
from ..core.conformance import ConformanceCase, ConformanceSettings, Record, Sizes, StallCheck
from .state import NO
from .steps import Step

# Rulebook limits: a storehouse of 12 slots, 15 houses and 6 colonists per player, one colonist per route.
STOREHOUSE = 12
HOUSES = 15


def invariant(state: State) -> None:
    """Storehouse, houses and routes within the rulebook's limits, checked independently of ``validate``."""
    d = state.d
    nc = len(d.city_good)
    assert all(x >= 0 for x in d.money), f"negative money {d.money}"
    assert all(x >= 0 for x in d.goods), f"negative goods {d.goods}"
    discarding = {t[1] for t in d.stack if t[0] == Step.OVERFLOW}  # a seat discarding down to 12
    for seat in range(d.n):
        used = sum(d.goods[seat * 5 : seat * 5 + 5]) + d.col[seat * 6 : seat * 6 + 6].count(NO)
        assert used <= STOREHOUSE or seat in discarding, f"P{seat} storehouse holds {used}"
        assert len(d.houses[seat]) <= HOUSES, f"P{seat} has {len(d.houses[seat])} houses"
        assert len(set(d.houses[seat])) == len(d.houses[seat]), f"P{seat} has two houses in a city"
    on_routes = [p for p in d.col if p != NO and p >= nc]
    assert len(on_routes) == len(set(on_routes)), "two colonists on one route"


# --- saves that break a rule: each edit changes a record in place ----------------------------------------------
def negative_money(s: Record) -> None:
    s["money"][0] = -1


def negative_goods(s: Record) -> None:
    s["goods"][3] = -2


def card_in_two_places(s: Record) -> None:
    s["hand"][0].append(s["deck"][0] if s["deck"] else 7)
    s["hand"][0].sort()


def lost_starting_card(s: Record) -> None:
    s["hand"][0] = [c for c in s["hand"][0] if c != 0]
    s["discard"][0] = [c for c in s["discard"][0] if c != 0]


def house_count_mismatch(s: Record) -> None:
    s["city_houses"][0] += 1


def colonist_off_the_board(s: Record) -> None:
    s["col"][0] = 999


def route_occupancy_mismatch(s: Record) -> None:
    s["route_occ"][0] = 0 if s["route_occ"][0] == NO else NO


def seventh_praefectus_magnus_seat(s: Record) -> None:
    s["pm"] = 9


def unknown_step(s: Record) -> None:
    s["stack"][-1][0] = 99


def game_over_without_scores(s: Record) -> None:
    s["stack"] = []


def short_forum(s: Record) -> None:
    s["forum"].pop()


def marker_three(s: Record) -> None:
    s["marker"][0] = 3


#: edits of a saved record that each break one rule: a load must refuse every one
BROKEN_EDITS = (
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


# 630-890 decisions and 1.3-2.2 s of CPU per checked game: 4 games per case, each third position saved, keep the
# six cases near 40 s of CPU; 24 games a run in all.
SIZES = Sizes(
    fuzz_games=4,
    save_every=3,
    load_every=60,  # ~13 loads of a ~800-decision game, each played to the end twice
    to_end_every=90,  # ~9 continuations to the end a game
)

# The stallers (docs/rules/concordia.md, "Stalling and the decision cap"): passive plays the Tribune (back at once
# with an empty pile), stops, passes, takes the Prefect's cash bonus and the Colonist's tax ("take 5 sesterces ...").
# No exchange to prolong: no counter staller. 5 games a staller put it in every seat of the 5-player table; the six
# cases take ~4 s of CPU in all.
STALLING = StallCheck(passive_words=("tribune", "pass", "stop", "cash bonus", "take 5 sesterces"), games=5)

SETTINGS = ConformanceSettings(
    cases=(
        *(ConformanceCase({"num_players": n, "map": "italia"}) for n in (2, 3, 4)),
        *(ConformanceCase({"num_players": n, "map": "imperium"}) for n in (3, 4, 5)),
    ),
    sizes=SIZES,
    invariant=invariant,
    broken_edits=BROKEN_EDITS,
    shared_win=None,  # the Praefectus Magnus tie rule always leaves a single winner
    bad_config=(("map", "gallia"), ("num_players", 6), ("num_players", "4"), ("intermediate_scoring", "yes")),
    random_events=False,  # Concordia shuffles only at the setup; the suite checks that claim
    stalling=STALLING,
)
