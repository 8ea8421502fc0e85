"""Resafa content: every card, tile, track and map printed in the box, as data (data/*.json), loaded once.

The schema is typed frozen dataclasses; every game effect printed on a card or tile is a tuple of
:data:`Effect` values from one small vocabulary (the ``EFFECT_KINDS`` table below) that the engine executes
generically. The seed fixes few contents; everything else is MeepleZoo's design, listed as filled in in
docs/rules/resafa_content.md. :func:`load` validates a raw document and raises :class:`ContentError` (one
line naming the bad entry) on malformed data; :func:`content` is the loaded, cached box.

The JSON is read by one generic reader (:mod:`.reader`) driven by these dataclasses: their fields, types
and defaults, and ``Annotated`` metadata for what the JSON spelling adds (ranges, names, keys). What a
type cannot say is checked per piece after it is built (the ``_check_*`` functions, e.g. a workshop's faces),
and across the whole box at the end (the seed's counts, :func:`_check_box`).

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
from dataclasses import dataclass, field, fields, replace
from enum import IntEnum
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Annotated, Any

from meeplezoo.envs.core.errors import MeepleZooError

from .reader import Absent, Derived, Keys, NonEmpty, OneOf, Range, Reader


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
LEVEL_NAMES = ("start", "I", "II", "III")  # Level members as the JSON writes them
ROW_NAMES = ("garden", "workshop", "canal")  # the merchant token rows

# how the JSON spells the fields the types below share (:mod:`.reader`)
Id = Annotated[str, NonEmpty()]
Side = Annotated[int, OneOf(SIDES)]  # a tile edge, written n/e/s/w
Count = Annotated[int, Range(1)]  # how many times (an effect's n), at least once


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
    n: Count = 1
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class Sack:
    n: Count = 1


@dataclass(frozen=True, slots=True)
class BonusCard:
    n: Count = 1
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class ColourAction:
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class Produce:
    n: Count = 1


@dataclass(frozen=True, slots=True)
class Build:
    target: Annotated[str, OneOf(BUILD_TARGETS)]
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
    n: Count = 1


@dataclass(frozen=True, slots=True)
class ExtraAction:
    action: Action | None = None


@dataclass(frozen=True, slots=True)
class Convert:
    pay: Bundle
    get: Bundle
    n: Count = 1


@dataclass(frozen=True, slots=True)
class Discount:
    target: Annotated[str, OneOf(DISCOUNT_TARGETS)]
    bundle: Bundle


@dataclass(frozen=True, slots=True)
class Trigger:
    on: Annotated[str, OneOf(TRIGGER_EVENTS)]
    then: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class HandLimit:
    n: Count = 1


@dataclass(frozen=True, slots=True)
class Score:
    counter: Annotated[str, OneOf(COUNTERS)]
    vp: int = 1
    each: Count = 1
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
    id: Id
    set: str  # alpha, beta, gamma, delta
    halves: tuple[ActionHalf, ActionHalf]


@dataclass(frozen=True, slots=True)
class Room:
    """A production room: one activation applies ``effects`` (the JSON writes a room as its effect list)."""

    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Green:
    """A green bonus printed at ``side`` (n/e/s/w, unrotated tile frame), ``slot`` 0-2 along that edge
    clockwise (thirds of the edge); collected when a garden tile touching that third is placed."""

    side: Side
    slot: Annotated[int, Range(0, 2)]
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class WorkshopFace:
    rooms: tuple[Room, ...]
    extra_production: Annotated[int, Range(0, 2)] = 0  # production icons: +1 activation per production action each
    immediate: bool = False  # level II front: the room's benefit is also taken when the tile is placed
    greens: tuple[Green, ...] = ()


@dataclass(frozen=True, slots=True)
class WorkshopTile:
    id: Id
    level: Annotated[Level, OneOf(LEVEL_NAMES[:3])]  # START, I or II
    front: WorkshopFace
    back: WorkshopFace


@dataclass(frozen=True, slots=True)
class CanalFace:
    cost: Bundle  # printed in the top-left corner
    blue_vp: Annotated[int, Range(0, 9)]
    exits: frozenset[Side]  # SIDES indices the channel touches (the tile is never rotated)
    tank: Annotated[bool, Derived(False)]  # the back of a tile with a back (set by its tile's check)


@dataclass(frozen=True, slots=True)
class CanalTile:
    id: Id  # the same seven designs in every player colour
    front: CanalFace
    back: CanalFace | None  # water-tank back on two designs


@dataclass(frozen=True, slots=True)
class CanalBonusTile:
    id: Id
    kind: Id  # seven kinds
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class CanalBox:
    row: Annotated[int, Derived(0)]  # from the box's place in its network's list (set by the network's check)
    col: Annotated[int, Derived(0)]
    printed: frozenset[Side]  # SIDES of the printed channel (water follows it where no tile lies)
    effects: tuple[Effect, ...] = ()  # the box bonus, taken by the player placing a canal tile here


@dataclass(frozen=True, slots=True)
class WaterSource:
    row: Annotated[int, Range(0, 8)]  # the box next to the source (inside its network: the network's check)
    col: Annotated[int, Range(0, 8)]
    side: Side  # the edge of that box the source sits at


@dataclass(frozen=True, slots=True)
class CanalNetwork:
    rows: Annotated[int, Range(2, 9)]
    cols: Annotated[int, Range(2, 9)]
    boxes: tuple[CanalBox, ...]  # row-major
    sources: tuple[WaterSource, ...]

    def box(self, row: int, col: int) -> CanalBox:
        return self.boxes[row * self.cols + col]


@dataclass(frozen=True, slots=True)
class CanalSetupCard:
    id: Id
    players: tuple[Annotated[int, Range(1, 4)], ...]
    cells: tuple[tuple[int, int], ...]  # (row, col) boxes receiving a random canal bonus tile


@dataclass(frozen=True, slots=True)
class Deal:
    """One side of a trading tile: buy at ``buy`` coins each or sell for ``sell`` each (one of the two)."""

    item: Item
    buy: Annotated[int, Range(1, 9)]
    sell: Bundle
    better: Annotated[str, OneOf(("buy", "sell"))]  # the highlighted deal
    gold_on: Annotated[str, OneOf(("", "buy", "sell"))] = ""  # "": no gold bonus
    gold: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class TradingTile:
    id: Id
    colour: Annotated[str, OneOf(("blue", "red"))]
    sides: tuple[Deal, Deal]


@dataclass(frozen=True, slots=True)
class PostBox:
    min_players: Annotated[int, Range(1, 4)]  # the box is open from this player count up
    token: Annotated[str, OneOf(("square", "scarab"))]  # the merchant token it gives
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Centre:
    id: Id
    colour: Annotated[str, OneOf(("city", "blue", "red"))]  # city: Resafa
    posts: tuple[PostBox, ...] = ()


@dataclass(frozen=True, slots=True)
class Road:
    a: Id
    b: Id
    cost: Annotated[int, Range(1, 5)]  # coins per crossing
    resafa_spur: bool = False  # the segment just below Resafa: paid once for the round trip


@dataclass(frozen=True, slots=True)
class SpecialCard:
    id: Id
    colour: Colour
    level: Annotated[Level, OneOf(LEVEL_NAMES)]
    name: str
    timing: Annotated[str, OneOf(TIMINGS)]  # instant, permanent, endgame (pink), action_card (yellow)
    effects: tuple[Effect, ...] = ()
    vp: Annotated[int, Range(0, 9)] = 0  # yellow VP icon, scored at the end
    halves: tuple[ActionHalf, ActionHalf] | None = None  # yellow cards only
    replaces: tuple[Action, Action] | None = None  # yellow level I: the starting card with these actions


@dataclass(frozen=True, slots=True)
class Card:
    """A bonus card (colour, level 1/2) or a sack card (colour None, level 0)."""

    id: Id
    colour: Colour | None
    level: Annotated[int, Range(0, 2), Absent(0)]
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class ColourTrack:
    colour: Colour
    levels: tuple[Annotated[int, Range(0, 3)], ...]  # level zone (0 = start, 1..3) of each space, space 0 = start
    cards: tuple[Annotated[int, Range(1)], ...]  # spaces with a card icon, one per level (on the track: its check)
    # printed rewards per space (mostly empty; left out: none anywhere, filled in by the track's check)
    spaces: Annotated[tuple[tuple[Effect, ...], ...], Absent(None)]


@dataclass(frozen=True, slots=True)
class BoardSide:
    name: str  # "1-2" or "3-4"
    players: tuple[Annotated[int, Range(1, 4)], ...]
    water_cubes: Annotated[int, Range(1, 20)]
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
    garden_cost: Annotated[dict[str, Bundle], Keys(("small", "large"))]
    post_cost: Bundle
    special_take_bonus: Bundle
    pink_early_bonus: tuple[Bundle, ...]  # per round 1..6
    # level -> tracks (yellow/white/blue) that may reach it
    level_limits: Annotated[dict[int, Annotated[int, Range(1, 3)]], Keys(("1", "2", "3"))]
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
    # canal tiles placed -> VP (highest reached threshold)
    canal_strip: Annotated[dict[int, int], Keys(tuple("1234567"), optional=True)]
    scarab_scale: tuple[int, ...]  # VP for 1..5 scarabs
    # garden/workshop/canal: VP per tile by tokens in the row
    multiplier_rows: Annotated[dict[str, tuple[int, ...]], Keys(ROW_NAMES)]
    goods_vp: int  # per spice/amphora left
    leftover_per_vp: Annotated[int, Range(1)]  # resources + coins per VP
    rain_per_canal: int
    rain_per_passage: int


@dataclass(frozen=True, slots=True)
class CamelTrack:
    """The JSON's ``camel_track`` section (:class:`Content` keeps its two lists)."""

    capacity: tuple[Annotated[int, Range(1, 20)], ...]
    rewards: tuple[tuple[Effect, ...], ...]


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


