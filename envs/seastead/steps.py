"""The pending decisions and automatic steps of Seastead's turn machine.

A state holds a stack of tasks ``(step, seat, a, b)``. The top task is either a decision (a player must
choose an action) or automatic (the engine resolves it). A turn pushes its parts in reverse order, so
e.g. a build runs: pay -> Investor reaction -> building effect -> location effect -> displaced ship ->
row bonus -> column bonus -> end-of-turn specialists -> end of turn.
"""

from __future__ import annotations

from enum import IntEnum


class Step(IntEnum):
    # decisions
    MAIN = 0  # dive, build a type, or play a "both" specialist
    DIVE_SPLIT = 1  # choose which half faces you (or play Scout/Trawler/Prospector)
    DIVE_WILD = 2  # a = wilds left to choose
    AGENT = 3  # reaction: swap the halves?
    INVESTOR = 4  # reaction: a = kind the opponent paid
    BUILD_WHERE = 5  # choose the location (or play Engineer/Founder)
    FOUNDER_KIND = 6
    PROSPECTOR_KIND = 7
    DOCK_CHOICE = 8  # a = location of the new port
    SPECIALIST_CHOICE = 9
    SHIP_PLACE = 10  # a = location the ship leaves (-1 for a new ship), b = 1 when owner gets no bonus
    OWNER_BONUS = 11
    EFFECT_USE = 12  # a = location whose simple optional effect (gain / cleanup) is offered
    EFFECT_KIND = 13  # gain_any: a = resources left to choose
    GIVE_KIND = 14  # tribute (b=1) or discard (b=0): choose a kind you hold
    OPPONENT_GAIN = 15
    CONVERT_GIVE = 16  # a = how many you get
    CONVERT_TAKE = 17  # a = how many, b = kind given
    REFRESH = 18  # turn a spent specialist face up (a: 0 location effect, 1 academy row bonus)
    SHIP_SELECT = 19  # a: purpose (0 effect, 1 Mechanic, 2 shipyard row bonus)
    SHIP_DEST = 20  # a: purpose, b = ship's location
    DEMAND_A = 21  # a: 0 location effect, 1 column bonus
    DEMAND_B = 22  # a: purpose, b = first flotilla
    DEMAND_LOCK = 23  # a = first flotilla, b = second flotilla
    ROW_PORT = 24  # choose one of your docks: cleanup per matching resource (max 3)
    BUILDING_SELECT = 25  # a: 0 Architect (own), 1 Wrecker (opponent's)
    BUILDING_DEST = 26  # a: purpose, b = building's location
    TRADER_FROM = 27
    TRADER_TO = 28  # b = kind given
    HARBOUR_PORT = 29
    HARBOUR_SLOT = 30  # b = port location
    SALVAGER_KIND = 31
    AFTER = 32  # a: 0 after a dive, 1 after a build: play a specialist or end the turn
    SOLO_EXTRA = 33  # solo setup: the kind of your extra starting resource
    DECREE_CHOICE = 34  # B sides: put one of the 2 drawn decrees in force (the other goes to the bottom)
    # automatic
    REVEAL = 35
    TAKE_HALF = 36  # a = 0 active player's share, 1 opponent's share
    DISCARD_DIVE = 37
    BUILDING_EFFECT = 38  # a = location
    LOCATION_EFFECT = 39  # a = location
    SHIP_DISPLACED = 40  # a = location, b = 1 when no owner bonus (a moved building)
    ROW_CHECK = 41  # a = building type just built
    COLUMN_CHECK = 42
    END_TURN = 43
    BOSS_DELIVERY = 44  # solo: the half not facing you goes to the Boss's locations


NUM_DECISIONS = int(Step.DECREE_CHOICE) + 1
AUTOMATIC = frozenset(s for s in Step if s >= NUM_DECISIONS)

DECISION_TEXT = {
    Step.MAIN: "choose your action (dive or build)",
    Step.DIVE_SPLIT: "choose which half of the dive card faces you",
    Step.DIVE_WILD: "choose the resource for a wild symbol",
    Step.AGENT: "react with the Agent (swap the halves) or pass",
    Step.INVESTOR: "react with the Investor or pass",
    Step.BUILD_WHERE: "choose where to build",
    Step.FOUNDER_KIND: "choose the resource kind to pay with (Founder)",
    Step.PROSPECTOR_KIND: "choose the resource kind of your half (Prospector)",
    Step.DOCK_CHOICE: "choose a dock tile for your port",
    Step.SPECIALIST_CHOICE: "choose a specialist for your academy",
    Step.SHIP_PLACE: "choose where your ship goes",
    Step.OWNER_BONUS: "choose your free resource (ship owner's bonus) or pass",
    Step.EFFECT_USE: "use the location effect or pass",
    Step.EFFECT_KIND: "choose a resource from the location effect or pass",
    Step.GIVE_KIND: "choose a resource kind to give up",
    Step.OPPONENT_GAIN: "choose a free resource (opponent's location effect)",
    Step.CONVERT_GIVE: "choose a resource to convert or pass",
    Step.CONVERT_TAKE: "choose the resource kind to receive",
    Step.REFRESH: "choose a spent specialist to turn face up or pass",
    Step.SHIP_SELECT: "choose one of your ships to move or pass",
    Step.SHIP_DEST: "choose where the ship moves",
    Step.DEMAND_A: "choose the first unlocked demand token to swap or pass",
    Step.DEMAND_B: "choose the second demand token to swap",
    Step.DEMAND_LOCK: "choose which swapped token to lock",
    Step.ROW_PORT: "choose a dock for the port row bonus or pass",
    Step.BUILDING_SELECT: "choose the academy or shipyard to move",
    Step.BUILDING_DEST: "choose where the building moves",
    Step.TRADER_FROM: "choose the resource kind to exchange (Trader)",
    Step.TRADER_TO: "choose the resource kind to receive (Trader)",
    Step.HARBOUR_PORT: "choose your port whose dock to exchange (Harbourmaster)",
    Step.HARBOUR_SLOT: "choose the dock tile from the display (Harbourmaster)",
    Step.SALVAGER_KIND: "choose the resource from the Salvager",
    Step.AFTER: "play a specialist or end your turn",
    Step.SOLO_EXTRA: "choose your extra starting resource (solo)",
    Step.DECREE_CHOICE: "choose the decree to put in force",
}
