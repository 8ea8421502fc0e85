"""What an agent sees: a :class:`SeatView`, exactly what a player at the table has, and nothing more.

A view is made for one seat at one decision (:func:`seat_view`). It carries copies of the seat's
observation vector and action mask, the legal actions with their names, the pending decision, the seat and
the game's public config, and :meth:`SeatView.determinize`, which draws a complete engine state consistent
with what the seat knows (hidden parts resampled, fresh chance) that the agent may clone and play forward.

The view never holds the true state or its record. It holds a *public copy*: the true state determinized
(fresh chance, so the real game's future draws cannot be predicted) and then put in canonical form by the
game's :data:`CANONICAL_HIDDEN` function, which sorts every hidden part (deck orders, other players'
unknown cards). The public copy is thus a function of the seat's information only: two true states that
differ only in what the seat cannot see give equal public copies, and the same agent seed gives the same
choice (``tests/agents/test_view.py`` checks both, and walks every attribute of a view for every game).

>>> from meeplezoo.games import make_env
>>> env = make_env("seastead"); env.reset(seed=1)
>>> view = seat_view(env, "player_0")
>>> view.seat, view.pending, len(view.legal_actions) == int(view.action_mask.sum())
(0, 'choose your action (dive or build)', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from ..envs.core.errors import MeepleZooError

#: game name -> ``fn(record, seat)`` that puts, in place, everything ``seat`` cannot see in a canonical
#: order (sorted), so that the public copy depends on the seat's information only
CANONICAL_HIDDEN: dict[str, Callable[[Any, int], None]] = {}


class NoDeterminizeError(MeepleZooError):
    """The view's env has no engine state to determinize (a plain PettingZoo env)."""


class SeatView:
    """One seat's view of the table at one decision (see the module docstring).

    Attributes:
        seat: the seat to act (``0..num_players-1``); ``agent`` is its AEC name.
        observation: ``float32`` observation vector of the seat (a copy; a view with a public copy encodes
            it from that copy when first read, which gives the same vector: agents that never read it, the
            heuristics, do not pay for it).
        action_mask: ``int8`` mask of the legal actions (a copy).
        legal_actions: the legal action ids, ascending (a tuple).
        pending: the name of the pending decision.
        game_name: the game's short name; ``config`` its public configuration (read-only);
        num_players, num_actions: sizes of the game.
    """

    __slots__ = (
        "_observation",
        "_public",
        "action_mask",
        "agent",
        "config",
        "game_name",
        "legal_actions",
        "num_actions",
        "num_players",
        "pending",
        "seat",
    )

    def __init__(
        self,
        *,
        seat: int,
        agent: str,
        observation: np.ndarray | None,
        action_mask: np.ndarray,
        pending: str,
        game_name: str,
        config: Mapping[str, Any],
        num_players: int,
        public: Any = None,
    ) -> None:
        self.seat = seat
        self.agent = agent
        if observation is None and public is None:
            raise ValueError("a view needs its observation or a public copy to encode it from")
        self._observation = observation
        self.action_mask = action_mask
        self.legal_actions = tuple(int(a) for a in np.flatnonzero(action_mask))
        self.pending = pending
        self.game_name = game_name
        self.config = MappingProxyType(dict(config))
        self.num_players = num_players
        self.num_actions = int(action_mask.size)
        self._public = public

    @property
    def observation(self) -> np.ndarray:
        if self._observation is None:  # the seat's information is all in the public copy: the same vector
            self._observation = self._public.observe(self.seat)
        return self._observation

    @property
    def can_determinize(self) -> bool:
        """Whether :meth:`determinize` works (a MeepleZoo engine is behind the view)."""
        return self._public is not None

    def determinize(self, rng: np.random.Generator) -> Any:
        """A fresh, complete engine state consistent with what this seat knows: what it cannot see is
        resampled from ``rng`` and chance is fresh. It is the agent's own to clone and play forward."""
        if self._public is None:
            raise NoDeterminizeError(
                f"{self.game_name}: this view has no determinize (a plain PettingZoo env, or an agent whose "
                "uses_determinize is False)"
            )
        return self._public.determinize(self.seat, rng)

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

    def __repr__(self) -> str:
        return f"SeatView({self.game_name}, seat {self.seat}, {self.pending!r}, {len(self.legal_actions)} legal)"