# --------------------------------------------------------------------------------------------------- piece checks
# What a piece's types cannot say, checked by the reader right after it builds the piece (``where`` is its path).


def _bad(where: str, problem: str) -> ContentError:
    return ContentError(f"resafa content {where}: {problem}")


def _check_effect(e: Effect, where: str) -> Effect:
    if isinstance(e, Gain) and not e.bundle:
        raise _bad(where, "a gain of nothing")
    if isinstance(e, Convert) and (not e.pay or not e.get):
        raise _bad(where, "a conversion needs both pay and get")
    if isinstance(e, Choice) and len(e.options) < 2:
        raise _bad(where, "a choice needs at least two options")
    if isinstance(e, Discount) and not e.bundle:
        raise _bad(where, "a discount of nothing")
    if isinstance(e, Trigger) and any(type(t) in PERMANENT_KINDS | ENDGAME_KINDS for t in e.then):
        raise _bad(where, "a trigger may only apply instant effects")
    if isinstance(e, Score) and e.table and any(b < a for a, b in pairwise(e.table)):
        raise _bad(where, "a score table must not decrease")
    return e


def _check_face(f: WorkshopFace, where: str) -> WorkshopFace:
    spots = [(g.side, g.slot) for g in f.greens]
    if len(set(spots)) != len(spots):
        raise _bad(f"{where}.greens", "two green bonuses on the same spot")
    return f


