"""Resafa's solo mode: one player against Resafabot. Its cards (data/solo.json), setup, deck, turn schedule,
hidden parts and checks; what Resafabot does on its turn is :mod:`.bot`.

Seed: "Ana tahtanın 1-2 oyuncu yüzü kullanılır ve 2 oyunculu oyunun kurulumu uygulanır. Oyuncu Resafabot için
de bir renk seçer, ancak yalnızca o rengin ahşap küplerini ve kanal karolarını alır; ayrıca 7 kartlık solo
deste hazırlanır. Resafabot'un kanal karoları, hiçbirinin su deposu yüzü açık kalmayacak şekilde rastgele
karıştırılıp deste yapılır. Resafabot'un bir küpü ... 4 renk cetvelinin başlangıcına konur. Kanal kurulum kartı
ile rastgele seçilen bir solo kart kullanılarak Resafabot'un ilk kanal karosu su ağına yerleştirilir; olası
konumlar ana tahtada küçük bir palmiye simgesiyle işaretlidir." ... "Resafabot 6 aksiyon kartını oynadıktan
sonra solo kartlar toplanır; kanal kurulum kartı ayrılır, kalan 6 kart karıştırılır ve kanal kurulum kartı
yeniden üste konur."

Reading (docs/rules/resafa.md): the 7-card solo deck is the canal setup card on top of 6 solo cards; the 7th
solo card, drawn at random for the first canal tile, leaves the game. Cards ``0..6`` are the solo cards,
:data:`SETUP_CARD` (7) the canal setup card. The deck lies action side up, top at the end of ``bot_deck``:
its top card is public, the order below it hidden. Resafabot owns board pieces as seat :data:`BOT` (1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from ..core.chance import arrange
from .content import ACTIONS, COLOURS, Action, Colour, ContentError, content
from .geometry import SIDE_NAMES, network, source_boxes
from .state import NO, ResafaData
from .steps import Step

C = content()
BOT = 1  # Resafabot's number in the board's owner lists (canal boxes, post boxes, bonus tiles, special cards)
SETUP_CARD = 7  # the canal setup card's number in the solo deck
DECK_SIZE = 7  # the canal setup card + 6 solo cards
CYCLE = 6  # Resafabot's cards played before the deck is rebuilt
SOLO_SEATS = 2  # "2 oyunculu oyunun kurulumu": the post boxes open for 2 players


@dataclass(frozen=True, slots=True)
class SoloHalf:
    action: Action
    colour: Colour
    option: str  # the colour action: "bonus" (remove a bonus card of the colour) or "track" (2 steps)


@dataclass(frozen=True, slots=True)
class SoloCard:
    id: str
    arrow: int  # 0: the arrow points at the top action of the card to its right, 1: the bottom one
    halves: tuple[SoloHalf, SoloHalf]
    red: Action  # the red-framed action, done instead of production and garden
    canal: int  # the direction (N, E, S, W) of the next canal tile from Resafabot's last one
    centres: tuple[int, ...]  # trading centre nodes, in the order printed
    workshop_level: int  # 1 or 2: the display row Resafabot removes a workshop from (2: from round 3)
    workshop_slot: int  # 0..2
    provisions: Colour  # the track of the provisions action
    palm: int  # the palm box (setup) this card points at


@dataclass(frozen=True, slots=True)
class SoloBox:
    cards: tuple[SoloCard, ...]
    setup_arrow: int
    palms: tuple[int, ...]  # network boxes with a palm
    colour_steps: int
    provisions_steps: int
    bands: tuple[tuple[int, str], ...]
    below_band: str


def _pick(value: object, names: tuple[str, ...], where: str) -> int:
    if value not in names:
        raise ContentError(f"resafa solo content {where}: {value!r} is not one of {names}")
    return names.index(value)  # type: ignore[arg-type]


def load(doc: dict) -> SoloBox:
    """Build and check the solo content from data/solo.json's document (ContentError names a bad entry)."""
    net = network(2)
    nodes = {x.id: i for i, x in enumerate(C.centres) if x.colour != "city"}
    bonus_cells = {r * net.cols + c for k in C.canal_setup_cards if 2 in k.players for r, c in k.cells}
    try:
        palms = tuple(r * net.cols + c for r, c in doc["palms"])
        if not all(0 <= r < net.rows and 0 <= c < net.cols for r, c in doc["palms"]):
            raise ContentError("resafa solo content palms: a box off the 1-2 player network")
        if set(palms) & bonus_cells or len(set(palms)) != len(palms):
            raise ContentError("resafa solo content palms: distinct boxes without a canal bonus tile")
        cards = []
        for k, raw in enumerate(doc["cards"]):
            w = f"cards[{k}]"
            halves = tuple(
                SoloHalf(
                    Action(_pick(h["action"], ACTIONS, f"{w}.action")),
                    Colour(_pick(h["colour"], COLOURS, f"{w}.colour")),
                    ("bonus", "track")[_pick(h["option"], ("bonus", "track"), f"{w}.option")],
                )
                for h in raw["halves"]
            )
            red = Action(_pick(raw["red"], ACTIONS, f"{w}.red"))
            if len(halves) != 2 or red in (Action.PRODUCTION, Action.GARDEN):
                raise ContentError(f"resafa solo content {w}: two halves; the red action is not production/garden")
            centres = tuple(nodes.get(c, -1) for c in raw["centres"])
            if not centres or -1 in centres or len(set(centres)) != len(centres):
                raise ContentError(f"resafa solo content {w}.centres: distinct trading centres, {raw['centres']!r}")
            ws = raw["workshop"]
            if ws["level"] not in (1, 2) or ws["slot"] not in (0, 1, 2) or raw["palm"] not in range(len(palms)):
                raise ContentError(f"resafa solo content {w}: workshop level 1-2, slot 0-2, palm index")
            cards.append(
                SoloCard(
                    id=raw["id"],
                    arrow=_pick(raw["arrow"], ("top", "bottom"), f"{w}.arrow"),
                    halves=halves,  # type: ignore[arg-type]
                    red=red,
                    canal=_pick(raw["canal"].upper(), SIDE_NAMES, f"{w}.canal"),
                    centres=centres,
                    workshop_level=ws["level"],
                    workshop_slot=ws["slot"],
                    provisions=Colour(_pick(raw["provisions"], COLOURS, f"{w}.provisions")),
                    palm=raw["palm"],
                )
            )
        if len(cards) != DECK_SIZE:
            raise ContentError(f"resafa solo content: {len(cards)} solo cards, the seed has 7")
        bands = tuple((int(v), str(name)) for v, name in doc["bands"])
        if [v for v, _ in bands] != [150, 180, 200, 220]:
            raise ContentError("resafa solo content bands: the seed's 150 / 180 / 200 / 220")
        return SoloBox(
            cards=tuple(cards),
            setup_arrow=_pick(doc["setup_card_arrow"], ("top", "bottom"), "setup_card_arrow"),
            palms=palms,
            colour_steps=int(doc["colour_steps"]),
            provisions_steps=int(doc["provisions_steps"]),
            bands=bands,
            below_band=str(doc["below_band"]),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise ContentError(f"resafa solo content: malformed data/solo.json ({err!r})") from None


@cache
def solo_content() -> SoloBox:
    text = resources.files(__package__).joinpath("data/solo.json").read_text(encoding="utf-8")
    return load(json.loads(text))


SOLO = solo_content()
FAIR = SOLO.bands[0][0]


def band(score: float) -> str:
    """The designer's band a solo score reached (seed: 150 fair, 180 good, 200 very good, 220+ excellent)."""
    name = SOLO.below_band
    for threshold, label in SOLO.bands:
        if score >= threshold:
            name = label
    return name


def verdict(score: float) -> str:
    scale = ", ".join(f"{v}{'+' if k == len(SOLO.bands) - 1 else ''} {name}" for k, (v, name) in enumerate(SOLO.bands))
    return f"Solo score {score:g} VP: {band(score)} (the designer's scale: {scale})"


# --- setup and the schedule -------------------------------------------------------------------------------
def setup(d: ResafaData) -> None:
    """Resafabot's pieces (cubes at the track starts, its shuffled canal deck, the solo deck with the canal setup
    card on top), its first canal tile on the palm of a random solo card, and a random start player."""
    rng = d.chance.generator()
    d.bot_track = [0, 0, 0, 0]
    d.bot_canals = [int(x) for x in rng.permutation(len(C.canal_tiles))]
    cards = [int(x) for x in rng.permutation(DECK_SIZE)]
    d.bot_out = cards.pop()
    d.bot_deck = [*cards, SETUP_CARD]
    d.bot_shown = []
    d.bot_cubes = 0
    place_canal(d, SOLO.palms[SOLO.cards[d.bot_out].palm], d.bot_canals.pop())
    d.bot_first = int(rng.integers(2))
    if d.bot_first:
        d.stack.append((Step.BOT_TURN, 0, 0, 0))


def rebuild_deck(d: ResafaData) -> None:
    """After Resafabot's 6th card: gather the cards, the canal setup card aside, shuffle the 6 solo cards and
    put the canal setup card back on top."""
    cards = sorted(c for c in d.bot_deck + d.bot_shown if c != SETUP_CARD)
    rng = d.chance.generator()
    d.bot_deck = [*(cards[i] for i in rng.permutation(len(cards))), SETUP_CARD]
    d.bot_shown = []


def place_canal(d: ResafaData, box: int, design: int) -> None:
    """A Resafabot tile (canal side up): it takes the water cube of a source next to it and the canal bonus
    tile lying there (out of the game); no box bonus (Resafabot gains nothing)."""
    d.canal_owner[box], d.canal_design[box], d.canal_side[box] = BOT, design, 0
    d.bot_last = box
    for k, src in enumerate(source_boxes(d.players)):
        if src == box and d.cubes[k] == 0:
            d.cubes[k] = 1
    tile = d.cbonus_at[box]
    if tile != NO:
        d.cbonus_at[box] = NO
        d.cbonus_owner[tile] = BOT
        d.cbonus_used[tile] = 1


def arrow_of(card: int) -> int:
    return SOLO.setup_arrow if card == SETUP_CARD else SOLO.cards[card].arrow


# --- observation (Resafabot's public pieces: the player sees them) -----------------------------------------
_CARDS = DECK_SIZE + 1
_BOXES = max(s.network.rows * s.network.cols for s in C.board_sides)
OBS_SECTIONS = (
    ("track", 4 * 11),  # its cube on each colour track (one-hot per colour)
    ("specials", len(C.specials)),  # the special cards its cubes removed
    ("top", _CARDS),  # the solo deck's face-up top card (the card read last)
    ("below", _CARDS),  # the cards below it (a set: their order is hidden)
    ("shown", _CARDS),  # the cards revealed this cycle
    ("out", DECK_SIZE),  # the solo card out of the game
    ("canals", len(C.canal_tiles)),  # its canal tiles still to place (a set)
    ("last", _BOXES),  # the box of its last canal tile
    ("flags", 4),  # it starts this round; arrow of the last revealed card (top, bottom); water cubes taken
)
OBS_SIZE = sum(size for _, size in OBS_SECTIONS)
_OFF = {name: sum(size for _, size in OBS_SECTIONS[:k]) for k, (name, _) in enumerate(OBS_SECTIONS)}


def observe(d: ResafaData, ones: list[int], vals: dict[int, float], at: int) -> None:
    """Resafabot's public state into the observation's ``solo`` section starting at ``at``."""
    o = {name: at + off for name, off in _OFF.items()}
    ones += [o["track"] + 11 * c + d.bot_track[c] for c in range(4)]
    ones += [o["specials"] + i for i, owner in enumerate(d.spec_owner) if owner == BOT]
    ones.append(o["top"] + d.bot_deck[-1])
    ones += [o["below"] + c for c in d.bot_deck[:-1]]
    ones += [o["shown"] + c for c in d.bot_shown]
    ones.append(o["out"] + d.bot_out)
    ones += [o["canals"] + t for t in d.bot_canals]
    ones.append(o["last"] + d.bot_last)
    if d.bot_first:
        ones.append(o["flags"])
    if d.bot_shown:
        ones.append(o["flags"] + 1 + arrow_of(d.bot_shown[-1]))
    vals[o["flags"] + 3] = min(d.bot_cubes / 8.0, 1.0)


def hidden_vector(d: ResafaData, ones: list[int], at: int) -> None:
    """The state vector's hidden part: the next solo card under the top one and the next canal tile."""
    if len(d.bot_deck) > 1:
        ones.append(at + d.bot_deck[-2])
    if d.bot_canals:
        ones.append(at + _CARDS + d.bot_canals[-1])


HIDDEN_SIZE = _CARDS + len(C.canal_tiles)


# --- hidden parts and checks ------------------------------------------------------------------------------
def resample_hidden(d: ResafaData, rng: np.random.Generator | None) -> None:
    """The solo deck below its face-up top card and Resafabot's canal deck: their orders are hidden (shuffled,
    or sorted with ``rng`` None)."""
    d.bot_deck = arrange(d.bot_deck[:-1], rng) + d.bot_deck[-1:]
    d.bot_canals = arrange(d.bot_canals, rng)


def problems(d: ResafaData) -> list[str]:
    """What breaks the solo rules in a record (empty when consistent)."""
    out = []
    if d.players != 1:
        if d.bot_track or d.bot_deck or d.bot_shown or d.bot_canals or d.bot_out != NO:
            out.append("Resafabot's pieces in a game of 2-4 players")
        return out
    if len(d.bot_track) != 4 or not all(0 <= x <= 10 for x in d.bot_track):
        out.append("Resafabot's track cubes")
    cards = sorted([*d.bot_deck, *d.bot_shown, d.bot_out])
    if cards != list(range(DECK_SIZE + 1)) or d.bot_out == SETUP_CARD:
        out.append("solo cards are not each in one place")
    if not d.bot_deck or len(d.bot_shown) >= CYCLE:
        out.append("the solo deck must be rebuilt after 6 cards")
    on_board = sorted(d.canal_design[b] for b, o in enumerate(d.canal_owner) if o == BOT)
    if sorted(on_board + d.bot_canals) != list(range(len(C.canal_tiles))):
        out.append("Resafabot's canal tiles are not each in one place")
    if any(d.canal_side[b] for b, o in enumerate(d.canal_owner) if o == BOT):
        out.append("a Resafabot canal tile shows a water tank")
    if not (0 <= d.bot_last < len(d.canal_owner)) or d.canal_owner[d.bot_last] != BOT:
        out.append("Resafabot's last canal tile")
    if d.bot_first not in (0, 1) or d.bot_cubes < 0:
        out.append("Resafabot's start flag / water cubes")
    if sum(d.cubes_taken) + d.bot_cubes != d.cubes.count(2):
        out.append("water cubes taken")
    if any(o == BOT and C.centres[i // 4].posts[i % 4].min_players > SOLO_SEATS for i, o in enumerate(d.post_owner)):
        out.append("a Resafabot post on a box closed for 2 players")
    return out


__all__ = ["BOT", "FAIR", "SETUP_CARD", "SOLO", "band", "verdict"]