def public_copy(state: Any, seat: int) -> Any:
    """The state as ``seat`` knows it: determinized (fresh chance), hidden parts in canonical order.

    Shares no mutable part with ``state``. A game without a :data:`CANONICAL_HIDDEN` entry gets a
    determinization from fresh OS entropy instead (still no leak, but two equal informations may then
    give different copies).
    """
    canonical = CANONICAL_HIDDEN.get(state.game.name)
    if canonical is None:
        return state.determinize(seat, np.random.default_rng())
    # The canonical form depends on the seat's information only, so resampling the hidden parts first (a
    # determinization) would not change it: a clone put in canonical order is the same copy, for less work
    # (``tests/training/test_fast_paths.py`` compares the two over positions of every game).
    copy = state.clone()
    canonical(copy.d, seat)
    copy.d.chance = type(copy.d.chance)(0, 0)
    state.machine.relegal(copy.d)
    return copy


def view_of_state(state: Any, seat: int, agent: str | None = None, *, determinize: bool = True) -> SeatView:
    """The view of ``seat`` of an engine state whose pending decision is that seat's.

    ``determinize=False`` skips the public copy (the view then has no :meth:`SeatView.determinize`): what
    :func:`~meeplezoo.agents.match.play_game` does for agents that declare ``uses_determinize = False``
    (random, policy), which makes their decisions several times cheaper."""
    if state.current_player() != seat:
        raise ValueError(f"seat {seat} is not to act (current player: {state.current_player()})")
    game = state.game
    return SeatView(
        seat=seat,
        agent=agent or f"player_{seat}",
        observation=None if determinize else state.observe(seat),
        action_mask=state.legal_mask(),
        pending=state.pending(),
        game_name=game.name,
        config=game.config,
        num_players=game.num_players,
        public=public_copy(state, seat) if determinize else None,
    )


def seat_view(env: Any, agent: str, *, determinize: bool = True) -> SeatView:
    """The view of AEC agent ``agent`` (selected, alive) of ``env``.

    On a MeepleZoo env the view has :meth:`SeatView.determinize` (unless ``determinize=False``); on any
    other masked AEC env it has the observation, the mask and the legal actions only.
    """
    state = getattr(env.unwrapped, "state_obj", None)
    if state is not None and hasattr(state, "determinize"):
        return view_of_state(state, env.possible_agents.index(agent), agent, determinize=determinize)
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


# --- canonical forms of the hidden parts, per game ------------------------------------------------------


def _sort_within_bands(deck: list[int], band_of: Callable[[int], int]) -> None:
    """Sort ``deck`` in place within each band, keeping which positions hold which band (backs are public)."""
    by_band: dict[int, list[int]] = {}
    for i, c in enumerate(deck):
        by_band.setdefault(band_of(c), []).append(i)
    for pos in by_band.values():
        for i, c in zip(pos, sorted(deck[i] for i in pos), strict=True):
            deck[i] = c


def _seastead(d: Any, seat: int) -> None:
    """Dive deck sorted within its public bands (as a whole once rebuilt from the discards); dock and
    specialist decks sorted; the decree deck sorted above the decrees seen going to the bottom."""
    from ..envs.seastead.content import DIVE_CARDS

    if d.dive_reshuffled:
        d.dive_deck.sort()
    else:
        _sort_within_bands(d.dive_deck, lambda c: DIVE_CARDS[c].deck)
    d.dock_deck.sort()
    d.spec_deck.sort()
    k = d.decree_known
    d.decree_deck[k:] = sorted(d.decree_deck[k:])


