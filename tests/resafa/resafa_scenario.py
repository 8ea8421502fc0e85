"""Helpers for the Resafa rule scenarios: build a position by hand, then play actions on it.

A scenario starts from :func:`fresh` (seat 0 starts round 1, every fact a test depends on is set
explicitly), edits ``s.d`` with the helpers below (they only move pieces between the places the engine
keeps them, so ``s.validate()`` still holds), pushes the decision under test with :func:`start`, applies
actions and asserts the exact outcome.
"""

from __future__ import annotations

from meeplezoo.envs.resafa import actions as A
from meeplezoo.envs.resafa.content import Bundle, content
from meeplezoo.envs.resafa.game import ResafaGame, ResafaState
from meeplezoo.envs.resafa.geometry import SIZE
from meeplezoo.envs.resafa.state import NO, NUM_ITEMS, YELLOW0
from meeplezoo.envs.resafa.steps import Step

C = content()
P0, P1, P2, P3 = 0, 1, 2, 3
STONE, MARBLE, SPICE, AMPHORA = 0, 1, 2, 3


def fresh(players: int = 2, seed: int = 0) -> ResafaState:
    """A new game; seat 0 is the start player of round 1 and the one to play a card."""
    s = ResafaGame(num_players=players).new_state(seed)
    d = s.d
    d.first = d.active = P0
    d.stack = [(int(Step.PLAY_CARD), P0, 0, 0)]
    s.refresh()
    return s


def start(s: ResafaState, step: Step, seat: int = P0, a: int = 0, b: int = 0) -> None:
    """Push a decision (or automatic step) on top of the position and compute what is legal."""
    s.d.stack.append((int(step), seat, a, b))
    s.refresh()


def play(s: ResafaState, *actions: int) -> None:
    for action in actions:
        assert action in s.legal_actions(), (
            f"{action} ({s.describe_action(action)}) not legal in {s.pending()!r}: "
            f"{[s.describe_action(x) for x in s.legal_actions()]}"
        )
        s.apply(action)


def give(s: ResafaState, seat: int, stone: int = 0, marble: int = 0, spice: int = 0, amphora: int = 0) -> None:
    """Move items from the supply into ``seat``'s storehouse."""
    for k, n in enumerate((stone, marble, spice, amphora)):
        assert s.d.supply[k] >= n
        s.d.supply[k] -= n
        s.d.store[seat * NUM_ITEMS + k] += n


def empty_store(s: ResafaState, seat: int) -> None:
    for k in range(NUM_ITEMS):
        s.d.supply[k] += s.d.store[seat * NUM_ITEMS + k]
        s.d.store[seat * NUM_ITEMS + k] = 0


def store(s: ResafaState, seat: int) -> list[int]:
    return s.d.store[seat * NUM_ITEMS : seat * NUM_ITEMS + NUM_ITEMS]


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def card(name: str) -> int:
    """The action card id of a starting card (``"alpha-1"``) or a yellow special (``"sp-yellow-I-1"``)."""
    for i, c in enumerate(C.action_cards):
        if c.id == name:
            return i
    return YELLOW0 + special(name)


def special(name: str) -> int:
    return next(i for i, c in enumerate(C.specials) if c.id == name)


def bonus(name: str) -> int:
    return next(i for i, c in enumerate(C.bonus_cards) if c.id == name)


def sack(name: str) -> int:
    return next(i for i, c in enumerate(C.sack_cards) if c.id == name)


def node(name: str) -> int:
    return next(i for i, x in enumerate(C.centres) if x.id == name)


def workshop(name: str) -> int:
    return next(i for i, t in enumerate(C.workshops) if t.id == name)


def set_cards(s: ResafaState, seat: int, hand: list[int], deck: list[int], played: list[int] = ()) -> None:
    """Give ``seat`` exactly these action cards (6 in all)."""
    d = s.d
    d.hand[seat], d.deck[seat], d.played[seat] = sorted(hand), list(deck), list(played)


def take_special(s: ResafaState, seat: int, name: str) -> int:
    """Give ``seat`` a special card straight out of its deck (or the box)."""
    i = special(name)
    d = s.d
    for k, deck in enumerate(d.spec_decks):
        if i in deck:
            deck.remove(i)
            d.spec_up[k] = d.spec_up[k] if deck else 0
    for box in d.spec_box:
        if i in box:
            box.remove(i)
    d.spec_owner[i] = seat
    d.spec_round[i] = d.round_no
    return i


def hold_bonus(s: ResafaState, seat: int, name: str) -> int:
    """Put a bonus card into ``seat``'s hand (from wherever it is)."""
    i = bonus(name)
    d = s.d
    for deck in d.bonus_decks:
        if i in deck:
            deck.remove(i)
    d.bonus_display = [NO if x == i else x for x in d.bonus_display]
    d.bonus_hand[seat].append(i)
    d.bonus_hand[seat].sort()
    return i


def hold_sack(s: ResafaState, seat: int, name: str) -> int:
    i = sack(name)
    d = s.d
    if i in d.sack_deck:
        d.sack_deck.remove(i)
    d.sack_hand[seat].append(i)
    d.sack_hand[seat].sort()
    return i


def cost_free(b: Bundle) -> bool:
    return not b


__all__ = ["NO", "A", "Step"]
