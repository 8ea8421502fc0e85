"""Text for people: action names in the context of the pending decision, and a picture of the position."""

from __future__ import annotations

from .actions import HALF0, LOC0, PASS, RES0, SLOT0, SPEC0, USE, action_range
from .build import build_cost, pay_kind
from .content import (
    BUILDING_NAMES,
    DECREES,
    DIVE_CARDS,
    DOCKS,
    FLOTILLA_NAMES,
    FLOTILLA_NAMES_B,
    LOCS_PER_FLOTILLA,
    NUM_RES,
    RESOURCE_NAMES,
    SPECIALISTS,
    WILD,
)
from .state import BOSS, BOSS_BUILDING, NO, SCORE_CATEGORIES, SOLO_TRIGGER_NAMES, TRIGGER_NAMES, SeasteadData
from .steps import DECISION_TEXT, Step
from .tokens import loc_cost, loc_effect


def flotilla_name(d: SeasteadData, f: int) -> str:
    return (FLOTILLA_NAMES_B if d.sides[f] else FLOTILLA_NAMES)[f]


def decree_text(x: int) -> str:
    return f"{DECREES[x].title} ({DECREES[x].text})"


def loc_name(loc: int) -> str:
    f, p = divmod(loc, LOCS_PER_FLOTILLA)
    return f"flotilla {f + 1} location {p + 1}"


def half_text(counts: tuple[int, ...] | list[int]) -> str:
    parts = [f"{counts[k]} {RESOURCE_NAMES[k]}" for k in range(NUM_RES) if counts[k]]
    if counts[WILD]:
        parts.append(f"{counts[WILD]} wild")
    return " + ".join(parts) or "nothing"


def boss_turns(before: SeasteadData | None, after: SeasteadData) -> list[str]:
    """Solo: what the Boss did between two positions, for the game log (all of it public): each delivery to a
    location, and the Boss building that a location's second delivery puts there. The Boss takes no turns
    of its own; it answers each dive, so there is nothing to show before the first decision."""
    if not after.solo or before is None:
        return []
    lines = []
    for loc in range(len(after.loc_bld)):
        if after.loc_bld[loc] == BOSS_BUILDING and before.loc_bld[loc] != BOSS_BUILDING:
            lines.append(f"Boss: a second delivery to {loc_name(loc)} puts a Boss building there")
            continue
        got = [after.boss_res[loc * NUM_RES + k] - before.boss_res[loc * NUM_RES + k] for k in range(NUM_RES)]
        if any(n > 0 for n in got):
            goods = " + ".join(f"{n} {RESOURCE_NAMES[k]}" for k, n in enumerate(got) if n > 0)
            lines.append(f"Boss: delivers {goods} to {loc_name(loc)}")
    return lines


def dock_text(dock_id: int) -> str:
    if dock_id == NO:
        return "-"
    dock = DOCKS[dock_id]
    marks = ",".join("." if s < 0 else BUILDING_NAMES[s][0].upper() for s in dock.sections)
    return f"dock {dock_id}[{RESOURCE_NAMES[dock.resource]} | {marks} x{dock.points}]"


def resource_choice(d: SeasteadData, step: int, kind: int) -> str:
    """A resource-kind action as a sentence of the pending decision ("take 1 metal for a wild symbol")."""
    name = RESOURCE_NAMES[kind]
    a, b = (d.stack[-1][2], d.stack[-1][3]) if d.stack else (0, 0)
    if step == Step.GIVE_KIND:  # b: a tribute (to the opponent; in solo back to the supply) or a payment
        return f"give 1 {name} to your opponent" if b and not d.solo else f"give up 1 {name}"
    if step == Step.CONVERT_TAKE:
        return f"take {a} {name} for your {RESOURCE_NAMES[b]}"
    if step == Step.TRADER_TO:
        return f"exchange all your {RESOURCE_NAMES[b]} for {name} (Trader)"
    return {
        Step.DIVE_WILD: f"take 1 {name} for a wild symbol",
        Step.FOUNDER_KIND: f"pay for this build in {name} (Founder)",
        Step.PROSPECTOR_KIND: f"make every resource of your half {name} (Prospector)",
        Step.OWNER_BONUS: f"take 1 free {name} (ship owner's bonus)",
        Step.OPPONENT_GAIN: f"take 1 free {name} (your opponent's location effect)",
        Step.CONVERT_GIVE: f"convert 1 {name}",
        Step.TRADER_FROM: f"exchange all your {name} (Trader)",
        Step.SALVAGER_KIND: f"take 1 {name} (Salvager)",
        Step.SOLO_EXTRA: f"take 1 {name} as your extra starting resource",
    }.get(step, f"take 1 {name}")


