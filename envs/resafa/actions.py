"""Resafa's flat action space: one ``Discrete(NUM_ACTIONS)`` whose ranges the pending decision reads.

=============== ===================================================================================
range           meaning
=============== ===================================================================================
PASS            decline / stop / end the turn
SLOT0 + i       play the action card in hand slot i (0..2)
LOOK            look at your own draw deck: it is reshuffled (seed: "desteyi yeniden karıştırmak")
HALF0 + h       the card's half h (0 top as printed, 1 bottom) goes on top
MAIN0 + m       a main action (workshop, production, garden, canal, trade, provisions)
COLOUR0 + c     a colour / track (blue, white, yellow, pink)
MAIN_FIRST      do the main action first; COLOUR_FIRST: the colour action first
OPT0 + k        colour action option (0 bonus card, 1 track step, 2 sack card); choice option k
SHOW0 + i       a bonus display slot (colour * 3 + i)
TAKE_TOP        take the face-up special card; SEARCH: search the face-down deck
PICK0 + i       the i-th face-down special card (by id order) when searching
WS0 + i         workshop display slot (0-2 level I, 3-5 level II)
FACE0 + f       workshop face (0 front, 1 back)
CELL0 + c       a cell of the player area (5 x 5)
ROT0 + r        workshop rotation (quarter turns clockwise)
ROOM0 + 2c + r  production room r of the workshop at cell c
SIZE0 + s       garden tile size (0 small, 1 large)
GPOS0 + 3o + s  garden tile position: orientation o (0 horizontal, 1 vertical), first strip s
CANAL0 + 2t + f canal tile design t, face f (0 canal, 1 water tank)
BOX0 + b        a canal network box
MOVE0 + 2n + v  move the camel to centre node n, v = 1 through Resafa
ITEM0 + k       an item (stone, marble, spice, amphora)
COUNT0 + n - 1  a count n
BUY, SELL       the deal at a trading centre
POSTBOX0 + i    a trading-post box
ROW0 + r        merchant row (garden, workshop, canal)
DIR0 + s        water flows across side s
USE             accept an optional effect (build now, convert once, the gold bonus before the deal)
USE_BONUS0 ...  use a held bonus card / sack card / canal bonus tile / instant special card (by id)
DROP_BONUS0 ... discard a held bonus card / sack card (an unused sack card gives 1 VP)
=============== ===================================================================================
"""

from __future__ import annotations

from .content import content
from .geometry import CELLS

_C = content()
NUM_BONUS = len(_C.bonus_cards)
NUM_SACK = len(_C.sack_cards)
NUM_CBONUS = len(_C.canal_bonus_tiles)
NUM_SPECIAL = len(_C.specials)
NUM_NODES = len(_C.centres)
NUM_BOXES = max(s.network.rows * s.network.cols for s in _C.board_sides)
NUM_CANAL = len(_C.canal_tiles)
MAX_COUNT = max(_C.camel_track) + 2
DISPLAY = 12

_RANGES: list[tuple[str, int]] = [
    ("PASS", 1),
    ("SLOT0", 3),
    ("LOOK", 1),
    ("HALF0", 2),
    ("MAIN0", 6),
    ("COLOUR0", 4),
    ("MAIN_FIRST", 1),
    ("COLOUR_FIRST", 1),
    ("OPT0", 4),
    ("SHOW0", DISPLAY),
    ("TAKE_TOP", 1),
    ("SEARCH", 1),
    ("PICK0", 8),
    ("WS0", 6),
    ("FACE0", 2),
    ("CELL0", CELLS),
    ("ROT0", 4),
    ("ROOM0", 2 * CELLS),
    ("SIZE0", 2),
    ("GPOS0", 6),
    ("CANAL0", 2 * NUM_CANAL),
    ("BOX0", NUM_BOXES),
    ("MOVE0", 2 * NUM_NODES),
    ("ITEM0", 4),
    ("COUNT0", MAX_COUNT),
    ("BUY", 1),
    ("SELL", 1),
    ("POSTBOX0", 4),
    ("ROW0", 3),
    ("DIR0", 4),
    ("USE", 1),
    ("USE_BONUS0", NUM_BONUS),
    ("USE_SACK0", NUM_SACK),
    ("USE_CB0", NUM_CBONUS),
    ("USE_SPEC0", NUM_SPECIAL),
    ("DROP_BONUS0", NUM_BONUS),
    ("DROP_SACK0", NUM_SACK),
]
START: dict[str, int] = {}
_off = 0
for _name, _size in _RANGES:
    START[_name] = _off
    _off += _size
NUM_ACTIONS = _off
SIZES = dict(_RANGES)

PASS = START["PASS"]
SLOT0 = START["SLOT0"]
LOOK = START["LOOK"]
HALF0 = START["HALF0"]
MAIN0 = START["MAIN0"]
COLOUR0 = START["COLOUR0"]
MAIN_FIRST = START["MAIN_FIRST"]
COLOUR_FIRST = START["COLOUR_FIRST"]
OPT0 = START["OPT0"]
SHOW0 = START["SHOW0"]
TAKE_TOP = START["TAKE_TOP"]
SEARCH = START["SEARCH"]
PICK0 = START["PICK0"]
WS0 = START["WS0"]
FACE0 = START["FACE0"]
CELL0 = START["CELL0"]
ROT0 = START["ROT0"]
ROOM0 = START["ROOM0"]
SIZE0 = START["SIZE0"]
GPOS0 = START["GPOS0"]
CANAL0 = START["CANAL0"]
BOX0 = START["BOX0"]
MOVE0 = START["MOVE0"]
ITEM0 = START["ITEM0"]
COUNT0 = START["COUNT0"]
BUY = START["BUY"]
SELL = START["SELL"]
POSTBOX0 = START["POSTBOX0"]
ROW0 = START["ROW0"]
DIR0 = START["DIR0"]
USE = START["USE"]
USE_BONUS0 = START["USE_BONUS0"]
USE_SACK0 = START["USE_SACK0"]
USE_CB0 = START["USE_CB0"]
USE_SPEC0 = START["USE_SPEC0"]
DROP_BONUS0 = START["DROP_BONUS0"]
DROP_SACK0 = START["DROP_SACK0"]
CARD_USE_FIRST = USE_BONUS0
CARD_USE_END = NUM_ACTIONS  # use and drop ranges run to the end


def action_range(action: int) -> tuple[str, int]:
    """``(range name, index within it)`` of an action id (ValueError when out of range)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")
    best = "PASS"
    for name, start in START.items():
        if start <= action and SIZES[name] > 0:
            best = name
    return best, action - START[best]
