"""The turn machine: the stack of pending tasks, decision handlers, automatic steps, rounds and the end.

Seed: "Oyun turlar halinde oynanır; her turda her oyuncu bir kez hamle yapar ... Sıra size geldiğinde ya dalış
ya da inşa yaparsınız. Kurallara uygun bir inşa yapamıyorsanız ... dalış yapmak zorundasınız." End: "Bu
koşullardan biri gerçekleştiğinde mevcut tur tamamlanır, ardından 1 tur daha oynanır".
"""

from __future__ import annotations

from ..core.tasks import Apply, Legal, TaskMachine
from . import bonuses, build, dive, effects
from .actions import BUILD0, DIVE, LOC0, PASS, RES0, SLOT0, SPEC0
from .content import NUM_RES
from .ending import record_triggers
from .scoring import final_scoring
from .specialists import TIMING, play, plays
from .state import NO, SeasteadData
from .steps import DECISION_TEXT, Step
from .tokens import gain, pay, supplied_kinds


# --- the main decision and the end-of-turn window ------------------------------------------------------
def legal_main(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return [DIVE, *build.legal_build_types(d, seat), *plays(d, seat, "main")]


def apply_main(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    if action == DIVE:
        dive.start_dive(d, seat)
    elif action < LOC0:
        build.start_build(d, seat, action - BUILD0)
    else:
        d.stack.append((Step.MAIN, seat, a, b))
        play(d, seat, action - SPEC0)


def legal_after(d: SeasteadData, seat: int, mode: int, b: int) -> list[int]:
    options = plays(d, seat, "after", "build" if mode else "dive")
    return [*options, PASS] if options else []


def apply_after(d: SeasteadData, action: int, seat: int, mode: int, b: int) -> None:
    if action != PASS:
        d.stack.append((Step.AFTER, seat, mode, b))
        play(d, seat, action - SPEC0)


def run_end_turn(d: SeasteadData, seat: int, a: int, b: int) -> None:
    record_triggers(d)  # also recorded the moment each condition first holds (ending.py)
    d.mine_half = d.prospector = d.founder = d.build_type = d.built_loc = NO
    d.trawler = d.engineer = d.played = 0
    d.turns_in_round += 1
    if d.turns_in_round == (1 if d.solo else 2):  # solo: the Boss takes no turns, a round is one turn
        if d.round_no == d.end_round:
            d.sheet = final_scoring(d)
            return
        d.round_no += 1
        d.turns_in_round = 0
    if not d.solo:
        d.active = 1 - d.active
    d.stack.append((Step.MAIN, d.active, 0, 0))


def legal_solo_extra(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return supplied_kinds(d)


def apply_solo_extra(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    gain(d, seat, action - RES0, 1)
    d.stack.append((Step.MAIN, seat, 0, 0))


# --- "both" specialists with choices ------------------------------------------------------------------
def legal_trader_from(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return [RES0 + k for k in range(NUM_RES) if d.res[seat * NUM_RES + k]]


def apply_trader_from(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    d.stack.append((Step.TRADER_TO, seat, 0, action - RES0))


def legal_trader_to(d: SeasteadData, seat: int, a: int, given: int) -> list[int]:
    return supplied_kinds(d, exclude=given)


def apply_trader_to(d: SeasteadData, action: int, seat: int, a: int, given: int) -> None:
    take = action - RES0
    n = min(d.res[seat * NUM_RES + given], d.supply[take])
    pay(d, seat, given, n)
    gain(d, seat, take, n)


def legal_harbour_port(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    from .specialists import own_port_docks

    return own_port_docks(d, seat)


def apply_harbour_port(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    d.stack.append((Step.HARBOUR_SLOT, seat, 0, action - LOC0))


def legal_harbour_slot(d: SeasteadData, seat: int, a: int, loc: int) -> list[int]:
    return build.legal_display(d.dock_display)


def apply_harbour_slot(d: SeasteadData, action: int, seat: int, a: int, loc: int) -> None:
    slot = action - SLOT0
    d.dock_at[loc], d.dock_display[slot] = d.dock_display[slot], d.dock_at[loc]


def legal_any_supplied(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return supplied_kinds(d)


DECISIONS = {
    Step.MAIN: (legal_main, apply_main),
    Step.DIVE_SPLIT: (dive.legal_split, dive.apply_split),
    Step.DIVE_WILD: (dive.legal_wild, dive.apply_wild),
    Step.AGENT: (dive.legal_agent, dive.apply_agent),
    Step.INVESTOR: (build.legal_use_pass, build.apply_investor),
    Step.BUILD_WHERE: (build.legal_where, build.apply_where),
    Step.FOUNDER_KIND: (build.legal_founder, build.apply_founder),
    Step.PROSPECTOR_KIND: (dive.legal_prospector, dive.apply_prospector),
    Step.DOCK_CHOICE: (build.legal_dock_choice, build.apply_dock_choice),
    Step.SPECIALIST_CHOICE: (build.legal_specialist_choice, build.apply_specialist_choice),
    Step.SHIP_PLACE: (build.legal_ship_place, build.apply_ship_place),
    Step.OWNER_BONUS: (build.legal_owner_bonus, build.apply_gain_one),
    Step.EFFECT_USE: (effects.legal_effect_use, effects.apply_effect_use),
    Step.EFFECT_KIND: (effects.legal_effect_kind, effects.apply_effect_kind),
    Step.GIVE_KIND: (effects.legal_give_kind, effects.apply_give_kind),
    Step.OPPONENT_GAIN: (effects.legal_opponent_gain, build.apply_gain_one),
    Step.CONVERT_GIVE: (effects.legal_convert_give, effects.apply_convert_give),
    Step.CONVERT_TAKE: (effects.legal_convert_take, effects.apply_convert_take),
    Step.REFRESH: (effects.legal_refresh, effects.apply_refresh),
    Step.SHIP_SELECT: (build.legal_ship_select, build.apply_ship_select),
    Step.SHIP_DEST: (build.legal_ship_dest, build.apply_ship_dest),
    Step.DEMAND_A: (bonuses.legal_demand_a, bonuses.apply_demand_a),
    Step.DEMAND_B: (bonuses.legal_demand_b, bonuses.apply_demand_b),
    Step.DEMAND_LOCK: (bonuses.legal_demand_lock, bonuses.apply_demand_lock),
    Step.ROW_PORT: (bonuses.legal_row_port, bonuses.apply_row_port),
    Step.BUILDING_SELECT: (build.legal_building_select, build.apply_building_select),
    Step.BUILDING_DEST: (build.legal_building_dest, build.apply_building_dest),
    Step.TRADER_FROM: (legal_trader_from, apply_trader_from),
    Step.TRADER_TO: (legal_trader_to, apply_trader_to),
    Step.HARBOUR_PORT: (legal_harbour_port, apply_harbour_port),
    Step.HARBOUR_SLOT: (legal_harbour_slot, apply_harbour_slot),
    Step.SALVAGER_KIND: (legal_any_supplied, build.apply_gain_one),
    Step.AFTER: (legal_after, apply_after),
    Step.SOLO_EXTRA: (legal_solo_extra, apply_solo_extra),
    Step.DECREE_CHOICE: (effects.legal_decree_choice, effects.apply_decree_choice),
}
AUTOMATIC = {
    Step.REVEAL: dive.run_reveal,
    Step.TAKE_HALF: dive.run_take_half,
    Step.DISCARD_DIVE: dive.run_discard_dive,
    Step.BUILDING_EFFECT: build.run_building_effect,
    Step.LOCATION_EFFECT: effects.run_location_effect,
    Step.SHIP_DISPLACED: build.run_ship_displaced,
    Step.ROW_CHECK: bonuses.run_row_check,
    Step.COLUMN_CHECK: bonuses.run_column_check,
    Step.END_TURN: run_end_turn,
    Step.BOSS_DELIVERY: dive.run_boss_delivery,
}
# --- "both" specialists at every decision of your own turn where they can change something -----------------
#: Seed FAQ: face-up specialists are spent "sıranız geldiğinde dilediğiniz sırada" (at any moment of your turn).
#: Besides the start (MAIN) and the end (AFTER), a "both" card is offered at these decisions of the active
#: player, each a point where something happened this turn that the card can answer (a card revealed, a
#: cost paid, resources or tokens received, a bonus about to count your resources). Left out, because a play
#: there cannot change more than at the previous window or would break the choice in progress: BUILD_WHERE
#: (nothing happened since MAIN; a Trader could leave no payable location) and the steps that finish a choice
#: already begun (a ship or building being moved, the second demand token, the kind of a convert/Trader).
BOTH_WINDOWS = frozenset(
    {
        Step.DIVE_SPLIT,
        Step.DIVE_WILD,
        Step.DOCK_CHOICE,
        Step.SPECIALIST_CHOICE,
        Step.EFFECT_USE,
        Step.EFFECT_KIND,
        Step.GIVE_KIND,
        Step.CONVERT_GIVE,
        Step.REFRESH,
        Step.DEMAND_A,
        Step.ROW_PORT,
    }
)


def _offer_both(step: Step, legal: Legal, apply: Apply) -> tuple[Legal, Apply]:
    """Wrap a decision so the active player may first play "both" specialists (the decision then waits)."""

    def legal_with_both(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
        out = legal(d, seat, a, b)
        if out and seat == d.active:
            out += [x for x in plays(d, seat, "main") if x not in out]
        return out

    def apply_with_both(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
        sid = action - SPEC0
        if 0 <= sid < len(TIMING) and TIMING[sid] == "any" and d.spec_owner[sid] == seat and not d.spec_spent[sid]:
            d.stack.append((step, seat, a, b))
            play(d, seat, sid)
        else:  # (a REFRESH choice names a spent card: never a face-up one)
            apply(d, action, seat, a, b)

    return legal_with_both, apply_with_both


DECISIONS = {s: (_offer_both(s, *f) if s in BOTH_WINDOWS else f) for s, f in DECISIONS.items()}
#: decisions that always have a legal action: the main one (DIVE), the split (two halves), the reactions
#: (use or pass), the demand-token swaps (PASS, then the other unlocked flotillas) and the Prospector's kind;
#: a lookahead (:func:`apply_to_look`) stops there without listing them
ALWAYS_OPEN = frozenset(
    int(s)
    for s in (
        Step.MAIN,
        Step.DIVE_SPLIT,
        Step.AGENT,
        Step.INVESTOR,
        Step.DEMAND_A,
        Step.DEMAND_B,
        Step.DEMAND_LOCK,
        Step.PROSPECTOR_KIND,
    )
)
MACHINE = TaskMachine(DECISIONS, AUTOMATIC, {int(k): v for k, v in DECISION_TEXT.items()}, always_open=ALWAYS_OPEN)
assert {int(s) for s in Step} == set(DECISIONS) | set(AUTOMATIC)
advance = MACHINE.advance
apply_action = MACHINE.apply
apply_to_look = MACHINE.look