def _concordia(d: Any, seat: int) -> None:
    from ..envs.concordia.content import CARDS

    _sort_within_bands(d.deck, lambda c: CARDS[c].deck)


def _board_royale(d: Any, seat: int) -> None:
    """Other hands: the cards ``seat`` knows of stay; the unknown ones and the Resource Deck are pooled,
    sorted and dealt back in seat order (sizes kept). Others' knowledge is cleared (their bounds on hidden
    items too); the Item Deck sorted."""
    from ..envs.board_royale.content import NUM_KINDS as K
    from ..envs.board_royale.resources import hand_size

    n = d.n
    others = [s for s in range(n) if s != seat]
    pool = list(d.res_deck)
    for s in others:
        kb = (seat * n + s) * K
        for k in range(K):
            pool += [k] * (d.hand[s * K + k] - d.known[kb + k])
    pool.sort()
    pos = 0
    for s in others:
        kb = (seat * n + s) * K
        size = sum(d.hand[s * K : s * K + K])
        hand = list(d.known[kb : kb + K])
        need = size - sum(hand)
        for k in pool[pos : pos + need]:
            hand[k] += 1
        pos += need
        d.hand[s * K : s * K + K] = hand
    d.res_deck = pool[pos:]
    for w in others:  # what the others know: reset to what an empty history allows (as sample_hands does)
        d.known[w * n * K : (w + 1) * n * K] = [0] * (n * K)
        for s in range(n):
            d.hid_max[w * n + s] = hand_size(d, s) if s != w else 0
    d.item_deck.sort()


def _resafa(d: Any, seat: int) -> None:
    """The hidden parts ``ResafaState.resample_hidden`` redraws, each pooled and sorted: the seat's own deck
    order; the other seats' hands and decks (sizes kept); the sack deck, discard pile and other seats' sack cards; the
    workshop and bonus decks; each face-down special deck (with its box cards unless the seat has seen it or
    the advanced setup made the box public)."""
    from ..envs.resafa.steps import Step

    d.deck[seat].sort()
    for s in range(d.players):
        if s != seat:
            pool = sorted(d.hand[s] + d.deck[s])
            k = len(d.hand[s])
            d.hand[s], d.deck[s] = pool[:k], pool[k:]
    others = [s for s in range(d.players) if s != seat]
    pool = sorted(d.sack_deck + d.sack_discard + [c for s in others for c in d.sack_hand[s]])
    for s in others:
        k = len(d.sack_hand[s])
        d.sack_hand[s], pool = pool[:k], pool[k:]
    k = len(d.sack_discard)
    d.sack_discard, d.sack_deck = pool[:k], pool[k:]
    for deck in (*d.ws_decks, *d.bonus_decks):
        deck.sort()
    top = d.stack[-1] if d.stack else None
    searching = top[2] if top is not None and top[0] == Step.SEARCH_PICK and top[1] == seat else -1
    for k, cards in enumerate(d.spec_decks):
        up = cards[-1:] if d.spec_up[k] else []
        down = cards[:-1] if d.spec_up[k] else cards[:]
        if d.advanced or (d.spec_known[seat] >> k) & 1 or k == searching:
            down.sort()
        else:
            pool = sorted(down + d.spec_box[k])
            down, d.spec_box[k] = pool[: len(down)], pool[len(down) :]
        d.spec_decks[k] = down + up
    if d.players == 1:  # solo: the solo deck under its top card and Resafabot's canal deck
        from ..envs.resafa.solo import canonical_hidden

        canonical_hidden(d)


CANONICAL_HIDDEN.update(
    {"seastead": _seastead, "concordia": _concordia, "board_royale": _board_royale, "resafa": _resafa}
)


__all__ = ["CANONICAL_HIDDEN", "NoDeterminizeError", "SeatView", "public_copy", "seat_view", "view_of_state"]
