"""The stored games of a benchmark run, read back as the focal agent's results (:class:`Outcome`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..arena import replay
from ..arena.store import GameRow, Store
from .schedule import Planned


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished benchmark game as the score card needs it, from the focal agent's side."""

    task: str  # the suite task's name ("concordia-4p")
    background: str | None  # the background agent's spec in the other seats; None in a solo task
    focal_seat: int
    seed: int  # the env seed (the deal)
    ranks: tuple[int, ...]  # per seat, 0 = first, ties share a rank
    scores: tuple[float, ...]  # per seat
    forfeit_seat: int | None = None  # the seat whose agent forfeited (its game ended there), if any
    forfeit_reason: str | None = None
    truncated: bool = False  # stopped at the engine's decision cap (ranked by adjudication)
    decisions: int = 0
    focal_cpu: float = 0.0  # CPU seconds of the focal agent's process in the game
    focal_decisions: int = 0
    automa_score: float | None = None  # solo: the automa's final score where the game keeps one (Seastead's Boss)


def outcome_of(planned: Planned, row: GameRow) -> Outcome:
    """The focal side of stored game ``row``, played for ``planned``. A solo game of a game that keeps an automa's
    score (``automa_score()``, Seastead's Boss) is replayed from its stored actions to read it."""
    seat = planned.focal_seat
    forfeit = row.forfeit or {}
    automa = None
    if len(row.seats) == 1:
        state = replay.new_state(row)
        if hasattr(state, "automa_score"):
            automa = float(replay.replay(row).automa_score())
    timing = row.seat_time[seat] if seat < len(row.seat_time) else []
    return Outcome(
        task=planned.suite_task,
        background=planned.background,
        focal_seat=seat,
        seed=row.seed,
        ranks=tuple(int(r) for r in row.ranks),
        scores=tuple(float(s) for s in row.scores),
        forfeit_seat=forfeit.get("seat"),
        forfeit_reason=forfeit.get("reason"),
        truncated=bool(row.truncated),
        decisions=int(row.decisions),
        focal_cpu=float(timing[3]) if len(timing) > 3 else 0.0,
        focal_decisions=int(timing[2]) if len(timing) > 2 else 0,
        automa_score=automa,
    )


def read_outcomes(store: Store, planned: Sequence[Planned]) -> dict[str, list[Outcome]]:
    """The stored games of ``planned``, per suite task, in the plan's order (games not stored yet are left out)."""
    wanted = {p.task.key: p for p in planned}
    rows = {r.key: r for r in store.games(actions=True) if r.key in wanted}
    out: dict[str, list[Outcome]] = {}
    for p in planned:
        row = rows.get(p.task.key)
        if row is not None:
            out.setdefault(p.suite_task, []).append(outcome_of(p, row))
    return out
