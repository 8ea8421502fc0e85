"""Concordia's flat action space: one ``Discrete(NUM_ACTIONS)`` for every configuration, sized for the largest
map (Imperium: 31 cities, 79 routes, 12 provinces) and five players; the pending decision reads the range.

========= ========= =====================================================================
start     name      meaning
========= ========= =====================================================================
0         PLAY      play personality card ``a - PLAY0`` from your hand (37 card ids)
37        COLONIST  choose your colonist ``a - COLONIST0`` (0-2 land, 3-5 sea) to move
43        ROUTE     move the chosen colonist to route ``a - ROUTE0``
122       CITY      build a house in city ``a - CITY0``
153       PROVINCE  Prefect: production in province ``a - PROVINCE0``
165       CASH      Prefect: the cash bonus
166       TRADE     Mercator: ``(good * 2 + sell) * 12 + count - 1``
286       SEAT      Diplomat: copy the top discard of seat ``a - SEAT0``
291       SLOT      Senator / Consul: buy the Forum card in slot ``a - SLOT0``
298       GOOD      a good: pay for a '?' or discard one from a full storehouse
303       PLACE     place a new colonist: ``kind * 31 + city``
365       TAX       Colonist card: 5 sesterces + 1 per colonist on the board
366       PASS      stop / decline
========= ========= =====================================================================

>>> trade_action(2, True, 3) - TRADE0
50
>>> decode_trade(trade_action(2, True, 3))
(2, True, 3)
"""

from __future__ import annotations

from .content import COLONISTS, FORUM_SIZE, MAX_CITIES, MAX_PLAYERS, MAX_PROVINCES, MAX_ROUTES, NUM_CARDS, NUM_GOODS

MAX_TRADE = 12  # a storehouse holds 12 goods at most
PLAY0 = 0
COLONIST0 = PLAY0 + NUM_CARDS
ROUTE0 = COLONIST0 + COLONISTS
CITY0 = ROUTE0 + MAX_ROUTES
PROVINCE0 = CITY0 + MAX_CITIES
CASH = PROVINCE0 + MAX_PROVINCES
TRADE0 = CASH + 1
SEAT0 = TRADE0 + NUM_GOODS * 2 * MAX_TRADE
SLOT0 = SEAT0 + MAX_PLAYERS
GOOD0 = SLOT0 + FORUM_SIZE
PLACE0 = GOOD0 + NUM_GOODS
TAX = PLACE0 + 2 * MAX_CITIES
PASS = TAX + 1
NUM_ACTIONS = PASS + 1

RANGES = (
    ("play", PLAY0),
    ("colonist", COLONIST0),
    ("route", ROUTE0),
    ("city", CITY0),
    ("province", PROVINCE0),
    ("cash", CASH),
    ("trade", TRADE0),
    ("seat", SEAT0),
    ("slot", SLOT0),
    ("good", GOOD0),
    ("place", PLACE0),
    ("tax", TAX),
    ("pass", PASS),
)


def trade_action(good: int, sell: bool, count: int) -> int:
    return TRADE0 + (good * 2 + int(sell)) * MAX_TRADE + count - 1


def decode_trade(action: int) -> tuple[int, bool, int]:
    x = action - TRADE0
    kind, count = divmod(x, MAX_TRADE)
    return kind // 2, bool(kind % 2), count + 1


def place_action(kind: int, city: int) -> int:
    return PLACE0 + kind * MAX_CITIES + city


def action_range(action: int) -> tuple[str, int]:
    """``(range name, index within the range)`` of an action id."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")
    name, start = "play", 0
    for n, s in RANGES:
        if action >= s:
            name, start = n, s
    return name, action - start
