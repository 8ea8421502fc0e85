"""The task-stack turn machine shared by the games, and a State base class built on it.

A record holds ``stack``, a list of tasks ``(step, seat, a, b)``, and ``legal``, the cached legal actions
of the task on top. A step is either a **decision** (``legal(rec, seat, a, b) -> list[int]`` and
``apply(rec, action, seat, a, b)``; the task is popped before ``apply``, which pushes follow-ups) or
**automatic** (``run(rec, seat, a, b)``). :meth:`TaskMachine.advance` runs automatic steps and skips
decisions without a legal action until a decision waits. A turn is pushed in reverse order, so one
decision = one small choice and the pending one is always on top.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from .chance import Chance
from .engine import TERMINAL, State
from .errors import CorruptStateError, IllegalActionError
from .records import RecordCodec

Legal = Callable[[Any, int, int, int], list[int]]
Apply = Callable[[Any, int, int, int, int], None]
Run = Callable[[Any, int, int, int], None]
#: whether a saved task's ``(seat, a, b)`` fit its step in the record: ``check(rec, seat, a, b)``
ArgsCheck = Callable[[Any, int, int, int], bool]


def args_problem(rec: Any, checks: Mapping[int, ArgsCheck | None], name: Callable[[int], str]) -> str | None:
    """The first task of ``rec.stack`` whose ``a`` and ``b`` are not what its step's handlers push, or None.

    Each game declares ``checks``, one per step that takes arguments: in range for the lists its handlers index,
    naming what is really there; ``None`` for a step whose arguments are checked elsewhere. A step not listed
    takes none (``a == b == 0``). ``name`` names a step in the message. Run by a game's ``validate`` (on load),
    never per step."""
    for step, seat, a, b in rec.stack:
        check = checks.get(step, _no_args)
        if check is not None and not check(rec, seat, a, b):
            return f"task {name(step)} has arguments a={a}, b={b} that do not fit its step or the position"
    return None


def _no_args(rec: Any, seat: int, a: int, b: int) -> bool:
    return a == b == 0


class TaskMachine:
    """Dispatch tables of one game's steps."""

    def __init__(
        self,
        decisions: Mapping[int, tuple[Legal, Apply]],
        automatic: Mapping[int, Run],
        names: Mapping[int, str],
        seat_in_game: Callable[[Any, int], bool] | None = None,
        run_without_seat: frozenset[int] = frozenset(),
        always_open: frozenset[int] = frozenset(),
    ) -> None:
        """``seat_in_game(rec, seat)`` (games with elimination): tasks of a seat that is out are dropped,
        except the automatic steps in ``run_without_seat`` (e.g. the end of that seat's turn).
        ``always_open``: decisions that always have a legal action, where :meth:`look` stops unlisted."""
        self._in_game = seat_in_game
        self._always_open = frozenset(int(s) for s in always_open)
        self._run_anyway = frozenset(int(s) for s in run_without_seat)
        self._legal = {int(k): v[0] for k, v in decisions.items()}
        self._apply = {int(k): v[1] for k, v in decisions.items()}
        self._run = {int(k): v for k, v in automatic.items()}
        self.names = {int(k): v for k, v in names.items()}
        overlap = set(self._legal) & set(self._run)
        if overlap:
            raise ValueError(f"steps both decision and automatic: {sorted(overlap)}")
        missing = set(self._legal) - set(self.names)
        if missing:
            raise ValueError(f"decisions without a name: {sorted(missing)}")

    def is_decision(self, step: int) -> bool:
        return step in self._legal

    def stack_problem(self, stack: list[tuple[int, ...]], num_players: int) -> str | None:
        """What makes a saved stack unplayable, or None: a step this machine does not know, a seat that is not
        one of ``num_players``, or an automatic step on top (a saved position waits at a decision). The record
        codec already checked each task is 4 integers; the game's ``validate`` checks what ``a`` and ``b`` mean."""
        for i, task in enumerate(stack):
            step, seat = task[0], task[1]
            if step not in self._legal and step not in self._run:
                return f"task {i} of the stack {task!r} has the unknown step {step}"
            if not 0 <= seat < num_players:
                return f"task {i} of the stack {task!r} names seat {seat} of {num_players}"
        if stack and stack[-1][0] not in self._legal:
            return f"the task on top of the stack {stack[-1]!r} is not a decision"
        return None

    def advance(self, rec: Any, stop_at_open: bool = False) -> None:
        """Resolve automatic steps and skip impossible decisions until a decision with legal actions waits
        (``stop_at_open``: or a decision in ``always_open``, its legal actions not listed: :meth:`look`)."""
        stack = rec.stack
        run_table, legal_table, in_game = self._run, self._legal, self._in_game
        open_steps = self._always_open if stop_at_open else ()
        while stack:
            step, seat, a, b = stack[-1]
            present = in_game is None or in_game(rec, seat)
            run = run_table.get(step)
            if run is not None:
                stack.pop()
                if present or step in self._run_anyway:
                    run(rec, seat, a, b)
                continue
            if present:
                if step in open_steps:
                    rec.legal = ()
                    return
                legal = legal_table[step](rec, seat, a, b)
                if legal:
                    rec.legal = tuple(legal)
                    return
            stack.pop()
        rec.legal = ()

    def relegal(self, rec: Any) -> None:
        """Recompute the cached legal actions of the decision on top (after hidden parts were resampled)."""
        if rec.stack:
            step, seat, a, b = rec.stack[-1]
            rec.legal = tuple(self._legal[step](rec, seat, a, b))

    def apply(self, rec: Any, action: int) -> None:
        """Apply a legal action of the pending decision (else IllegalActionError), then advance."""
        if action not in rec.legal:
            if not rec.stack:
                raise IllegalActionError(action, TERMINAL, "game over", "the game has ended")
            step, seat, _, _ = rec.stack[-1]
            raise IllegalActionError(action, seat, self.names[step], f"legal actions are {sorted(rec.legal)}")
        step, seat, a, b = rec.stack.pop()
        self._apply[step](rec, action, seat, a, b)
        self.advance(rec)

    def look(self, rec: Any, action: int) -> None:
        """:meth:`apply` of a legal ``action`` for a lookahead that reads the position reached but not its legal
        actions: the same steps run, but a decision in ``always_open`` is stopped at without listing its legal
        actions (``rec.legal`` is then left empty: the position is only to be read, not played on)."""
        step, seat, a, b = rec.stack.pop()
        self._apply[step](rec, action, seat, a, b)
        self.advance(rec, stop_at_open=True)

    def pending(self, rec: Any) -> str:
        return self.names[rec.stack[-1][0]] if rec.stack else "game over"


