"""Text views of a Resafa position: the board, action names and the score sheet."""

from __future__ import annotations

from collections.abc import Callable

from . import names
from .actions import action_range
from .bot import current
from .content import ACTIONS, COLOURS, ITEMS, Choice, content, describe_all, describe_bundle
from .effects import EFFECTS
from .geometry import CELLS, SIZE, network
from .hand import halves
from .solo import BOT, SOLO
from .state import CATEGORIES, NO, NUM_ITEMS, ResafaData
from .steps import DECISION_TEXT, Step
from .tracks import face_down
from .trade import GOLD_PENDING, road_cost

C = content()
S = C.setup
_OPTS = ("take a {c} bonus card", "step on the {c} track", "draw a sack card")
_ANY_OPTS = ("take a bonus card of any colour", "step on a track of your choice", "draw a sack card")  # provisions


def card_name(card: int) -> str:
    """An action card as a player reads it: by its halves (a yellow special card by its name too)."""
    return names.action_card_text(card)


def describe(d: ResafaData, action: int) -> str:
    """A readable name of ``action`` in the pending decision's context, in the players' words (no internal ids:
    cards by what they do, places by where the table draws them; :mod:`.names`)."""
    name, i = action_range(action)
    step, seat, a, b = d.stack[-1] if d.stack else (NO, 0, 0, 0)
    if name == "SLOT0":
        return f"play {card_name(d.hand[seat][i])}" if i < len(d.hand[seat]) else "play a card from your hand"
    return _NAMES[name](d, step, seat, a, b, i)


def _half(d: ResafaData, i: int) -> str:
    what = names.half_text(halves(d.card)[i]) if d.card != NO else ("the top half", "the bottom half")[i]
    return f"{what} on top"


def _option(d: ResafaData, step: int, a: int, i: int) -> str:
    if step == Step.CHOICE and 0 <= a < len(EFFECTS) and isinstance(EFFECTS[a], Choice) and i < len(EFFECTS[a].options):
        return describe_all(EFFECTS[a].options[i])
    if step == Step.COLOUR_OPT and i < len(_OPTS):
        return _OPTS[i].format(c=COLOURS[a]) if a != NO else _ANY_OPTS[i]
    return ("a bonus card", "a track step", "a sack card", "the fourth option")[i]


def _show(d: ResafaData, i: int) -> str:
    card = d.bonus_display[i]
    what = names.effect_text(C.bonus_cards[card]) if card != NO else "an empty place"
    return f"take the {COLOURS[i // 3]} bonus card: {what}"


def _take_top(d: ResafaData, deck: int) -> str:
    top = names.top_special(d, deck) if 0 <= deck < len(d.spec_decks) else None
    card = names.special_text(top) if top is not None else "the face-up special card"
    return f"take {card}, face up (+{describe_bundle(S.special_take_bonus)})"


def _pick(d: ResafaData, deck: int, i: int) -> str:
    hidden = sorted(face_down(d, deck)) if 0 <= deck < len(d.spec_decks) else []
    what = C.specials[hidden[i]].name if i < len(hidden) else "a special card"
    return f"take {what} from the searched face-down deck"


def _ws_pick(d: ResafaData, i: int) -> str:
    tile = d.ws_display[i]
    return f"take the {names.workshop_text(tile)}" if tile != NO else "take a workshop from the display"


def _face(step: int, tile: int, i: int) -> str:
    side = ("front", "back")[i]
    if step == Step.WS_FACE and tile != NO:
        return f"{side} side up: {names.workshop_text(tile, i)}"
    return f"{side} side up"


def _cell(step: int, i: int) -> str:
    if step == Step.WS_CELL:
        return f"put the workshop at {names.cell_name(i)}"
    return f"the garden square at {names.cell_name(i)}"


def _rotation(i: int) -> str:
    return "not turned" if i == 0 else f"turned {90 * i} degrees clockwise"


def _room(d: ResafaData, seat: int, i: int) -> str:
    cell, room = divmod(i, 2)
    at = seat * CELLS + cell
    tile = d.ws_tile[at]
    if tile == NO:
        return f"a production room of the workshop at {names.cell_name(cell)}"
    w = C.workshops[tile]
    rooms = (w.back if d.ws_face[at] else w.front).rooms
    what = describe_all(rooms[room].effects) if room < len(rooms) else "a room"
    return f"produce {what} (workshop at {names.cell_name(cell)})"


