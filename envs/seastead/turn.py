"""The turn machine: the stack of pending tasks, decision handlers, automatic steps, rounds and the end.

Seed: "Oyun turlar halinde oynanır; her turda her oyuncu bir kez hamle yapar ... Sıra size geldiğinde ya dalış
ya da inşa yaparsınız. Kurallara uygun bir inşa yapamıyorsanız ... dalış yapmak zorundasınız." End: "Bu
koşullardan biri gerçekleştiğinde mevcut tur tamamlanır, ardından 1 tur daha oynanır".
"""

from __future__ import annotations

from ..core.tasks import Apply, ArgsCheck, Legal, TaskMachine, args_problem
from . import bonuses, build, dive, effects
from .actions import BUILD0, DIVE, LOC0, PASS, RES0, SLOT0, SPEC0
from .content import DIVE_CARDS, NUM_FLOTILLAS, NUM_LOCS, NUM_RES, SETUP, SIDE_LOCATIONS, WILD, Bld
from .ending import record_triggers
from .scoring import final_scoring
from .specialists import TIMING, play, plays
from .state import NO, SeasteadData
from .steps import DECISION_TEXT, Step
from .tokens import gain, loc_effect, pay, supplied_kinds


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


# --- what a saved stack may hold ------------------------------------------------------------------------
#: wilds one share of a dive card can give: the most a half shows, plus the Trawler's and a decree's
_MAX_WILD = max(half[WILD] for card in DIVE_CARDS for half in card.halves) + 2
#: the largest ``n`` of a location effect (resources of a gain_any, of a convert)
_MAX_N = max(loc.effect.n for side in SIDE_LOCATIONS for loc in side)
_ALL_LOCS = 1 << NUM_LOCS  # bound of a bitmask of locations


def _loc(x: int) -> bool:
    return 0 <= x < NUM_LOCS


def _kind(x: int) -> bool:
    return 0 <= x < NUM_RES


def _flotilla(x: int) -> bool:
    return 0 <= x < NUM_FLOTILLAS


def _type_left(d: SeasteadData, seat: int) -> bool:
    """The building type of this build is one ``seat`` still has on its board."""
    return d.build_type != NO and d.built[seat * 3 + d.build_type] < SETUP.buildings_per_type


