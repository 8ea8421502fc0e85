"""Location effects (step 5 of a build), printed on the flotilla tiles; see data/seastead.json.

Seed: "İnşa ettiğiniz konumun konum etkisini uygularsınız; konum etkileri genellikle isteğe bağlıdır,
ancak bazıları zorunludur." Mandatory here: ``tribute``, ``discard`` and ``opponent_gain``; all others are
optional. The kinds are MeepleZoo's design (docs/rules/seastead.md, "Filled in").
"""

from __future__ import annotations

from .actions import PASS, RES0, SLOT0, SPEC0, USE
from .content import NUM_RES, SETUP
from .state import NO, SeasteadData
from .steps import Step
from .tokens import decree_is, gain, gain_cleanup, held_kinds, loc_effect, opponent, pay, supplied_kinds

MANDATORY = frozenset({"tribute", "discard", "opponent_gain"})


def run_location_effect(d: SeasteadData, seat: int, loc: int, b: int) -> None:
    eff = loc_effect(d, loc)
    push = d.stack.append
    kind = eff.kind
    if kind in MANDATORY and decree_is(d, "council_mercy"):
        return
    if kind in ("gain", "cleanup", "decree"):
        push((Step.EFFECT_USE, seat, loc, 0))
    elif kind == "gain_any":
        push((Step.EFFECT_KIND, seat, eff.n, 0))
    elif kind == "tribute":
        push((Step.GIVE_KIND, seat, 0, 1))
    elif kind == "discard":
        push((Step.GIVE_KIND, seat, 0, 0))
    elif kind == "opponent_gain":
        if not d.solo:  # solo: the Boss takes nothing into a hand
            push((Step.OPPONENT_GAIN, opponent(seat), 0, 0))
    elif kind == "convert":
        push((Step.CONVERT_GIVE, seat, eff.n, 0))
    elif kind == "refresh_specialist":
        push((Step.REFRESH, seat, 0, 0))
    elif kind == "move_ship":
        push((Step.SHIP_SELECT, seat, 0, 0))
    elif kind == "swap_demand":
        push((Step.DEMAND_A, seat, 0, 0))
    else:
        raise AssertionError(f"unknown location effect {kind!r}")


def legal_effect_use(d: SeasteadData, seat: int, loc: int, b: int) -> list[int]:
    eff = loc_effect(d, loc)
    if (eff.kind == "gain" and d.supply[eff.resource] == 0) or (eff.kind == "decree" and not d.decree_deck):
        return []
    return [USE, PASS]


def apply_effect_use(d: SeasteadData, action: int, seat: int, loc: int, b: int) -> None:
    if action == PASS:
        return
    eff = loc_effect(d, loc)
    if eff.kind == "gain":
        gain(d, seat, eff.resource, eff.n + decree_is(d, "bountiful_shores"))
    elif eff.kind == "cleanup":
        gain_cleanup(d, seat, eff.n + decree_is(d, "clean_seas"))
    else:  # a new decree: draw 2, one goes into force, the other to the bottom of the deck
        for _ in range(min(SETUP.decree_draw, len(d.decree_deck))):
            d.decree_drawn.append(d.decree_deck.pop())
        d.decree_known = min(d.decree_known, len(d.decree_deck))
        d.stack.append((Step.DECREE_CHOICE, seat, 0, 0))


def legal_decree_choice(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return [SLOT0 + i for i in range(len(d.decree_drawn))]


def apply_decree_choice(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    chosen = d.decree_drawn.pop(action - SLOT0)
    if d.decree != NO:
        d.decree_out.append(d.decree)
    d.decree = chosen
    for other in d.decree_drawn:  # seen by both players on its way to the bottom
        d.decree_deck.insert(0, other)
        d.decree_known += 1
    d.decree_drawn = []


def legal_effect_kind(d: SeasteadData, seat: int, n: int, b: int) -> list[int]:
    kinds = supplied_kinds(d)
    return [*kinds, PASS] if kinds else []


def apply_effect_kind(d: SeasteadData, action: int, seat: int, n: int, b: int) -> None:
    if action == PASS:
        return
    gain(d, seat, action - RES0, 1)
    if n > 1:
        d.stack.append((Step.EFFECT_KIND, seat, n - 1, 0))


def legal_give_kind(d: SeasteadData, seat: int, a: int, tribute: int) -> list[int]:
    return held_kinds(d, seat)


def apply_give_kind(d: SeasteadData, action: int, seat: int, a: int, tribute: int) -> None:
    k = action - RES0
    if tribute and d.solo:  # solo: the tribute goes back to the supply
        pay(d, seat, k, 1)
    elif tribute:
        d.res[seat * NUM_RES + k] -= 1
        d.res[opponent(seat) * NUM_RES + k] += 1
    else:
        pay(d, seat, k, 1)


def legal_opponent_gain(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return supplied_kinds(d)


def legal_convert_give(d: SeasteadData, seat: int, n: int, b: int) -> list[int]:
    kinds = held_kinds(d, seat)
    return [*kinds, PASS] if kinds else []


def apply_convert_give(d: SeasteadData, action: int, seat: int, n: int, b: int) -> None:
    if action != PASS:
        d.stack.append((Step.CONVERT_TAKE, seat, n, action - RES0))


def legal_convert_take(d: SeasteadData, seat: int, n: int, given: int) -> list[int]:
    return supplied_kinds(d, exclude=given)


def apply_convert_take(d: SeasteadData, action: int, seat: int, n: int, given: int) -> None:
    pay(d, seat, given, 1)
    gain(d, seat, action - RES0, n)


def legal_refresh(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    spent = [SPEC0 + i for i in range(len(d.spec_owner)) if d.spec_owner[i] == seat and d.spec_spent[i]]
    return [*spent, PASS] if spent else []


def apply_refresh(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    if action != PASS:
        d.spec_spent[action - SPEC0] = 0
