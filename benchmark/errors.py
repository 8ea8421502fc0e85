"""The benchmark's user errors: each is one line naming what was wrong (the CLI exits with status 2)."""

from __future__ import annotations

from ..arena.errors import ArenaError


class BenchmarkError(ArenaError):
    """Bad benchmark input: an agent that cannot play the suite, a suite or a score card of another version."""
