"""Text views of a Resafa position: the board, action names and the score sheet."""

from __future__ import annotations

from .actions import action_range
from .cards import halves
from .content import ACTIONS, COLOURS, ITEMS, content
from .geometry import CELLS, SIDE_NAMES, SIZE, network
from .state import CATEGORIES, NO, NUM_ITEMS, YELLOW0, ResafaData
from .steps import DECISION_TEXT

C = content()
_OPTS = ("bonus card", "track step", "sack card", "option 3")


def card_name(card: int) -> str:
    c = C.action_cards[card] if card < YELLOW0 else C.specials[card - YELLOW0]
    parts = []
    for h in halves(card):
        act = ACTIONS[h.action] if h.action is not None else "any action"
        col = COLOURS[h.colour] if h.colour is not None else "any colour"
        parts.append(f"{act}/{col}")
    return f"{c.id} ({' | '.join(parts)})"


def describe(d: ResafaData, action: int) -> str:
    """A readable name of ``action`` (in the pending decision's context where it helps)."""
    name, i = action_range(action)
    seat = d.stack[-1][1] if d.stack else 0
    if name == "SLOT0":
        return f"play {card_name(d.hand[seat][i])}" if i < len(d.hand[seat]) else f"play hand slot {i}"
    table = {
        "PASS": lambda: "pass / done",
        "LOOK": lambda: "look at (and reshuffle) your deck",
        "HALF0": lambda: f"half {i} on top",
        "MAIN0": lambda: f"main action {ACTIONS[i]}",
        "COLOUR0": lambda: f"colour {COLOURS[i]}",
        "MAIN_FIRST": lambda: "main action first",
        "COLOUR_FIRST": lambda: "colour action first",
        "OPT0": lambda: f"option {i} ({_OPTS[i]})",
        "SHOW0": lambda: f"bonus display slot {i} ({COLOURS[i // 3]})",
        "TAKE_TOP": lambda: "take the face-up special card (+1 VP, +1 coin)",
        "SEARCH": lambda: "search the special deck",
        "PICK0": lambda: f"face-down special card #{i}",
        "WS0": lambda: f"workshop display slot {i} (level {'I' if i < 3 else 'II'})",
        "FACE0": lambda: ("front", "back")[i] + " side up",
        "CELL0": lambda: f"cell ({i // SIZE}, {i % SIZE})",
        "ROT0": lambda: f"rotation {90 * i} degrees",
        "ROOM0": lambda: f"room {i % 2} of the workshop at ({i // 2 // SIZE}, {i // 2 % SIZE})",
        "SIZE0": lambda: ("small", "large")[i] + " garden tile",
        "GPOS0": lambda: ("horizontal", "vertical")[i // 3] + f" from strip {i % 3}",
        "CANAL0": lambda: f"canal tile {C.canal_tiles[i // 2].id}" + (" (water tank)" if i % 2 else ""),
        "BOX0": lambda: f"network box ({i // network(d.players).cols}, {i % network(d.players).cols})",
        "MOVE0": lambda: f"camel to {C.centres[i // 2].id}" + (" through Resafa" if i % 2 else ""),
        "ITEM0": lambda: ITEMS[i],
        "COUNT0": lambda: f"{i + 1}",
        "BUY": lambda: "buy",
        "SELL": lambda: "sell",
        "POSTBOX0": lambda: f"trading post box {i}",
        "ROW0": lambda: ("garden", "workshop", "canal")[i] + " row",
        "DIR0": lambda: f"water flows {SIDE_NAMES[i]}",
        "USE": lambda: "yes",
        "USE_BONUS0": lambda: f"use bonus card {C.bonus_cards[i].id}",
        "USE_SACK0": lambda: f"use sack card {C.sack_cards[i].id}",
        "USE_CB0": lambda: f"use canal bonus tile {C.canal_bonus_tiles[i].id}",
        "USE_SPEC0": lambda: f"use special card {C.specials[i].id}",
        "DROP_BONUS0": lambda: f"discard bonus card {C.bonus_cards[i].id}",
        "DROP_SACK0": lambda: f"discard sack card {C.sack_cards[i].id} (+1 VP)",
    }
    return table[name]()


def render(d: ResafaData) -> str:
    who = "solo against Resafabot" if d.players == 1 else f"{d.players} players"
    lines = [f"Resafa, {who} - round {min(d.round_no, 6)}, start player P{d.first}"]
    if d.stack:
        step, seat, _, _ = d.stack[-1]
        lines.append(f"P{seat} to decide: {DECISION_TEXT.get(step, step)}")
    else:
        lines.append("game over")
    for s in range(d.players):
        st = d.store[s * NUM_ITEMS : s * NUM_ITEMS + NUM_ITEMS]
        items = ", ".join(f"{ITEMS[k]} {v}" for k, v in enumerate(st) if v) or "nothing"
        cargo = f"{d.camel_load[s]} {ITEMS[d.camel_item[s]]}" if d.camel_item[s] != NO else "empty"
        tracks = " ".join(f"{COLOURS[c][0]}{d.track[s * 4 + c]}" for c in range(4))
        lines.append(
            f"P{s}: {d.vp[s]} VP, {d.coins[s]} coins, store: {items}; camel at {C.centres[d.camel_at[s]].id} ({cargo})"
            f"; tracks {tracks}; gardens done {d.gardens_done[s]}; gate {d.gate[s]} rows {d.rows[s * 3 : s * 3 + 3]}"
        )
        specials = ", ".join(C.specials[i].id for i, o in enumerate(d.spec_owner) if o == s) or "none"
        lines.append(
            f"    cards: {len(d.hand[s])} in hand, {len(d.deck[s])} in deck, {len(d.bonus_hand[s])} bonus, "
            f"{len(d.sack_hand[s])} sack; special cards: {specials}; water cubes {d.cubes_taken[s]}"
        )
        lines.append(f"    area: {_area(d, s)}")
    net = network(d.players)
    for r in range(net.rows):
        row = []
        for c in range(net.cols):
            b = r * net.cols + c
            o = d.canal_owner[b]
            who = "R" if o >= d.players else f"P{o}"  # solo: R = Resafabot
            row.append(
                f"{who}{'T' if d.canal_side[b] else 'c'}" if o != NO else ("b+" if d.cbonus_at[b] != NO else " .")
            )
        lines.append("    canals: " + " ".join(row))
    if d.players == 1:
        from .solo import render_bot

        lines += render_bot(d)
    return "\n".join(lines)


def _area(d: ResafaData, s: int) -> str:
    rows = []
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            i = s * CELLS + r * SIZE + c
            if d.ws_tile[i] != NO:
                cells.append("W" + ("b" if d.ws_face[i] else "f"))
            elif d.g_orient[i] != NO:
                cells.append("g" + str(bin(d.g_strips[i]).count("1")))
            else:
                cells.append("..")
        rows.append(" ".join(cells))
    return " / ".join(rows)


def score_sheet(d: ResafaData) -> str:
    k = len(CATEGORIES)
    head = f"{'':14}" + "".join(f"{'P' + str(s):>6}" for s in range(d.players))
    lines = [head]
    for c, name in enumerate(CATEGORIES):
        lines.append(f"{name:14}" + "".join(f"{d.sheet[s * k + c]:>6}" for s in range(d.players)))
    return "\n".join(lines)
