"""Final scoring in the seed's five categories, in its order, and the tiebreaks.

Seed: "1. Rıhtımlarla Eşleşen Kaynaklar ... rıhtım başına en fazla 3 puan ... kullanılan kaynaklar ortak arza
geri döner. 2. Rıhtımlarla Eşleşen Binalar ... Puanlanan rıhtım karoları oyundan kaldırılır. 3. Konumlar ...
Puanlanan konumlardaki binalar oyundan kaldırılır. 4. Uzmanlar ... 5. Temizlik Jetonları". Tiebreak: "oyuncu
tahtasında daha fazla bina kalan oyuncu kazanır; bu da eşitse daha fazla temizlik jetonu olan kazanır; o da
eşitse galibiyet paylaşılır."
"""

from __future__ import annotations

from .content import DOCKS, NUM_LOCS, NUM_RES, SETUP, SOLO, SPECIALISTS, dock_targets
from .state import BOSS, BOSS_BUILDING, NO, SeasteadData
from .tokens import decree_is, loc_cost, pay

NUM_CATEGORIES = 5


def final_scoring(d: SeasteadData) -> list[int]:
    """Score and clear the board as the seed says; returns the sheet ``[seat * 6 + category]`` (5 = total)."""
    sheet = [0] * 12
    cap = SETUP.dock_resource_cap + decree_is(d, "deep_dock_charter")
    # 1. dock resources: each dock of a player's port counts up to 3 of its resource, each resource once
    for seat in (0, 1):
        for loc in range(NUM_LOCS):
            if d.dock_at[loc] != NO and d.loc_owner[loc] == seat:
                kind = DOCKS[d.dock_at[loc]].resource
                used = min(cap, d.res[seat * NUM_RES + kind])
                pay(d, seat, kind, used)
                sheet[seat * 6] += used
    # 2. dock buildings, for both players; scored dock tiles leave the game
    for loc in range(NUM_LOCS):
        if d.dock_at[loc] != NO:
            dock = DOCKS[d.dock_at[loc]]
            for q, btype in dock_targets(dock, loc):
                if d.loc_bld[q] == btype:
                    sheet[d.loc_owner[q] * 6 + 1] += dock.points
            d.dock_at[loc] = NO
    # 3. locations; scored buildings leave the game (ships stay: they are not scored)
    boss_buildings = 0
    for loc in range(NUM_LOCS):
        if d.loc_bld[loc] == BOSS_BUILDING:  # solo: the Boss scores per building, not by location
            boss_buildings += 1
        elif d.loc_owner[loc] != NO:
            sheet[d.loc_owner[loc] * 6 + 2] += loc_cost(d, loc)
        d.loc_owner[loc] = d.loc_bld[loc] = NO
    # 4. face-up specialists; 5. cleanup tokens
    for sid, spec in enumerate(SPECIALISTS):
        if d.spec_owner[sid] != NO and not d.spec_spent[sid]:
            sheet[d.spec_owner[sid] * 6 + 3] += spec.vp + decree_is(d, "patronage")
    for seat in (0, 1):
        sheet[seat * 6 + 4] = d.cleanup[seat]
        sheet[seat * 6 + 5] = sum(sheet[seat * 6 : seat * 6 + 5])
    if d.solo:  # the Boss: 20 points plus 3 per building it had built (in its "locations" row)
        sheet[BOSS * 6 + 2] = SOLO.boss_points_per_building * boss_buildings
        sheet[BOSS * 6 + 5] = SOLO.boss_base_points + sheet[BOSS * 6 + 2]
    return sheet


def rank_key(d: SeasteadData, seat: int) -> tuple[int, int, int]:
    """Higher is better: total, then buildings left on the board, then cleanup tokens."""
    left = 3 * SETUP.buildings_per_type - sum(d.built[seat * 3 : seat * 3 + 3])
    total = d.sheet[seat * 6 + 5] if d.sheet else 0
    return (total, left, d.cleanup[seat])
