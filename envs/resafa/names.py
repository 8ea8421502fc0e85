"""Resafa's pieces in the players' words: cards by what they do, places by where the table draws them.

Action names (``render.describe``), log lines (``public_log``) and the text board use these instead of internal
ids: a bonus card is "+1 stone", not ``bc-1-white-9``; a garden square is "row 2, column 3 of your garden" (rows
counted from the top, columns from the left, as the table draws the 5 x 5 area); a trading centre by its name.

>>> plural(1, "coin"), plural(3, "coin")
('1 coin', '3 coins')
>>> cell_name(7)
'row 2, column 3 of your garden'
>>> centre_name(1)
'Gerasa'
"""

from __future__ import annotations

from typing import Any

from .content import ACTIONS, COLOURS, ITEMS, SIDES, Level, content, describe_all, describe_bundle
from .geometry import SIZE, network
from .hand import halves
from .solo import SETUP_CARD, SOLO
from .state import NO, SPECIAL_DECKS, YELLOW0, ResafaData

C = content()
DIRECTIONS = ("north", "east", "south", "west")  # SIDES order; the table draws north up
STRIPS = (("top", "middle", "bottom"), ("left", "middle", "right"))  # horizontal / vertical squares


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, plural when ``n`` is not 1 ("1 coin", "2 coins")."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def effect_text(card: Any) -> str:
    """What a card or tile does (bonus card, sack card, canal bonus tile, special card): its printed effects."""
    return describe_all(card.effects) if card.effects else "no effect"


def half_text(h: Any) -> str:
    """One half of an action card as the table shows it: "Trade/blue" (and a yellow upgrade's extra)."""
    act = ACTIONS[h.action].capitalize() if h.action is not None else "Any action"
    col = COLOURS[h.colour] if h.colour is not None else "any colour"
    extra = f" and {describe_all(h.extra)}" if h.extra else ""
    return f"{act}/{col}{extra}"


def action_card_text(card: int) -> str:
    """An action card by its halves ("Workshop/white | Production/yellow"); a yellow special card by its name."""
    text = " | ".join(half_text(h) for h in halves(card))
    return text if card < YELLOW0 else f"{C.specials[card - YELLOW0].name} ({text})"


def special_text(i: int) -> str:
    """A special card by its name and what it does."""
    s = C.specials[i]
    what = " | ".join(half_text(h) for h in s.halves) if s.halves else effect_text(s)
    return f"{s.name} ({what})"


def deck_name(deck: int) -> str:
    colour, level = SPECIAL_DECKS[deck]
    return f"{COLOURS[colour]} level {Level(level).name} special deck"


def centre_name(node: int) -> str:
    """A trading centre (or Resafa, the city) by its name on the trade map."""
    return C.centres[node].id.capitalize()


def cell_name(cell: int) -> str:
    """A cell of the player's 5 x 5 area, counted as the table draws it (row 1 at the top, column 1 at the left)."""
    return f"row {cell // SIZE + 1}, column {cell % SIZE + 1} of your garden"


def box_name(players: int, box: int) -> str:
    """A box of the canal network, counted as the table draws it (row 1 at the top, column 1 at the left)."""
    cols = network(players).cols
    return f"row {box // cols + 1}, column {box % cols + 1} of the canal network"


def workshop_text(tile: int, face: int | None = None) -> str:
    """A workshop tile by its level and its rooms (of one face, or both faces when ``face`` is None)."""
    w = C.workshops[tile]
    level = "starting" if w.level == Level.START else f"level {w.level.name}"

    def rooms(f: Any) -> str:
        text = " / ".join(describe_all(r.effects) for r in f.rooms) or "no rooms"
        return text + (f", +{f.extra_production} production" if f.extra_production else "")

    if face is None:
        return f"{level} workshop (front: {rooms(w.front)}; back: {rooms(w.back)})"
    return f"{level} workshop ({rooms(w.back if face else w.front)})"


def canal_text(tile: int, side: int) -> str:
    """A canal tile's face by its channel and cost: "canal N-S (costs 1 coin)", a water tank with its VP."""
    t = C.canal_tiles[tile]
    f = t.back if side and t.back is not None else t.front
    channel = "-".join(SIDES[s].upper() for s in sorted(f.exits))
    what = f"water tank, channel {channel}" if f.tank else f"canal, channel {channel}"
    vp = f", {f.blue_vp} VP at blue scoring" if f.blue_vp else ""
    return f"{what} (costs {describe_bundle(f.cost)}{vp})"


def post_text(node: int, i: int) -> str:
    """A trading-post box of a centre by what it gives (its merchant token and printed bonus)."""
    box = C.centres[node].posts[i]
    bonus = f", {describe_all(box.effects)}" if box.effects else ""
    return f"trading post at {centre_name(node)} ({box.token} token{bonus})"


def top_special(d: ResafaData, deck: int) -> int | None:
    """The face-up special card on top of ``deck``, or None."""
    cards = d.spec_decks[deck]
    return cards[-1] if d.spec_up[deck] and cards else None


def solo_card_name(card: int) -> str:
    """A card of Resafabot's solo deck by its printed number ("solo card 3"), or the canal setup card."""
    return "the canal setup card" if card == SETUP_CARD else "solo card " + SOLO.cards[card].id.removeprefix("solo-")


def deal_item(d: ResafaData, node: int) -> str:
    """The item traded at ``node``'s face-up trading tile side."""
    if d.trade_tile[node] == NO:
        return "goods"
    return ITEMS[C.trading_tiles[d.trade_tile[node]].sides[d.trade_side[node]].item]
