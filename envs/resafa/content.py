"""Resafa content: every card, tile, track and map printed in the box, as data (data/*.json), loaded once.

The schema is typed frozen dataclasses; every game effect printed on a card or tile is a tuple of
:data:`Effect` values from one small vocabulary (the ``EFFECT_KINDS`` table below) that the engine executes
generically. The seed fixes few contents; everything else is MeepleZoo's design, listed as filled in in
docs/rules/resafa_content.md. :func:`load` validates a raw document and raises :class:`ContentError` (one
line naming the bad entry) on malformed data; :func:`content` is the loaded, cached box.

Effect vocabulary (JSON: ``{"kind": ..., params}``; ``colour``/``action`` omitted = the player's choice):

=============  ===========================================================================================
gain           gain ``bundle`` (stone, marble, spice, amphora into the Resafa storehouse; coins; VP)
choice         apply exactly one of ``options`` (each a tuple of effects)
track          ``n`` steps on the ``colour`` track (no colour: each step on a track of the player's choice)
sack           draw ``n`` sack cards
bonus_card     take ``n`` face-up bonus cards of ``colour`` from the display (no colour: any colour)
colour_action  one extra colour action (bonus card / track step / sack card) of ``colour``
produce        ``n`` extra production activations on any rooms, used ones included
build          build one ``target`` (workshop, garden_small, garden_large, garden, canal) now, paying its
               cost less ``discount`` (never below 0; ``free``: pay nothing); all placement and level rules
               still apply; optional (the player may decline)
trade          one extra trade action, its road cost ``road_discount`` coins less (never below 0)
post           build a trading post where the camel stands (rules as in trade part C), ``discount`` off
camel          ``n`` steps up the camel capacity track
action         one extra main action ``action`` (no action: any of the six), without a colour action
convert        up to ``n`` times: pay ``pay``, gain ``get`` (each time optional)
discount       permanent: every later ``target`` costs ``bundle`` less (targets: workshop, garden_small,
               garden_large, canal, road, post; road = coins off each trade move)
trigger        permanent: each time the player does ``on`` (see ``TRIGGER_EVENTS``), apply ``then``
hand_limit     permanent: the hand limit is ``n`` higher
score          end game (pink): VP from ``counter`` (see ``COUNTERS``): ``table[min(count, len-1)]`` when a
               table is given, else ``vp * min(count // each, cap)``
=============  ===========================================================================================
"""

from __future__ import annotations

import json
from dataclasses import MISSING, dataclass, field, fields
from enum import IntEnum
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any

from meeplezoo.envs.core.errors import MeepleZooError


class ContentError(MeepleZooError):
    """Malformed Resafa content data (the message names the entry and the field)."""


class Colour(IntEnum):
    """The four action colours, also the four special-card tracks."""

    BLUE = 0
    WHITE = 1
    YELLOW = 2
    PINK = 3


class Action(IntEnum):
    """The six main actions."""

    WORKSHOP = 0
    PRODUCTION = 1
    GARDEN = 2
    CANAL = 3
    TRADE = 4
    PROVISIONS = 5


class Item(IntEnum):
    """Resources (stone, marble) and goods (spice, amphora): what storehouse and camel hold."""

    STONE = 0
    MARBLE = 1
    SPICE = 2
    AMPHORA = 3


class Level(IntEnum):
    START = 0
    I = 1  # noqa: E741 - the printed level numeral
    II = 2
    III = 3


COLOURS = tuple(c.name.lower() for c in Colour)
ACTIONS = tuple(a.name.lower() for a in Action)
ITEMS = tuple(i.name.lower() for i in Item)
RESOURCES = (Item.STONE, Item.MARBLE)
GOODS = (Item.SPICE, Item.AMPHORA)
SIDES = ("n", "e", "s", "w")  # tile edges, clockwise, in the tile's printed (unrotated) frame
BUILD_TARGETS = ("workshop", "garden_small", "garden_large", "garden", "canal")
DISCOUNT_TARGETS = ("workshop", "garden_small", "garden_large", "canal", "road", "post")
TRIGGER_EVENTS = (
    "workshop",  # after building a workshop (any way)
    "garden",  # after placing a garden tile
    "garden_complete",  # after completing a garden square
    "canal",  # after placing a canal tile (water tanks included)
    "buy",  # after a buying deal
    "sell",  # after a selling deal
    "post",  # after building a trading post
    "production",  # at the start of each production main action
    "rain",  # at each rain scoring, after the canal points
)
COUNTERS = (
    "workshops",  # workshop tiles, starting ones included
    "workshops_back",  # workshops built back side up
    "workshops_level2",
    "gardens_completed",
    "garden_tiles",
    "canals",  # canal tiles placed (tanks included)
    "water_tanks",
    "canal_rows",  # distinct network rows holding one of the player's canal tiles
    "water_cubes",  # cubes taken in rain scoring
    "posts",
    "posts_blue",
    "posts_red",
    "post_pairs",  # min(posts_blue, posts_red)
    "merchant_tokens",
    "scarabs",
    "special_cards",  # all colours
    "special_colours",  # distinct colours among the player's special cards
    "track_levels",  # sum of the levels reached on the four tracks
    "camel",  # camel capacity
    "goods_left",  # spice + amphora in storehouse and on the camel
    "marble_left",
    "sack_cards",  # sack cards held at the end
)
TIMINGS = ("instant", "permanent", "endgame", "action_card")


# --------------------------------------------------------------------------------------------------- bundles


@dataclass(frozen=True, slots=True)
class Bundle:
    """An amount of everything countable: the four items, coins and VP."""

    stone: int = 0
    marble: int = 0
    spice: int = 0
    amphora: int = 0
    coins: int = 0
    vp: int = 0

    @property
    def items(self) -> tuple[int, int, int, int]:
        return (self.stone, self.marble, self.spice, self.amphora)

    def __bool__(self) -> bool:
        return any((self.stone, self.marble, self.spice, self.amphora, self.coins, self.vp))


_BUNDLE_KEYS = tuple(f.name for f in fields(Bundle))
ZERO = Bundle()


# --------------------------------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class Gain:
    bundle: Bundle


@dataclass(frozen=True, slots=True)
class Choice:
    options: tuple[tuple[Effect, ...], ...]


@dataclass(frozen=True, slots=True)
class Track:
    n: int = 1
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class Sack:
    n: int = 1


@dataclass(frozen=True, slots=True)
class BonusCard:
    n: int = 1
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class ColourAction:
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class Produce:
    n: int = 1


@dataclass(frozen=True, slots=True)
class Build:
    target: str
    discount: Bundle = ZERO
    free: bool = False


@dataclass(frozen=True, slots=True)
class Trade:
    road_discount: int = 0


@dataclass(frozen=True, slots=True)
class Post:
    discount: Bundle = ZERO


@dataclass(frozen=True, slots=True)
class Camel:
    n: int = 1


@dataclass(frozen=True, slots=True)
class ExtraAction:
    action: Action | None = None


@dataclass(frozen=True, slots=True)
class Convert:
    pay: Bundle
    get: Bundle
    n: int = 1


@dataclass(frozen=True, slots=True)
class Discount:
    target: str
    bundle: Bundle


@dataclass(frozen=True, slots=True)
class Trigger:
    on: str
    then: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class HandLimit:
    n: int = 1