def _gpos(size: int, i: int) -> str:
    orient, start = divmod(i, 3)
    words = names.STRIPS[orient]
    strips = f"{words[start]} strip" if size == 0 or start == 2 else f"{words[start]} and {words[start + 1]} strips"
    return f"lay it {('across', 'down')[orient]} the square, on the {strips}"


def _box(d: ResafaData, i: int) -> str:
    net = network(d.players)
    box = net.boxes[i] if i < len(net.boxes) else None
    bonus = [describe_all(box.effects)] if box is not None and box.effects else []
    if i < len(d.cbonus_at) and d.cbonus_at[i] != NO:
        bonus.append(describe_all(C.canal_bonus_tiles[d.cbonus_at[i]].effects))
    return f"put it at {names.box_name(d.players, i)}" + (f" (bonus: {', '.join(bonus)})" if bonus else "")


def _move(d: ResafaData, seat: int, discount: int, i: int) -> str:
    node, via = divmod(i, 2)
    cost = road_cost(d, seat, node, bool(via), discount)
    where = names.centre_name(node) + (" through Resafa" if via else "")
    return f"camel to {where} ({names.plural(cost, 'coin')})"


def _count(d: ResafaData, step: int, seat: int, a: int, b: int, i: int) -> str:
    n = i + 1
    if step == Step.LOAD_COUNT and 0 <= a < NUM_ITEMS:
        return f"load {n} {ITEMS[a]}"
    if step == Step.DEAL_COUNT:
        return f"{('buy', 'sell')[a]} {n} {names.deal_item(d, b % GOLD_PENDING)}"
    return str(n)


def _use(step: int) -> str:
    return {
        Step.BUILD_OFFER: "yes, do it now",
        Step.CONVERT: "convert once more",
        Step.DEAL_COUNT: "take the gold bonus first",
    }.get(step, "yes")


def _pass(step: int) -> str:
    return {
        Step.HAND_LIMIT: "done: end your turn",
        Step.PRODUCE: "stop producing",
        Step.DEAL: "no deal",
        Step.POST_BOX: "build no trading post",
        Step.BUILD_OFFER: "no, decline",
        Step.CONVERT: "stop converting",
        Step.LOAD_ITEM: "load nothing",
    }.get(step, "pass")


def _deal(d: ResafaData, node: int, kind: int) -> str:
    if not 0 <= node < len(C.centres) or d.trade_tile[node] == NO:
        return ("buy", "sell")[kind]
    deal = C.trading_tiles[d.trade_tile[node]].sides[d.trade_side[node]]
    item = ITEMS[deal.item]
    return (
        f"buy {item} ({names.plural(deal.buy, 'coin')} each)"
        if kind == 0
        else (f"sell {item} ({describe_bundle(deal.sell)} each)")
    )


