"""Replaying a stored game decision by decision: same game, config and seed, then the stored action list.

The engine is deterministic (same seed + same actions = same game), so a replay ends in the stored scores;
:func:`replay` checks it and raises :class:`ReplayMismatch` otherwise. A view is the full position or one
seat's: the position as that seat may see it (the agents' public copy: hidden parts in a canonical order),
and every decision named as that seat may read it in a game log (``State.public_action_name``: its own
choices in full, the other seats' public choices in full, their secret parts redacted by the game).
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
    name: str  # as the viewing seat may read it (``steps(row, seat)``)
    full: bool  # whether ``name`` is the full name (nothing redacted for the viewing seat)
    state: Any  # the engine state before the decision, valid until the next step (do not change it)


def new_state(row: GameRow) -> Any:
    """The stored game's opening position: the env reset with the stored seed."""
    env = games.make_env(row.game, **row.config)
    env.reset(seed=row.seed)
    return env.unwrapped.state_obj


def steps(row: GameRow, seat: int | None = None) -> Iterator[Step]:
    """The decisions of the stored game in order, named for ``seat`` (None: the full names); the last state
    is checked against the stored scores."""
    state = new_state(row)
    for i, action in enumerate(row.actions):
        actor = state.current_player()
        full = state.describe_action(action)
        name = full if seat is None else state.public_action_name(action, seat)
        yield Step(i, actor, row.seats[actor], state.pending(), action, name, name == full, state)
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


def to_json(row: GameRow, seat: int | None = None) -> dict[str, Any]:
    """The stored game as plain data, every decision named; with ``seat``, named as that seat may read it,
    and the action index of a decision whose name the game redacts for that seat left out (None)."""
    decisions = [
        {
            "index": step.index,
            "seat": step.seat,
            "agent": step.agent,
            "pending": step.pending,
            "action": step.action if step.full else None,
            "name": step.name,
        }
        for step in steps(row, seat)
    ]
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