def describe(d: SeasteadData, action: int) -> str:
    kind, i = action_range(action)
    step = d.stack[-1][0] if d.stack else -1
    a = d.stack[-1][2] if d.stack else 0
    if kind == "dive":
        return "dive"
    if kind == "build":
        name = BUILDING_NAMES[i]
        return f"build {'an' if name[0] in 'aeiou' else 'a'} {name}"
    if kind == "pass":
        return "end the turn" if step == Step.AFTER else "pass"
    if kind == "use":
        return {Step.AGENT: "use the Agent: swap the halves", Step.INVESTOR: "use the Investor"}.get(
            step, "use the location effect"
        )
    if kind == "spec":
        verb = "refresh" if step == Step.REFRESH else "play"
        return f"{verb} {SPECIALISTS[i].name}"
    if kind == "half":
        if d.revealed == NO:
            return f"take half {i + 1}"
        card = DIVE_CARDS[d.revealed]
        return f"take half {i + 1} ({half_text(card.halves[i])}), opponent gets {half_text(card.halves[1 - i])}"
    if kind == "res":
        return resource_choice(d, step, i)
    if kind == "flot":
        return f"flotilla {i + 1} ({flotilla_name(d, i)})"
    if kind == "slot":
        if step == Step.DECREE_CHOICE:
            return f"put {decree_text(d.decree_drawn[i])} in force"
        if step == Step.SOLO_EXTRA:
            return f"slot {i + 1}"
        if step in (Step.DOCK_CHOICE, Step.HARBOUR_SLOT):
            return f"take {dock_text(d.dock_display[i])}"
        sid = d.spec_display[i]
        return f"take {SPECIALISTS[sid].name}" if sid != NO else f"slot {i + 1}"
    loc = i
    if step == Step.BUILD_WHERE and d.build_type != NO:
        cost = build_cost(d, loc, bool(d.engineer))
        return (
            f"build {BUILDING_NAMES[d.build_type]} at {loc_name(loc)} (pay {cost} {RESOURCE_NAMES[pay_kind(d, loc)]})"
        )
    if step in (Step.SHIP_PLACE, Step.SHIP_DEST):
        return f"ship to {loc_name(loc)}"
    if step == Step.SHIP_SELECT:
        return f"move the ship at {loc_name(loc)}"
    if step == Step.BUILDING_SELECT:
        return f"move the {BUILDING_NAMES[d.loc_bld[loc]]} at {loc_name(loc)}"
    if step == Step.BUILDING_DEST:
        return f"move it to {loc_name(loc)}"
    if step in (Step.ROW_PORT, Step.HARBOUR_PORT):
        return f"the dock at {loc_name(loc)}"
    del a
    return loc_name(loc)


