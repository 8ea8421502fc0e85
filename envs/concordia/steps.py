"""The pending decisions and automatic steps of Concordia's turn machine.

A state holds a stack of tasks ``(step, seat, a, b)``; the top one is either a decision of ``seat`` or an
automatic step. A turn is one card (seed: "Sıran geldiğinde elindeki kişilik kartlarından tam olarak 1 kart
oynar"); a card's choices are the decisions below, each small.
"""

from __future__ import annotations

from enum import IntEnum


class Step(IntEnum):
    # decisions
    MAIN = 0  # play a card from the hand
    MOVE_PICK = 1  # Architect: a = movement points left; choose a colonist or stop moving
    MOVE_DEST = 2  # a = points left, b = colonist index: choose its destination route
    BUILD = 3  # Architect: build a house in a city next to an own colonist, or stop
    PREFECT = 4  # a province with its marker on the goods side, or the cash bonus
    TRADE = 5  # Mercator: a = bitmask of goods traded, b = trades made; a trade or stop
    DIPLOMAT = 6  # choose whose top discard to copy
    BUY = 7  # a = 1 Senator (up to 2, with surcharge) / 0 Consul (1, card cost only); b = cards bought
    PAY_ANY = 8  # a = '?' goods left to pay: choose the good
    COLONIST_CHOICE = 9  # Colonist card: place a colonist, or take the tax
    COLONIST_MORE = 10  # Colonist card: place another colonist or stop
    TRIBUNE_PLACE = 11  # Tribune: optional new colonist in Roma
    OVERFLOW = 12  # storehouse over 12: discard a good
    # automatic
    REFILL = 13  # Forum: cards slide left, refill from the deck
    END_TURN = 14


NUM_DECISIONS = int(Step.OVERFLOW) + 1

DECISION_TEXT = {
    Step.MAIN: "play a personality card",
    Step.MOVE_PICK: "choose a colonist to move (Architect) or stop moving",
    Step.MOVE_DEST: "choose the route the colonist moves to",
    Step.BUILD: "build a house (Architect) or stop",
    Step.PREFECT: "choose a province to produce in, or the cash bonus (Prefect)",
    Step.TRADE: "trade a good at the storehouse prices (Mercator) or stop",
    Step.DIPLOMAT: "choose whose top discard card to copy (Diplomat)",
    Step.BUY: "buy a card from the Forum or stop",
    Step.PAY_ANY: "choose the good to pay for a '?'",
    Step.COLONIST_CHOICE: "place a new colonist or take the tax (Colonist)",
    Step.COLONIST_MORE: "place another new colonist or stop (Colonist)",
    Step.TRIBUNE_PLACE: "place a new colonist in Roma for food + tool (Tribune) or pass",
    Step.OVERFLOW: "your storehouse is over 12: discard a good",
}

# The members under plain module names, the same objects: reading ``Step.X`` costs an enum class attribute
# lookup (~0.2 us on Python 3.11), a module global a dict lookup; the turn machine's hot paths use these.
MAIN = Step.MAIN
MOVE_PICK = Step.MOVE_PICK
MOVE_DEST = Step.MOVE_DEST
BUILD = Step.BUILD
PREFECT = Step.PREFECT
TRADE = Step.TRADE
DIPLOMAT = Step.DIPLOMAT
BUY = Step.BUY
PAY_ANY = Step.PAY_ANY
COLONIST_CHOICE = Step.COLONIST_CHOICE
COLONIST_MORE = Step.COLONIST_MORE
TRIBUNE_PLACE = Step.TRIBUNE_PLACE
OVERFLOW = Step.OVERFLOW
REFILL = Step.REFILL
END_TURN = Step.END_TURN
