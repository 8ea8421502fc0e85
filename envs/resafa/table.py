"""Resafa's table for one seat (``envs.core.table``): other hands and sacks are sizes, draw piles counts.

``view`` is the position shaped as the table: each player's area (the 5 x 5 grid of workshops and garden
squares), storehouse, camel, colour tracks and cards; the canal network; the trade map with its trading
tiles, posts and camels; the displays; every card and tile by its name and printed effects. ``fixed`` is the
trade map's roads and node places, the same all game.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations, product
from math import factorial, prod
from typing import Any

from ..core.table import build_table
from . import names
from .bot import current
from .content import ACTIONS, COLOURS, ITEMS, content, describe_all, describe_bundle
from .geometry import CELLS, network
from .hand import halves
from .public_log import BOT_NAME
from .solo import BOT, FAIR, SOLO
from .state import CATEGORIES, NO, NUM_ITEMS, SPECIAL_DECKS, YELLOW0, ResafaData
from .tracks import face_down

PER_SEAT = (
    "coins",
    "vp",
    "store",
    "camel_at",
    "camel_item",
    "camel_load",
    "camel_step",
    "track",
    "hand",
    "deck",
    "played",
    "bonus_hand",
    "sack_hand",
    "spec_known",
)
OWN = ("hand", "sack_hand", "deck")
HIDDEN = ("sack_deck", "sack_discard", "ws_decks", "bonus_decks", "spec_decks", "spec_box", "bot_canals")
C = content()


def action_card(card: int) -> dict[str, Any]:
    """An action card (a starting card or a yellow special card) with its two halves named."""
    cid = C.action_cards[card].id if card < YELLOW0 else C.specials[card - YELLOW0].name
    out = []
    for h in halves(card):
        act = ACTIONS[h.action] if h.action is not None else "any action"
        col = COLOURS[h.colour] if h.colour is not None else "any colour"
        extra = f" + {describe_all(h.extra)}" if h.extra else ""
        out.append({"action": act, "colour": col, "extra": extra})
    name = C.specials[card - YELLOW0].name if card >= YELLOW0 else ""  # a starting card reads by its halves
    return {"id": cid, "name": name, "text": names.action_card_text(card), "halves": out}


def _special(i: int, d: ResafaData) -> dict[str, Any]:
    s = C.specials[i]
    text = describe_all(s.effects) if s.effects else ""
    if s.halves:
        text = " | ".join(f"{h['action']}/{h['colour']}{h['extra']}" for h in action_card(YELLOW0 + i)["halves"])
    return {
        "name": s.name,
        "colour": COLOURS[s.colour],
        "level": int(s.level),
        "timing": s.timing,
        "text": text,
        "vp": s.vp,
        "used": bool(d.spec_used[i]),
    }


def _workshop(tile: int, face: int = 0, rot: int = 0) -> dict[str, Any]:
    w = C.workshops[tile]
    f = w.back if face else w.front
    return {
        "id": w.id,
        "level": ("start", "I", "II")[int(w.level)],
        "face": ("front", "back")[face],
        "rot": rot,
        "rooms": [describe_all(r.effects) for r in f.rooms],
        "greens": [describe_all(g.effects) for g in f.greens],
        "production": f.extra_production,
    }


def _card(card: Any) -> dict[str, Any]:
    colour = COLOURS[card.colour] if card.colour is not None else None
    return {"id": card.id, "colour": colour, "text": describe_all(card.effects)}


def _area(d: ResafaData, s: int) -> list[dict[str, Any] | None]:
    cells: list[dict[str, Any] | None] = []
    for c in range(CELLS):
        i = s * CELLS + c
        if d.ws_tile[i] != NO:
            cells.append({"workshop": _workshop(d.ws_tile[i], d.ws_face[i], d.ws_rot[i])})
        elif d.g_orient[i] != NO:
            strips = [bool(d.g_strips[i] >> k & 1) for k in range(3)]
            cells.append({"garden": {"orient": ("horizontal", "vertical")[d.g_orient[i]], "strips": strips}})
        else:
            cells.append(None)
    return cells


def _crossings(columns: list[list[str]], roads: list[tuple[str, str]]) -> int:
    """How badly a column order draws the roads: each pair of roads between the same two columns that cross
    counts 1; a road inside a column counts 10 for each node it would run through."""
    col = {x: k for k, c in enumerate(columns) for x in c}
    pos = {x: i for c in columns for i, x in enumerate(c)}
    bad = 0
    for a, b in roads:
        if col[a] == col[b]:
            bad += 10 * (abs(pos[a] - pos[b]) - 1)
    between = [(a, b) if col[a] < col[b] else (b, a) for a, b in roads if col[a] != col[b]]
    for i, (a, b) in enumerate(between):
        for c, d in between[i + 1 :]:
            if col[a] == col[c] and (pos[a] - pos[c]) * (pos[b] - pos[d]) < 0:
                bad += 1
    return bad


@cache
def fixed(players: int) -> dict[str, Any]:
    """The trade map (nodes placed by road distance from Resafa, each column ordered so that the fewest roads
    cross or run through a node, the first such order in reading order), roads with their cost; the canal
    grid."""
    ids = [x.id for x in C.centres]
    roads = [(r.a, r.b) for r in C.roads]
    depth, frontier = {ids[0]: 0}, [ids[0]]
    while frontier:  # breadth first from Resafa
        nxt = [b for a in frontier for x, y in roads for p, b in ((x, y), (y, x)) if p == a and b not in depth]
        for b in nxt:
            depth.setdefault(b, depth[frontier[0]] + 1)
        frontier = list(dict.fromkeys(nxt))
    columns = [[x for x in ids if depth[x] == k] for k in range(max(depth.values()) + 1)]
    if prod(factorial(len(c)) for c in columns) <= 20_000:  # the printed map: 1 x 1 x 3! x 5! orders
        best = min(product(*(permutations(c) for c in columns)), key=lambda o: _crossings([list(c) for c in o], roads))
        columns = [list(c) for c in best]
    row = {x: i - (len(c) - 1) / 2 for c in columns for i, x in enumerate(c)}
    nodes = [
        {"id": x.id, "name": names.centre_name(k), "colour": x.colour, "col": depth[x.id], "row": row[x.id]}
        for k, x in enumerate(C.centres)
    ]
    net = network(players)
    sources = [{"row": x.row, "col": x.col, "side": x.side} for x in net.sources]
    return {
        "nodes": nodes,
        "roads": [[ids.index(r.a), ids.index(r.b), r.cost] for r in C.roads],
        "canal": {"rows": net.rows, "cols": net.cols, "sources": sources},
    }


def _solo(card: Any) -> str:
    return names.solo_card_name(SOLO.cards.index(card))


def _bot(d: ResafaData) -> dict[str, Any]:
    """Solo: Resafabot's public board (it is ``owner`` in the owner lists of canal tiles, posts and special
    cards): its track cubes, the solo deck's face-up top card, the cards revealed this cycle and the card out
    of the game, its last turn, what it still holds. It scores nothing: ``target`` is the score to beat."""
    top = d.bot_deck[-1]
    last = current(d)
    return {
        "name": BOT_NAME,
        "owner": BOT,
        "starts": bool(d.bot_first),
        "tracks": {COLOURS[c]: d.bot_track[c] for c in range(4)},
        "deck_top": names.solo_card_name(top),
        "below": len(d.bot_deck) - 1,
        "revealed": [names.solo_card_name(c) for c in d.bot_shown],
        "out": names.solo_card_name(d.bot_out) if d.bot_out != NO else None,
        "last": f"{ACTIONS[last[1].action]} / {COLOURS[last[1].colour]} of {_solo(last[0])}" if last else None,
        "canal_tiles": len(d.bot_canals),
        "posts": sorted({names.centre_name(i // 4) for i, o in enumerate(d.post_owner) if o == BOT}),
        "specials": [C.specials[i].name for i, o in enumerate(d.spec_owner) if o == BOT],
        "water_cubes": d.bot_cubes,
        "score": 0,
        "target": FAIR,
    }


def _face_down_label(d: ResafaData, seat: int | None) -> str:
    """What the table's list of face-down special cards is, for ``seat``: every deck's (watching, or the advanced
    setup, whose box is public) or the decks ``seat`` searched; by name, not in the decks' order."""
    if seat is None:
        return "face-down special cards of every deck (the players do not see them)"
    if d.advanced:
        return "face-down special cards of every deck (the advanced setup shows the box), not in deck order"
    return "face-down special cards of the decks you searched, not in deck order"


