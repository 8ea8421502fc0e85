"""Text views: the position (hands shown as sizes only) and action names seen by the deciding player."""

from __future__ import annotations

from .actions import CARD0, DRAW, NUM_ACTIONS, PASS, TRADE, VOTE, YES, action_range
from .content import CARD_TYPE, KIND_NAMES, NUM_KINDS, NUM_RES, RULES
from .escape import escape_points
from .state import NO, STEAL, WIN_ESCAPE_POINTS, WIN_ESCAPE_SET, WIN_LAST_STANDING, RoyaleData
from .steps import DECISION_TEXT, Step

_PASS_TEXT = {
    Step.PREP: "end the turn",
    Step.ACTION: "end the turn",
    Step.JOIN: "do not join",
    Step.DEFEND: "take the attack",
    Step.TRADE_GIVE: "cancel the trade",
    Step.TRADE_ASK: "cancel the trade",
    Step.TRADE_ANSWER: "refuse",
    Step.VOTE: "vote no",
}
_YES_TEXT = {
    Step.TRADE_GIVE: "done: now ask",
    Step.TRADE_ASK: "send the offer",
    Step.TRADE_ANSWER: "accept",
    Step.VOTE: "vote yes",
}
_WIN = {
    WIN_LAST_STANDING: "last player standing",
    WIN_ESCAPE_POINTS: f"escaped ({RULES.escape_points} escape points)",
    WIN_ESCAPE_SET: "escaped (set)",
}


def item_name(item: int) -> str:
    return "steal" if item == STEAL else CARD_TYPE[item].name


def describe(d: RoyaleData, action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        return f"action {action} (out of range)"
    step = Step(d.stack[-1][0]) if d.stack else None
    kind, i = action_range(action)
    if action == PASS:
        return _PASS_TEXT.get(step, "pass")
    if action == YES:
        return _YES_TEXT.get(step, "yes")
    if action == DRAW:
        return "draw 2 resource cards"
    if action == TRADE:
        return "counter-offer" if step == Step.TRADE_ANSWER else "make a trade offer"
    if action == VOTE:
        return "call a democracy vote"
    if kind == "seat":
        verb = {
            Step.RESOURCE: "steal from",
            Step.TARGET: "attack",
            Step.TRADE_PARTNER: "trade with",
            Step.LOOT_SPLIT: "give the loot card to",
        }.get(step, "seat")
        return f"{verb} P{i}"
    if kind == "craft":
        card = d.field[i] if i < len(d.field) else NO
        return f"craft {CARD_TYPE[card].name} (slot {i})" if card != NO else f"craft slot {i} (empty)"
    if kind == "item":
        verb = {Step.JOIN: "join with", Step.DEFEND: "defend with", Step.TRADE_GIVE: "offer", Step.TRADE_ASK: "ask for"}
        return f"{verb.get(step, 'use')} {CARD_TYPE[i].name} #{i}"
    if step == Step.LOOT_ROOM and action - CARD0 == d.stack[-1][2]:
        return f"leave the looted {KIND_NAMES[action - CARD0]} on the discard pile"
    verb = {
        Step.HAND_DISCARD: "discard",
        Step.LOOT_ROOM: "discard",
        Step.SALVAGE_KIND: "take",
        Step.DEFEND: "reveal",
        Step.TRADE_GIVE: "offer 1",
        Step.TRADE_ASK: "ask for 1",
    }
    return f"{verb.get(step, 'card')} {KIND_NAMES[action - CARD0]}"


def render(d: RoyaleData) -> str:
    lines = [f"Board Royale, {d.n} players, round {d.round_no}{' (preparation)' if d.round_no == 0 else ''}"]
    for s in range(d.n):
        items = [f"{CARD_TYPE[c].name}#{c}" for c, o in enumerate(d.item_owner) if o == s]
        size = sum(d.hand[s * NUM_KINDS : (s + 1) * NUM_KINDS])
        mark = ">" if s == d.active else " "
        state = f"hand {size:2d}  escape {escape_points(d, s):2d}" if d.alive[s] else f"OUT (rank {d.elim_rank[s]})"
        lines.append(f"{mark}P{s}: {state}  items: {', '.join(items) or '-'}")
    field = ", ".join(CARD_TYPE[c].name if c != NO else "-" for c in d.field)
    lines.append(f"field: {field}")
    pile = " ".join(f"{KIND_NAMES[k]}:{d.res_discard[k]}" for k in range(NUM_KINDS) if k < NUM_RES or d.res_discard[k])
    lines.append(
        f"resource deck {len(d.res_deck)}, discard {pile}; item deck {len(d.item_deck)}, discard {len(d.item_discard)}"
    )
    if d.winner != NO:
        lines.append(f"game over: P{d.winner} wins, {_WIN[d.win_kind]}")
    elif d.stack:
        step, seat, _, _ = d.stack[-1]
        lines.append(f"pending: P{seat} - {DECISION_TEXT[Step(step)]}")
    return "\n".join(lines)
