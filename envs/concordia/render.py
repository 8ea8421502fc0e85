"""Text views: the position (``render``) and action names (``describe``) for people."""

from __future__ import annotations

from .actions import CASH, PASS, TAX, action_range, decode_trade
from .content import CARDS, COLONISTS, GOOD_NAMES, MAX_CITIES, NUM_GOODS
from .scoring import CATEGORIES, seat_sheet
from .stalling import IDLE_TURNS, stalled
from .state import NO, ConcordiaData, board_of
from .steps import DECISION_TEXT, Step

KIND = ("land", "sea")


def card_name(c: int) -> str:
    card = CARDS[c]
    numeral = ("start", "I", "II", "III", "IV", "V")[card.deck]
    return f"{card.name} [{card.god.name.capitalize()}, {numeral}]"


def route_name(d: ConcordiaData, r: int) -> str:
    m = board_of(d)
    if r >= m.num_routes:
        return f"route {r}"
    a, b, kind = m.routes[r]
    return f"{KIND[kind]} route {m.cities[a]}-{m.cities[b]}"


def city_name(d: ConcordiaData, c: int) -> str:
    m = board_of(d)
    return m.cities[c] if c < m.num_cities else f"city {c}"


def describe(d: ConcordiaData, action: int) -> str:
    name, i = action_range(action)
    m = board_of(d)
    if action == PASS:
        return "stop / pass"
    if name == "play":
        return f"play {card_name(i)}"
    if name == "colonist":
        return f"move {KIND[i // 3]} colonist {i}"
    if name == "route":
        return f"to the {route_name(d, i)}"
    if name == "city":
        return f"build a house in {city_name(d, i)}"
    if name == "province":
        p = m.provinces[i] if i < len(m.provinces) else f"province {i}"
        return f"production in {p}"
    if action == CASH:
        return "cash bonus"
    if name == "trade":
        g, sell, count = decode_trade(action)
        return f"{'sell' if sell else 'buy'} {count} {GOOD_NAMES[g]}"
    if name == "seat":
        return f"copy the top discard of P{i}"
    if name == "slot":
        return f"buy Forum slot {i + 1}"
    if name == "good":
        return f"{GOOD_NAMES[i]}"
    if name == "place":
        kind, c = divmod(i, MAX_CITIES)
        return f"new {KIND[kind]} colonist in {city_name(d, c)}"
    if action == TAX:
        return "take 5 sesterces + 1 per colonist on the board"
    return name


def render(d: ConcordiaData) -> str:
    m = board_of(d)
    lines = [f"Concordia ({m.name}, {d.n} players), turn {d.turns + 1}"]
    if d.stack:
        step, seat, _, _ = d.stack[-1]
        lines.append(f"P{seat} to {DECISION_TEXT[Step(step)]}")
    else:
        out = [s for s in range(d.n) if stalled(d, s)]
        why = f": P{out[0]} lost by the stall limit ({IDLE_TURNS} turns without a house or Forum card)" if out else ""
        lines.append("game over" + why)
    forum = ", ".join(card_name(c) if c != NO else "-" for c in d.forum)
    lines.append(f"Forum: {forum}; deck {len(d.deck)} cards")
    lines.append(
        "Markers: "
        + ", ".join(
            f"{p}:{GOOD_NAMES[d.province_good[i]]}{'' if d.marker[i] else '(coin)'}" for i, p in enumerate(m.provinces)
        )
    )
    show = d.intermediate or not d.stack
    for s in range(d.n):
        goods = " ".join(f"{GOOD_NAMES[g]}={d.goods[s * NUM_GOODS + g]}" for g in range(NUM_GOODS))
        tags = ("  [Praefectus Magnus]" if d.pm == s else "") + ("  [Concordia]" if d.concordia == s else "")
        lines.append(f"P{s}: {d.money[s]} sesterces, {goods}{tags}")
        lines.append("  hand: " + ", ".join(CARDS[c].name for c in d.hand[s]))
        lines.append("  discard: " + ", ".join(CARDS[c].name for c in d.discard[s]))
        lines.append("  houses: " + ", ".join(f"{m.cities[c]}({GOOD_NAMES[d.city_good[c]]})" for c in d.houses[s]))
        where = []
        for i in range(COLONISTS):
            pos = d.col[s * COLONISTS + i]
            if pos == NO:
                where.append(f"{KIND[i // 3]}:store")
            elif pos < m.num_cities:
                where.append(f"{KIND[i // 3]}:{m.cities[pos]}")
            else:
                a, b, _ = m.routes[pos - m.num_cities]
                where.append(f"{KIND[i // 3]}:{m.cities[a]}-{m.cities[b]}")
        lines.append("  colonists: " + ", ".join(where))
        if show:
            sheet = seat_sheet(d, s)
            lines.append("  score: " + ", ".join(f"{k} {v}" for k, v in zip(CATEGORIES, sheet, strict=True)))
    return "\n".join(lines)