def view(d: ResafaData, seat: int | None) -> dict[str, Any]:
    """The position laid out as Resafa's table, as ``seat`` (None: everything) may see it."""
    n = d.players
    turn = None
    if d.card != NO:
        turn = {
            "card": names.action_card_text(d.card),
            "main": ACTIONS[d.main] if d.main != NO else None,
            "colour": COLOURS[d.colour] if d.colour != NO else None,
        }
    sheet = None
    if d.sheet:
        k = len(CATEGORIES)
        sheet = {"categories": list(CATEGORIES), "rows": [d.sheet[s * k : s * k + k] for s in range(n)]}
    return {
        "bot": _bot(d) if n == 1 else None,
        "round": min(d.round_no, 6),
        "first": d.first,
        "supply": {ITEMS[k]: d.supply[k] for k in range(NUM_ITEMS)},
        "garden_tiles": {"small": d.g_supply[0], "large": d.g_supply[1]},
        "tokens": {"square": d.tokens[0], "scarab": d.tokens[1]},
        "players": [_player(d, s, seat) for s in range(n)],
        "canal": [_canal_box(d, b) for b in range(len(network(n).boxes))],
        "cubes": list(d.cubes),
        "centres": [_centre(d, k) for k in range(len(C.centres))],
        "workshop_display": [_workshop(t) if t != NO else None for t in d.ws_display],
        "bonus_display": [_card(C.bonus_cards[c]) if c != NO else None for c in d.bonus_display],
        "specials": [_special_deck(d, k, seat) for k in range(len(SPECIAL_DECKS))],
        "face_down_label": _face_down_label(d, seat),
        "sack": {"deck": len(d.sack_deck), "discard": len(d.sack_discard)},
        "turn": turn,
        "sheet": sheet,
    }


