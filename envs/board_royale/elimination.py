"""Elimination, loot and the last player standing.

Seed: "Bir oyuncunun elinizdeki tüm kaynakları biterse (0 kaynak), o oyuncu oyundan anında elenir. Elenen
oyuncunun tüm eşya kartları, onu eleyen saldırgan oyuncu tarafından alınır (ganimet / loot). Ortak saldırı
durumunda saldıranlar ganimeti aralarında paylaşır. Önemli: Bir oyuncu başka bir oyuncuyu eleyip ganimetini
aldığında, o oyuncunun turu biter."

Loot is dealt card by card (face-up items first, then the revealed hidden items): with several attackers the
active player decides who gets each card ("ganimeti aralarında paylaşabilir"); a single eliminator takes
everything. A hidden item goes into the taker's hand, so the hand limit holds (20, 24 with a Backpack): a
taker at the limit first discards a card of their choice, or leaves the looted card on the discard pile,
which ends exactly as "take it, then discard down to the limit". Meanwhile the looted hidden items lie face
up on the Resource Discard Pile, reserved (``loot_hidden``).

A seat's rank is fixed the moment it is eliminated: the number of players still alive then (so the first
out of four gets rank 3). Scores are zero-sum survival points, also final for a seat the moment it is out:
an eliminated seat loses one point per player still alive, and each of them gains one; an escaping winner
gains one point per living opponent, who each lose one. So a higher score always means a better rank, and
an eliminated seat's margin over the mean of the others (the ``score_margin`` reward) never changes after
it is out.
"""

from __future__ import annotations

from .actions import CARD0, SEAT0
from .content import NUM_KINDS, NUM_RES
from .escape import check_escape
from .resources import K, hand_limit, hand_size, move_in, move_out, resources_of
from .state import NO, WIN_LAST_STANDING, RoyaleData
from .steps import Step


def check_out(d: RoyaleData, seat: int, eliminators: list[int]) -> bool:
    """Eliminate ``seat`` if it holds no resource card; ``eliminators`` share the loot (none: the items are
    discarded). Returns whether it was eliminated."""
    if not d.alive[seat] or resources_of(d, seat) > 0:
        return False
    d.alive[seat] = 0
    d.elim_rank[seat] = sum(d.alive)
    d.score[seat] -= d.elim_rank[seat]
    for s in range(d.n):
        if d.alive[s]:
            d.score[s] += 1
    takers = list(dict.fromkeys(s for s in eliminators if d.alive[s]))
    items = [card for card, owner in enumerate(d.item_owner) if owner == seat]
    for card in items:
        d.item_owner[card] = NO
    for kind in range(NUM_RES, NUM_KINDS):  # hidden items held in hand are items too: revealed, face up
        for _ in range(d.hand[seat * K + kind]):
            move_out(d, seat, kind, public=True)
            d.res_discard[kind] += 1
            if takers:
                d.loot_hidden[kind - NUM_RES] += 1
    if seat == d.active or d.active in takers:
        d.turn_over = 1
    living = [s for s in range(d.n) if d.alive[s]]
    if len(living) == 1:  # the game is over: the winner keeps the face-up loot if they took part
        d.winner = living[0]
        d.win_kind = WIN_LAST_STANDING
        d.stack.clear()
        d.loot_hidden = [0] * len(d.loot_hidden)
        for card in items:
            if d.winner in takers:
                d.item_owner[card] = d.winner
            else:
                d.item_discard.append(card)
        return True
    if not takers:
        d.item_discard += items
        return True
    d.loot_items = items
    d.loot_takers = sum(1 << s for s in takers)
    d.stack.append((Step.LOOT, takers[0], 0, 0))
    return True


def takers(d: RoyaleData) -> list[int]:
    """The living attackers sharing the loot, clockwise from the active player."""
    n = d.n
    seats = [(d.active + i) % n for i in range(n)]
    return [s for s in seats if (d.loot_takers >> s) & 1 and d.alive[s]]


def next_loot(d: RoyaleData) -> int:
    """The loot card dealt next: a face-up card id, or ``-1 - kind`` for a hidden item; ``NO`` when done."""
    if d.loot_items:
        return d.loot_items[0]
    for h, count in enumerate(d.loot_hidden):
        if count:
            return -1 - (NUM_RES + h)
    return NO


def run_loot(d: RoyaleData, seat: int, a: int, b: int) -> None:
    """Deal the next loot card: the active player chooses the taker when several attackers share it."""
    who = takers(d)
    card = next_loot(d)
    if card == NO or not who:
        finish_loot(d)
        return
    d.stack.append((Step.LOOT, who[0], 0, 0))
    if len(who) > 1 and d.alive[d.active]:
        d.stack.append((Step.LOOT_SPLIT, d.active, 0, 0))
    else:
        give_loot(d, who[0])


def give_loot(d: RoyaleData, taker: int) -> None:
    card = next_loot(d)
    if card >= 0:
        d.loot_items.pop(0)
        d.item_owner[card] = taker
        return
    kind = -1 - card
    d.loot_hidden[kind - NUM_RES] -= 1
    if hand_size(d, taker) + 1 > hand_limit(d, taker):
        d.stack.append((Step.LOOT_ROOM, taker, kind, 0))
    else:
        take_from_pile(d, taker, kind)


def take_from_pile(d: RoyaleData, seat: int, kind: int) -> None:
    d.res_discard[kind] -= 1
    move_in(d, seat, kind, public=True)


def finish_loot(d: RoyaleData) -> None:
    who = takers(d)
    d.loot_items = []
    d.loot_hidden = [0] * len(d.loot_hidden)
    d.loot_takers = 0
    for s in who:
        if check_escape(d, s):
            break


def legal_loot_split(d: RoyaleData, seat: int, a: int, b: int) -> list[int]:
    return [SEAT0 + s for s in takers(d)]


def apply_loot_split(d: RoyaleData, action: int, seat: int, a: int, b: int) -> None:
    give_loot(d, action - SEAT0)


def legal_loot_room(d: RoyaleData, seat: int, kind: int, b: int) -> list[int]:
    """Any card kind in hand, or the looted kind itself (leave it on the discard pile)."""
    base = seat * K
    return sorted({CARD0 + k for k in range(K) if d.hand[base + k]} | {CARD0 + kind})


def apply_loot_room(d: RoyaleData, action: int, seat: int, kind: int, b: int) -> None:
    """Discard one card face up, then take the looted one if it fits; discarding the looted kind leaves it."""
    drop = action - CARD0
    if drop == kind:
        return
    move_out(d, seat, drop, public=True)
    d.res_discard[drop] += 1
    if hand_size(d, seat) + 1 > hand_limit(d, seat):
        d.stack.append((Step.LOOT_ROOM, seat, kind, 0))
    else:
        take_from_pile(d, seat, kind)
