"""Replaying a stored game decision by decision: same game, config and seed, then the stored action list.

The engine is deterministic (same seed + same actions = same game), so a replay ends in the stored scores;
:func:`replay` checks it and raises :class:`ReplayMismatch` otherwise. A view is the full position or one
seat's: the position as that seat may see it (the agents' public copy: hidden parts in a canonical order),
that seat's own choices, and for the other seats only the kind of decision they took, never their choice.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .. import games
from .errors import ArenaError
from .play import seat_text
from .store import GameRow


class ReplayMismatch(ArenaError):
    """The replayed game does not end in the stored scores (the engine changed since the game was played)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a replay, with the position before it."""

    index: int
    seat: int
    agent: str  # the spec of the agent in that seat
    pending: str
    action: int
    name: str
    state: Any  # the engine state before the decision (do not change it)


def new_state(row: GameRow) -> Any:
    """The stored game's opening position: the env reset with the stored seed."""
    env = games.make_env(row.game, **row.config)
    env.reset(seed=row.seed)
    return env.unwrapped.state_obj


def steps(row: GameRow) -> Iterator[Step]:
    """The decisions of the stored game in order; the last state is checked against the stored scores."""
    state = new_state(row)
    for i, action in enumerate(row.actions):
        seat = state.current_player()
        yield Step(i, seat, row.seats[seat], state.pending(), action, state.describe_action(action), state)
        state.apply(action)
    check(row, state)


def replay(row: GameRow) -> Any:
    """Play the stored actions and return the final state (raises :class:`ReplayMismatch`)."""
    state = new_state(row)
    for action in row.actions:
        state.apply(action)
    check(row, state)
    return state


def check(row: GameRow, state: Any) -> None:
    scores = [float(x) for x in state.scores()]
    if scores != row.scores:
        raise ReplayMismatch(
            f"game {row.id}: the replay ends with scores {scores}, the database has {row.scores} "
            f"(stored by MeepleZoo {row.code_version})"
        )
    if not row.truncated and row.forfeit is None and not state.is_terminal():
        raise ReplayMismatch(f"game {row.id}: the stored actions do not finish the game")


def view(state: Any, seat: int | None) -> str:
    """The text of the position for ``seat`` (None: the full view)."""
    if seat is None:
        return state.render()
    note = f"(P{seat}'s view: what P{seat} cannot see is shown in a canonical order, not as it is)"
    return note + "\n" + seat_text(state, seat)


def visible(step: Step, seat: int | None) -> bool:
    """Whether ``seat``'s view shows the choice made at ``step``."""
    return seat is None or step.seat == seat


def to_json(row: GameRow, seat: int | None = None) -> dict[str, Any]:
    """The stored game as plain data, every decision named; with ``seat``, other seats' choices hidden."""
    decisions = []
    for step in steps(row):
        shown = visible(step, seat)
        decisions.append(
            {
                "index": step.index,
                "seat": step.seat,
                "agent": step.agent,
                "pending": step.pending,
                "action": step.action if shown else None,
                "name": step.name if shown else None,
            }
        )
    return {
        "id": row.id,
        "game": row.game,
        "config": row.config,
        "seed": row.seed,
        "seats": row.seats,
        "agent_seeds": row.agent_seeds,
        "view": "full" if seat is None else f"seat {seat}",
        "scores": row.scores,
        "ranks": row.ranks,
        "forfeit": row.forfeit,
        "truncated": row.truncated,
        "code_version": row.code_version,
        "decisions": decisions,
    }
