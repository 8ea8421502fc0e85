"""The personality cards: playing one (a turn), and the actions of Tribune, Diplomat, Colonist and the five
specialists. Architect, Prefect, Mercator, Senator and Consul live in their own modules."""

from __future__ import annotations

from . import architect, forum, mercator, steps
from .actions import PASS, PLACE0, PLAY0, SEAT0, TAX, place_action
from .content import CARDS, COLONIST_COST, COLONISTS, COLONISTS_PER_KIND, MAX_CITIES, NUM_GOODS, Act
from .state import NO, ConcordiaData, board_of, colonists_on_board
from .storehouse import gain, push_overflow


# --- a turn: play one card ----------------------------------------------------------------------------
def legal_main(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    return d.hand[seat][:]  # [PLAY0 + c for c in d.hand[seat]] with PLAY0 == 0


assert PLAY0 == 0, "legal_main: a card's action is its id"


def apply_main(d: ConcordiaData, action: int, seat: int, a: int, b: int) -> None:
    card = action - PLAY0
    d.hand[seat].remove(card)
    d.discard[seat].append(card)  # seed: "Oynanan kartlar kişisel bir atık yığını oluşturur"
    d.idle[seat] += 1  # one more turn without a house or Forum card until one comes (:mod:`.stalling`)
    d.stack.append((steps.END_TURN, seat, 0, 0))
    perform(d, seat, card)


def perform(d: ConcordiaData, seat: int, card: int) -> None:
    """Carry out the action of ``card`` for ``seat`` (played or copied by the Diplomat)."""
    run, arg = _PERFORM[card]
    run(d, seat, arg)


# --- Tribune -------------------------------------------------------------------------------------------
def tribune(d: ConcordiaData, seat: int) -> None:
    """Take the discard pile back (the Tribune counts); 1 sesterce per card beyond 3."""
    pile = d.discard[seat]
    d.money[seat] += max(0, len(pile) - 3)
    d.hand[seat] = sorted(d.hand[seat] + pile)
    d.discard[seat] = []
    d.stack.append((steps.TRIBUNE_PLACE, seat, 0, 0))


def place_options(d: ConcordiaData, seat: int, roma_only: bool) -> list[int]:
    base = seat * NUM_GOODS
    if any(d.goods[base + g] < 1 for g in COLONIST_COST):
        return []
    roma = board_of(d).roma
    cities = [roma] if roma_only else [roma, *sorted(d.houses[seat])]
    out = []
    cb = seat * COLONISTS
    for kind in (0, 1):
        if NO in d.col[cb + kind * COLONISTS_PER_KIND : cb + (kind + 1) * COLONISTS_PER_KIND]:
            out.extend(place_action(kind, c) for c in cities)
    return out


def place(d: ConcordiaData, seat: int, action: int) -> None:
    """Pay food + tool and put a colonist of the chosen kind from the storehouse into the chosen city."""
    kind, city = divmod(action - PLACE0, MAX_CITIES)
    for g in COLONIST_COST:
        d.goods[seat * NUM_GOODS + g] -= 1
    cb = seat * COLONISTS + kind * COLONISTS_PER_KIND
    i = d.col[cb : cb + COLONISTS_PER_KIND].index(NO)
    d.col[cb + i] = city


def legal_tribune_place(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    out = place_options(d, seat, True)
    return [*out, PASS] if out else []


def apply_place_or_pass(d: ConcordiaData, action: int, seat: int, a: int, b: int) -> None:
    if action != PASS:
        place(d, seat, action)


# --- Colonist -------------------------------------------------------------------------------------------
def legal_colonist_choice(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    return [*place_options(d, seat, False), TAX]


def apply_colonist_choice(d: ConcordiaData, action: int, seat: int, a: int, b: int) -> None:
    if action == TAX:
        d.money[seat] += 5 + colonists_on_board(d, seat)
    else:
        place(d, seat, action)
        d.stack.append((steps.COLONIST_MORE, seat, 0, 0))


def legal_colonist_more(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    out = place_options(d, seat, False)
    return [*out, PASS] if out else []


def apply_colonist_more(d: ConcordiaData, action: int, seat: int, a: int, b: int) -> None:
    if action != PASS:
        place(d, seat, action)
        d.stack.append((steps.COLONIST_MORE, seat, 0, 0))


# --- Diplomat -------------------------------------------------------------------------------------------
def diplomat_targets(d: ConcordiaData, seat: int) -> list[int]:
    """Seats whose top discard card can be copied: not a Diplomat, and a pile to copy from (after a Tribune
    the pile is empty)."""
    piles = d.discard
    return [s for s in range(d.n) if s != seat and piles[s] and _COPYABLE[piles[s][-1]]]


def legal_diplomat(d: ConcordiaData, seat: int, a: int, b: int) -> list[int]:
    return [SEAT0 + s for s in diplomat_targets(d, seat)]


def apply_diplomat(d: ConcordiaData, action: int, seat: int, a: int, b: int) -> None:
    perform(d, seat, d.discard[action - SEAT0][-1])


#: what each card action does: ``fn(d, seat, amount)`` (``amount``: the Mercator's sesterces)
_ACTIONS = {
    Act.TRIBUNE: lambda d, seat, amount: tribune(d, seat),
    Act.ARCHITECT: lambda d, seat, amount: architect.start(d, seat),
    Act.PREFECT: lambda d, seat, amount: d.stack.append((steps.PREFECT, seat, 0, 0)),
    Act.MERCATOR: mercator.start,
    Act.DIPLOMAT: lambda d, seat, amount: d.stack.append((steps.DIPLOMAT, seat, 0, 0)),
    Act.SENATOR: lambda d, seat, amount: forum.start(d, seat, forum.SENATOR),
    Act.CONSUL: lambda d, seat, amount: forum.start(d, seat, forum.CONSUL),
    Act.COLONIST: lambda d, seat, amount: d.stack.append((steps.COLONIST_CHOICE, seat, 0, 0)),
}


# --- Specialists ----------------------------------------------------------------------------------------
def specialist(d: ConcordiaData, seat: int, good: int) -> None:
    """Every own house in a city of that good produces one (map-wide)."""
    n = sum(1 for c in d.houses[seat] if d.city_good[c] == good)
    gain(d, seat, good, n)
    push_overflow(d, [seat])


#: per card id: what playing it runs, ``fn(d, seat, arg)``, and ``arg`` (the specialist's good, the Mercator's
#: sesterces)
_PERFORM = tuple((specialist, c.good) if c.action == Act.SPECIALIST else (_ACTIONS[c.action], c.amount) for c in CARDS)
#: per card id: whether a Diplomat may copy it (any card but a Diplomat)
_COPYABLE = tuple(c.action != Act.DIPLOMAT for c in CARDS)
