"""What an agent is: something that picks the action of one seat, looking only at that seat's view.

An agent is called only when its seat is to act, with a :class:`~meeplezoo.agents.view.SeatView`::

    action = agent.act(view)

The view holds what a player at the table has: the observation vector and the action mask (enough for a
learned policy), the legal actions with their names, the pending decision, the seat, the game's public
config, and ``view.determinize(rng)``, a complete engine state consistent with what the seat knows (fresh
chance) that a search agent may clone and play forward (an agent with ``owns_its_views = True`` gets views it
may take apart: ``copy=False``). Nothing in the view reaches the true state. Each
agent owns a seeded ``numpy.random.Generator`` made from the ``seed`` given at construction, so a game
played with the same env seed and agent seeds is the same game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

import numpy as np

from .spec import Param

if TYPE_CHECKING:
    from .view import SeatView

#: what ``seed=`` accepts: anything ``numpy.random.default_rng`` takes
Seed = int | np.random.SeedSequence | None


@runtime_checkable
class Agent(Protocol):
    """The protocol every MeepleZoo agent follows (classes need not inherit anything)."""

    def act(self, view: SeatView) -> int:
        """The action of the seat of ``view``: one of ``view.legal_actions``."""
        ...


class BaseAgent:
    """Convenience base: a seeded generator, a ``name``, and ``PARAMS`` (what its spec string takes).

    Subclasses set ``name`` and implement :meth:`act`.
    """

    name = "agent"
    PARAMS: ClassVar[tuple[Param, ...]] = ()
    #: False for an agent that never calls ``view.determinize``: its views skip the public copy (faster)
    uses_determinize = True
    #: True for an agent that uses its view only inside its own ``act`` and hands it to no other agent: callers
    #: then make its views disposable, so that ``copy=False`` saves a clone (``SeatView.public_state``)
    owns_its_views = False

    def __init__(self, seed: Seed = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, view: SeatView) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def prepare(self, game: str, num_players: int) -> None:
        """Load what the agent needs for a table of ``game`` with ``num_players`` seats (optional; an agent process
        calls it before the first decision, under its start budget, so a decision's budget is its thinking)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def prepare_agent(agent: object, game: str, num_players: int) -> None:
    """Call ``agent``'s optional ``prepare(game, num_players)`` (an agent need not inherit :class:`BaseAgent`):
    what it loads for the table (a network, on one torch thread) is then not part of its first decision."""
    prepare = getattr(agent, "prepare", None)
    if callable(prepare):
        prepare(game, num_players)
