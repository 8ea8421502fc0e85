"""Board Royale's state: plain data in a slotted dataclass, with setup, cheap clone and (de)serialisation.

Per-seat lists are flat: ``hand[seat * NUM_KINDS + kind]`` (card counts by kind: five resources, then the
hidden items), ``known[viewer * n * NUM_KINDS + holder * NUM_KINDS + kind]`` (how many cards of ``kind``
``viewer`` knows ``holder`` still has: a lower bound, from steals, trades and loot), ``hid_max[viewer * n +
holder]`` (an upper bound on the hidden items in that hand, from when cards could have entered it). Decks
keep their top card at the end of the list; the resource discard pile is public and kept as counts by kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Chance
from ..core.records import RecordCodec
from .content import ESCAPE_CARDS, KIND_COUNTS, NUM_ITEM_CARDS, NUM_KINDS, NUM_RES, RULES, Res

NO = -1
STEAL = -2  # the "item" of a Resource Phase steal
# how the game was won
WIN_NONE, WIN_LAST_STANDING, WIN_ESCAPE_POINTS, WIN_ESCAPE_SET = 0, 1, 2, 3
# the blow under answer in an attack: avoided (nothing lands), the attack's own blows, an ambush's counter-blow
BLOW_NONE, BLOW_ATTACK, BLOW_COUNTER = 0, 1, 2


@dataclass(slots=True, eq=False)
class RoyaleData:
    """Every fact of a Board Royale position. Lists are copied on clone; ints and tuples are shared."""

    chance: Chance
    n: int
    hand: list[int]
    known: list[int]
    hid_max: list[int]  # [viewer * n + holder]: at most this many hidden items in holder's hand, as viewer can tell
    res_deck: list[int]
    res_discard: list[int]
    item_owner: list[int]
    item_used: list[int]
    item_deck: list[int]
    item_discard: list[int]
    field: list[int]
    alive: list[int]
    elim_rank: list[int]
    score: list[int]  # zero-sum survival score (see elimination.py)
    stack: list[tuple[int, int, int, int]]
    joiners: list[int]  # flat (seat, card) pairs of the attack being resolved
    loot_items: list[int]  # face-up cards of an eliminated player waiting for a taker
    loot_hidden: list[int]  # per hidden kind: looted hidden items waiting for a taker (kept face up in res_discard)
    offer_give: list[int]  # cards the proposer of the pending trade offer gives, per kind
    offer_ask: list[int]  # cards they ask for, per kind
    offer_give_items: list[int]  # face-up items they give
    offer_ask_items: list[int]  # face-up items they ask for
    first_player: int
    active: int
    round_no: int  # 0 = preparation round
    turn_decisions: int  # decisions taken in this turn (the engine's safety bound)
    field_round: int  # round in which the crafting field was last replaced by a vote
    vote_yes: int  # bitmask of the running vote
    vote_no: int
    turn_over: int  # the active player's turn ends: they eliminated someone, or ran out of futile exchanges
    loot_takers: int  # bitmask: the attackers sharing the loot being dealt
    blow_on: int  # seat the blow under answer is aimed at: the target or the active attacker (NO: no attack)
    blow_kind: int  # BLOW_NONE / BLOW_ATTACK / BLOW_COUNTER
    blow_n: int  # cards a counter-blow (an ambush) makes its victim discard
    answers: int  # answers given so far in the running attack
    trade_with: int  # the active player's partner in the running trade (NO: none)
    counters: int  # counter offers made in the running trade (the engine's safety bound)
    deck_hidden: int  # hidden items in the Resource Deck when it was last built (public)
    deck_built: int  # its size then
    winner: int
    win_kind: int
    idle: list[int]  # per seat: its turns in a row without progress (island.py)
    strikes: list[int]  # per seat: its turns ended by the futile-exchange bound (island.py)
    futile: int  # futile exchanges in this turn: failed votes, offers cancelled, refused or countered
    progress: int  # the active player crafted, attacked, traded or carried a vote this turn
    legal: tuple[int, ...] = ()  # legal actions of the pending decision (derived, cached)


def item_cards(elimination_only: bool) -> list[int]:
    """The face-up item cards in play (the elimination-only variant removes the escape cards)."""
    return [c for c in range(NUM_ITEM_CARDS) if not (elimination_only and c in ESCAPE_CARDS)]


def setup(seed: int, n: int, elimination_only: bool) -> RoyaleData:
    """Shuffle, find the start player (draw until someone draws Gold; those cards are discarded), deal 5
    resource cards each, shuffle the hidden items into the Resource Deck, lay out 4 items, and start the
    preparation round (seed: "Kurulum tamamlandıktan ve başlangıç oyuncusu belirlendikten sonra Hazırlık
    Raundu başlar")."""
    chance = Chance(seed)
    rng = chance.generator()
    deck = [k for k in range(NUM_RES) for _ in range(KIND_COUNTS[k])]
    deck = [deck[i] for i in rng.permutation(len(deck))]
    discard = [0] * NUM_KINDS
    seat = 0
    while True:  # the starting-player draw, one card each in seat order
        card = deck.pop()
        discard[card] += 1
        if card == Res.GOLD:
            first = seat
            break
        seat = (seat + 1) % n
    hand = [0] * (n * NUM_KINDS)
    for _ in range(RULES.starting_hand):
        for s in range(n):
            hand[s * NUM_KINDS + deck.pop()] += 1
    deck += [k for k in range(NUM_RES, NUM_KINDS) for _ in range(KIND_COUNTS[k])]
    deck = [deck[i] for i in rng.permutation(len(deck))]
    items = item_cards(elimination_only)
    items = [items[i] for i in rng.permutation(len(items))]
    field = [items.pop() for _ in range(RULES.field_size)]
    return RoyaleData(
        chance=chance,
        n=n,
        hand=hand,
        known=[0] * (n * n * NUM_KINDS),
        hid_max=[0] * (n * n),  # the starting hands are dealt before the hidden items join the deck
        res_deck=deck,
        res_discard=discard,
        item_owner=[NO] * NUM_ITEM_CARDS,
        item_used=[0] * NUM_ITEM_CARDS,
        item_deck=items,
        item_discard=[],
        field=field,
        alive=[1] * n,
        elim_rank=[NO] * n,
        score=[0] * n,
        stack=[],  # the first turn is pushed by turn.start_turn
        joiners=[],
        loot_items=[],
        loot_hidden=[0] * (NUM_KINDS - NUM_RES),
        offer_give=[0] * NUM_KINDS,
        offer_ask=[0] * NUM_KINDS,
        offer_give_items=[],
        offer_ask_items=[],
        first_player=first,
        active=first,
        round_no=0,
        turn_decisions=0,
        field_round=NO,
        vote_yes=0,
        vote_no=0,
        turn_over=0,
        loot_takers=0,
        blow_on=NO,
        blow_kind=BLOW_NONE,
        blow_n=0,
        answers=0,
        trade_with=NO,
        counters=0,
        deck_hidden=sum(KIND_COUNTS[NUM_RES:]),
        deck_built=len(deck),
        winner=NO,
        win_kind=WIN_NONE,
        idle=[0] * n,
        strikes=[0] * n,
        futile=0,
        progress=0,
    )


CODEC = RecordCodec(RoyaleData, "board_royale")
