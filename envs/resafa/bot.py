"""Resafabot's turn: reveal a solo card, its arrow picks the top or bottom action of the card to its right; the
colour action first, then the main action. Resafabot scores nothing and never holds resources or goods.

Seed: "Resafabot'un sırasında solo destenin üst kartı açılıp destenin soluna konur; bu kartın oku, sağdaki
kartın üst ya da alt aksiyonunu gösterir. Resafabot önce renk aksiyonunu alır: ya belirtilen renkteki bir
bonus kartını sergiden çıkarır ya da ilgili renk cetvelinde 2 adım ilerler. Resafabot'un cetvel seviyesi
konusunda hiçbir kısıtı yoktur; kart simgesine ulaştığında o seviyenin açık kartı oyundan çıkarılır ve yeni
kartlar açılır. ... üretim ve bahçe inşası aksiyonları Resafabot tarafından alınmaz — bunların yerine solo
kartta kırmızı çerçeveyle işaretlenmiş aksiyon uygulanır. Atölye inşasında sergiden bir atölye karosu
çıkarılıp yenilenir. Erzakta Resafabot bir renk cetvelinde 2 adım ilerler. Kanal inşasında yeni karo,
Resafabot'un son karosuna göre kartın gösterdiği yöne konur. Ticarette ise kartta yazan ilk ticaret merkezine
bir ticaret üssü kurulur ve o merkezdeki ticaret karosu çevrilir."

Where the seed is silent (docs/rules/resafa.md, "filled in"): a colour action that cannot be done as printed
(no bonus card of the colour left; the cube at the track's end) is done the other way; the bonus card removed
is the leftmost of its colour; a workshop comes from the card's slot of its row (level II from round 3), else
from the same slot of level I, else the first tile left in the level I row; a canal tile goes to the first box along the
card's direction from the last tile where it fits, else along the next directions clockwise, else the first
box in reading order where it fits; the trading post goes to the first listed centre where Resafabot has none
and a box open for 2 players is free (its first such box); at a branch of the water Resafabot's cube flows
down (S), else east, else west. Canal bonus tiles under its tiles and special cards its cubes reach leave the
game (recorded as Resafabot's).
"""

from __future__ import annotations

from .canals import face, fits
from .content import Action, content
from .geometry import box_neighbour, network
from .solo import BOT, CYCLE, SOLO, SOLO_SEATS, arrow_of, place_canal, rebuild_deck
from .state import NO, POSTS_PER_CENTRE, ResafaData
from .state import S as SETUP
from .tracks import CARD_SPACES, LAST, LEVELS

C = content()


def current(d: ResafaData):
    """``(card read, half)`` of Resafabot's last turn: the deck's top card and the last revealed card's arrow
    (None before its first turn of a cycle)."""
    if not d.bot_shown:
        return None
    card = SOLO.cards[d.bot_deck[-1]]
    return card, card.halves[arrow_of(d.bot_shown[-1])]


def run_bot_turn(d: ResafaData, seat: int, a: int, b: int) -> None:
    """One Resafabot turn (an automatic step of the turn machine)."""
    d.bot_shown.append(d.bot_deck.pop())
    card, half = current(d)  # type: ignore[misc]
    colour_action(d, int(half.colour), half.option)
    main = half.action
    if main in (Action.PRODUCTION, Action.GARDEN):
        main = card.red
    if main == Action.WORKSHOP:
        remove_workshop(d, card.workshop_level, card.workshop_slot)
    elif main == Action.CANAL:
        build_canal(d, card.canal)
    elif main == Action.TRADE:
        build_post(d, card.centres)
    else:  # provisions
        advance(d, int(card.provisions), SOLO.provisions_steps)
    if len(d.bot_shown) == CYCLE:
        rebuild_deck(d)


# --- colour action and tracks -----------------------------------------------------------------------------
def colour_action(d: ResafaData, colour: int, option: str) -> None:
    """Remove the leftmost bonus card of ``colour`` from the display, or 2 steps on its track (the other way
    when the printed one is impossible)."""
    has_card = any(x != NO for x in d.bonus_display[colour * 3 : colour * 3 + 3])
    can_move = d.bot_track[colour] < LAST[colour]
    if (option == "bonus" and has_card) or (has_card and not can_move):
        i = next(i for i in range(colour * 3, colour * 3 + 3) if d.bonus_display[i] != NO)
        d.bonus_display[i] = NO  # out of the game, like the display's leftovers at the round's end
    else:
        advance(d, colour, SOLO.colour_steps)


def advance(d: ResafaData, colour: int, steps: int) -> None:
    """``steps`` spaces on a track, no level limits; each card space reached or passed removes that level's
    face-up special card from the game and turns up the next one and the next level's top card."""
    for _ in range(steps):
        if d.bot_track[colour] >= LAST[colour]:
            return
        d.bot_track[colour] += 1
        pos = d.bot_track[colour]
        if pos in CARD_SPACES[colour]:
            clear_special(d, colour * 3 + LEVELS[colour][pos] - 1)


def clear_special(d: ResafaData, deck: int) -> None:
    cards = d.spec_decks[deck]
    if d.spec_up[deck] and cards:
        card = cards.pop()
        d.spec_owner[card] = BOT
        d.spec_round[card] = d.round_no
    d.spec_up[deck] = 1 if cards else 0
    if deck % 3 < 2 and d.spec_decks[deck + 1]:
        d.spec_up[deck + 1] = 1


# --- main actions -----------------------------------------------------------------------------------------
def remove_workshop(d: ResafaData, level: int, slot: int) -> None:
    """A workshop tile leaves the display (out of the game); the display is refilled from its pile."""
    n1 = SETUP.workshop_display[0]
    order = []
    if level == 2 and d.round_no >= SETUP.level2_round:
        order.append((1, n1 + slot))
    order.append((0, slot))
    order += [(0, i) for i in range(n1)]
    for row, i in order:
        if d.ws_display[i] != NO:
            d.ws_display[i] = d.ws_decks[row].pop() if d.ws_decks[row] else NO
            return


def build_canal(d: ResafaData, direction: int) -> None:
    """The top tile of Resafabot's canal deck, placed from its last tile in the card's direction."""
    if not d.bot_canals:
        return
    design = d.bot_canals[-1]
    box = canal_box(d, design, direction)
    if box != NO:
        d.bot_canals.pop()
        place_canal(d, box, design)


def canal_box(d: ResafaData, design: int, direction: int) -> int:
    net = network(d.players)
    exits = face(design, 0).exits
    for turn in range(4):
        side = (direction + turn) % 4
        box = box_neighbour(net, d.bot_last, side)
        while box >= 0:
            if fits(d, box, exits, False):
                return box
            box = box_neighbour(net, box, side)
    return next((b for b in range(len(d.canal_owner)) if fits(d, b, exits, False)), NO)


def build_post(d: ResafaData, centres: tuple[int, ...]) -> None:
    """A trading post on the first listed centre where Resafabot can build one; that centre's tile is flipped."""
    for node in centres:
        owners = d.post_owner[node * POSTS_PER_CENTRE : (node + 1) * POSTS_PER_CENTRE]
        if BOT in owners:
            continue
        for i, box in enumerate(C.centres[node].posts):
            if box.min_players <= SOLO_SEATS and owners[i] == NO:
                d.post_owner[node * POSTS_PER_CENTRE + i] = BOT
                d.trade_side[node] ^= 1
                return
