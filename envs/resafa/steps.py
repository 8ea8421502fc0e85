"""The pending decisions and automatic steps of Resafa's turn machine.

A task is ``(step, seat, a, b)``. A turn pushes its parts in reverse order: play a card -> orientation ->
(main action, colour action in the chosen order) -> draw -> hand limit -> end of turn. Effects printed on
cards and tiles run through ``EFFECTS`` tasks (``a`` = effect-list id, ``b`` = index of the next effect), so
nested effects (a bonus card giving an extra build that lands on a green bonus ...) are just more tasks.
"""

from __future__ import annotations

from enum import IntEnum


class Step(IntEnum):
    # decisions
    PLAY_CARD = 0  # choose an action card from the hand (or look at / reshuffle your deck)
    ORIENT = 1  # which half of the card is on top
    CARD_MAIN = 2  # yellow II/III: choose the main action
    CARD_COLOUR = 3  # yellow: choose the colour of the colour action
    ORDER = 4  # main action first or colour action first
    COLOUR_OPT = 5  # a = colour (-1 any: provisions): bonus card, track step or sack card
    BONUS_PICK = 6  # a = colour (-1 any): choose a display slot
    TRACK_PICK = 7  # choose the track of a free step
    SPECIAL = 8  # a = deck: take the face-up card or search the deck
    SEARCH_PICK = 9  # a = deck: choose one of the face-down cards
    WS_PICK = 10  # b = discount id: choose a workshop from the display
    WS_FACE = 11  # a = display slot, b = discount id
    WS_CELL = 12  # a = tile, b = face
    WS_ROT = 13  # a = cell
    PRODUCE = 14  # a = normal activations left * 64 + free activations left, b = used workshop cells mask
    GARDEN_SIZE = 15  # a = allowed sizes (1 small, 2 large, 3 both), b = discount id
    GARDEN_SQUARE = 16  # a = size (0 small, 1 large)
    GARDEN_POS = 17  # a = size, b = cell
    CANAL_PICK = 18  # b = discount id: choose a canal tile and its side
    CANAL_BOX = 19  # a = tile * 2 + side
    TRADE_MOVE = 20  # a = road discount
    LOAD_ITEM = 21  # in Resafa: choose the kind to load (or nothing)
    LOAD_COUNT = 22  # a = item
    DEAL = 23  # buy, sell or pass
    DEAL_COUNT = 24  # a = 0 buy / 1 sell, b = node + 64 while the gold bonus is pending (USE takes it now)
    POST_BOX = 25  # a = discount id, b = 1 if a deal was made here (trade part C) else 0 (post effect)
    MERCHANT_ROW = 26  # a = token kind: which row gets the token
    CHOICE = 27  # a = effect id of a Choice
    CONVERT = 28  # a = effect id of a Convert, b = times left
    BUILD_OFFER = 29  # a = effect id of a Build: build now or decline
    EXTRA_ACTION = 30  # choose the main action of an extra action
    HAND_LIMIT = 31  # end of turn: use / discard cards until the hand limit is met, then done
    FLOW = 32  # rain: a = box the water is in, b = visited boxes mask (the chooser picks the branch)
    # automatic
    EFFECTS = 33  # a = effect-list id, b = index
    MAIN_ACTION = 34  # a = main action, b = 1 if an extra action (no colour action)
    COLOUR_ACTION = 35  # a = colour
    STEP = 36  # a = colour: one step on that track
    DRAW = 37
    END_TURN = 38
    RAIN = 39
    END_ROUND = 40
    FLOW_RUN = 41  # a = box the water is in, b = visited mask: forced moves, then FLOW where it branches
    BOT_TURN = 42  # solo: one turn of Resafabot (bot.py)


NUM_DECISIONS = int(Step.FLOW) + 1

DECISION_TEXT = {
    Step.PLAY_CARD: "choose an action card to play",
    Step.ORIENT: "choose which half of the card is on top",
    Step.CARD_MAIN: "choose the main action of your upgraded card",
    Step.CARD_COLOUR: "choose the colour of your upgraded card",
    Step.ORDER: "do the main action or the colour action first",
    Step.COLOUR_OPT: "choose the colour action: bonus card, track step or sack card",
    Step.BONUS_PICK: "choose a bonus card from the display",
    Step.TRACK_PICK: "choose the track to step on",
    Step.SPECIAL: "take the face-up special card or search the deck",
    Step.SEARCH_PICK: "choose a special card from the deck",
    Step.WS_PICK: "choose a workshop tile from the display",
    Step.WS_FACE: "choose the face of the workshop",
    Step.WS_CELL: "choose where the workshop goes",
    Step.WS_ROT: "choose the workshop's rotation",
    Step.PRODUCE: "choose a production room to activate or stop",
    Step.GARDEN_SIZE: "choose a small or large garden tile",
    Step.GARDEN_SQUARE: "choose the garden square",
    Step.GARDEN_POS: "choose the garden tile's position in the square",
    Step.CANAL_PICK: "choose a canal tile and its side",
    Step.CANAL_BOX: "choose the network box for the canal tile",
    Step.TRADE_MOVE: "choose where the camel goes (and whether through Resafa)",
    Step.LOAD_ITEM: "choose what to load in Resafa",
    Step.LOAD_COUNT: "choose how many to load",
    Step.DEAL: "buy, sell or pass",
    Step.DEAL_COUNT: "choose how many to buy or sell (or take the gold bonus first)",
    Step.POST_BOX: "build a trading post (choose the box) or pass",
    Step.MERCHANT_ROW: "choose the row for your merchant token",
    Step.CHOICE: "choose one option",
    Step.CONVERT: "convert once more or stop",
    Step.BUILD_OFFER: "build now or decline",
    Step.EXTRA_ACTION: "choose the extra main action",
    Step.HAND_LIMIT: "use or discard cards, then end your turn",
    Step.FLOW: "choose where the water flows",
}
