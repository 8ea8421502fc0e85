"""What a game log shows of Resafa's decisions to the other seats, and Resafabot's turns (solo).

Every name is in the players' words (:mod:`.names`: cards by what they do, places by where the table draws
them, never an internal id). Public, named in full to everyone: the action card played (it goes face up on its
player's played pile), the half on top, the main and colour actions, picks from the open displays, tiles
placed, camel moves, deals, posts, bonus cards (held face up), special cards taken face up, looking at one's
own deck (it is reshuffled).

Redacted for the other seats:

- which sack card a player discards unused for 1 VP: it goes to the discard pile, whose cards nobody is shown
  (the observation and the table give their number only);
- a sack card used is named by its printed effect, which everyone sees happen (cards printed alike read
  alike, for its player too);
- the pick after searching a face-down special deck is named by the card taken (it is the player's, face up,
  from then on), never by its place among the face-down ones, which would tell about the cards left there.
"""

from __future__ import annotations

from .actions import PICK0, action_range
from .content import ACTIONS, COLOURS, Action, content, describe_all
from .names import solo_card_name
from .render import describe
from .solo import CYCLE, SOLO, arrow_of
from .state import ResafaData
from .tracks import face_down

C = content()
BOT_NAME = "Resafabot"


def public_name(d: ResafaData, action: int, viewer: int | None) -> str:
    """``action`` of the seat to act as ``viewer`` (None: everything) may read it."""
    seat = d.stack[-1][1] if d.stack else 0
    if viewer is None or viewer == seat:
        return describe(d, action)
    name, i = action_range(action)
    if name == "USE_SACK0":  # its effect shows, not which of the cards printed alike it was
        return f"use a sack card: {describe_all(C.sack_cards[i].effects)}"
    if name == "DROP_SACK0":
        return "discard an unused sack card (+1 VP)"
    if name == "PICK0":
        deck = d.stack[-1][2]
        hidden = sorted(face_down(d, deck))
        card = hidden[action - PICK0] if action - PICK0 < len(hidden) else None
        what = C.specials[card].name if card is not None else "a special card"
        return f"take {what} from the searched face-down deck"
    return describe(d, action)


def _turn(revealed: int, read: int) -> str:
    card = SOLO.cards[read]
    half = card.halves[arrow_of(revealed)]
    shown = solo_card_name(revealed)
    colour = COLOURS[half.colour]
    first = f"removes a {colour} bonus card" if half.option == "bonus" else f"steps {colour}"
    main = half.action
    if main in (Action.PRODUCTION, Action.GARDEN):
        main = card.red
    then = ACTIONS[main] if main != Action.PROVISIONS else f"provisions ({COLOURS[card.provisions]})"
    return f"{BOT_NAME} reveals {shown} and reads {solo_card_name(read)}: {first}, then {then}"


def bot_turns(before: ResafaData | None, after: ResafaData) -> list[str]:
    """Resafabot's turns between two positions of a solo game (``before`` None: since the setup), for the log."""
    return [_turn(r, c) for r, c in bot_cards(before, after)]


def bot_cards(before: ResafaData | None, after: ResafaData) -> list[tuple[int, int]]:
    """``(card revealed, card read)`` of each of Resafabot's turns between two positions of a solo game.

    Each turn reveals the solo deck's top card and reads the card below it; after the 6th card of a cycle the
    deck is rebuilt (``solo.rebuild_deck``), so the turns before that come from ``before``'s deck, the turns
    after it from ``after``'s revealed cards.
    """
    if after.players != 1:
        return []
    old, new = before.bot_shown if before is not None else [], after.bot_shown
    pairs: list[tuple[int, int]] = []
    if len(new) >= len(old) and new[: len(old)] == old:  # no rebuild in between
        tail = [*new, after.bot_deck[-1]]
        pairs = [(tail[j], tail[j + 1]) for j in range(len(old), len(new))]
    else:  # the cycle ended (so ``before`` is a position): finish it from the old deck, then the new cycle's
        deck = list(before.bot_deck) if before is not None else []
        for _ in range(CYCLE - len(old) if deck else 0):
            pairs.append((deck.pop(), deck[-1]))
        tail = [*new, after.bot_deck[-1]]
        pairs += [(tail[j], tail[j + 1]) for j in range(len(new))]
    return pairs
