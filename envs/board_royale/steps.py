"""The pending decisions and automatic steps of Board Royale's turn machine.

A state holds a stack of tasks ``(step, seat, a, b)``; the top one is either a decision of ``seat`` or an
automatic step the engine resolves. A normal turn pushes END_TURN, ACTION, RESOURCE; an attack pushes
RESOLVE, DEFEND (the defender always answers, so whether they hold a hidden item never shows), FIGHT and one
JOIN per other player who owns a weapon; a reflect or an ambush pushes a DEFEND of the other side, and so on.
"""

from __future__ import annotations

from enum import IntEnum


class Step(IntEnum):
    # decisions
    PREP = 0  # preparation round: craft, or end the turn
    RESOURCE = 1  # draw 2, or steal from a seat
    ACTION = 2  # craft, use an item, trade, vote, or end the turn
    HAND_DISCARD = 3  # a = cards still to discard before a gain
    TARGET = 4  # a = item card whose target is chosen
    SALVAGE_KIND = 5  # a = item card (salvage): name a resource kind
    JOIN = 6  # a = active player's item (-2: steal), b = target
    DEFEND = 7  # answer the blow aimed at seat: a = attacking item (-2: steal), b = the other side's seat
    TRADE_PARTNER = 8
    TRADE_GIVE = 9  # seat = proposer, a = the other side of the trade
    TRADE_ASK = 10  # seat = proposer, a = the other side of the trade
    TRADE_ANSWER = 11  # seat = the one answering, a = proposer
    VOTE = 12  # a = caller
    LOOT_SPLIT = 13  # the active player gives the next loot card to one of the attackers
    LOOT_ROOM = 14  # a = looted hidden kind: at the hand limit, discard a card (or leave the looted one)
    # automatic
    LIMIT = 15  # a = cards about to be gained: discard down first
    DRAW = 16  # a = cards to draw
    SALVAGE = 17  # a = kind, b = how many
    RESOLVE = 18  # a = attacking item (-2: steal), b = target
    VOTE_COUNT = 19
    END_TURN = 20
    FIGHT = 21  # a = attacking item, b = target: the attack's blows are aimed at the target; answers begin
    LOOT = 22  # deal the next loot card (or finish the loot)


NUM_DECISIONS = 15
DECISION_TEXT = {
    Step.PREP: "preparation round: craft or end the turn",
    Step.RESOURCE: "resource phase: draw 2 or steal",
    Step.ACTION: "action phase: craft, use, trade, vote or end the turn",
    Step.HAND_DISCARD: "discard down to the hand limit before gaining cards",
    Step.TARGET: "choose the target of the attack",
    Step.SALVAGE_KIND: "name a resource kind to take from the discard pile",
    Step.JOIN: "join the attack with a weapon, or pass",
    Step.DEFEND: "answer the blow aimed at you with an instant or hidden item, or pass",
    Step.TRADE_PARTNER: "choose a trade partner",
    Step.TRADE_GIVE: "trade offer: what you give",
    Step.TRADE_ASK: "trade offer: what you ask for",
    Step.TRADE_ANSWER: "accept or decline the trade offer",
    Step.VOTE: "democracy vote: replace the crafting field?",
    Step.LOOT_SPLIT: "share the loot: give the next card to one of the attackers",
    Step.LOOT_ROOM: "at the hand limit: discard a card to take the looted one, or leave it",
}
