"""End scoring (seed "OYUN SONU PUANLAMASI", in its order), the counters pink cards score, and the tiebreak.

Seed: scarabs (at most 5) 2/4/7/11/16; garden, workshop and canal rows: the value the merchant tokens reached
(1, 2 or 3) x the tiles of that kind (starting workshops included); pink card conditions; the yellow VP icons
of all special cards; 1 VP per spice and amphora left; 1 VP per 5 resources and coins left; canal tiles placed
3 -> 5, 5 -> 8, 7 -> 15 VP. "Beraberlik hâlinde su ağına en çok kanal karosu yerleştirmiş oyuncu galip gelir.
Hâlâ beraberlik varsa, beraber kalan oyuncular galibiyeti paylaşır."
"""

from __future__ import annotations

from .content import Colour, Level, Score, content
from .geometry import CELLS, GARDEN_CELLS, WORKSHOP_CELLS, network
from .state import CATEGORIES, NO, NUM_ITEMS, ResafaData
from .tracks import level

C = content()
SC = C.scoring
_ENDGAME = tuple(tuple(e for e in card.effects if isinstance(e, Score)) for card in C.specials)
_NODE_COLOUR = tuple(x.colour for x in C.centres)


def workshops(d: ResafaData, seat: int) -> int:
    base = seat * CELLS
    return sum(1 for c in WORKSHOP_CELLS if d.ws_tile[base + c] != NO)


def canals(d: ResafaData, seat: int) -> int:
    return d.canal_owner.count(seat)


def garden_tiles(d: ResafaData, seat: int) -> int:
    return d.g_tiles[seat * 2] + d.g_tiles[seat * 2 + 1]


def row_value(tokens: int, row: str) -> int:
    return SC.multiplier_rows[row][tokens - 1] if tokens else 0


def counter(d: ResafaData, seat: int, name: str) -> int:
    """The count a pink card's ``score`` effect reads (content.COUNTERS)."""
    base = seat * CELLS
    if name == "workshops":
        return workshops(d, seat)
    if name == "workshops_back":
        return sum(1 for c in WORKSHOP_CELLS if d.ws_tile[base + c] != NO and d.ws_face[base + c])
    if name == "workshops_level2":
        return sum(
            1
            for c in WORKSHOP_CELLS
            if d.ws_tile[base + c] != NO and C.workshops[d.ws_tile[base + c]].level == Level.II
        )
    if name == "gardens_completed":
        return d.gardens_done[seat]
    if name == "garden_tiles":
        return garden_tiles(d, seat)
    if name == "canals":
        return canals(d, seat)
    if name == "water_tanks":
        return sum(1 for b, o in enumerate(d.canal_owner) if o == seat and d.canal_side[b])
    if name == "canal_rows":
        cols = _cols(d)
        return len({b // cols for b, o in enumerate(d.canal_owner) if o == seat})
    if name == "water_cubes":
        return d.cubes_taken[seat]
    posts = [i // 4 for i, o in enumerate(d.post_owner) if o == seat]
    if name == "posts":
        return len(posts)
    if name == "posts_blue":
        return sum(1 for n in posts if _NODE_COLOUR[n] == "blue")
    if name == "posts_red":
        return sum(1 for n in posts if _NODE_COLOUR[n] == "red")
    if name == "post_pairs":
        return min(counter(d, seat, "posts_blue"), counter(d, seat, "posts_red"))
    if name == "merchant_tokens":
        return d.gate[seat] + sum(d.rows[seat * 3 : seat * 3 + 3])
    if name == "scarabs":
        return d.scarabs[seat]
    owned = [i for i, o in enumerate(d.spec_owner) if o == seat]
    if name == "special_cards":
        return len(owned)
    if name == "special_colours":
        return len({C.specials[i].colour for i in owned})
    if name == "track_levels":
        return sum(level(d, seat, c) for c in Colour)
    if name == "camel":
        return C.camel_track[d.camel_step[seat]]
    if name == "goods_left":
        return _items_left(d, seat, 2) + _items_left(d, seat, 3)
    if name == "marble_left":
        return _items_left(d, seat, 1)
    if name == "sack_cards":
        return len(d.sack_hand[seat])
    raise ValueError(f"resafa: unknown counter {name!r}")


def _cols(d: ResafaData) -> int:
    return network(d.players).cols


def _items_left(d: ResafaData, seat: int, item: int) -> int:
    load = d.camel_load[seat] if d.camel_item[seat] == item else 0
    return d.store[seat * NUM_ITEMS + item] + load


def final_scoring(d: ResafaData) -> list[int]:
    """The score sheet: per seat, one value per :data:`CATEGORIES` entry (the last is the total)."""
    sheet: list[int] = []
    for seat in range(d.players):
        rows = d.rows[seat * 3 : seat * 3 + 3]
        scarabs = min(d.scarabs[seat], len(SC.scarab_scale))
        owned = [i for i, o in enumerate(d.spec_owner) if o == seat]
        pink = sum(e.points(counter(d, seat, e.counter)) for i in owned for e in _ENDGAME[i])
        strip = max((vp for n, vp in SC.canal_strip.items() if canals(d, seat) >= n), default=0)
        leftovers = _items_left(d, seat, 0) + _items_left(d, seat, 1) + d.coins[seat]
        parts = [
            d.vp[seat],
            SC.scarab_scale[scarabs - 1] if scarabs else 0,
            row_value(rows[0], "garden") * garden_tiles(d, seat),
            row_value(rows[1], "workshop") * workshops(d, seat),
            row_value(rows[2], "canal") * canals(d, seat),
            pink,
            sum(C.specials[i].vp for i in owned),
            SC.goods_vp * (_items_left(d, seat, 2) + _items_left(d, seat, 3)),
            leftovers // SC.leftover_per_vp,
            strip,
        ]
        sheet += [*parts, sum(parts)]
    assert len(sheet) == d.players * len(CATEGORIES)
    return sheet


def rank_key(d: ResafaData, seat: int) -> tuple[int, int]:
    """Higher is better: total, then canal tiles placed (seed tiebreak); equal keys share the rank."""
    k = len(CATEGORIES)
    total = d.sheet[seat * k + k - 1] if d.sheet else d.vp[seat]
    return total, canals(d, seat)


__all__ = ["GARDEN_CELLS"]
