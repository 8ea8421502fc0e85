"""Board Royale's flat action space: one ``Discrete(NUM_ACTIONS)`` whose ranges are read by the pending decision.

The space is the same for every player count (seats are padded to 6).

====== ======== ====================================================================================
ids    name     meaning (depends on the pending decision)
====== ======== ====================================================================================
0      PASS     end the turn / decline / do not join / no defence / cancel the offer / vote no
1      YES      accept the offer / vote yes / the offer part is complete
2      DRAW     Resource Phase: draw 2 cards
3      TRADE    Action Phase: make a trade offer
4      VOTE     Action Phase: call a Democracy Vote
5-10   SEAT     a seat: steal from it, attack it, trade with it
11-14  CRAFT    craft the item in crafting-field slot 0-3
15-..  ITEM     an item card: use it, defend or join with it, offer or ask for it in a trade
..     CARD     a card kind in hand (Food, Wood, Stone, Iron, Gold, Decoy, Ricochet, Deadfall): discard
                it for the hand limit, name it (salvage), reveal it (hidden item), offer / ask it
====== ======== ====================================================================================

>>> SEAT0 + 3
8
>>> action_range(CRAFT0 + 2)
('craft', 2)
"""

from __future__ import annotations

from .content import NUM_ITEM_CARDS, NUM_KINDS

MAX_PLAYERS = 6
PASS = 0
YES = 1
DRAW = 2
TRADE = 3
VOTE = 4
SEAT0 = 5
CRAFT0 = SEAT0 + MAX_PLAYERS  # 11
ITEM0 = CRAFT0 + 4  # 15
CARD0 = ITEM0 + NUM_ITEM_CARDS
NUM_ACTIONS = CARD0 + NUM_KINDS

_NAMES = {PASS: "pass", YES: "yes", DRAW: "draw", TRADE: "trade", VOTE: "vote"}


def action_range(action: int) -> tuple[str, int]:
    """``(range name, index within the range)`` of an action id."""
    if action in _NAMES:
        return _NAMES[action], 0
    if SEAT0 <= action < CRAFT0:
        return "seat", action - SEAT0
    if CRAFT0 <= action < ITEM0:
        return "craft", action - CRAFT0
    if ITEM0 <= action < CARD0:
        return "item", action - ITEM0
    if CARD0 <= action < NUM_ACTIONS:
        return "card", action - CARD0
    raise ValueError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")