def render(d: SeasteadData) -> str:
    lines = [f"Round {d.round_no + 1}  (first player: P{d.first_player})"]
    if d.end_round != NO:
        names = SOLO_TRIGGER_NAMES if d.solo else TRIGGER_NAMES
        why = ", ".join(t for bit, t in names.items() if d.triggers & bit)
        lines.append(f"End triggered ({why}): the game ends after round {d.end_round + 1}")
    lines.append(
        "Supply: "
        + ", ".join(f"{RESOURCE_NAMES[k]} {d.supply[k]}" for k in range(NUM_RES))
        + f"; cleanup {d.cleanup_supply}"
    )
    if d.decree != NO:
        lines.append(f"Decree in force: {decree_text(d.decree)}; decree deck {len(d.decree_deck)}")
    if d.decree_drawn:
        lines.append("Decrees drawn: " + "; ".join(DECREES[x].title for x in d.decree_drawn))
    for f in range(len(d.sides)):
        name = flotilla_name(d, f) + (" (B side)" if d.sides[f] else "")
        lock = " (locked)" if d.locked == f else ""
        lines.append(f"Flotilla {f + 1} {name}: demand {RESOURCE_NAMES[d.demand[f]]}{lock}")
        for p in range(LOCS_PER_FLOTILLA):
            loc = f * LOCS_PER_FLOTILLA + p
            if d.loc_bld[loc] == BOSS_BUILDING:
                what = "Boss building"
            else:
                what = "." if d.loc_bld[loc] == NO else f"P{d.loc_owner[loc]} {BUILDING_NAMES[d.loc_bld[loc]]}"
            if d.solo and d.boss_visits[loc]:
                goods = d.boss_res[loc * NUM_RES : loc * NUM_RES + NUM_RES]
                what += " Boss goods: " + half_text([*goods, 0])
            ship = f" ship P{d.ship[loc]}" if d.ship[loc] != NO else ""
            dock = f" {dock_text(d.dock_at[loc])}" if d.dock_at[loc] != NO else ""
            lines.append(f"  {p + 1}: [{loc_cost(d, loc)}] {loc_effect(d, loc).kind:<18} {what}{ship}{dock}")
    for seat in (0,) if d.solo else (0, 1):
        res = ", ".join(f"{RESOURCE_NAMES[k]} {d.res[seat * NUM_RES + k]}" for k in range(NUM_RES))
        board = "/".join(str(4 - d.built[seat * 3 + t]) for t in range(3))
        specs = [
            SPECIALISTS[s].name + ("*" if d.spec_spent[s] else "")
            for s in range(len(SPECIALISTS))
            if d.spec_owner[s] == seat
        ]
        lines.append(
            f"P{seat}: {res}; cleanup {d.cleanup[seat]}; left on board P/A/S {board};"
            f" specialists {', '.join(specs) or '-'} (* = spent)"
        )
    lines.append("Dock display: " + "; ".join(dock_text(x) for x in d.dock_display))
    lines.append("Specialist display: " + ", ".join(SPECIALISTS[x].name if x != NO else "-" for x in d.spec_display))
    if d.revealed != NO:
        card = DIVE_CARDS[d.revealed]
        lines.append(f"Revealed dive card: {half_text(card.halves[0])} | {half_text(card.halves[1])}")
    if d.stack:
        step, seat, _, _ = d.stack[-1]
        lines.append(f"P{seat} to {DECISION_TEXT[Step(step)]}")
    if d.sheet:
        lines.append(score_sheet(d))
    return "\n".join(lines)


def score_sheet(d: SeasteadData) -> str:
    if d.solo:
        boss = d.sheet[BOSS * 6 + 5]
        rows = [f"{'category':<16}{'P0':>6}"]
        rows += [f"{name:<16}{d.sheet[c]:>6}" for c, name in enumerate(SCORE_CATEGORIES[:-1])]
        rows.append(f"{'cleanup shortfall':<18}{d.shortfall[0]:>4}")
        rows.append(f"{'total':<16}{d.sheet[5]:>6}")
        result = "you beat the Boss" if d.sheet[5] > boss else "the Boss wins"
        return "\n".join([*rows, f"Boss: 20 + 3 x {d.sheet[BOSS * 6 + 2] // 3} buildings = {boss}: {result}"])
    rows = [f"{'category':<16}{'P0':>6}{'P1':>6}"]
    for c, name in enumerate(SCORE_CATEGORIES):
        if name == "total":  # seed: a cleanup shortfall is written on the score pad (recorded, not scored)
            rows.append(f"{'cleanup shortfall':<18}{d.shortfall[0]:>4}{d.shortfall[1]:>6}")
        rows.append(f"{name:<16}{d.sheet[c]:>6}{d.sheet[6 + c]:>6}")
    return "\n".join(rows)


__all__ = ["HALF0", "LOC0", "PASS", "RES0", "SLOT0", "SPEC0", "USE", "describe", "render", "score_sheet"]
