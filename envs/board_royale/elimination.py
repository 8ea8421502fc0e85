"""Elimination, loot and the last player standing.

Seed: "Bir oyuncunun elinizdeki tüm kaynakları biterse (0 kaynak), o oyuncu oyundan anında elenir. Elenen
oyuncunun tüm eşya kartları, onu eleyen saldırgan oyuncu tarafından alınır (ganimet / loot). Ortak saldırı
durumunda saldıranlar ganimeti aralarında paylaşır. Önemli: Bir oyuncu başka bir oyuncuyu eleyip ganimetini
aldığında, o oyuncunun turu biter."

A seat's rank is fixed the moment it is eliminated: the number of players still alive then (so the first
out of four gets rank 3). Loot is shared round-robin, in card order, starting with the active player.

Scores are zero-sum survival points, also final for a seat the moment it is out: an eliminated seat loses
one point per player still alive, and each of them gains one; an escaping winner gains one point per
living opponent, who each lose one. So a higher score always means a better rank, and an eliminated seat's
margin over the mean of the others (the ``score_margin`` reward) never changes after it is out.
"""

from __future__ import annotations

from .content import NUM_KINDS, NUM_RES
from .escape import check_escape
from .resources import move_in, move_out, resources_of
from .state import NO, WIN_LAST_STANDING, RoyaleData


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
    takers = [s for s in eliminators if d.alive[s]]
    i = 0
    for card, owner in enumerate(d.item_owner):  # face-up items
        if owner == seat:
            if takers:
                d.item_owner[card] = takers[i % len(takers)]
                i += 1
            else:
                d.item_owner[card] = NO
                d.item_discard.append(card)
    for kind in range(NUM_RES, NUM_KINDS):  # hidden items held in hand are items too
        for _ in range(d.hand[seat * NUM_KINDS + kind]):
            move_out(d, seat, kind, public=True)
            if takers:
                move_in(d, takers[i % len(takers)], kind, public=True)
                i += 1
            else:
                d.res_discard[kind] += 1
    if seat == d.active or d.active in takers:
        d.turn_over = 1
    living = [s for s in range(d.n) if d.alive[s]]
    if len(living) == 1:
        d.winner = living[0]
        d.win_kind = WIN_LAST_STANDING
        d.stack.clear()
        return True
    for s in takers:
        if check_escape(d, s):
            break
    return True
