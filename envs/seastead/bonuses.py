"""Row bonuses (after a player's last building of a type) and column bonuses (a column emptied).

Seed: "Son limanınızı inşa ettikten hemen sonra ... 1 temizlik jetonu alabilirsiniz (en fazla 3)",
"Son akademinizi ... harcanmış (kapalı) bir uzman kartınızı yeniden açık çevirerek yenileyebilirsiniz",
"Son tersanenizi ... gemilerinizden istediğiniz kadarını tek tek başka boş konumlara serbestçe taşıyabilirsiniz",
"Kolon bonusunu tetiklediğinizde, kilitli olmayan 2 talep jetonunun yerini değiştirebilirsiniz; takas sonrası
bu 2 jetondan birini 'kilitli' yüzüne, önceden kilitli olan jetonu ise tekrar 'kaynak' yüzüne çevirirsiniz."
"""

from __future__ import annotations

from .actions import FLOT0, LOC0, PASS
from .content import DOCKS, NUM_FLOTILLAS, NUM_RES, SETUP, Bld
from .specialists import own_port_docks
from .state import SeasteadData
from .steps import Step
from .tokens import decree_is, gain_cleanup


def run_row_check(d: SeasteadData, seat: int, btype: int, b: int) -> None:
    if d.built[seat * 3 + btype] != SETUP.buildings_per_type:
        return
    if btype == Bld.PORT:
        d.stack.append((Step.ROW_PORT, seat, 0, 0))
    elif btype == Bld.ACADEMY:
        d.stack.append((Step.REFRESH, seat, 1, 0))
    else:
        d.stack.append((Step.SHIP_SELECT, seat, 2, 0))


def run_column_check(d: SeasteadData, seat: int, a: int, b: int) -> None:
    if min(d.built[seat * 3 : seat * 3 + 3]) > d.columns[seat]:
        d.columns[seat] += 1
        if decree_is(d, "free_market"):  # also 1 resource of your choice (after the swap)
            d.stack.append((Step.EFFECT_KIND, seat, 1, 0))
        d.stack.append((Step.DEMAND_A, seat, 1, 0))


def legal_row_port(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    docks = own_port_docks(d, seat)
    return [*docks, PASS] if docks else []


def apply_row_port(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    if action == PASS:
        return
    dock = DOCKS[d.dock_at[action - LOC0]]
    gain_cleanup(d, seat, min(SETUP.dock_resource_cap, d.res[seat * NUM_RES + dock.resource]))


def legal_demand_a(d: SeasteadData, seat: int, purpose: int, b: int) -> list[int]:
    return [FLOT0 + f for f in range(NUM_FLOTILLAS) if f != d.locked] + [PASS]


def apply_demand_a(d: SeasteadData, action: int, seat: int, purpose: int, b: int) -> None:
    if action != PASS:
        d.stack.append((Step.DEMAND_B, seat, purpose, action - FLOT0))


def legal_demand_b(d: SeasteadData, seat: int, purpose: int, first: int) -> list[int]:
    return [FLOT0 + f for f in range(NUM_FLOTILLAS) if f not in (d.locked, first)]


def apply_demand_b(d: SeasteadData, action: int, seat: int, purpose: int, first: int) -> None:
    second = action - FLOT0
    d.demand[first], d.demand[second] = d.demand[second], d.demand[first]
    if purpose == 1:
        d.stack.append((Step.DEMAND_LOCK, seat, first, second))


def legal_demand_lock(d: SeasteadData, seat: int, first: int, second: int) -> list[int]:
    return [FLOT0 + first, FLOT0 + second]


def apply_demand_lock(d: SeasteadData, action: int, seat: int, first: int, second: int) -> None:
    d.locked = action - FLOT0