@dataclass(frozen=True, slots=True)
class Score:
    counter: str
    vp: int = 1
    each: int = 1
    cap: int = 99
    table: tuple[int, ...] = ()

    def points(self, count: int) -> int:
        if self.table:
            return self.table[min(count, len(self.table) - 1)]
        return self.vp * min(count // self.each, self.cap)


Effect = (
    Gain
    | Choice
    | Track
    | Sack
    | BonusCard
    | ColourAction
    | Produce
    | Build
    | Trade
    | Post
    | Camel
    | ExtraAction
    | Convert
    | Discount
    | Trigger
    | HandLimit
    | Score
)
EFFECT_KINDS: dict[str, type] = {
    "gain": Gain,
    "choice": Choice,
    "track": Track,
    "sack": Sack,
    "bonus_card": BonusCard,
    "colour_action": ColourAction,
    "produce": Produce,
    "build": Build,
    "trade": Trade,
    "post": Post,
    "camel": Camel,
    "action": ExtraAction,
    "convert": Convert,
    "discount": Discount,
    "trigger": Trigger,
    "hand_limit": HandLimit,
    "score": Score,
}
KIND_OF: dict[type, str] = {cls: kind for kind, cls in EFFECT_KINDS.items()}
PERMANENT_KINDS = frozenset({Discount, Trigger, HandLimit})
ENDGAME_KINDS = frozenset({Score})


# --------------------------------------------------------------------------------------------------- pieces


@dataclass(frozen=True, slots=True)
class ActionHalf:
    """One half of an action card: main action and colour (None on yellow cards: chosen when played)."""

    action: Action | None
    colour: Colour | None
    extra: tuple[Effect, ...] = ()  # yellow upgrades: applied with the main action


@dataclass(frozen=True, slots=True)
class ActionCard:
    id: str
    set: str  # alpha, beta, gamma, delta
    halves: tuple[ActionHalf, ActionHalf]


@dataclass(frozen=True, slots=True)
class Room:
    """A production room: one activation applies ``effects``."""

    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Green:
    """A green bonus printed at ``side`` (n/e/s/w, unrotated tile frame), ``slot`` 0-2 along that edge
    clockwise (thirds of the edge); collected when a garden tile touching that third is placed."""

    side: int
    slot: int
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class WorkshopFace:
    rooms: tuple[Room, ...]
    extra_production: int  # production icons: +1 activation per production action each
    immediate: bool  # level II front: the room's benefit is also taken when the tile is placed
    greens: tuple[Green, ...]


@dataclass(frozen=True, slots=True)
class WorkshopTile:
    id: str
    level: Level  # START, I or II
    front: WorkshopFace
    back: WorkshopFace


@dataclass(frozen=True, slots=True)
class CanalFace:
    cost: Bundle  # printed in the top-left corner
    blue_vp: int
    exits: frozenset[int]  # SIDES indices the channel touches (the tile is never rotated)
    tank: bool


@dataclass(frozen=True, slots=True)
class CanalTile:
    id: str  # the same seven designs in every player colour
    front: CanalFace
    back: CanalFace | None  # water-tank back on two designs


@dataclass(frozen=True, slots=True)
class CanalBonusTile:
    id: str
    kind: str  # seven kinds
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class CanalBox:
    row: int
    col: int
    printed: frozenset[int]  # SIDES of the printed channel (water follows it where no tile lies)
    effects: tuple[Effect, ...]  # the box bonus, taken by the player placing a canal tile here


@dataclass(frozen=True, slots=True)
class WaterSource:
    row: int  # the box next to the source
    col: int
    side: int  # the edge of that box the source sits at


@dataclass(frozen=True, slots=True)
class CanalNetwork:
    rows: int
    cols: int
    boxes: tuple[CanalBox, ...]  # row-major
    sources: tuple[WaterSource, ...]

    def box(self, row: int, col: int) -> CanalBox:
        return self.boxes[row * self.cols + col]


@dataclass(frozen=True, slots=True)
class CanalSetupCard:
    id: str
    players: tuple[int, ...]
    cells: tuple[tuple[int, int], ...]  # (row, col) boxes receiving a random canal bonus tile


@dataclass(frozen=True, slots=True)
class Deal:
    """One side of a trading tile: buy at ``buy`` coins each or sell for ``sell`` each (one of the two)."""

    item: Item
    buy: int
    sell: Bundle
    better: str  # "buy" or "sell": the highlighted deal
    gold_on: str  # "buy", "sell" or "" (no gold bonus)
    gold: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class TradingTile:
    id: str
    colour: str  # blue or red
    sides: tuple[Deal, Deal]


@dataclass(frozen=True, slots=True)
class PostBox:
    min_players: int  # the box is open from this player count up
    token: str  # the merchant token it gives: square or scarab
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Centre:
    id: str
    colour: str  # "city" (Resafa), blue or red
    posts: tuple[PostBox, ...]


@dataclass(frozen=True, slots=True)
class Road:
    a: str
    b: str
    cost: int  # coins per crossing
    resafa_spur: bool  # the segment just below Resafa: paid once for the round trip


@dataclass(frozen=True, slots=True)
class SpecialCard:
    id: str
    colour: Colour
    level: Level
    name: str
    timing: str  # instant, permanent, endgame (pink), action_card (yellow)
    effects: tuple[Effect, ...]
    vp: int  # yellow VP icon, scored at the end
    halves: tuple[ActionHalf, ActionHalf] | None  # yellow cards only
    replaces: tuple[Action, Action] | None  # yellow level I: the starting card with these actions


@dataclass(frozen=True, slots=True)
class Card:
    """A bonus card (colour, level 1/2) or a sack card (colour None, level 0)."""

    id: str
    colour: Colour | None
    level: int
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class ColourTrack:
    colour: Colour
    levels: tuple[int, ...]  # level zone (0 = start, 1..3) of each space, space 0 = start
    cards: tuple[int, ...]  # spaces with a card icon, one per level
    spaces: tuple[tuple[Effect, ...], ...]  # printed rewards per space (mostly empty)


@dataclass(frozen=True, slots=True)
class BoardSide:
    name: str  # "1-2" or "3-4"
    players: tuple[int, ...]
    water_cubes: int
    network: CanalNetwork


@dataclass(frozen=True, slots=True)
class Setup:
    rounds: int
    cards_per_round: int
    hand_limit: int
    hand_size: int  # cards in hand at the start of an odd round
    workshop_display: tuple[int, int]  # level I, level II tiles face up
    level2_round: int
    level2_tokens: int
    bonus_display_per_colour: int
    start_coins: int
    start_items: Bundle
    fourth_player: Bundle
    workshop_cost: Bundle
    garden_cost: dict[str, Bundle]
    post_cost: Bundle
    special_take_bonus: Bundle
    pink_early_bonus: tuple[Bundle, ...]  # per round 1..6
    level_limits: dict[int, int]  # level -> tracks (yellow/white/blue) that may reach it
    max_water_tanks: int
    tank_gardens: int
    tank_posts: int
    gate_size: int
    sack_discard_vp: int


@dataclass(frozen=True, slots=True)
class Supply:
    stone: int
    marble: int
    spice: int
    amphora: int
    triples_per_kind: int
    coins_1: int
    coins_5: int
    garden_large: int
    garden_small: int
    square_tokens: int
    scarab_tokens: int
    player_cubes: int


@dataclass(frozen=True, slots=True)
class Scoring:
    garden_rewards: tuple[tuple[int, int], ...]  # (track steps, VP) for the 1st, 2nd, ... completed square
    canal_strip: dict[int, int]  # canal tiles placed -> VP (highest reached threshold)
    scarab_scale: tuple[int, ...]  # VP for 1..5 scarabs
    multiplier_rows: dict[str, tuple[int, ...]]  # garden/workshop/canal: VP per tile by tokens in the row
    goods_vp: int  # per spice/amphora left
    leftover_per_vp: int  # resources + coins per VP
    rain_per_canal: int
    rain_per_passage: int


@dataclass(frozen=True, slots=True)
class Content:
    setup: Setup
    supply: Supply
    scoring: Scoring
    action_cards: tuple[ActionCard, ...]
    workshops: tuple[WorkshopTile, ...]
    canal_tiles: tuple[CanalTile, ...]
    canal_bonus_tiles: tuple[CanalBonusTile, ...]
    canal_setup_cards: tuple[CanalSetupCard, ...]
    board_sides: tuple[BoardSide, ...]
    centres: tuple[Centre, ...]
    roads: tuple[Road, ...]
    trading_tiles: tuple[TradingTile, ...]
    camel_track: tuple[int, ...]  # capacity at each step, step 0 = start
    camel_rewards: tuple[tuple[Effect, ...], ...]  # printed reward per camel step
    specials: tuple[SpecialCard, ...]
    bonus_cards: tuple[Card, ...]
    sack_cards: tuple[Card, ...]
    tracks: tuple[ColourTrack, ...]
    by_id: dict[str, Any] = field(default_factory=dict, compare=False)

    def action_set(self, name: str) -> tuple[ActionCard, ...]:
        return tuple(c for c in self.action_cards if c.set == name)

    def special_deck(self, colour: Colour, level: Level) -> tuple[SpecialCard, ...]:
        return tuple(c for c in self.specials if c.colour == colour and c.level == level)

    def side_for(self, players: int) -> BoardSide:
        return next(s for s in self.board_sides if players in s.players)


# --------------------------------------------------------------------------------------------------- parsing


def _obj(raw: Any, keys: tuple[str, ...], where: str, required: tuple[str, ...] = ()) -> dict:
    if not isinstance(raw, dict):
        raise ContentError(f"resafa content {where}: expected an object, got {type(raw).__name__}")
    unknown = set(raw) - set(keys)
    if unknown:
        raise ContentError(f"resafa content {where}: unknown field(s) {sorted(unknown)}")
    missing = [k for k in required if k not in raw]
    if missing:
        raise ContentError(f"resafa content {where}: missing field(s) {missing}")
    return raw


def _int(raw: Any, where: str, lo: int = 0, hi: int = 999) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not lo <= raw <= hi:
        raise ContentError(f"resafa content {where}: expected an integer in {lo}..{hi}, got {raw!r}")
    return raw


def _enum(raw: Any, names: tuple[str, ...], where: str) -> int:
    if raw not in names:
        raise ContentError(f"resafa content {where}: {raw!r} is not one of {list(names)}")
    return names.index(raw)


def _list(raw: Any, where: str) -> list:
    if not isinstance(raw, list):
        raise ContentError(f"resafa content {where}: expected a list, got {type(raw).__name__}")
    return raw


def bundle(raw: Any, where: str) -> Bundle:
    d = _obj(raw, _BUNDLE_KEYS, where)
    return Bundle(**{k: _int(v, f"{where}.{k}") for k, v in d.items()})


def _colour(raw: Any, where: str) -> Colour | None:
    return None if raw is None else Colour(_enum(raw, COLOURS, where))


def _action(raw: Any, where: str) -> Action | None:
    return None if raw is None else Action(_enum(raw, ACTIONS, where))


def effects(raw: Any, where: str) -> tuple[Effect, ...]:
    """Parse a list of effects (the one entry point for every printed benefit)."""
    return tuple(effect(e, f"{where}[{i}]") for i, e in enumerate(_list(raw, where)))


def effect(raw: Any, where: str) -> Effect:
    if not isinstance(raw, dict) or "kind" not in raw:
        raise ContentError(f"resafa content {where}: an effect needs a 'kind'")
    kind = raw["kind"]
    if kind not in EFFECT_KINDS:
        raise ContentError(f"resafa content {where}: unknown effect kind {kind!r}")
    cls = EFFECT_KINDS[kind]
    names = tuple(f.name for f in fields(cls))
    required = tuple(f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING)
    d = _obj(raw, ("kind", *names), f"{where} ({kind})", required)
    w = f"{where} ({kind})"
    args: dict[str, Any] = {}
    for k, v in d.items():
        if k == "kind":
            continue
        if k in ("bundle", "pay", "get", "discount"):
            args[k] = bundle(v, f"{w}.{k}")
        elif k == "colour":
            args[k] = _colour(v, f"{w}.colour")
        elif k == "action":
            args[k] = _action(v, f"{w}.action")
        elif k == "then":
            args[k] = effects(v, f"{w}.then")
        elif k == "options":
            args[k] = tuple(effects(o, f"{w}.options[{i}]") for i, o in enumerate(_list(v, f"{w}.options")))
        elif k == "table":
            args[k] = tuple(_int(x, f"{w}.table") for x in _list(v, f"{w}.table"))
        elif k == "target":
            allowed = DISCOUNT_TARGETS if cls is Discount else BUILD_TARGETS
            _enum(v, allowed, f"{w}.target")
            args[k] = v
        elif k == "on":
            _enum(v, TRIGGER_EVENTS, f"{w}.on")
            args[k] = v
        elif k == "counter":
            _enum(v, COUNTERS, f"{w}.counter")
            args[k] = v
        elif k == "free":
            if not isinstance(v, bool):
                raise ContentError(f"resafa content {w}.free: expected true/false")
            args[k] = v
        else:
            args[k] = _int(v, f"{w}.{k}", 1 if k in ("n", "each") else 0)
    e = cls(**args)
    _check_effect(e, w)
    return e


def _check_effect(e: Effect, where: str) -> None:
    if isinstance(e, Gain) and not e.bundle:
        raise ContentError(f"resafa content {where}: a gain of nothing")
    if isinstance(e, Convert) and (not e.pay or not e.get):
        raise ContentError(f"resafa content {where}: a conversion needs both pay and get")
    if isinstance(e, Choice) and len(e.options) < 2:
        raise ContentError(f"resafa content {where}: a choice needs at least two options")
    if isinstance(e, Discount) and not e.bundle:
        raise ContentError(f"resafa content {where}: a discount of nothing")
    if isinstance(e, Trigger) and any(type(t) in PERMANENT_KINDS | ENDGAME_KINDS for t in e.then):
        raise ContentError(f"resafa content {where}: a trigger may only apply instant effects")
    if isinstance(e, Score) and e.table and any(b < a for a, b in pairwise(e.table)):
        raise ContentError(f"resafa content {where}: a score table must not decrease")


def _sides(raw: Any, where: str) -> frozenset[int]:
    return frozenset(_enum(s, SIDES, where) for s in _list(raw, where))


def _ids(raw: Any, where: str) -> str:
    if not isinstance(raw, str) or not raw:
        raise ContentError(f"resafa content {where}: expected a non-empty id string, got {raw!r}")
    return raw


def _half(raw: Any, where: str) -> ActionHalf:
    d = _obj(raw, ("action", "colour", "extra"), where)
    return ActionHalf(
        _action(d.get("action"), f"{where}.action"),
        _colour(d.get("colour"), f"{where}.colour"),
        effects(d.get("extra", []), f"{where}.extra"),
    )


def _halves(raw: Any, where: str) -> tuple[ActionHalf, ActionHalf]:
    lst = _list(raw, where)
    if len(lst) != 2:
        raise ContentError(f"resafa content {where}: an action card has exactly 2 halves, got {len(lst)}")
    return (_half(lst[0], f"{where}[0]"), _half(lst[1], f"{where}[1]"))


def _action_card(raw: Any, where: str) -> ActionCard:
    d = _obj(raw, ("id", "set", "halves"), where, ("id", "set", "halves"))
    return ActionCard(_ids(d["id"], f"{where}.id"), d["set"], _halves(d["halves"], f"{where}.halves"))


def _face(raw: Any, where: str) -> WorkshopFace:
    d = _obj(raw, ("rooms", "extra_production", "immediate", "greens"), where, ("rooms",))
    rooms = tuple(Room(effects(r, f"{where}.rooms[{i}]")) for i, r in enumerate(_list(d["rooms"], f"{where}.rooms")))
    greens = []
    for i, g in enumerate(_list(d.get("greens", []), f"{where}.greens")):
        w = f"{where}.greens[{i}]"
        gd = _obj(g, ("side", "slot", "effects"), w, ("side", "slot", "effects"))
        greens.append(
            Green(
                _enum(gd["side"], SIDES, f"{w}.side"),
                _int(gd["slot"], f"{w}.slot", 0, 2),
                effects(gd["effects"], f"{w}.effects"),
            )
        )
    spots = [(g.side, g.slot) for g in greens]
    if len(set(spots)) != len(spots):
        raise ContentError(f"resafa content {where}.greens: two green bonuses on the same spot")
    immediate = d.get("immediate", False)
    if not isinstance(immediate, bool):
        raise ContentError(f"resafa content {where}.immediate: expected true/false")
    return WorkshopFace(
        rooms, _int(d.get("extra_production", 0), f"{where}.extra_production", 0, 2), immediate, tuple(greens)
    )


def _workshop(raw: Any, where: str) -> WorkshopTile:
    d = _obj(raw, ("id", "level", "front", "back"), where, ("id", "level", "front", "back"))
    level = Level(_enum(d["level"], ("start", "I", "II"), f"{where}.level"))
    t = WorkshopTile(
        _ids(d["id"], f"{where}.id"), level, _face(d["front"], f"{where}.front"), _face(d["back"], f"{where}.back")
    )
    # the seed's faces: level I front 2 rooms / back a 2-VP room + production icon; level II front 1 room taken
    # as an immediate bonus / back a 3-VP room + production icon; starting tiles as level I.
    vp_back = {Level.START: 2, Level.I: 2, Level.II: 3}[level]
    front_rooms = 1 if level == Level.II else 2
    if len(t.front.rooms) != front_rooms or t.front.extra_production or t.front.immediate != (level == Level.II):
        raise ContentError(
            f"resafa content {where}.front: a {d['level']} workshop front has {front_rooms} room(s)"
            f"{', taken as an immediate bonus' if level == Level.II else ''} and no production icon"
        )
    if (
        len(t.back.rooms) != 1
        or t.back.extra_production != 1
        or t.back.immediate
        or t.back.rooms[0].effects != (Gain(Bundle(vp=vp_back)),)
    ):
        raise ContentError(
            f"resafa content {where}.back: a {d['level']} workshop back is one {vp_back}-VP room"
            " and one production icon"
        )
    return t


def _canal_face(raw: Any, where: str, tank: bool) -> CanalFace:
    d = _obj(raw, ("cost", "blue_vp", "exits"), where, ("cost", "blue_vp", "exits"))
    f = CanalFace(
        bundle(d["cost"], f"{where}.cost"),
        _int(d["blue_vp"], f"{where}.blue_vp", 0, 9),
        _sides(d["exits"], f"{where}.exits"),
        tank,
    )
    if SIDES.index("n") not in f.exits:
        raise ContentError(f"resafa content {where}.exits: water enters every canal tile from the north")
    if tank and f.exits != frozenset({SIDES.index("n")}):
        raise ContentError(f"resafa content {where}.exits: a water tank ends a network (north exit only)")
    if not tank and len(f.exits) < 2:
        raise ContentError(f"resafa content {where}.exits: a canal tile needs a way out")
    return f


def _canal_tile(raw: Any, where: str) -> CanalTile:
    d = _obj(raw, ("id", "front", "back"), where, ("id", "front"))
    back = d.get("back")
    return CanalTile(
        _ids(d["id"], f"{where}.id"),
        _canal_face(d["front"], f"{where}.front", False),
        None if back is None else _canal_face(back, f"{where}.back", True),
    )


def _network(raw: Any, where: str) -> CanalNetwork:
    d = _obj(raw, ("rows", "cols", "boxes", "sources"), where, ("rows", "cols", "boxes", "sources"))
    rows, cols = _int(d["rows"], f"{where}.rows", 2, 9), _int(d["cols"], f"{where}.cols", 2, 9)
    boxes = []
    for i, b in enumerate(_list(d["boxes"], f"{where}.boxes")):
        w = f"{where}.boxes[{i}]"
        bd = _obj(b, ("printed", "effects"), w, ("printed",))
        boxes.append(
            CanalBox(
                i // cols,
                i % cols,
                _sides(bd["printed"], f"{w}.printed"),
                effects(bd.get("effects", []), f"{w}.effects"),
            )
        )
    if len(boxes) != rows * cols:
        raise ContentError(f"resafa content {where}.boxes: {len(boxes)} boxes for a {rows}x{cols} grid")
    sources = []
    for i, s in enumerate(_list(d["sources"], f"{where}.sources")):
        w = f"{where}.sources[{i}]"
        sd = _obj(s, ("row", "col", "side"), w, ("row", "col", "side"))
        src = WaterSource(
            _int(sd["row"], f"{w}.row", 0, rows - 1),
            _int(sd["col"], f"{w}.col", 0, cols - 1),
            _enum(sd["side"], SIDES, f"{w}.side"),
        )
        edge = {0: src.row == 0, 1: src.col == cols - 1, 2: False, 3: src.col == 0}[src.side]
        if not edge:
            raise ContentError(f"resafa content {w}: a water source sits on the north, east or west edge")
        sources.append(src)
    if len({(s.row, s.col) for s in sources}) != len(sources):
        raise ContentError(f"resafa content {where}.sources: two sources at the same box")
    for b in boxes:
        if not any(isinstance(e, Gain) and e.bundle.vp for e in b.effects):
            raise ContentError(f"resafa content {where}: box ({b.row},{b.col}) prints no VP (every box gives VP)")
    net = CanalNetwork(rows, cols, tuple(boxes), tuple(sources))
    n, e, s_, w_ = range(4)
    for b in net.boxes:  # the printed network is consistent: a channel to a neighbour is matched by it
        for side, (dr, dc), opp in ((e, (0, 1), w_), (s_, (1, 0), n)):
            r, c = b.row + dr, b.col + dc
            if r < rows and c < cols and (side in b.printed) != (opp in net.box(r, c).printed):
                raise ContentError(
                    f"resafa content {where}: printed channel of box ({b.row},{b.col}) does not "
                    f"match its neighbour ({r},{c})"
                )
    return net


def _deal(raw: Any, where: str) -> Deal:
    d = _obj(raw, ("item", "buy", "sell", "better", "gold_on", "gold"), where, ("item", "buy", "sell", "better"))
    deal = Deal(
        Item(_enum(d["item"], ITEMS, f"{where}.item")),
        _int(d["buy"], f"{where}.buy", 1, 9),
        bundle(d["sell"], f"{where}.sell"),
        d["better"],
        d.get("gold_on", ""),
        effects(d.get("gold", []), f"{where}.gold"),
    )
    _enum(deal.better, ("buy", "sell"), f"{where}.better")
    _enum(deal.gold_on, ("", "buy", "sell"), f"{where}.gold_on")
    if bool(deal.gold_on) != bool(deal.gold):
        raise ContentError(f"resafa content {where}: gold_on and gold go together")
    if not deal.sell or deal.sell.items != (0, 0, 0, 0):
        raise ContentError(f"resafa content {where}.sell: a sale pays coins and/or VP")
    return deal


def _card(raw: Any, where: str, colour_required: bool) -> Card:
    d = _obj(raw, ("id", "colour", "level", "effects"), where, ("id", "effects"))
    colour = _colour(d.get("colour"), f"{where}.colour")
    if colour_required and colour is None:
        raise ContentError(f"resafa content {where}.colour: a bonus card has a colour")
    c = Card(
        _ids(d["id"], f"{where}.id"),
        colour,
        _int(d.get("level", 0), f"{where}.level", 0, 2),
        effects(d["effects"], f"{where}.effects"),
    )
    if not c.effects:
        raise ContentError(f"resafa content {where}.effects: a card without an effect")
    return c


def _special(raw: Any, where: str) -> SpecialCard:
    keys = ("id", "colour", "level", "name", "timing", "effects", "vp", "halves", "replaces")
    d = _obj(raw, keys, where, ("id", "colour", "level", "name", "timing"))
    colour = Colour(_enum(d["colour"], COLOURS, f"{where}.colour"))
    level = Level(_enum(d["level"], ("start", "I", "II", "III"), f"{where}.level"))
    timing = d["timing"]
    _enum(timing, TIMINGS, f"{where}.timing")
    halves = None if d.get("halves") is None else _halves(d["halves"], f"{where}.halves")
    rep = d.get("replaces")
    replaces = None
    if rep is not None:
        lst = _list(rep, f"{where}.replaces")
        if len(lst) != 2:
            raise ContentError(f"resafa content {where}.replaces: two actions")
        replaces = (
            Action(_enum(lst[0], ACTIONS, f"{where}.replaces")),
            Action(_enum(lst[1], ACTIONS, f"{where}.replaces")),
        )
    card = SpecialCard(
        _ids(d["id"], f"{where}.id"),
        colour,
        level,
        str(d["name"]),
        timing,
        effects(d.get("effects", []), f"{where}.effects"),
        _int(d.get("vp", 0), f"{where}.vp", 0, 9),
        halves,
        replaces,
    )
    _check_special(card, where)
    return card


def _check_special(c: SpecialCard, where: str) -> None:
    def bad(msg: str) -> ContentError:
        return ContentError(f"resafa content {where}: {msg}")

    if c.level == Level.START:
        raise bad("special cards are level I, II or III")
    kinds = {type(e) for e in c.effects}
    if c.colour == Colour.YELLOW:
        if c.timing != "action_card" or c.halves is None or c.effects:
            raise bad("a yellow card is an upgraded action card (timing action_card, two halves, no other effect)")
        if any(h.colour is not None for h in c.halves):
            raise bad("yellow cards have no colour: the colour action is chosen when played")
        if c.replaces is None:
            raise bad("a yellow card names the action pair (card slot) it replaces")
        if c.level == Level.I and tuple(h.action for h in c.halves) != c.replaces:
            raise bad("a level I yellow card keeps the main actions of the card it replaces")
        if c.level > Level.I and any(h.action is not None for h in c.halves):
            raise bad("on level II/III yellow cards the main action is chosen freely (no action on the halves)")
        return
    if c.halves is not None or c.replaces is not None:
        raise bad("only yellow cards have halves")
    if not c.effects:
        raise bad("a special card without an effect")
    if c.colour == Colour.PINK:
        if c.timing != "endgame" or kinds != {Score}:
            raise bad("a pink card is an end-game condition (timing endgame, score effects only)")
        return
    if c.timing == "endgame" or Score in kinds:
        raise bad("only pink cards score at the end")
    if c.timing == "permanent" and not kinds <= PERMANENT_KINDS:
        raise bad("a permanent card holds discount/trigger/hand_limit effects only")
    if c.timing == "instant" and kinds & PERMANENT_KINDS:
        raise bad("an instant card holds no permanent effect")
    if c.colour == Colour.BLUE and c.level > Level.I and c.timing != "instant":
        raise bad("blue level II/III cards give extra instant actions")


def _track(raw: Any, where: str) -> ColourTrack:
    d = _obj(raw, ("colour", "levels", "cards", "spaces"), where, ("colour", "levels", "cards"))
    levels = tuple(_int(x, f"{where}.levels", 0, 3) for x in _list(d["levels"], f"{where}.levels"))
    cards = tuple(_int(x, f"{where}.cards", 1, len(levels) - 1) for x in _list(d["cards"], f"{where}.cards"))
    spaces_raw = _list(d.get("spaces", [[] for _ in levels]), f"{where}.spaces")
    spaces = tuple(effects(s, f"{where}.spaces[{i}]") for i, s in enumerate(spaces_raw))
    t = ColourTrack(Colour(_enum(d["colour"], COLOURS, f"{where}.colour")), levels, cards, spaces)
    if len(spaces) != len(levels) or levels[0] != 0 or any(b < a for a, b in pairwise(levels)):
        raise ContentError(f"resafa content {where}: levels start at 0, never decrease, one space list per space")
    if [levels[s] for s in cards] != [1, 2, 3]:
        raise ContentError(f"resafa content {where}.cards: one card icon in each of the level I, II, III zones")
    return t


def _section(doc: dict, key: str) -> Any:
    if key not in doc:
        raise ContentError(f"resafa content: missing section {key!r}")
    return doc[key]


def _items(doc: dict, key: str, parse: Any) -> tuple:
    return tuple(parse(r, f"{key}[{i}]") for i, r in enumerate(_list(_section(doc, key), key)))


def _bundles(raw: Any, where: str) -> tuple[Bundle, ...]:
    return tuple(bundle(b, f"{where}[{i}]") for i, b in enumerate(_list(raw, where)))


def _setup(raw: Any) -> Setup:
    keys = tuple(f.name for f in fields(Setup))
    d = _obj(raw, keys, "setup", keys)
    b = {
        k: bundle(d[k], f"setup.{k}")
        for k in ("start_items", "fourth_player", "workshop_cost", "post_cost", "special_take_bonus")
    }
    gc = _obj(d["garden_cost"], ("small", "large"), "setup.garden_cost", ("small", "large"))
    ints = {
        k: _int(d[k], f"setup.{k}")
        for k in (
            "rounds",
            "cards_per_round",
            "hand_limit",
            "hand_size",
            "level2_round",
            "level2_tokens",
            "bonus_display_per_colour",
            "start_coins",
            "max_water_tanks",
            "tank_gardens",
            "tank_posts",
            "gate_size",
            "sack_discard_vp",
        )
    }
    wd = tuple(_int(x, "setup.workshop_display") for x in _list(d["workshop_display"], "setup.workshop_display"))
    limits = _obj(d["level_limits"], ("1", "2", "3"), "setup.level_limits", ("1", "2", "3"))
    return Setup(
        **ints,
        **b,
        workshop_display=(wd[0], wd[1]),
        garden_cost={k: bundle(v, f"setup.garden_cost.{k}") for k, v in gc.items()},
        pink_early_bonus=_bundles(d["pink_early_bonus"], "setup.pink_early_bonus"),
        level_limits={int(k): _int(v, f"setup.level_limits.{k}", 1, 3) for k, v in limits.items()},
    )


def _supply(raw: Any) -> Supply:
    keys = tuple(f.name for f in fields(Supply))
    d = _obj(raw, keys, "supply", keys)
    return Supply(**{k: _int(v, f"supply.{k}") for k, v in d.items()})


def _scoring(raw: Any) -> Scoring:
    keys = tuple(f.name for f in fields(Scoring))
    d = _obj(raw, keys, "scoring", keys)
    gr = []
    for i, r in enumerate(_list(d["garden_rewards"], "scoring.garden_rewards")):
        pair = _list(r, f"scoring.garden_rewards[{i}]")
        gr.append((_int(pair[0], f"scoring.garden_rewards[{i}]"), _int(pair[1], f"scoring.garden_rewards[{i}]")))
    rows = _obj(
        d["multiplier_rows"],
        ("garden", "workshop", "canal"),
        "scoring.multiplier_rows",
        ("garden", "workshop", "canal"),
    )
    return Scoring(
        tuple(gr),
        {
            int(k): _int(v, f"scoring.canal_strip.{k}")
            for k, v in _obj(d["canal_strip"], tuple(str(i) for i in range(1, 8)), "scoring.canal_strip").items()
        },
        tuple(_int(x, "scoring.scarab_scale") for x in _list(d["scarab_scale"], "scoring.scarab_scale")),
        {
            k: tuple(_int(x, f"scoring.multiplier_rows.{k}") for x in _list(v, f"scoring.multiplier_rows.{k}"))
            for k, v in rows.items()
        },
        _int(d["goods_vp"], "scoring.goods_vp"),
        _int(d["leftover_per_vp"], "scoring.leftover_per_vp", 1),
        _int(d["rain_per_canal"], "scoring.rain_per_canal"),
        _int(d["rain_per_passage"], "scoring.rain_per_passage"),
    )


def _board_side(raw: Any, where: str) -> BoardSide:
    d = _obj(raw, ("name", "players", "water_cubes", "network"), where, ("name", "players", "water_cubes", "network"))
    side = BoardSide(
        str(d["name"]),
        tuple(_int(p, f"{where}.players", 1, 4) for p in _list(d["players"], where)),
        _int(d["water_cubes"], f"{where}.water_cubes", 1, 20),
        _network(d["network"], f"{where}.network"),
    )
    if len(side.network.sources) != side.water_cubes:
        raise ContentError(
            f"resafa content {where}: {side.water_cubes} water cubes but {len(side.network.sources)} sources"
        )
    return side


def _centre(raw: Any, where: str) -> Centre:
    d = _obj(raw, ("id", "colour", "posts"), where, ("id", "colour"))
    _enum(d["colour"], ("city", "blue", "red"), f"{where}.colour")
    posts = []
    for i, p in enumerate(_list(d.get("posts", []), f"{where}.posts")):
        w = f"{where}.posts[{i}]"
        pd = _obj(p, ("min_players", "token", "effects"), w, ("min_players", "token"))
        _enum(pd["token"], ("square", "scarab"), f"{w}.token")
        posts.append(
            PostBox(
                _int(pd["min_players"], f"{w}.min_players", 1, 4),
                pd["token"],
                effects(pd.get("effects", []), f"{w}.effects"),
            )
        )
    return Centre(_ids(d["id"], f"{where}.id"), d["colour"], tuple(posts))


def _road(raw: Any, where: str) -> Road:
    d = _obj(raw, ("a", "b", "cost", "resafa_spur"), where, ("a", "b", "cost"))
    spur = d.get("resafa_spur", False)
    if not isinstance(spur, bool):
        raise ContentError(f"resafa content {where}.resafa_spur: expected true/false")
    return Road(_ids(d["a"], f"{where}.a"), _ids(d["b"], f"{where}.b"), _int(d["cost"], f"{where}.cost", 1, 5), spur)


def _trading_tile(raw: Any, where: str) -> TradingTile:
    d = _obj(raw, ("id", "colour", "sides"), where, ("id", "colour", "sides"))
    _enum(d["colour"], ("blue", "red"), f"{where}.colour")
    sides = _list(d["sides"], f"{where}.sides")
    if len(sides) != 2:
        raise ContentError(f"resafa content {where}.sides: a trading tile has two sides")
    return TradingTile(
        _ids(d["id"], f"{where}.id"),
        d["colour"],
        (_deal(sides[0], f"{where}.sides[0]"), _deal(sides[1], f"{where}.sides[1]")),
    )


def _bonus_tile(raw: Any, where: str) -> CanalBonusTile:
    d = _obj(raw, ("id", "kind", "effects"), where, ("id", "kind", "effects"))
    return CanalBonusTile(
        _ids(d["id"], f"{where}.id"), _ids(d["kind"], f"{where}.kind"), effects(d["effects"], f"{where}.effects")
    )


def _setup_card(raw: Any, where: str) -> CanalSetupCard:
    d = _obj(raw, ("id", "players", "cells"), where, ("id", "players", "cells"))
    cells = []
    for i, c in enumerate(_list(d["cells"], f"{where}.cells")):
        pair = _list(c, f"{where}.cells[{i}]")
        if len(pair) != 2:
            raise ContentError(f"resafa content {where}.cells[{i}]: a cell is [row, col]")
        cells.append((_int(pair[0], f"{where}.cells[{i}]"), _int(pair[1], f"{where}.cells[{i}]")))
    return CanalSetupCard(
        _ids(d["id"], f"{where}.id"),
        tuple(_int(p, f"{where}.players", 1, 4) for p in _list(d["players"], where)),
        tuple(cells),
    )


SETS = ("alpha", "beta", "gamma", "delta")


def build(doc: dict) -> Content:
    """Parse every section and check the whole box against the seed's counts and rules."""
    if not isinstance(doc, dict):
        raise ContentError("resafa content: the document is not an object")
    known = {
        "_about",
        "setup",
        "supply",
        "scoring",
        "tracks",
        "camel_track",
        "action_cards",
        "workshops",
        "canal_tiles",
        "canal_bonus_tiles",
        "canal_setup_cards",
        "board_sides",
        "centres",
        "roads",
        "trading_tiles",
        "specials",
        "bonus_cards",
        "sack_cards",
    }
    unknown = set(doc) - known
    if unknown:
        raise ContentError(f"resafa content: unknown section(s) {sorted(unknown)}")
    camel = _obj(_section(doc, "camel_track"), ("capacity", "rewards"), "camel_track", ("capacity", "rewards"))
    c = Content(
        setup=_setup(_section(doc, "setup")),
        supply=_supply(_section(doc, "supply")),
        scoring=_scoring(_section(doc, "scoring")),
        action_cards=_items(doc, "action_cards", _action_card),
        workshops=_items(doc, "workshops", _workshop),
        canal_tiles=_items(doc, "canal_tiles", _canal_tile),
        canal_bonus_tiles=_items(doc, "canal_bonus_tiles", _bonus_tile),
        canal_setup_cards=_items(doc, "canal_setup_cards", _setup_card),
        board_sides=_items(doc, "board_sides", _board_side),
        centres=_items(doc, "centres", _centre),
        roads=_items(doc, "roads", _road),
        trading_tiles=_items(doc, "trading_tiles", _trading_tile),
        camel_track=tuple(_int(x, "camel_track.capacity", 1, 20) for x in _list(camel["capacity"], "camel_track")),
        camel_rewards=tuple(
            effects(r, f"camel_track.rewards[{i}]")
            for i, r in enumerate(_list(camel["rewards"], "camel_track.rewards"))
        ),
        specials=_items(doc, "specials", _special),
        bonus_cards=_items(doc, "bonus_cards", lambda r, w: _card(r, w, True)),
        sack_cards=_items(doc, "sack_cards", lambda r, w: _card(r, w, False)),
        tracks=_items(doc, "tracks", _track),
    )
    _check_box(c)
    for group in (
        c.action_cards,
        c.workshops,
        c.canal_tiles,
        c.canal_bonus_tiles,
        c.canal_setup_cards,
        c.centres,
        c.trading_tiles,
        c.specials,
        c.bonus_cards,
        c.sack_cards,
    ):
        for piece in group:
            if piece.id in c.by_id:
                raise ContentError(f"resafa content: id {piece.id!r} used twice")
            c.by_id[piece.id] = piece
    return c


def _sack_effect(e: Effect) -> bool:
    if isinstance(e, Gain):
        return e.bundle == Bundle(stone=e.bundle.stone, marble=e.bundle.marble)
    if isinstance(e, Convert):
        return {e.pay, e.get} in (
            {Bundle(stone=e.pay.stone), Bundle(coins=e.get.coins)},
            {Bundle(coins=e.pay.coins), Bundle(stone=e.get.stone)},
        )
    if isinstance(e, Choice):
        return all(_sack_effect(x) for option in e.options for x in option)
    return False


def _need(ok: bool, msg: str) -> None:
    if not ok:
        raise ContentError(f"resafa content: {msg}")


def _check_box(c: Content) -> None:
    s, sup, sc = c.setup, c.supply, c.scoring
    # the seed's numbers
    _need(
        (sup.stone, sup.marble, sup.spice, sup.amphora) == (22, 20, 18, 18),
        "supply: 22 stone, 20 marble, 18 spice, 18 amphora",
    )
    _need(
        sup.triples_per_kind == 7 and (sup.coins_1, sup.coins_5) == (30, 14),
        "supply: 7 triples per kind, 30 one-coins and 14 five-coins",
    )
    _need((sup.garden_large, sup.garden_small) == (17, 22), "supply: 17 large and 22 small garden tiles")
    _need((sup.square_tokens, sup.scarab_tokens) == (21, 20), "supply: 21 square and 20 scarab merchant tokens")
    _need(sup.player_cubes == 13, "supply: 13 cubes per player colour")
    _need(s.rounds == 6 and s.cards_per_round == 3 and s.hand_limit == 5, "setup: 6 rounds of 3 cards, hand limit 5")
    _need(
        s.workshop_display == (3, 3) and s.level2_round == 3 and s.level2_tokens == 2 and s.gate_size == 2,
        "setup: workshop display 3 + 3, level II from round 3 with 2 merchant tokens at the gate",
    )
    _need(s.bonus_display_per_colour == 3, "setup: bonus display of 3 cards per colour")
    _need(
        s.workshop_cost == Bundle(stone=1, coins=1) and s.post_cost == Bundle(stone=1, coins=1),
        "setup: workshop and trading post cost 1 coin + 1 stone",
    )
    _need(
        s.garden_cost == {"small": Bundle(stone=1), "large": Bundle(stone=1, coins=1)},
        "setup: small garden 1 stone, large garden 1 coin + 1 stone",
    )
    _need(s.fourth_player == Bundle(stone=1, vp=2), "setup: the 4th player starts with 1 extra stone and 2 VP")
    _need(s.special_take_bonus == Bundle(coins=1, vp=1), "setup: the face-up special card gives 1 VP + 1 coin")
    _need(
        s.pink_early_bonus == (Bundle(coins=2, vp=3),) * 2 + (Bundle(coins=1, vp=1),) * 2 + (ZERO,) * 2,
        "setup: pink early bonus 2 coins + 3 VP in rounds 1-2, 1 coin + 1 VP in rounds 3-4, none after",
    )
    _need(s.level_limits == {1: 3, 2: 2, 3: 1}, "setup: level limits I on 3 tracks, II on 2, III on 1")
    _need(
        (s.max_water_tanks, s.tank_gardens, s.tank_posts, s.sack_discard_vp) == (2, 2, 1, 1),
        "setup: at most 2 water tanks, needing 2 completed gardens and 1 trading post; unused sack card 1 VP",
    )
    _need(
        sc.garden_rewards == ((1, 0), (1, 2), (2, 3), (2, 4), (0, 5)),
        "scoring: garden completion rewards 1 step / 1 step + 2 / 2 steps + 3 / 2 steps + 4 / 5 VP",
    )
    _need(sc.canal_strip == {3: 5, 5: 8, 7: 15}, "scoring: canal strip 3 -> 5, 5 -> 8, 7 -> 15 VP")
    _need(sc.scarab_scale == (2, 4, 7, 11, 16), "scoring: scarab scale 2/4/7/11/16")
    _need(all(v == (1, 2, 3) for v in sc.multiplier_rows.values()), "scoring: multiplier rows worth 1/2/3 VP")
    _need(
        (sc.goods_vp, sc.leftover_per_vp, sc.rain_per_canal, sc.rain_per_passage) == (1, 5, 1, 1),
        "scoring: 1 VP per good left, 1 VP per 5 resources + coins, rain 1 VP per canal and per passage",
    )
    # starting action cards
    pairings = {}
    for name in SETS:
        cards = c.action_set(name)
        _need(len(cards) == 6, f"action set {name} has {len(cards)} cards, not 6")
        halves = [h for card in cards for h in card.halves]
        _need(
            all(h.action is not None and h.colour is not None and not h.extra for h in halves),
            f"action set {name}: every half has a main action and a colour, nothing more",
        )
        for a in Action:
            _need(sum(h.action == a for h in halves) == 2, f"action set {name}: {a.name.lower()} is not there twice")
        for col in Colour:
            _need(sum(h.colour == col for h in halves) == 3, f"action set {name}: {col.name.lower()} not 3 times")
        _need(
            all(card.halves[0].action != card.halves[1].action for card in cards),
            f"action set {name}: a card with the same action twice",
        )
        for a in Action:
            _need(
                len({h.colour for h in halves if h.action == a}) == 2,
                f"action set {name}: both {a.name.lower()} halves have the same colour",
            )
        pairings[name] = sorted((h.action, h.colour) for h in halves)
    _need(len({tuple(p) for p in pairings.values()}) == 4, "action sets: the action-colour pairings must differ")
    _need({card.set for card in c.action_cards} == set(SETS), "action cards: sets are alpha, beta, gamma, delta")
    # workshops
    counts = [sum(t.level == lv for t in c.workshops) for lv in (Level.START, Level.I, Level.II)]
    _need(counts == [8, 12, 14], f"workshops: {counts} start/I/II tiles, not 8/12/14")
    # canal
    _need(len(c.canal_tiles) == 7, "canal: 7 canal tiles per player colour")
    _need(sum(t.back is not None for t in c.canal_tiles) == 2, "canal: exactly two tiles have a water-tank back")
    _need(
        len(c.canal_bonus_tiles) == 9 and len({t.kind for t in c.canal_bonus_tiles}) == 7,
        "canal: 9 canal bonus tiles of 7 kinds",
    )
    _need(sorted(p for sd in c.board_sides for p in sd.players) == [1, 2, 3, 4], "board sides cover 1-4 players")
    _need(
        sorted((sd.players, sd.water_cubes) for sd in c.board_sides) == [((1, 2), 8), ((3, 4), 9)],
        "board sides: 8 water cubes for 1-2 players, 9 for 3-4",
    )
    _need(
        len(c.canal_setup_cards) == 3 and sorted(p for k in c.canal_setup_cards for p in k.players) == [1, 2, 3, 4],
        "canal: 3 setup cards covering 1-4 players once",
    )
    for k in c.canal_setup_cards:
        net = c.side_for(k.players[0]).network
        _need(
            all(k.players[0] in sd.players or p not in sd.players for p in k.players for sd in c.board_sides),
            f"canal setup card {k.id} spans two board sides",
        )
        _need(
            len(set(k.cells)) == len(k.cells) and len(k.cells) <= len(c.canal_bonus_tiles),
            f"canal setup card {k.id}: distinct cells, at most 9",
        )
        _need(all(r < net.rows and col < net.cols for r, col in k.cells), f"canal setup card {k.id}: a cell off grid")
    # trade map
    ids = {x.id for x in c.centres}
    colours = sorted(x.colour for x in c.centres)
    _need(colours == ["blue"] * 4 + ["city"] + ["red"] * 5, "trade map: Resafa, 4 blue and 5 red trading centres")
    _need(all(not x.posts for x in c.centres if x.colour == "city"), "trade map: no trading posts in Resafa")
    _need(
        all(sorted(p.min_players for p in x.posts) == [1, 2, 3, 4] for x in c.centres if x.colour != "city"),
        "trade map: every trading centre has 4 post boxes, open from 1, 2, 3 and 4 players",
    )
    for r in c.roads:
        _need(r.a in ids and r.b in ids and r.a != r.b, f"road {r.a}-{r.b}: unknown centre")
    city = next(x.id for x in c.centres if x.colour == "city")
    spurs = [r for r in c.roads if r.resafa_spur]
    _need(
        len(spurs) == 1 and city in (spurs[0].a, spurs[0].b),
        "trade map: one road, the segment below Resafa, is the Resafa spur",
    )
    seen, todo = {city}, [city]
    while todo:
        here = todo.pop()
        for r in c.roads:
            for u, v in ((r.a, r.b), (r.b, r.a)):
                if u == here and v not in seen:
                    seen.add(v)
                    todo.append(v)
    _need(seen == ids, f"trade map: centres {sorted(ids - seen)} not reachable by road")
    boxes = [p.token for x in c.centres for p in x.posts]
    _need(
        boxes.count("square") <= sup.square_tokens and boxes.count("scarab") <= sup.scarab_tokens,
        "trade map: the post boxes give more merchant tokens of a kind than the supply holds",
    )
    tcol = sorted(t.colour for t in c.trading_tiles)
    _need(tcol == ["blue"] * 4 + ["red"] * 5, "trading tiles: 4 blue and 5 red")
    # camel
    _need(
        len(c.camel_track) == len(c.camel_rewards) and all(b > a for a, b in pairwise(c.camel_track)),
        "camel track: capacities rise, one reward list per step",
    )
    # special cards
    for col in Colour:
        for lv in (Level.I, Level.II, Level.III):
            deck = c.special_deck(col, lv)
            _need(len(deck) > 4, f"special deck {col.name.lower()} {lv.name}: {len(deck)} cards, need more than 4")
    start_pairs = {frozenset(h.action for h in card.halves) for card in c.action_cards}
    for card in c.specials:
        if card.replaces is not None:
            _need(frozenset(card.replaces) in start_pairs, f"special {card.id}: no starting card has those actions")
            _need(
                all(
                    frozenset(card.replaces) in {frozenset(h.action for h in a.halves) for a in c.action_set(n)}
                    for n in SETS
                ),
                f"special {card.id}: some starting set has no card with those actions",
            )
    _need(
        any(
            Score(counter="water_cubes") == e or (isinstance(e, Score) and e.counter == "water_cubes")
            for card in c.specials
            for e in card.effects
        ),
        "special cards: a pink card scores water cubes",
    )
    # bonus and sack cards
    for lv in (1, 2):
        for col in Colour:
            n = sum(b.level == lv and b.colour == col for b in c.bonus_cards)
            _need(n == 9, f"bonus cards level {lv}: {n} {col.name.lower()} cards, not 9")
    _need(len(c.bonus_cards) == 72, "bonus cards: 36 level I + 36 level II")
    for card in c.sack_cards:
        _need(card.level == 0 and card.colour is None, f"sack card {card.id}: no colour, no level")
        _need(
            all(_sack_effect(e) for e in card.effects),
            f"sack card {card.id}: gives stone/marble or converts between stone and coins",
        )
    _need(len(c.sack_cards) >= 12, "sack cards: at least 12")
    # tracks
    _need(sorted(t.colour for t in c.tracks) == list(Colour), "tracks: one per colour")


# --------------------------------------------------------------------------------------------------- text


def describe_bundle(b: Bundle) -> str:
    parts = [
        f"{n} {'coin' if k == 'coins' and n == 1 else k}"
        for k, n in zip(_BUNDLE_KEYS, (b.stone, b.marble, b.spice, b.amphora, b.coins, b.vp), strict=True)
        if n
    ]
    return " + ".join(parts).replace(" vp", " VP") or "nothing"


_TARGET_NAMES = {"garden_small": "small garden tile", "garden_large": "large garden tile", "garden": "garden tile"}


def _name(x: IntEnum | None, anyword: str) -> str:
    return anyword if x is None else x.name.lower()


def describe(e: Effect) -> str:
    """One effect as a short English phrase (rules text, render, docs)."""
    if isinstance(e, Gain):
        return f"+{describe_bundle(e.bundle)}"
    if isinstance(e, Choice):
        return "one of: " + " | ".join(describe_all(o) for o in e.options)
    if isinstance(e, Track):
        steps = f"{e.n} step{'s' if e.n > 1 else ''}"
        return (
            f"{steps} on any track{'s' if e.n > 1 else ''}"
            if e.colour is None
            else f"{steps} on {_name(e.colour, '')} track"
        )
    if isinstance(e, Sack):
        return f"{e.n} sack card{'s' if e.n > 1 else ''}"
    if isinstance(e, BonusCard):
        cards = f"bonus card{'s' if e.n > 1 else ''}"
        what = f"{_name(e.colour, '')} {cards}" if e.colour is not None else f"{cards} of any colour"
        return f"{e.n} {what} from the display"
    if isinstance(e, ColourAction):
        return (
            f"an extra {_name(e.colour, '')} colour action"
            if e.colour is not None
            else "an extra colour action of any colour"
        )
    if isinstance(e, Produce):
        return f"{e.n} extra production activation{'s' if e.n > 1 else ''}"
    if isinstance(e, Build):
        cost = "free" if e.free else f"{describe_bundle(e.discount)} off" if e.discount else "full cost"
        return f"build a {_TARGET_NAMES.get(e.target, e.target)} ({cost})"
    if isinstance(e, Trade):
        road = "free moves" if e.road_discount >= 9 else f"roads {e.road_discount} coins off" if e.road_discount else ""
        return "an extra trade action" + (f" ({road})" if road else "")
    if isinstance(e, Post):
        return "a trading post where the camel stands" + (f" ({describe_bundle(e.discount)} off)" if e.discount else "")
    if isinstance(e, Camel):
        return f"camel capacity +{e.n}"
    if isinstance(e, ExtraAction):
        return (
            f"an extra {_name(e.action, '')} main action"
            if e.action is not None
            else "an extra main action of your choice"
        )
    if isinstance(e, Convert):
        times = f" (up to {e.n}x)" if e.n > 1 else ""
        return f"pay {describe_bundle(e.pay)} for {describe_bundle(e.get)}{times}"
    if isinstance(e, Discount):
        return f"permanent: every {e.target.replace('_', ' ')} costs {describe_bundle(e.bundle)} less"
    if isinstance(e, Trigger):
        return f"permanent: after each {e.on.replace('_', ' ')}: {describe_all(e.then)}"
    if isinstance(e, HandLimit):
        return f"permanent: hand limit +{e.n}"
    if isinstance(e, Score):
        if e.table:
            return f"end: {e.counter.replace('_', ' ')} 0,1,2.. -> {'/'.join(map(str, e.table))} VP"
        per = f"per {e.each} " if e.each > 1 else "per "
        cap = f" (max {e.cap * e.vp})" if e.cap < 99 else ""
        return f"end: {e.vp} VP {per}{e.counter.replace('_', ' ')}{cap}"
    raise TypeError(f"not a Resafa effect: {e!r}")


def describe_all(effects: tuple[Effect, ...]) -> str:
    return ", ".join(describe(e) for e in effects) or "-"


DATA_FILES = ("rules.json", "workshops.json", "board.json", "cards.json")


def read_documents() -> dict:
    """The merged raw document of data/*.json (a section may appear in one file only)."""
    doc: dict = {}
    for name in DATA_FILES:
        try:
            part = json.loads(resources.files(__package__).joinpath(f"data/{name}").read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise ContentError(f"resafa content {name}: not valid JSON ({err})") from None
        part.pop("_about", None)
        dup = set(doc) & set(part)
        if dup:
            raise ContentError(f"resafa content {name}: section(s) {sorted(dup)} defined twice")
        doc.update(part)
    return doc


def load(doc: dict) -> Content:
    """Build and validate the content from a raw document (the merged data/*.json)."""
    return build(doc)


@cache
def content() -> Content:
    """The validated box, loaded once."""
    return load(read_documents())
