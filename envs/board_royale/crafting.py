"""Crafting from the Crafting Field, and the Item Deck.

Seed: "Üretim Alanında (Crafting Field) her zaman 4 adet yüzü açık Eşya Kartı bulunur. Bir eşya üretmek için
kartın üzerinde yazan kaynak maliyetini (craft cost) Çöp Yığınına ödemeniz gerekir. ... Üretilen eşya,
oyuncunun önüne yüzü açık olarak yerleştirilir ... Bir eşya üretildiğinde, Eşya Destesinden yeni bir kart
çekilerek Üretim Alanına yüzü açık eklenir."
"""

from __future__ import annotations

from .content import CARD_TYPE
from .elimination import check_out
from .escape import check_escape
from .resources import K, affordable, cost_parts, pay
from .state import NO, RoyaleData

_CRAFT = tuple(t.craft for t in CARD_TYPE)
_CRAFT_PARTS = tuple(cost_parts(cost) for cost in _CRAFT)


def draw_item(d: RoyaleData) -> int:
    """Top card of the Item Deck, reshuffling the Item Discard Pile when it runs out; -1 if both are empty."""
    if not d.item_deck:
        if not d.item_discard:
            return NO
        pile = d.item_discard
        rng = d.chance.generator()
        d.item_deck = [pile[i] for i in rng.permutation(len(pile))]
        d.item_discard = []
    return d.item_deck.pop()


def craftable(d: RoyaleData, seat: int) -> list[int]:
    """Field slots whose item ``seat`` can pay for."""
    hand, base = d.hand, seat * K
    return [i for i, card in enumerate(d.field) if card != NO and affordable(hand, base, _CRAFT_PARTS[card])]


def craft(d: RoyaleData, seat: int, slot: int) -> None:
    """Pay the craft cost, take the item face up, refill the slot; paying the last resource eliminates the
    crafter (seed FAQ: "Kaynak kartların hem eşya üretmek/kullanmak için hem de 'can puanın' olarak görev
    yapar")."""
    card = d.field[slot]
    pay(d, seat, _CRAFT[card])
    d.item_owner[card] = seat
    d.item_used[card] = 0
    d.field[slot] = draw_item(d)
    if not check_out(d, seat, []):
        check_escape(d, seat)


def refill_empty_slots(d: RoyaleData) -> None:
    for i, card in enumerate(d.field):
        if card == NO:
            d.field[i] = draw_item(d)
