"""What an agent sees: a :class:`SeatView`, exactly what a player at the table has, and nothing more.

A view is made for one seat at one decision (:func:`seat_view`). It carries copies of the seat's
observation vector and action mask, the legal actions with their names, the pending decision, the seat and
the game's public config, :meth:`SeatView.public_state` (a copy of what the seat knows), and
:meth:`SeatView.determinize`, which draws a complete engine state consistent
with what the seat knows (hidden parts resampled, fresh chance) that the agent may clone and play forward.

The view never holds the true state or its record. It holds a *public copy* (the engine's
``State.public_copy``): a clone with fresh chance, so the real game's future draws cannot be predicted, and
every hidden part (deck orders, other players' unknown cards) in the canonical order the game's
``resample_hidden(seat, None)`` gives. The public copy is thus a function of the seat's information only:
two true states that differ only in what the seat cannot see give equal public copies, and the same agent
seed gives the same choice (``tests/agents/test_view.py`` checks both, and walks every attribute of a view
for every game).

>>> from meeplezoo.games import make_env
>>> env = make_env("seastead"); env.reset(seed=1)
>>> view = seat_view(env, "player_0")
>>> view.seat, view.pending, len(view.legal_actions) == int(view.action_mask.sum())
(0, 'choose your action (dive or build)', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from ..envs.core.errors import MeepleZooError
from ..envs.core.tasks import mask_of


class NoDeterminizeError(MeepleZooError):
    """The view's env has no engine state to determinize (a plain PettingZoo env)."""


class SeatView:
    """One seat's view of the table at one decision (see the module docstring).

    Attributes:
        seat: the seat to act (``0..num_players-1``); ``agent`` is its AEC name.
        observation: ``float32`` observation vector of the seat (a copy; a view with a public copy encodes
            it from that copy when first read, which gives the same vector: agents that never read it, the
            heuristics, do not pay for it).
        action_mask: ``int8`` mask of the legal actions (a copy; a view made with its legal actions and no mask
            makes it from them when first read).
        legal_actions: the legal action ids, ascending (a tuple; read from the mask unless given).
        pending: the name of the pending decision.
        game_name: the game's short name; ``config`` its public configuration (read-only);
        num_players, num_actions: sizes of the game.
        observation_clock: indices of the observation that only count decisions (the game's
            ``observation_clock``; empty on a plain PettingZoo env).
    """

    __slots__ = (
        "_action_mask",
        "_disposable",
        "_handed_over",
        "_observation",
        "_public",
        "agent",
        "config",
        "game_name",
        "legal_actions",
        "num_actions",
        "num_players",
        "observation_clock",
        "pending",
        "seat",
    )

    def __init__(
        self,
        *,
        seat: int,
        agent: str,
        observation: np.ndarray | None,
        action_mask: np.ndarray | None,
        pending: str,
        game_name: str,
        config: Mapping[str, Any],
        num_players: int,
        public: Any = None,
        observation_clock: tuple[int, ...] = (),
        legal_actions: tuple[int, ...] | None = None,
        disposable: bool = False,
        num_actions: int | None = None,
    ) -> None:
        self.seat = seat
        self.agent = agent
        if observation is None and public is None:
            raise ValueError("a view needs its observation or a public copy to encode it from")
        self._observation = observation
        if action_mask is not None:
            num_actions = action_mask.size
            if legal_actions is None:
                legal_actions = tuple(np.flatnonzero(action_mask).tolist())
        elif legal_actions is None or num_actions is None:
            raise ValueError("a view needs its action mask, or its legal actions and the number of actions")
        self._action_mask = action_mask
        self.legal_actions = legal_actions
        self.pending = pending
        self.game_name = game_name
        self.config = MappingProxyType(dict(config))
        self.num_players = num_players
        self.num_actions = int(num_actions)
        self._public = public
        self._disposable = disposable
        self._handed_over = False
        self.observation_clock = tuple(observation_clock)

    @property
    def observation(self) -> np.ndarray:
        if self._observation is None:  # the seat's information is all in the public copy: the same vector
            self._observation = self._require_public("public copy to encode its observation from").observe(self.seat)
        return self._observation

    @property
    def action_mask(self) -> np.ndarray:
        if self._action_mask is None:  # made from the legal actions when first read (the heuristics never do)
            self._action_mask = mask_of(self.num_actions, self.legal_actions).copy()
        return self._action_mask

    @property
    def can_determinize(self) -> bool:
        """Whether :meth:`determinize` works (a MeepleZoo engine is behind the view)."""
        return self._public is not None

    def determinize(self, rng: np.random.Generator, copy: bool = True) -> Any:
        """A fresh, complete engine state consistent with what this seat knows: what it cannot see is
        resampled from ``rng`` and chance is fresh. It is the agent's own to clone and play forward.

        ``copy=False``: as in :meth:`public_state`, a disposable view determinizes its own public copy in
        place (the same draws from ``rng``) and hands it over; other views make a new state."""
        public = self._require_public("determinize")
        if copy or not self._disposable:
            return public.determinize(self.seat, rng)
        self._public, self._handed_over = None, True
        public.determinize_in_place(self.seat, rng)
        return public

    def public_state(self, copy: bool = True) -> Any:
        """A copy of what this seat knows as an engine state: the view's public copy (hidden parts in the
        canonical order, not a sample; fresh chance). For agents that only read what their seat may know and
        never play forward through hidden parts; it skips :meth:`determinize`'s resampling.

        ``copy=False`` says the agent is done with the view after this call: a *disposable* view (one made for
        a single ``act`` call, as the match loop and the training envs make them) then hands over its own public
        copy instead of a clone (one clone less per decision) and has none left: its :meth:`determinize`,
        :meth:`public_state` and an observation not read before raise :class:`NoDeterminizeError`
        (:meth:`render` and :meth:`describe_action` fall back to plain text). Other views return a clone."""
        public = self._require_public("public state")
        if copy or not self._disposable:
            return public.clone()
        self._public, self._handed_over = None, True
        return public

    def _require_public(self, what: str) -> Any:
        if self._public is None:
            why = (
                "its public copy was handed over: public_state or determinize with copy=False"
                if self._handed_over
                else "a plain PettingZoo env, or an agent whose uses_determinize is False"
            )
            raise NoDeterminizeError(f"{self.game_name}: this view has no {what} ({why})")
        return self._public

    def describe_action(self, action: int) -> str:
        """The name of ``action`` in the pending decision."""
        if self._public is None:
            return str(action)
        return self._public.describe_action(int(action))

    def render(self) -> str:
        """The game's text picture as this seat may see it (hidden parts are in canonical order, not true)."""
        if self._public is None:
            return f"{self.game_name}: {self.agent} to {self.pending}"
        return self._public.render()

    def parts(self) -> dict[str, Any]:
        """What this view holds, as plain parts for another process (:mod:`.isolation`): the seat's information
        and nothing else (``public`` is the view's public copy, or None; ``observation`` only if already made)."""
        return {
            "seat": self.seat,
            "agent": self.agent,
            "observation": self._observation,
            "pending": self.pending,
            "game_name": self.game_name,
            "config": dict(self.config),
            "num_players": self.num_players,
            "public": self._public,
            "observation_clock": self.observation_clock,
            "legal_actions": self.legal_actions,
            "num_actions": self.num_actions,
        }

    @classmethod
    def from_parts(cls, parts: dict[str, Any], *, disposable: bool = False) -> SeatView:
        """The view :meth:`parts` describes (in an agent's own process)."""
        return cls(action_mask=None, disposable=disposable, **parts)

    def __repr__(self) -> str:
        return f"SeatView({self.game_name}, seat {self.seat}, {self.pending!r}, {len(self.legal_actions)} legal)"