def _check_workshop(t: WorkshopTile, where: str) -> WorkshopTile:
    """The seed's faces: level I front 2 rooms / back a 2-VP room + production icon; level II front 1 room
    taken as an immediate bonus / back a 3-VP room + production icon; starting tiles as level I."""
    level, name = t.level, LEVEL_NAMES[t.level]
    vp_back = {Level.START: 2, Level.I: 2, Level.II: 3}[level]
    front_rooms = 1 if level == Level.II else 2
    if len(t.front.rooms) != front_rooms or t.front.extra_production or t.front.immediate != (level == Level.II):
        raise _bad(
            f"{where}.front",
            f"a {name} workshop front has {front_rooms} room(s)"
            f"{', taken as an immediate bonus' if level == Level.II else ''} and no production icon",
        )
    if (
        len(t.back.rooms) != 1
        or t.back.extra_production != 1
        or t.back.immediate
        or t.back.rooms[0].effects != (Gain(Bundle(vp=vp_back)),)
    ):
        raise _bad(f"{where}.back", f"a {name} workshop back is one {vp_back}-VP room and one production icon")
    return t


def _check_canal_tile(t: CanalTile, where: str) -> CanalTile:
    """A tile's back is its water tank (``tank`` set here); then both faces' channels."""
    _check_canal_face(t.front, f"{where}.front")
    if t.back is None:
        return t
    back = replace(t.back, tank=True)
    _check_canal_face(back, f"{where}.back")
    return replace(t, back=back)


def _check_canal_face(f: CanalFace, where: str) -> None:
    if SIDES.index("n") not in f.exits:
        raise _bad(f"{where}.exits", "water enters every canal tile from the north")
    if f.tank and f.exits != frozenset({SIDES.index("n")}):
        raise _bad(f"{where}.exits", "a water tank ends a network (north exit only)")
    if not f.tank and len(f.exits) < 2:
        raise _bad(f"{where}.exits", "a canal tile needs a way out")


