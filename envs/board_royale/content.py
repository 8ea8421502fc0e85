"""Board Royale content: the resource deck, the item deck and the escape sets, loaded once from data/items.json.

The seed fixes the resource deck (30 Food, 30 Wood, 30 Stone, 30 Iron, 20 Gold) and three items (Knife, Shotgun,
Backpack); the rest of the item deck is MeepleZoo's design, listed as filled in in docs/rules/board_royale.md.

Cards in a hand are counted by *kind*: kinds 0-4 are the five resources, kinds 5.. the hidden items (which
are shuffled into the Resource Deck and look like resource cards from behind). Face-up items are single
cards with ids ``0..NUM_ITEM_CARDS-1``; ``CARD_TYPE[card]`` is their :class:`ItemType`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import IntEnum
from importlib import resources


class Res(IntEnum):
    """The five resource kinds (seed: "Yiyecek, Odun, Taş, Demir, Altın")."""

    FOOD = 0
    WOOD = 1
    STONE = 2
    IRON = 3
    GOLD = 4


NUM_RES = 5
RES_NAMES = ("Food", "Wood", "Stone", "Iron", "Gold")


@dataclass(frozen=True, slots=True)
class ItemType:
    """One item design (a row of data/items.json)."""

    index: int
    name: str
    category: str  # weapon, tool, medicine, trap, hidden, escape
    colour: str  # yellow (permanent), green (discarded after use), blue (escape)
    copies: int
    craft: tuple[int, ...]  # per resource kind; all zero for hidden items (found, not crafted)
    use: tuple[int, ...]
    effect: str  # discard, steal, draw, salvage, hand_limit, avoid, reflect, ambush, escape
    n: int
    area: bool  # hits every opponent
    instant: bool  # used when attacked, on another player's turn
    attack: bool
    explosive: bool  # cannot be avoided
    escape_points: int
    text: str

    @property
    def hidden(self) -> bool:
        return self.category == "hidden"

    @property
    def consumable(self) -> bool:
        return self.colour == "green"

    @property
    def craft_total(self) -> int:
        return sum(self.craft)

    @property
    def use_total(self) -> int:
        return sum(self.use)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule number (seed values) and the engine's safety bounds."""

    hand_limit: int
    starting_hand: int
    draw: int
    field_size: int
    escape_points: int
    max_decisions_per_turn: int  # engine safety bound (far above real play), not a rule of the game
    max_counter_offers: int  # engine safety bound on one trade's counter offers
    futile_per_turn: int  # futile exchanges (failed votes, offers not taken) that end the active player's turn
    max_strikes: int  # turns ended by the futile bound after which the active player is voted off the island
    idle_turns: int  # idle turns in a row after which a castaway loses resources to exposure (island.py)
    tide_day: int  # the day from which the rising tide takes resources at the start of every turn (island.py)


def _costs(raw: dict[str, int] | None) -> tuple[int, ...]:
    raw = raw or {}
    return tuple(int(raw.get(name, 0)) for name in RES_NAMES)


def _load() -> tuple[dict, list[ItemType]]:
    text = resources.files(__package__).joinpath("data/items.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    types = [
        ItemType(
            index=i,
            name=r["name"],
            category=r["category"],
            colour=r["colour"],
            copies=r["copies"],
            craft=_costs(r["craft"]),
            use=_costs(r["use"]),
            effect=r["effect"],
            n=r["n"],
            area=r["area"],
            instant=r["instant"],
            attack=r["attack"],
            explosive=r["explosive"],
            escape_points=r["escape_points"],
            text=r["text"],
        )
        for i, r in enumerate(doc["items"])
    ]
    return doc, types


_DOC, ITEM_TYPES_ALL = _load()
RULES = Rules(**_DOC["rules"])
RESOURCE_COUNTS: tuple[int, ...] = tuple(_DOC["resources"][name] for name in RES_NAMES)
NUM_RESOURCE_CARDS = sum(RESOURCE_COUNTS)  # 140
TYPE_BY_NAME = {t.name: t for t in ITEM_TYPES_ALL}

#: hidden item types, in data order; hand kind ``NUM_RES + h`` is hidden type ``HIDDEN_TYPES[h]``
HIDDEN_TYPES: tuple[ItemType, ...] = tuple(t for t in ITEM_TYPES_ALL if t.hidden)
NUM_HIDDEN = len(HIDDEN_TYPES)
NUM_KINDS = NUM_RES + NUM_HIDDEN  # kinds of card in a hand
KIND_NAMES = (*RES_NAMES, *(t.name for t in HIDDEN_TYPES))
KIND_COUNTS = (*RESOURCE_COUNTS, *(t.copies for t in HIDDEN_TYPES))  # cards of each kind in the game

#: face-up item types (everything but hidden items) and their cards
ITEM_TYPES: tuple[ItemType, ...] = tuple(t for t in ITEM_TYPES_ALL if not t.hidden)
NUM_ITEM_TYPES = len(ITEM_TYPES)
_TYPE_SLOT = {t.name: i for i, t in enumerate(ITEM_TYPES)}
CARD_TYPE: tuple[ItemType, ...] = tuple(t for t in ITEM_TYPES for _ in range(t.copies))
CARD_TYPE_INDEX: tuple[int, ...] = tuple(_TYPE_SLOT[t.name] for t in CARD_TYPE)
NUM_ITEM_CARDS = len(CARD_TYPE)
ESCAPE_CARDS = frozenset(c for c, t in enumerate(CARD_TYPE) if t.category == "escape")


class Effect(IntEnum):
    DISCARD = 0
    STEAL = 1
    DRAW = 2
    SALVAGE = 3
    HAND_LIMIT = 4
    AVOID = 5
    REFLECT = 6
    AMBUSH = 7
    ESCAPE = 8


CARD_EFFECT: tuple[int, ...] = tuple(int(Effect[t.effect.upper()]) for t in CARD_TYPE)
HIDDEN_EFFECT: tuple[int, ...] = tuple(int(Effect[t.effect.upper()]) for t in HIDDEN_TYPES)


@dataclass(frozen=True, slots=True)
class EscapeSet:
    name: str
    types: tuple[int, ...]  # indices into ITEM_TYPES


ESCAPE_SETS: tuple[EscapeSet, ...] = tuple(
    EscapeSet(s["name"], tuple(_TYPE_SLOT[x] for x in s["items"])) for s in _DOC["escape_sets"]
)
for _t in ITEM_TYPES_ALL:
    assert _t.hidden == (_t.craft_total == 0 and _t.category == "hidden"), _t.name
assert all(TYPE_BY_NAME[n].category == "escape" for s in _DOC["escape_sets"] for n in s["items"])