#: per step (:func:`~meeplezoo.envs.core.tasks.args_problem`), whether a task's ``(seat, a, b)`` are what the
#: handlers that push it give (``a == b == 0`` for the steps not listed): in range for the lists they index, and
#: naming what is really there
TASK_ARGS: dict[int, ArgsCheck] = {
    Step.DIVE_WILD: lambda d, s, a, b: 1 <= a <= _MAX_WILD and b == 0,
    Step.BUILD_WHERE: lambda d, s, a, b: a == b == 0 and _type_left(d, s),
    Step.FOUNDER_KIND: lambda d, s, a, b: a == b == 0 and _type_left(d, s),
    Step.INVESTOR: lambda d, s, a, b: _kind(a) and b == 0,
    Step.DOCK_CHOICE: lambda d, s, a, b: (
        _loc(a) and b == 0 and d.loc_owner[a] == s and d.loc_bld[a] == Bld.PORT and d.dock_at[a] == NO
    ),
    Step.SHIP_PLACE: lambda d, s, a, b: (a == NO or (_loc(a) and d.ship[a] == s)) and b == 0,
    Step.EFFECT_USE: lambda d, s, a, b: _loc(a) and b == 0 and loc_effect(d, a).kind in ("gain", "cleanup", "decree"),
    Step.EFFECT_KIND: lambda d, s, a, b: 1 <= a <= _MAX_N and b == 0,
    Step.GIVE_KIND: lambda d, s, a, b: a == 0 and b in (0, 1),
    Step.CONVERT_GIVE: lambda d, s, a, b: 1 <= a <= _MAX_N and b == 0,
    Step.CONVERT_TAKE: lambda d, s, a, b: 1 <= a <= _MAX_N and _kind(b) and d.res[s * NUM_RES + b] > 0,
    Step.REFRESH: lambda d, s, a, b: a in (0, 1) and b == 0,
    Step.SHIP_SELECT: lambda d, s, a, b: 0 <= a <= 2 and 0 <= b < _ALL_LOCS,
    Step.SHIP_DEST: lambda d, s, a, b: (
        0 <= a <= 2 and b >= 0 and _loc(b & 31) and b >> 5 < _ALL_LOCS and d.ship[b & 31] == s
    ),
    Step.DEMAND_A: lambda d, s, a, b: a in (0, 1) and b == 0,
    Step.DEMAND_B: lambda d, s, a, b: a in (0, 1) and _flotilla(b) and b != d.locked,
    Step.DEMAND_LOCK: lambda d, s, a, b: _flotilla(a) and _flotilla(b) and a != b and d.locked not in (a, b),
    Step.BUILDING_SELECT: lambda d, s, a, b: a in (0, 1) and b == 0,
    Step.BUILDING_DEST: lambda d, s, a, b: (
        a in (0, 1)
        and _loc(b)
        and d.loc_bld[b] in (Bld.ACADEMY, Bld.SHIPYARD)
        and d.loc_owner[b] == (s if a == 0 else 1 - s)
    ),
    Step.TRADER_TO: lambda d, s, a, b: a == 0 and _kind(b),
    Step.HARBOUR_SLOT: lambda d, s, a, b: a == 0 and _loc(b) and d.dock_at[b] != NO and d.loc_owner[b] == s,
    Step.AFTER: lambda d, s, a, b: a == (d.build_type != NO) and b == 0,
    Step.TAKE_HALF: lambda d, s, a, b: a in (0, 1) and b == 0 and (a == 0 or not d.solo),
    Step.BUILDING_EFFECT: lambda d, s, a, b: (
        a == d.built_loc != NO and b == 0 and d.loc_owner[a] == s and d.loc_bld[a] == d.build_type
    ),
    Step.LOCATION_EFFECT: lambda d, s, a, b: a == d.built_loc != NO and b == 0,
    Step.SHIP_DISPLACED: lambda d, s, a, b: _loc(a) and (b == 1 or (b == 0 and a == d.built_loc)),
    Step.ROW_CHECK: lambda d, s, a, b: a == d.build_type != NO and b == 0,
}
#: steps of the active player's opponent (reactions, the other share, a bonus or gain the opponent takes)
_OPPONENT_STEPS = frozenset({Step.AGENT, Step.INVESTOR, Step.OWNER_BONUS, Step.OPPONENT_GAIN})
#: steps of either seat: wilds of either share, a ship's owner placing it
_EITHER_SEAT = frozenset({Step.DIVE_WILD, Step.SHIP_PLACE})
#: steps that only a build turn (its type chosen) pushes
_BUILD_STEPS = frozenset(
    {Step.BUILD_WHERE, Step.FOUNDER_KIND, Step.INVESTOR, Step.COLUMN_CHECK, Step.ROW_CHECK, Step.BUILDING_EFFECT}
)
#: steps a position waits at no more than once: a turn's frame, the dive's and the build's steps, reactions, the
#: choices of a location effect or a bonus (resolved before the next one is pushed) and of a specialist (each is
#: played once a turn)
_ONCE = frozenset(
    {
        *(Step.MAIN, Step.END_TURN, Step.AFTER, Step.DIVE_SPLIT, Step.AGENT, Step.DISCARD_DIVE, Step.BOSS_DELIVERY),
        *(Step.BUILD_WHERE, Step.FOUNDER_KIND, Step.PROSPECTOR_KIND, Step.INVESTOR, Step.BUILDING_EFFECT),
        *(Step.DOCK_CHOICE, Step.SPECIALIST_CHOICE, Step.LOCATION_EFFECT, Step.SHIP_DISPLACED, Step.ROW_CHECK),
        *(Step.COLUMN_CHECK, Step.DECREE_CHOICE, Step.EFFECT_USE, Step.GIVE_KIND, Step.CONVERT_GIVE),
        *(Step.CONVERT_TAKE, Step.DEMAND_A, Step.DEMAND_B, Step.DEMAND_LOCK, Step.ROW_PORT, Step.BUILDING_SELECT),
        *(Step.BUILDING_DEST, Step.TRADER_FROM, Step.TRADER_TO, Step.HARBOUR_PORT, Step.HARBOUR_SLOT),
        Step.SALVAGER_KIND,
    }
)
#: what lies right below a step that only ever goes on top of one other (the effects of a building just built)
_ON_TOP_OF = {
    Step.INVESTOR: Step.BUILDING_EFFECT,
    Step.BUILDING_EFFECT: Step.LOCATION_EFFECT,
    Step.DOCK_CHOICE: Step.LOCATION_EFFECT,
    Step.SPECIALIST_CHOICE: Step.LOCATION_EFFECT,
}
#: steps of a dive in progress (the revealed card waits for DISCARD_DIVE)
_DIVE_STEPS = frozenset({Step.DIVE_SPLIT, Step.AGENT, Step.TAKE_HALF, Step.BOSS_DELIVERY, Step.DISCARD_DIVE})


