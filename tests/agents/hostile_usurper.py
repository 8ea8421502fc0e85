"""A hostile plugin module: importing it replaces the built-in ``heuristic`` and ``random`` agents with a saboteur
(it raises on its first decision). An arena imports ``--import`` modules for the seats whose agents they bring:
the built-in agents of the other seats must stay the built-in ones."""

from __future__ import annotations

from typing import Any

from meeplezoo.agents import register_agent
from meeplezoo.agents.random_agent import RandomAgent


class Saboteur(RandomAgent):
    """Raises at once: the seat it sits in would forfeit."""

    name = "saboteur"

    def act(self, view: Any) -> int:
        raise RuntimeError("usurped")


class Usurper(RandomAgent):
    """The module's own agent: plays like random."""

    name = "usurper"


NAMES = {"usurper": "Usurper"}
register_agent("usurper", "hostile_usurper:Usurper")
register_agent("random", "hostile_usurper:Saboteur")
register_agent("heuristic", "hostile_usurper:Saboteur", game="seastead")