def public_copy(state: Any, seat: int) -> Any:
    """The state as ``seat`` knows it (``state.public_copy(seat)``): hidden parts in canonical order, fresh
    chance; it shares no mutable part with ``state``."""
    return state.public_copy(seat)


def view_of_state(
    state: Any, seat: int, agent: str | None = None, *, determinize: bool = True, disposable: bool = False
) -> SeatView:
    """The view of ``seat`` of an engine state whose pending decision is that seat's.

    ``determinize=False`` skips the public copy (the view then has no :meth:`SeatView.determinize`): what
    :func:`~meeplezoo.agents.match.play_game` does for agents that declare ``uses_determinize = False``
    (random, policy), which makes their decisions several times cheaper. ``disposable=True`` makes a view for
    one ``act`` call only (see :meth:`SeatView.public_state`)."""
    if state.current_player() != seat:
        raise ValueError(f"seat {seat} is not to act (current player: {state.current_player()})")
    game = state.game
    return SeatView(
        seat=seat,
        agent=agent or f"player_{seat}",
        observation=None if determinize else state.observe(seat),
        action_mask=None,
        pending=state.pending(),
        game_name=game.name,
        config=game.config,
        num_players=game.num_players,
        public=public_copy(state, seat) if determinize else None,
        observation_clock=game.observation_clock,
        legal_actions=tuple(state.legal_actions()),
        disposable=disposable,
        num_actions=game.num_actions,
    )


def view_for(env: Any, name: str, agent: Any) -> SeatView:
    """The view of AEC agent ``name`` for ``agent`` as it declares it needs one: no public copy when its
    ``uses_determinize`` is False, disposable when its ``owns_its_views`` is True (:class:`~.base.BaseAgent`)."""
    return seat_view(
        env,
        name,
        determinize=getattr(agent, "uses_determinize", True),
        disposable=getattr(agent, "owns_its_views", False),
    )


def seat_view(env: Any, agent: str, *, determinize: bool = True, disposable: bool = False) -> SeatView:
    """The view of AEC agent ``agent`` (selected, alive) of ``env``.

    On a MeepleZoo env the view has :meth:`SeatView.determinize` (unless ``determinize=False``); on any
    other masked AEC env it has the observation, the mask and the legal actions only. ``disposable``: see
    :func:`view_of_state`.
    """
    state = getattr(env.unwrapped, "state_obj", None)
    if state is not None and hasattr(state, "determinize"):
        return view_of_state(
            state, env.possible_agents.index(agent), agent, determinize=determinize, disposable=disposable
        )
    obs = env.observe(agent)
    name = str(env.unwrapped.metadata.get("name", env))
    return SeatView(
        seat=env.possible_agents.index(agent),
        agent=agent,
        observation=np.array(obs["observation"], copy=True),
        action_mask=np.array(obs["action_mask"], copy=True),
        pending="act",
        game_name=name,
        config={},
        num_players=len(env.possible_agents),
    )


__all__ = ["NoDeterminizeError", "SeatView", "public_copy", "seat_view", "view_for", "view_of_state"]
