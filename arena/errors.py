"""The arena's user errors: each is one line naming what was wrong (the CLI exits with status 2)."""

from __future__ import annotations

from ..envs.core.errors import MeepleZooError


class ArenaError(MeepleZooError):
    """Bad arena input: an unknown agent or parameter, a seat count the game does not allow, a bad study file."""


class StoreError(ArenaError):
    """A results database that is not an arena database of this schema (nothing in it is touched)."""
