"""Helpers for the Board Royale rule scenarios: build a position by hand, then play actions on it.

A scenario starts from :func:`fresh` (every hand emptied into the Resource Deck, the knowledge cleared),
sets the hands, items, field and deck top with the helpers below, puts a decision on the stack with
:func:`begin_turn` or :func:`start`, applies actions and asserts the exact outcome. The helpers only move
cards between the places the engine keeps them, so ``s.validate()`` still holds.
"""

from __future__ import annotations

from meeplezoo.envs.board_royale import turn
from meeplezoo.envs.board_royale.actions import CARD0, CRAFT0, ITEM0, SEAT0
from meeplezoo.envs.board_royale.content import CARD_TYPE, KIND_NAMES, NUM_KINDS, RULES
from meeplezoo.envs.board_royale.game import BoardRoyaleGame, BoardRoyaleState
from meeplezoo.envs.board_royale.state import NO, RoyaleData
from meeplezoo.envs.board_royale.steps import Step

P0, P1, P2, P3 = 0, 1, 2, 3
FOOD, WOOD, STONE, IRON, GOLD, DECOY, RICOCHET, DEADFALL = range(8)
KIND = {name.lower().replace(" ", "_"): k for k, name in enumerate(KIND_NAMES)}


def fresh(n: int = 2, seed: int = 0, elimination_only: bool = False) -> BoardRoyaleState:
    """A new game with empty hands (all cards back in the Resource Deck), P0 first player, round 1."""
    s = BoardRoyaleGame(num_players=n, elimination_only=elimination_only).new_state(seed)
    d = s.d
    for seat in range(n):
        for k in range(NUM_KINDS):
            d.res_deck[:0] = [k] * d.hand[seat * NUM_KINDS + k]
            d.hand[seat * NUM_KINDS + k] = 0
    for k in range(NUM_KINDS):  # the start-player draw pile goes back too
        d.res_deck[:0] = [k] * d.res_discard[k]
        d.res_discard[k] = 0
    d.known = [0] * len(d.known)
    forget_history(d)
    d.first_player = d.active = P0
    d.round_no = 1
    d.stack = []
    return s


def set_hand(d: RoyaleData, seat: int, **counts: int) -> None:
    """Set ``seat``'s hand, e.g. ``set_hand(d, P0, food=2, iron=3, decoy=1)``; cards come from / go to the
    bottom of the Resource Deck (its top is left alone)."""
    for name, want in counts.items():
        k = KIND[name]
        have = d.hand[seat * NUM_KINDS + k]
        while have < want:
            i = d.res_deck.index(k)
            del d.res_deck[i]
            have += 1
        if have > want:
            d.res_deck[:0] = [k] * (have - want)
            have = want
        d.hand[seat * NUM_KINDS + k] = want
    forget_history(d)


def trade_table(n: int = 3) -> tuple[BoardRoyaleState, RoyaleData]:
    """A fresh table whose first seats hold known hands to trade: P0 4 Food 2 Wood, P1 3 Iron 1 Gold, P2 3 Stone."""
    s = fresh(n)
    set_hand(s.d, 0, food=4, wood=2)
    set_hand(s.d, 1, iron=3, gold=1)
    if n > 2:
        set_hand(s.d, 2, stone=3)
    return s, s.d


def forget_history(d: RoyaleData) -> None:
    """After hands were set by hand: no history rules anything out (any hand may hold hidden items; the deck
    as it is now counts as freshly built). Scenario tests that check history set these bounds themselves."""
    n = d.n
    d.hid_max = [0 if v == h else sum(hand(d, h)) for v in range(n) for h in range(n)]
    d.deck_hidden = sum(1 for k in d.res_deck if k >= 5)
    d.deck_built = len(d.res_deck)


def hand(d: RoyaleData, seat: int) -> list[int]:
    """``seat``'s hand by kind: Food, Wood, Stone, Iron, Gold, Decoy, Ricochet, Deadfall."""
    return d.hand[seat * NUM_KINDS : (seat + 1) * NUM_KINDS]


def resources(d: RoyaleData, seat: int) -> int:
    return sum(hand(d, seat)[:5])


def _take_card(d: RoyaleData, name: str) -> int:
    """A card of item type ``name`` that nobody owns, removed from where it lies."""
    for place in (d.item_deck, d.item_discard):
        for c in place:
            if CARD_TYPE[c].name == name:
                place.remove(c)
                return c
    for i, c in enumerate(d.field):
        if c != NO and CARD_TYPE[c].name == name:
            d.field[i] = d.item_deck.pop(0)
            return c
    raise AssertionError(f"no free {name} card")


def give_item(d: RoyaleData, seat: int, name: str) -> int:
    """Put an item of type ``name`` face up in front of ``seat``; returns its card id."""
    card = _take_card(d, name)
    d.item_owner[card] = seat
    return card


def set_field(d: RoyaleData, *names: str) -> list[int]:
    """Lay out these items in the crafting field (slot order); the old field goes to the deck bottom."""
    old = [c for c in d.field if c != NO]
    d.field = [NO] * RULES.field_size
    d.item_deck[:0] = old
    cards = [_take_card(d, name) for name in names]
    d.field = cards + [d.item_deck.pop(0) for _ in range(RULES.field_size - len(cards))]
    return cards


def deck_top(d: RoyaleData, *kinds: str) -> None:
    """The next Resource Deck draws, in order (moved up from inside the deck)."""
    for name in reversed(kinds):
        k = KIND[name]
        i = d.res_deck.index(k)
        del d.res_deck[i]
        d.res_deck.append(k)


def begin_turn(s: BoardRoyaleState, seat: int, round_no: int = 1) -> None:
    """Start ``seat``'s turn (round 0 is the preparation round)."""
    d = s.d
    d.round_no = round_no
    d.stack = []
    turn.start_turn(d, seat)
    s.refresh()


def action_phase(s: BoardRoyaleState, seat: int, round_no: int = 1) -> None:
    """``seat``'s turn with the Resource Phase already done."""
    d = s.d
    d.round_no = round_no
    d.active = seat
    d.turn_decisions = d.turn_over = 0
    d.stack = [(Step.END_TURN, seat, 0, 0), (Step.ACTION, seat, 0, 0)]
    s.refresh()


def start(s: BoardRoyaleState, step: Step, seat: int, a: int = 0, b: int = 0) -> None:
    """Put the decision ``(step, seat, a, b)`` on top of the active player's turn."""
    d = s.d
    d.stack = [(Step.END_TURN, d.active, 0, 0), (Step.ACTION, d.active, 0, 0), (step, seat, a, b)]
    s.refresh()


def pending(s: BoardRoyaleState) -> tuple[Step, int]:
    """``(step, seat)`` of the pending decision."""
    step, seat, _, _ = s.d.stack[-1]
    return Step(step), seat


def seat_a(seat: int) -> int:
    return SEAT0 + seat


def item_a(card: int) -> int:
    return ITEM0 + card


def card_a(kind: str) -> int:
    return CARD0 + KIND[kind]


def craft_a(slot: int) -> int:
    return CRAFT0 + slot
