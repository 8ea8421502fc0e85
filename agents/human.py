"""A person at the terminal as an agent: ``meeplezoo play seastead --agents human mcts``.

At each of its decisions the agent prints the table as its seat sees it (the view's rendering: what the
seat cannot see is never shown, and the seat's own hidden cards are listed where the game's picture leaves
them out), then the legal actions by id and name, and reads an action id. Bad input (not a number, out of
range, not legal now) gets a one-line message and the question again; ``q`` (or the end of input) resigns,
raising :class:`Resigned`, which the CLI reports as a resignation.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, ClassVar, TextIO

from ..envs.core.errors import MeepleZooError
from .base import Seed
from .spec import Param
from .view import SeatView


class Resigned(MeepleZooError):
    """The human player resigned (typed ``q``, or input ended)."""

    def __init__(self, agent: str) -> None:
        super().__init__(f"{agent} resigned")
        self.agent = agent


def _board_royale_hand(view: SeatView, state: Any) -> str:
    from ..envs.board_royale.content import KIND_NAMES, NUM_KINDS

    hand = state.d.hand[view.seat * NUM_KINDS : (view.seat + 1) * NUM_KINDS]
    return "your hand: " + (", ".join(f"{KIND_NAMES[k]} {c}" for k, c in enumerate(hand) if c) or "empty")


#: game -> the seat's own cards the game's picture does not show (from a determinization: they are known)
OWN_CARDS: dict[str, Callable[[SeatView, Any], str]] = {"board_royale": _board_royale_hand}


class HumanAgent:
    """Asks a person for each decision of its seat (input and output streams default to the terminal)."""

    name = "human"
    PARAMS: ClassVar[tuple[Param, ...]] = (Param("board", bool, True, "show the table before each decision"),)

    def __init__(
        self, seed: Seed = None, board: bool = True, stdin: TextIO | None = None, stdout: TextIO | None = None
    ) -> None:
        import numpy as np

        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.board = board
        self.stdin = stdin
        self.stdout = stdout

    def _say(self, text: str) -> None:
        out = self.stdout or sys.stdout
        out.write(text + "\n")
        out.flush()

    def show(self, view: SeatView) -> None:
        """The table as the seat sees it, then the legal actions."""
        if self.board:
            self._say(view.render())
            own = OWN_CARDS.get(view.game_name)
            if own is not None and view.can_determinize:
                self._say(own(view, view.determinize(self.rng)))
        self._say(f"{view.agent} (you) must {view.pending}:")
        for a in view.legal_actions:
            self._say(f"  {a:>4}  {view.describe_action(a)}")

    def act(self, view: SeatView) -> int:
        self.show(view)
        legal = set(view.legal_actions)
        stream = self.stdin or sys.stdin
        while True:
            out = self.stdout or sys.stdout
            out.write("your action (id, or q to resign): ")
            out.flush()
            line = stream.readline()
            if not line:
                raise Resigned(view.agent)
            text = line.strip()
            if text.lower() in ("q", "quit", "resign"):
                raise Resigned(view.agent)
            error = _check(text, legal, view.num_actions)
            if error is None:
                return int(text)
            self._say(error)


def _check(text: str, legal: set[int], num_actions: int) -> str | None:
    """``None`` if ``text`` is a legal action id, else the one-line reason."""
    try:
        action = int(text)
    except ValueError:
        return f"not a number: {text!r}; type one of the ids listed, or q to resign"
    if not 0 <= action < num_actions:
        return f"out of range: {action}; action ids run 0..{num_actions - 1}, the legal ones are listed"
    if action not in legal:
        return f"not legal now: {action}; pick one of the ids listed"
    return None


__all__ = ["HumanAgent", "Resigned"]