def _check_network(net: CanalNetwork, where: str) -> CanalNetwork:
    """A full grid of boxes (each box's row and column set here from its place), sources on its north, east
    or west edge, VP in every box, printed channels that meet their neighbours'."""
    rows, cols = net.rows, net.cols
    if len(net.boxes) != rows * cols:
        raise _bad(f"{where}.boxes", f"{len(net.boxes)} boxes for a {rows}x{cols} grid")
    net = replace(net, boxes=tuple(replace(b, row=i // cols, col=i % cols) for i, b in enumerate(net.boxes)))
    for i, src in enumerate(net.sources):
        w = f"{where}.sources[{i}]"
        for name, value, size in (("row", src.row, rows), ("col", src.col, cols)):
            if value >= size:
                raise _bad(f"{w}.{name}", f"expected an integer in 0..{size - 1}, got {value!r}")
        if not {0: src.row == 0, 1: src.col == cols - 1, 2: False, 3: src.col == 0}[src.side]:
            raise _bad(w, "a water source sits on the north, east or west edge")
    if len({(s.row, s.col) for s in net.sources}) != len(net.sources):
        raise _bad(f"{where}.sources", "two sources at the same box")
    for b in net.boxes:
        if not any(isinstance(e, Gain) and e.bundle.vp for e in b.effects):
            raise _bad(where, f"box ({b.row},{b.col}) prints no VP (every box gives VP)")
    n, e, s_, w_ = range(4)
    for b in net.boxes:  # the printed network is consistent: a channel to a neighbour is matched by it
        for side, (dr, dc), opp in ((e, (0, 1), w_), (s_, (1, 0), n)):
            r, c = b.row + dr, b.col + dc
            if r < rows and c < cols and (side in b.printed) != (opp in net.box(r, c).printed):
                raise _bad(where, f"printed channel of box ({b.row},{b.col}) does not match its neighbour ({r},{c})")
    return net


def _check_board_side(side: BoardSide, where: str) -> BoardSide:
    if len(side.network.sources) != side.water_cubes:
        raise _bad(where, f"{side.water_cubes} water cubes but {len(side.network.sources)} sources")
    return side


def _check_deal(deal: Deal, where: str) -> Deal:
    if bool(deal.gold_on) != bool(deal.gold):
        raise _bad(where, "gold_on and gold go together")
    if not deal.sell or deal.sell.items != (0, 0, 0, 0):
        raise _bad(f"{where}.sell", "a sale pays coins and/or VP")
    return deal


def _check_card(card: Card, where: str) -> Card:
    if not card.effects:
        raise _bad(f"{where}.effects", "a card without an effect")
    return card


def _check_special(c: SpecialCard, where: str) -> SpecialCard:
    def bad(msg: str) -> ContentError:
        return _bad(where, msg)

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
        return c
    if c.halves is not None or c.replaces is not None:
        raise bad("only yellow cards have halves")
    if not c.effects:
        raise bad("a special card without an effect")
    if c.colour == Colour.PINK:
        if c.timing != "endgame" or kinds != {Score}:
            raise bad("a pink card is an end-game condition (timing endgame, score effects only)")
        return c
    if c.timing == "endgame" or Score in kinds:
        raise bad("only pink cards score at the end")
    if c.timing == "permanent" and not kinds <= PERMANENT_KINDS:
        raise bad("a permanent card holds discount/trigger/hand_limit effects only")
    if c.timing == "instant" and kinds & PERMANENT_KINDS:
        raise bad("an instant card holds no permanent effect")
    if c.colour == Colour.BLUE and c.level > Level.I and c.timing != "instant":
        raise bad("blue level II/III cards give extra instant actions")
    return c


def _check_track(t: ColourTrack, where: str) -> ColourTrack:
    """Spaces left out: no rewards anywhere; card icons on spaces of the track, one in each level zone."""
    levels = t.levels
    if t.spaces is None:
        t = replace(t, spaces=tuple(() for _ in levels))
    for i, space in enumerate(t.cards):
        if not 1 <= space <= len(levels) - 1:
            raise _bad(f"{where}.cards[{i}]", f"expected an integer in 1..{len(levels) - 1}, got {space!r}")
    if len(t.spaces) != len(levels) or not levels or levels[0] != 0 or any(b < a for a, b in pairwise(levels)):
        raise _bad(where, "levels start at 0, never decrease, one space list per space")
    if [levels[s] for s in t.cards] != [1, 2, 3]:
        raise _bad(f"{where}.cards", "one card icon in each of the level I, II, III zones")
    return t


#: reads the content JSON into the dataclasses above (:mod:`.reader`), each piece then checked
READER = Reader(
    "resafa content",
    ContentError,
    EFFECT_KINDS,
    union=Effect,
    member="effect",
    enum_names={Colour: COLOURS, Action: ACTIONS, Item: ITEMS},
    checks={
        **dict.fromkeys(EFFECT_KINDS.values(), _check_effect),
        WorkshopFace: _check_face,
        WorkshopTile: _check_workshop,
        CanalTile: _check_canal_tile,
        CanalNetwork: _check_network,
        BoardSide: _check_board_side,
        Deal: _check_deal,
        Card: _check_card,
        SpecialCard: _check_special,
        ColourTrack: _check_track,
    },
    bare=frozenset({Room}),
)


# --------------------------------------------------------------------------------------------------- the box
SETS = ("alpha", "beta", "gamma", "delta")
#: the document's sections: Content's fields, but the camel track's two lists are one section
SECTIONS = tuple(f.name for f in fields(Content) if f.name not in ("camel_rewards", "by_id"))


def _section(doc: dict, key: str) -> Any:
    if key not in doc:
        raise ContentError(f"resafa content: missing section {key!r}")
    return doc[key]


def build(doc: dict) -> Content:
    """Read every section and check the whole box against the seed's counts and rules."""
    if not isinstance(doc, dict):
        raise ContentError("resafa content: the document is not an object")
    unknown = set(doc) - {"_about", *SECTIONS}
    if unknown:
        raise ContentError(f"resafa content: unknown section(s) {sorted(unknown)}")
    hints = READER.hints(Content)
    sections = {
        key: READER.read(CamelTrack if key == "camel_track" else hints[key], _section(doc, key), key)
        for key in SECTIONS
    }
    camel = sections.pop("camel_track")
    c = Content(**sections, camel_track=camel.capacity, camel_rewards=camel.rewards)
    for i, card in enumerate(c.bonus_cards):
        if card.colour is None:
            raise _bad(f"bonus_cards[{i}].colour", "a bonus card has a colour")
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


def _need(ok: bool, msg: str) -> None:
    if not ok:
        raise ContentError(f"resafa content: {msg}")


def _check_box(c: Content) -> None:
    """The whole box against the seed's numbers and counts (the first difference is the error)."""
    for check in (
        _check_supply,
        _check_setup,
        _check_scoring,
        _check_action_sets,
        _check_workshops_and_canals,
        _check_trade_map,
        _check_special_cards,
        _check_bonus_and_sack_cards,
    ):
        check(c)
    _need(sorted(t.colour for t in c.tracks) == list(Colour), "tracks: one per colour")


def _check_supply(c: Content) -> None:
    sup = c.supply
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


def _check_setup(c: Content) -> None:
    s = c.setup
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


def _check_scoring(c: Content) -> None:
    sc = c.scoring
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


def _check_action_sets(c: Content) -> None:
    """Four starting sets of 6 cards: each main action twice, each colour 3 times, no pairing twice."""
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


def _check_workshops_and_canals(c: Content) -> None:
    counts = [sum(t.level == lv for t in c.workshops) for lv in (Level.START, Level.I, Level.II)]
    _need(counts == [8, 12, 14], f"workshops: {counts} start/I/II tiles, not 8/12/14")
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


def _check_trade_map(c: Content) -> None:
    """The trade map (centres, posts, roads), the trading tiles and the camel track."""
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
    seen = _reachable(c.roads, city)
    _need(seen == ids, f"trade map: centres {sorted(ids - seen)} not reachable by road")
    boxes = [p.token for x in c.centres for p in x.posts]
    _need(
        boxes.count("square") <= c.supply.square_tokens and boxes.count("scarab") <= c.supply.scarab_tokens,
        "trade map: the post boxes give more merchant tokens of a kind than the supply holds",
    )
    tcol = sorted(t.colour for t in c.trading_tiles)
    _need(tcol == ["blue"] * 4 + ["red"] * 5, "trading tiles: 4 blue and 5 red")
    _need(
        len(c.camel_track) == len(c.camel_rewards) and all(b > a for a, b in pairwise(c.camel_track)),
        "camel track: capacities rise, one reward list per step",
    )


def _reachable(roads: tuple[Road, ...], start: str) -> set[str]:
    """The centres ``roads`` lead to from ``start`` (``start`` included)."""
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for r in roads:
            for u, v in ((r.a, r.b), (r.b, r.a)):
                if u == here and v not in seen:
                    seen.add(v)
                    todo.append(v)
    return seen


def _check_special_cards(c: Content) -> None:
    """More than 4 cards in each special deck; yellow cards replace a card of every starting set; a pink card
    scores water cubes."""
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


def _check_bonus_and_sack_cards(c: Content) -> None:
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
