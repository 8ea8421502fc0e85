"""Distinct moves: the legal actions as a player chooses among them, one entry per move that differs.

Two identical cards in a hand are two legal actions with one name ("play Prefect" twice). When they lead to
positions no player can tell apart, they are one move: :func:`distinct_moves` keeps the lowest id. Apart
means: a different seat to act, pending decision or final score, and either some seat's observation differs
or the position reads differently to a player (the whole table as text, the names of the next legal moves).
Copies of a card with their own ids (Concordia's two Prefects) differ only in observation bits no player can
tell apart, so the text decides for them. When the names
match but the outcomes differ, each gets the name with "(way i of n)" added, so no two entries read alike.
The web Play page's buttons (``meeplezoo.web.session``) and the terminal player (``agents.human``) list these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class _Outcome:
    """What the players can see after ``action``, two ways: exactly (every seat's observation) and as the players
    read it (the whole table as text, which names identical cards alike, and the names of the next legal
    moves); both with the seat to act and the pending decision, or the scores at the end. The reading is
    computed only when the exact view differs from every other outcome's (it renders the table)."""

    def __init__(self, state: Any, action: int) -> None:
        self.after = state.clone()
        self.after.apply(int(action))
        after = self.after
        self.head: tuple[Any, ...] = (
            (True, tuple(after.scores())) if after.is_terminal() else (False, after.current_player(), after.pending())
        )
        self.exact = (*self.head, tuple(after.observe(p).tobytes() for p in range(after.game.num_players)))
        self._read: tuple[Any, ...] | None = None

    def read(self) -> tuple[Any, ...]:
        """The outcome as the players read it (rendered on first use)."""
        if self._read is None:
            after = self.after
            names = (
                () if after.is_terminal() else tuple(sorted(after.describe_action(a) for a in after.legal_actions()))
            )
            self._read = (*self.head, after.render(), names)
        return self._read


def distinct_moves(
    state: Any, actions: Sequence[int] | None = None, names: Mapping[int, str] | None = None
) -> list[tuple[int, str]]:
    """``(action, name)`` per distinct legal move of ``state``, ascending by action id.

    ``actions`` defaults to ``state.legal_actions()``, ``names`` to ``state.describe_action``. Actions with the
    same name are applied to clones of ``state``: those whose outcomes no player can tell apart give one
    entry (the lowest id); when outcomes differ, each distinct one is named "<name> (way i of n)".

    >>> from meeplezoo.games import make_env
    >>> env = make_env("concordia", num_players=2); env.reset(seed=0)
    >>> state = env.unwrapped.state_obj
    >>> [name for _, name in distinct_moves(state)].count("play Prefect [Saturnus, start]")
    1
    """
    actions = list(state.legal_actions()) if actions is None else [int(a) for a in actions]
    if names is None:
        names = {a: state.describe_action(a) for a in actions}
    groups: dict[str, list[int]] = {}
    for a in sorted(actions):
        groups.setdefault(names[a], []).append(a)
    out: list[tuple[int, str]] = []
    for name, same in groups.items():
        if len(same) == 1:
            out.append((same[0], name))
            continue
        ways: list[tuple[_Outcome, int]] = []  # (outcome, its lowest action)
        for a in same:
            seen = _Outcome(state, a)
            if not any(seen.exact == w.exact for w, _ in ways) and not any(seen.read() == w.read() for w, _ in ways):
                ways.append((seen, a))
        if len(ways) == 1:
            out.append((same[0], name))
        else:
            out += [(a, f"{name} (way {i + 1} of {len(ways)})") for i, (_, a) in enumerate(ways)]
    return sorted(out)
