"""A person at the terminal as an agent: ``meeplezoo play seastead --agents human mcts``.

At each of its decisions the agent prints the table as its seat sees it (the view's rendering: what the seat
cannot see is never shown, and the seat's own hidden cards are listed where the game's picture leaves them out,
by the ``own_cards`` its manifest names), then the legal moves by id and name, and reads a move: an action id,
or the start of a legal move's name (any case; the whole name when it is also the start of another). Moves are
listed once each (``envs.core.moves.distinct_moves``): two identical cards are one move (the lower id; either id
is still taken), same-named moves that differ are numbered. An ambiguous start lists the moves it matches; ``?``
or ``help`` lists the legal moves again; an empty line asks again. Bad input (no move of that name, an id out of
range or not legal now) gets a one-line message and the question again; ``q`` (or the end of input) resigns,
raising :class:`Resigned`, which the CLI reports as a resignation.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, ClassVar, TextIO

from .. import games
from ..envs.core.errors import MeepleZooError
from ..envs.core.manifest import load
from ..envs.core.moves import distinct_moves
from .base import Seed
from .spec import Param, bind_keywords
from .view import SeatView


class Resigned(MeepleZooError):
    """The human player resigned (typed ``q``, or input ended)."""

    def __init__(self, agent: str) -> None:
        super().__init__(f"{agent} resigned")
        self.agent = agent


class HumanAgent:
    """Asks a person for each decision of its seat (input and output streams default to the terminal)."""

    name = "human"
    PARAMS: ClassVar[tuple[Param, ...]] = (Param("board", bool, True, "show the table before each decision"),)
    board: bool

    def __init__(
        self, seed: Seed = None, stdin: TextIO | None = None, stdout: TextIO | None = None, **params: Any
    ) -> None:
        import numpy as np

        self.seed = seed
        self.rng = np.random.default_rng(seed)
        for key, value in bind_keywords(self.name, self.PARAMS, params).items():
            setattr(self, key, value)
        self._own_cards: tuple[str, Callable[[SeatView, Any], str] | None] | None = None  # (game, its function)
        self.stdin = stdin
        self.stdout = stdout

    def _say(self, text: str) -> None:
        out = self.stdout or sys.stdout
        out.write(text + "\n")
        out.flush()

    def show(self, view: SeatView, names: dict[int, str] | None = None) -> None:
        """The table as the seat sees it, then the legal moves (``names``: the distinct moves, by id)."""
        names = self._moves(view) if names is None else names
        if self.board:
            self._say(view.render())
            own = self._own_cards_of(view.game_name)
            if own is not None and view.can_determinize:
                self._say(own(view, view.determinize(self.rng)))
        self._say(f"{view.agent} (you) must {view.pending}:")
        self._list(names, list(names))

    def _own_cards_of(self, game: str) -> Callable[[SeatView, Any], str] | None:
        """The game's ``own_cards(view, state)`` (its manifest names it), or None: the picture shows them all."""
        if self._own_cards is None or self._own_cards[0] != game:
            try:
                ref = games.manifest(game).own_cards
            except games.UnknownGameError:
                ref = None
            self._own_cards = (game, load(ref) if ref else None)
        return self._own_cards[1]

    def _moves(self, view: SeatView) -> dict[int, str]:
        """The distinct legal moves by id and name (every legal action, named, without an engine behind)."""
        names = {a: view.describe_action(a) for a in view.legal_actions}
        if not view.can_determinize:
            return names
        return dict(distinct_moves(view.public_state(), view.legal_actions, names))

    def _list(self, names: dict[int, str], actions: list[int]) -> None:
        for a in actions:
            self._say(f"  {a:>4}  {names[a]}")

    def act(self, view: SeatView) -> int:
        names = self._moves(view)
        self.show(view, names)
        stream = self.stdin or sys.stdin
        while True:
            out = self.stdout or sys.stdout
            out.write("your move (id or name, ? lists them, q resigns): ")
            out.flush()
            line = stream.readline()
            if not line:
                raise Resigned(view.agent)
            text = line.strip()
            if not text:
                continue
            if text.lower() in ("q", "quit", "resign"):
                raise Resigned(view.agent)
            if text.lower() in ("?", "help"):
                self._say(f"{view.agent} (you) must {view.pending}:")
                self._list(names, list(names))
                continue
            action, error, matches = _read(text, names, view.num_actions, view.legal_actions)
            if action is not None:
                return action
            self._say(error)
            self._list(names, matches)


def _read(
    text: str, names: dict[int, str], num_actions: int, legal: tuple[int, ...] | None = None
) -> tuple[int | None, str, list[int]]:
    """``(action, "", [])`` for an action id or a legal move's name (a unique start of it, any case), else
    ``(None, the one-line reason, the moves an ambiguous start matches)``; ``names`` maps each listed move
    to its name; ``legal`` (default: the listed moves) are the ids taken."""
    try:
        action = int(text)
    except ValueError:
        pass
    else:
        if not 0 <= action < num_actions:
            return None, f"out of range: {action}; action ids run 0..{num_actions - 1}, the legal ones are listed", []
        if action not in (names if legal is None else legal):
            return None, f"not legal now: {action}; pick one of the ids listed", []
        return action, "", []
    typed = text.lower()
    exact = [a for a, name in names.items() if name.lower() == typed]
    matches = exact or [a for a, name in names.items() if name.lower().startswith(typed)]
    if len(matches) == 1:
        return matches[0], "", []
    if not matches:
        return (
            None,
            f"no legal move is called {text!r}; type an id or the start of a name (? lists them), q resigns",
            [],
        )
    return None, f"ambiguous: {text!r} starts {len(matches)} moves; type more of the name or the id:", matches


__all__ = ["HumanAgent", "Resigned"]
