"""The four colour tracks and the special cards.

Seed: "Bir oyuncunun göstergesi renk cetvelinde kart simgesi bulunan kutuya geldiğinde veya onu geçtiğinde,
iki seçenekten birini kullanır: 1. ... açık üst kartını alır, bonus olarak 1 ZP ve 1 sikke kazanır ve destenin
bir sonraki kartı açılır; ya da 2. Destedeki kapalı kartlara bakıp herhangi birini seçer ... Her iki durumda da
o bölgedeki bir sonraki destenin ... üst kartı da açılır." Level limits: pink unlimited; yellow, white, blue:
all three to level I, two to level II, one to level III.
"""

from __future__ import annotations

from .actions import COLOUR0, PICK0, SEARCH, TAKE_TOP
from .content import Colour, content
from .economy import gain
from .effects import push_effects
from .hand import card_pair
from .state import NO, YELLOW0, ResafaData, S
from .steps import Step

C = content()
TRACKS = sorted(C.tracks, key=lambda t: int(t.colour))
LEVELS = tuple(t.levels for t in TRACKS)
CARD_SPACES = tuple(frozenset(t.cards) for t in TRACKS)
SPACE_REWARDS = tuple(t.spaces for t in TRACKS)
LAST = tuple(len(t.levels) - 1 for t in TRACKS)


def level(d: ResafaData, seat: int, colour: int) -> int:
    return LEVELS[colour][d.track[seat * 4 + colour]]


def _next_level(colour: int, pos: int) -> int:
    """What moving from ``pos`` needs: -1 never (the end), 0 always, else the level entered (limited)."""
    if pos >= LAST[colour]:
        return -1
    nxt = LEVELS[colour][pos + 1]
    return 0 if colour == Colour.PINK or nxt == LEVELS[colour][pos] or nxt == 0 else nxt


#: per colour and marker position: :func:`_next_level`
NEXT_LEVEL = tuple(tuple(_next_level(c, p) for p in range(len(LEVELS[c]))) for c in range(4))
#: per level-limited colour (not pink): the other two
_OTHERS = tuple(tuple(c for c in range(3) if c != colour) for colour in range(3))


def can_step(d: ResafaData, seat: int, colour: int) -> bool:
    """Whether the marker may move one space: not at the end, and the level limits allow the next space."""
    track, t = d.track, seat * 4
    nxt = NEXT_LEVEL[colour][track[t + colour]]
    if nxt <= 0:
        return nxt == 0
    a, b = _OTHERS[colour]
    others = (LEVELS[a][track[t + a]] >= nxt) + (LEVELS[b][track[t + b]] >= nxt)
    return others < S.level_limits[nxt]


def legal_track_pick(d: ResafaData, seat: int, a: int, b: int) -> list[int]:
    return [COLOUR0 + c for c in range(4) if can_step(d, seat, c)]


def apply_track_pick(d: ResafaData, action: int, seat: int, a: int, b: int) -> None:
    step(d, seat, action - COLOUR0)


def run_step(d: ResafaData, seat: int, colour: int, b: int) -> None:
    if can_step(d, seat, colour):
        step(d, seat, colour)


def step(d: ResafaData, seat: int, colour: int) -> None:
    """One space forward: the printed space reward, then the special card of a card space."""
    i = seat * 4 + colour
    d.track[i] += 1
    pos = d.track[i]
    if pos in CARD_SPACES[colour]:
        deck = colour * 3 + LEVELS[colour][pos] - 1
        if d.spec_decks[deck]:
            d.stack.append((Step.SPECIAL, seat, deck, 0))
    push_effects(d, seat, SPACE_REWARDS[colour][pos])


def face_down(d: ResafaData, deck: int) -> list[int]:
    cards = d.spec_decks[deck]
    return cards[:-1] if d.spec_up[deck] else cards


def legal_special(d: ResafaData, seat: int, deck: int, b: int) -> list[int]:
    out = [TAKE_TOP] if d.spec_up[deck] and d.spec_decks[deck] else []
    if face_down(d, deck):
        out.append(SEARCH)
    return out


def apply_special(d: ResafaData, action: int, seat: int, deck: int, b: int) -> None:
    if action == SEARCH:
        d.spec_known[seat] |= 1 << deck
        d.stack.append((Step.SEARCH_PICK, seat, deck, 0))
        return
    card = d.spec_decks[deck].pop()
    gain(d, seat, S.special_take_bonus)
    d.spec_up[deck] = 1 if d.spec_decks[deck] else 0  # the next card is turned face up
    take(d, seat, deck, card)


def legal_search_pick(d: ResafaData, seat: int, deck: int, b: int) -> list[int]:
    return [PICK0 + i for i in range(len(face_down(d, deck)))]


def apply_search_pick(d: ResafaData, action: int, seat: int, deck: int, b: int) -> None:
    hidden = sorted(face_down(d, deck))
    card = hidden[action - PICK0]
    rest = [c for c in hidden if c != card]
    rng = d.chance.generator()
    rest = [rest[i] for i in rng.permutation(len(rest))]
    up = d.spec_decks[deck][-1:] if d.spec_up[deck] else []
    d.spec_decks[deck] = rest + up
    take(d, seat, deck, card)


def take(d: ResafaData, seat: int, deck: int, card: int) -> None:
    """The card is the player's: pink early bonus, the next level's top card revealed, yellow replaces."""
    spec = C.specials[card]
    d.spec_owner[card] = seat
    d.spec_round[card] = d.round_no
    if spec.colour == Colour.PINK:
        gain(d, seat, S.pink_early_bonus[d.round_no - 1])
    if deck % 3 < 2 and d.spec_decks[deck + 1]:
        d.spec_up[deck + 1] = 1
    if spec.timing == "action_card":
        replace_action_card(d, seat, card)
    elif spec.timing != "instant":
        push_effects(d, seat, tuple(e for e in spec.effects if type(e).__name__ not in _PASSIVE))


_PASSIVE = {"Discount", "Trigger", "HandLimit", "Score"}


def replace_action_card(d: ResafaData, seat: int, card: int) -> None:
    """Seed: a yellow card replaces the starting card with the same actions (hand, deck or played pile
    alike, so a seat never has more than 6 action cards)."""
    pair = frozenset(C.specials[card].replaces)
    new = YELLOW0 + card
    for pile in (d.hand[seat], d.deck[seat], d.played[seat]):
        for i, old in enumerate(pile):
            if card_pair(old) == pair:
                pile[i] = new
                if pile is d.hand[seat]:
                    pile.sort()
                return


__all__ = ["NO"]