def stack_problem(d: SeasteadData) -> str | None:
    """What makes a saved task stack impossible, or None (the ``TaskMachine`` already checked the step ids and
    seats). A turn starts as ``MAIN`` (``SOLO_EXTRA`` at the solo setup), then lies on ``END_TURN`` and
    ``AFTER``; a dive keeps its card revealed until ``DISCARD_DIVE`` (just above ``AFTER``); build steps need
    the type chosen; each task's seat and arguments are those its handlers push (:data:`TASK_ARGS`)."""
    stack = d.stack
    if not stack:
        return None
    steps = [t[0] for t in stack]
    bottom = steps[0]
    if bottom not in (Step.MAIN, Step.END_TURN, Step.SOLO_EXTRA) or (bottom == Step.SOLO_EXTRA) != (
        len(stack) == 1 and d.solo and d.round_no == 0 and steps == [Step.SOLO_EXTRA]
    ):
        return f"a turn does not start with {Step(bottom).name}"
    if any(s in (Step.MAIN, Step.END_TURN, Step.SOLO_EXTRA) for s in steps[1:]):
        return "a turn's first or last step above the bottom of the stack"
    if Step.REVEAL in steps:  # it runs the moment it is pushed
        return "a dive card waits to be revealed"
    twice = [Step(s).name for s in _ONCE if steps.count(s) > 1]
    twice += [Step(t[0]).name for t in set(stack) if t[0] != Step.OWNER_BONUS and stack.count(t) > 1]
    if twice or [t[2] for t in stack if t[0] == Step.TAKE_HALF] not in ([], [0], [1], [1, 0]):
        return f"tasks that a position holds once are there twice: {twice or ['TAKE_HALF']}"
    moving = [t[2] for t in stack if t[0] == Step.SHIP_PLACE and t[2] != NO]
    moving += [t[3] & 31 for t in stack if t[0] == Step.SHIP_DEST]
    if len(set(moving)) != len(moving):
        return "two pending moves of one ship"
    for i, s in enumerate(steps):
        below = _ON_TOP_OF.get(s)
        if below is not None and (i == 0 or steps[i - 1] != below):
            return f"task {Step(s).name} is not right above {below.name}"
    if (bottom == Step.END_TURN) != (len(steps) > 1 and steps[1] == Step.AFTER) or Step.AFTER in steps[2:]:
        return "END_TURN and AFTER are not the two bottom tasks"
    if Step.DISCARD_DIVE in steps[:2] + steps[3:] or (
        any(s in _DIVE_STEPS for s in steps) and steps[2:3] != [Step.DISCARD_DIVE]
    ):
        return "a dive step without DISCARD_DIVE on AFTER"
    if (d.revealed != NO) != (Step.DISCARD_DIVE in steps):
        return "a revealed dive card outside a dive, or a dive without one"
    pending_half = any(s in (Step.AGENT, Step.TAKE_HALF, Step.BOSS_DELIVERY) for s in steps)
    if pending_half and Step.DIVE_SPLIT not in steps and d.mine_half not in (0, 1):
        return "the dive card's halves are shared out but mine_half is not set"
    if Step.BOSS_DELIVERY in steps and not d.solo:
        return "a Boss delivery outside the solo mode"
    if d.build_type == NO and any(s in _BUILD_STEPS for s in steps):
        return "a build step outside a build"
    if bool(d.decree_drawn) != (Step.DECREE_CHOICE in steps):
        return "drawn decrees without the decree choice, or the choice without them"
    for step, seat, a, _ in stack:
        if step in _OPPONENT_STEPS or (step == Step.TAKE_HALF and a == 1):
            right_seat = not d.solo and seat == 1 - d.active
        else:
            right_seat = step in _EITHER_SEAT or seat == d.active
        if not right_seat:
            return f"task {Step(step).name} of seat {seat} while seat {d.active} is active"
    return args_problem(d, TASK_ARGS, lambda s: Step(s).name)