def _player(d: ResafaData, s: int, seat: int | None) -> dict[str, Any]:
    """Seat ``s``'s board and cards (its hand and sack cards only for itself or a watcher)."""
    item = d.camel_item[s]
    p: dict[str, Any] = {
        "coins": d.coins[s],
        "vp": d.vp[s],
        "store": {ITEMS[k]: d.store[s * NUM_ITEMS + k] for k in range(NUM_ITEMS)},
        "camel": {
            "at": names.centre_name(d.camel_at[s]),
            "cargo": f"{d.camel_load[s]} {ITEMS[item]}" if item != NO else "empty",
            "capacity": C.camel_track[d.camel_step[s]],
        },
        "tracks": {COLOURS[c]: d.track[s * 4 + c] for c in range(4)},
        "area": _area(d, s),
        "rows": dict(zip(("garden", "workshop", "canal"), d.rows[s * 3 : s * 3 + 3], strict=True)),
        "gardens_done": d.gardens_done[s],
        "gate": d.gate[s],
        "water_cubes": d.cubes_taken[s],
        "played": [action_card(c) for c in d.played[s]],
        "bonus_cards": [_card(C.bonus_cards[c]) for c in d.bonus_hand[s]],
        "specials": [_special(i, d) for i, o in enumerate(d.spec_owner) if o == s],
        "deck": len(d.deck[s]),
        "hand_size": len(d.hand[s]),
        "sack_size": len(d.sack_hand[s]),
    }
    if seat is None or s == seat:
        p["hand"] = [action_card(c) for c in d.hand[s]]
        p["sack_cards"] = [_card(C.sack_cards[c]) for c in d.sack_hand[s]]
    return p


def _canal_box(d: ResafaData, b: int) -> dict[str, Any]:
    """A box of the canal network: its printed channel and bonus, its tile, the canal bonus tile on it."""
    box = network(d.players).boxes[b]
    o = d.canal_owner[b]
    tile = None
    if o != NO:
        ct = C.canal_tiles[d.canal_design[b]]
        face = ct.back if d.canal_side[b] and ct.back else ct.front
        tile = {"owner": o, "id": ct.id, "exits": sorted(face.exits), "tank": face.tank}
        tile["text"] = names.canal_text(d.canal_design[b], d.canal_side[b])
    bonus = d.cbonus_at[b]
    return {
        "printed": sorted(box.printed),
        "bonus": describe_all(box.effects) if box.effects else "",
        "tile": tile,
        "bonus_tile": describe_all(C.canal_bonus_tiles[bonus].effects) if bonus != NO else None,
    }


def _centre(d: ResafaData, k: int) -> dict[str, Any]:
    """A trading centre: its face-up deal, its post boxes, the camels there."""
    n, x = d.players, C.centres[k]
    deal = short = None
    if d.trade_tile[k] != NO:
        dl = C.trading_tiles[d.trade_tile[k]].sides[d.trade_side[k]]
        deal = f"{ITEMS[dl.item]}: buy for {names.plural(dl.buy, 'coin')}, sell for {describe_bundle(dl.sell)}"
        sell = describe_bundle(dl.sell).replace(" coins", "").replace(" coin", "")
        short = f"{ITEMS[dl.item]}: buy {dl.buy}, sell {sell}"  # the map's label (coins understood)
    posts = [
        {"owner": d.post_owner[k * 4 + j], "open": max(n, 2) >= p.min_players, "token": p.token}
        for j, p in enumerate(x.posts)
    ]
    camels = [s for s in range(n) if d.camel_at[s] == k]
    return {"deal": deal, "short": short, "posts": posts, "camels": camels}


def _special_deck(d: ResafaData, k: int, seat: int | None) -> dict[str, Any]:
    """A special deck: its face-up card and size; its face-down cards where ``seat`` may know them."""
    col, lv = SPECIAL_DECKS[k]
    deck = d.spec_decks[k]
    top = _special(deck[-1], d) if d.spec_up[k] and deck else None
    entry = {"colour": COLOURS[col], "level": int(lv), "cards": len(deck), "top": top}
    if seat is None or d.advanced or d.spec_known[seat] >> k & 1:  # searched decks: the cards, by name
        entry["face_down"] = [_special(c, d) for c in sorted(face_down(d, k))]
    return entry


def table(state: Any, seat: int | None) -> dict[str, Any]:
    t = build_table(state, seat, per_seat=PER_SEAT, own=OWN, hidden=HIDDEN)
    if seat is not None:  # own draw pile: its size only (its order is unknown to its owner too)
        t["players"][seat]["deck"] = {"hidden": len(state.d.deck[seat])}
    if seat is not None and state.d.players == 1:  # solo deck: the face-up top card, the rest a set
        deck = state.d.bot_deck
        t["board"]["bot_deck"] = {"top": deck[-1], "below": sorted(deck[:-1])}
    t["view"] = view(state.d, seat)
    t["fixed"] = fixed(state.d.players)
    return t
