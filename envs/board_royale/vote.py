"""The Democracy Vote: replace the four items of the Crafting Field.

Seed: "Herhangi bir oyuncu kendi turu sırasında Üretim Alanındaki eşya kartlarının değiştirilmesi için oylama
başlatabilir. Oyuncuların çoğunluğu kabul ederse, Üretim Alanındaki tüm eşya kartları Eşya Çöp Yığınına atılır
ve Eşya Destesinden 4 yeni kart yüzü açık olarak Üretim Alanına yerleştirilir. Üretim Alanı her rauntta en
fazla 1 kez değiştirilebilir."

Every living player votes, clockwise from the caller (who votes too); a majority is more than half of the
living players. A vote may be called whenever the field has not been replaced this round: the seed limits
only the replacement ("her rauntta en fazla 1 kez"), so a failed vote may be called again, by anyone on their
turn, the same player included. A failed vote is a futile exchange and a carried one is progress
(:mod:`.island`): after :data:`RULES.futile_per_turn` futile exchanges the caller's turn is over.
"""

from __future__ import annotations

from .actions import PASS, YES
from .content import RULES
from .crafting import draw_item
from .island import note_futile, note_progress
from .state import NO, RoyaleData
from .steps import Step


def can_call(d: RoyaleData) -> bool:
    return d.round_no > 0 and d.field_round != d.round_no


def call_vote(d: RoyaleData, caller: int) -> None:
    d.vote_yes = d.vote_no = 0
    d.stack.append((Step.VOTE_COUNT, caller, 0, 0))
    n = d.n
    voters = [(caller + i) % n for i in range(n) if d.alive[(caller + i) % n]]
    for s in reversed(voters):
        d.stack.append((Step.VOTE, s, caller, 0))


def legal_vote(d: RoyaleData, seat: int, caller: int, b: int) -> list[int]:
    return [PASS, YES]


def apply_vote(d: RoyaleData, action: int, seat: int, caller: int, b: int) -> None:
    if action == YES:
        d.vote_yes |= 1 << seat
    else:
        d.vote_no |= 1 << seat


def run_count(d: RoyaleData, caller: int, a: int, b: int) -> None:
    yes = bin(d.vote_yes).count("1")
    d.vote_yes = d.vote_no = 0
    if 2 * yes <= sum(d.alive):
        note_futile(d)
        return
    note_progress(d)
    for card in d.field:
        if card != NO:
            d.item_discard.append(card)
    d.field = [NO] * RULES.field_size
    d.field = [draw_item(d) for _ in range(RULES.field_size)]
    d.field_round = d.round_no