_NAMES: dict[str, Callable[[ResafaData, int, int, int, int, int], str]] = {
    "PASS": lambda d, st, s, a, b, i: _pass(st),
    "LOOK": lambda d, st, s, a, b, i: "look at (and reshuffle) your deck",
    "HALF0": lambda d, st, s, a, b, i: _half(d, i),
    "MAIN0": lambda d, st, s, a, b, i: f"main action {ACTIONS[i]}",
    "COLOUR0": lambda d, st, s, a, b, i: f"colour {COLOURS[i]}",
    "MAIN_FIRST": lambda d, st, s, a, b, i: "main action first",
    "COLOUR_FIRST": lambda d, st, s, a, b, i: "colour action first",
    "OPT0": lambda d, st, s, a, b, i: _option(d, st, a, i),
    "SHOW0": lambda d, st, s, a, b, i: _show(d, i),
    "TAKE_TOP": lambda d, st, s, a, b, i: _take_top(d, a),
    "SEARCH": lambda d, st, s, a, b, i: f"search the {names.deck_name(a)}" if 0 <= a < len(d.spec_decks) else "search",
    "PICK0": lambda d, st, s, a, b, i: _pick(d, a, i),
    "WS0": lambda d, st, s, a, b, i: _ws_pick(d, i),
    "FACE0": lambda d, st, s, a, b, i: _face(st, a, i),
    "CELL0": lambda d, st, s, a, b, i: _cell(st, i),
    "ROT0": lambda d, st, s, a, b, i: _rotation(i),
    "ROOM0": lambda d, st, s, a, b, i: _room(d, s, i),
    "SIZE0": lambda d, st, s, a, b, i: ("small", "large")[i] + " garden tile",
    "GPOS0": lambda d, st, s, a, b, i: _gpos(a if st == Step.GARDEN_POS else 0, i),
    "CANAL0": lambda d, st, s, a, b, i: names.canal_text(i // 2, i % 2),
    "BOX0": lambda d, st, s, a, b, i: _box(d, i),
    "MOVE0": lambda d, st, s, a, b, i: _move(d, s, a if st == Step.TRADE_MOVE else 0, i),
    "ITEM0": lambda d, st, s, a, b, i: f"load {ITEMS[i]}",
    "COUNT0": _count,
    "BUY": lambda d, st, s, a, b, i: _deal(d, a, 0),
    "SELL": lambda d, st, s, a, b, i: _deal(d, a, 1),
    "POSTBOX0": lambda d, st, s, a, b, i: f"build a {names.post_text(d.camel_at[s], i)}",
    "ROW0": lambda d, st, s, a, b, i: f"merchant token on the {('garden', 'workshop', 'canal')[i]} row",
    "DIR0": lambda d, st, s, a, b, i: f"water flows {names.DIRECTIONS[i]}",
    "USE": lambda d, st, s, a, b, i: _use(st),
    "USE_BONUS0": lambda d, st, s, a, b, i: f"use a bonus card: {names.effect_text(C.bonus_cards[i])}",
    "USE_SACK0": lambda d, st, s, a, b, i: f"use a sack card: {names.effect_text(C.sack_cards[i])}",
    "USE_CB0": lambda d, st, s, a, b, i: f"use a canal bonus tile: {names.effect_text(C.canal_bonus_tiles[i])}",
    "USE_SPEC0": lambda d, st, s, a, b, i: f"use {names.special_text(i)}",
    "DROP_BONUS0": lambda d, st, s, a, b, i: f"discard a bonus card: {names.effect_text(C.bonus_cards[i])}",
    "DROP_SACK0": lambda d, st, s, a, b, i: (
        f"discard a sack card unused: {names.effect_text(C.sack_cards[i])} (+{S.sack_discard_vp} VP)"
    ),
}


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
            f"P{s}: {d.vp[s]} VP, {names.plural(d.coins[s], 'coin')}, store: {items}; "
            f"camel at {names.centre_name(d.camel_at[s])} ({cargo})"
            f"; tracks {tracks}; gardens done {d.gardens_done[s]}; gate {d.gate[s]} rows {d.rows[s * 3 : s * 3 + 3]}"
        )
        specials = ", ".join(C.specials[i].name for i, o in enumerate(d.spec_owner) if o == s) or "none"
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
        lines += render_bot(d)
    return "\n".join(lines)


def render_bot(d: ResafaData) -> list[str]:
    """Resafabot's public pieces for the text board."""
    tracks = " ".join(f"{COLOURS[c][0]}{d.bot_track[c]}" for c in range(4))
    top = names.solo_card_name(d.bot_deck[-1])
    now = current(d)
    of = names.solo_card_name(SOLO.cards.index(now[0])) if now else ""
    last = f"; last: {now[1].action.name.lower()} / {now[1].colour.name.lower()} of {of}" if now else ""
    posts = sorted({names.centre_name(i // 4) for i, o in enumerate(d.post_owner) if o == BOT})
    return [
        f"Resafabot ({'starts' if d.bot_first else 'second'} this round): tracks {tracks}; solo deck top {top}, "
        f"{len(d.bot_deck) - 1} below, {len(d.bot_shown)} revealed{last}",
        f"    canal tiles left {len(d.bot_canals)}; posts {', '.join(posts) or 'none'}; water cubes {d.bot_cubes}",
    ]


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