class StackState(State):
    """A State whose position is one plain-data record ``d`` driven by a :class:`TaskMachine`.

    Subclasses set ``machine``, ``codec`` and ``num_actions`` and write the game-specific views
    (scores, observe, render, validate) and :meth:`resample_hidden`, the part of :meth:`determinize` that
    knows what each seat may see. The record's ``chance`` field is the game's random source.
    """

    __slots__ = ("d", "game")
    machine: ClassVar[TaskMachine]
    codec: ClassVar[RecordCodec]
    num_actions: ClassVar[int]

    def __init__(self, game: Any, data: Any) -> None:
        self.game = game
        self.d = data

    def task_seats(self) -> int:
        """How many seats a task may name: the players (a solo automa with a seat of its own makes one more)."""
        return self.game.num_players

    def current_player(self) -> int:
        return self.d.stack[-1][1] if self.d.stack else TERMINAL

    def pending(self) -> str:
        return self.machine.pending(self.d)

    def pending_step(self) -> int | None:
        """The raw step id of the pending decision (None once the game is over)."""
        return self.d.stack[-1][0] if self.d.stack else None

    def legal_mask(self) -> np.ndarray:
        return mask_of(self.num_actions, self.d.legal).copy()

    def legal_actions(self) -> list[int]:
        return sorted(self.d.legal)

    def legal_order(self) -> tuple[int, ...]:
        return self.d.legal

    def is_legal(self, action: int) -> bool:
        return action in self.d.legal

    def apply(self, action: int) -> None:
        self.machine.apply(self.d, action)

    def refresh(self) -> None:
        """Recompute the pending decision after the position was edited by hand (scenario set-ups)."""
        self.machine.advance(self.d)

    def is_terminal(self) -> bool:
        return not self.d.stack

    def clone(self) -> StackState:
        return type(self)(self.game, self.codec.clone(self.d))

    def to_dict(self) -> dict[str, Any]:
        return self.codec.to_dict(self.d)

    def determinize(self, player: int, rng: np.random.Generator) -> StackState:
        """A copy consistent with all ``player`` saw: hidden parts resampled by :meth:`resample_hidden`, and
        fresh chance, so no later random event of the copy repeats the real game's. The pending decision's
        legal actions are then re-read (its seat and kind never depend on hidden parts), unless
        :meth:`keeps_legal`."""
        s = self.clone()
        s.determinize_in_place(player, rng)
        return s

    def determinize_in_place(self, player: int, rng: np.random.Generator) -> None:
        """Make this position what :meth:`determinize` makes of a copy of it (the same draws from ``rng``), for
        an agent that owns it (a disposable view's public copy: :meth:`~meeplezoo.agents.view.SeatView.determinize`
        with ``copy=False``)."""
        keep = self.keeps_legal(player)
        self.d.chance = Chance.fresh(rng)
        self.resample_hidden(player, rng)
        if not keep:
            self.machine.relegal(self.d)

    def public_copy(self, player: int) -> StackState:
        """The position as ``player`` knows it: what they cannot see in canonical order
        (``resample_hidden(player, None)``), chance zeroed. It depends only on what ``player`` saw, so two
        positions they cannot tell apart give the same copy (and the same choices of a seeded agent)."""
        s = self.clone()
        keep = s.keeps_legal(player)
        s.resample_hidden(player, None)
        s.d.chance = Chance(0, 0)
        if not keep:
            self.machine.relegal(s.d)
        return s

    def keeps_legal(self, player: int) -> bool:
        """Whether the pending decision's legal actions read nothing hidden from ``player``, so that
        :meth:`determinize` and :meth:`public_copy` keep them instead of re-reading them after the hidden parts
        moved. The default says no (always re-read); a game that knows better overrides it, and tests it
        against the re-read."""
        return False

    def resample_hidden(self, player: int, rng: np.random.Generator | None) -> None:
        """Resample, in place, everything ``player`` cannot see (deck orders, other hands), consistently
        with what they saw; with ``rng`` None, put it in a canonical order instead (sorted: the same for
        every position ``player`` cannot tell apart). A game with hidden parts overrides this; the default
        hides nothing. :func:`~.chance.arrange` gives both orders of a list."""

    @classmethod
    def load(cls, game: Any, data: dict[str, Any]) -> StackState:
        """Rebuild from :meth:`to_dict` output: types checked, the task stack's shape checked, rules validated,
        pending decision recomputed (it must have a legal action, as every position reached by play has)."""
        state = cls(game, cls.codec.from_dict(data))
        problem = cls.machine.stack_problem(state.d.stack, state.task_seats())
        if problem is not None:
            raise CorruptStateError(f"{game.name}: saved state breaks the rules: {problem}")
        state.validate()
        saved = state.d.stack.copy()
        state.refresh()
        if state.d.stack != saved:  # advance() skipped the saved decision: not a position play can reach
            step = cls.machine.names.get(saved[-1][0], saved[-1][0])
            raise CorruptStateError(
                f"{game.name}: saved state breaks the rules: the pending {step!r} has no legal action"
            )
        return state


@lru_cache(maxsize=4096)
def mask_of(num_actions: int, legal: tuple[int, ...]) -> np.ndarray:
    """The ``int8`` mask of the legal actions ``legal``, cached and read-only: callers hand out copies."""
    mask = np.zeros(num_actions, np.int8)
    mask[list(legal)] = 1
    mask.flags.writeable = False
    return mask
