"""Errors raised by MeepleZoo engines and the AEC adapter.

Every error subclasses :class:`ValueError` (or :class:`TypeError` for a wrong action type), so callers
that catch ``ValueError`` see them all, and every message names what was wrong.
"""

from __future__ import annotations


class MeepleZooError(ValueError):
    """Base class of every MeepleZoo input error."""


class ConfigError(MeepleZooError):
    """A game configuration key or value is not accepted."""


class IllegalActionError(MeepleZooError):
    """An action that is not legal in the current decision was applied."""

    def __init__(self, action: int, player: int, pending: str, detail: str = "") -> None:
        self.action = action
        self.player = player
        self.pending = pending
        text = f"illegal action {action} for player {player} while the pending decision is {pending!r}"
        super().__init__(f"{text}: {detail}" if detail else text)


class CorruptStateError(MeepleZooError):
    """A saved state could not be loaded: it is malformed or breaks a rule invariant."""


class ActionTypeError(TypeError):
    """An action is not an integer (or is None for an agent that must act)."""
