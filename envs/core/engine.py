"""The engine protocol every MeepleZoo game implements.

A :class:`Game` is immutable: a validated configuration plus metadata (players, number of actions,
observation length). It creates mutable :class:`State` objects. A state knows whose decision is pending,
which actions are legal, how to apply one, and how to describe, observe, copy, save and determinize
itself. Nothing here imports PettingZoo: :mod:`meeplezoo.envs.core.adapter` turns any engine into an AEC
env.

Conventions shared by all games:

* players are seats ``0..num_players-1``; :data:`TERMINAL` (-1) is the current player of a finished game;
* one flat ``Discrete(num_actions)`` action space per configuration; a turn with several choices is a
  sequence of decisions, and :meth:`State.pending` names the one waiting;
* :meth:`State.ranks` gives 0 to the winner(s); tied players share a rank;
* randomness comes only from the state's :class:`~meeplezoo.envs.core.chance.Chance`.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from .errors import ConfigError, CorruptStateError
from .params import Param, params_from_defaults

TERMINAL = -1
SAVE_FORMAT = 1


class Game(ABC):
    """Immutable rules and metadata of one configuration of a game; a factory of states."""

    name: ClassVar[str]
    #: config keys and their defaults; subclasses override.
    defaults: ClassVar[Mapping[str, Any]] = {}
    #: a help line per config key (``meeplezoo rules``, ``--set`` errors, the OpenSpiel parameters)
    config_help: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def config_params(cls) -> tuple[Param, ...]:
        """The config schema: one :class:`~meeplezoo.envs.core.params.Param` per key, typed by its default."""
        return params_from_defaults(cls.defaults, cls.config_help)

    def __init__(self, **config: Any) -> None:
        unknown = sorted(set(config) - set(self.defaults))
        if unknown:
            raise ConfigError(
                f"{self.name}: unknown config key(s) {unknown}; accepted keys are {sorted(self.defaults)}"
            )
        merged = {**self.defaults, **config}
        self.config: dict[str, Any] = self.check_config(merged)

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Validate the merged config (raise :class:`ConfigError`) and return it."""
        return config

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    @abstractmethod
    def num_actions(self) -> int: ...

    @property
    @abstractmethod
    def observation_size(self) -> int: ...

    @property
    @abstractmethod
    def state_size(self) -> int: ...

    def observation_layout(self) -> dict[str, slice]:
        """The observation vector's named sections, in order: name -> slice, covering ``observation_size``.

        Games built on :func:`~meeplezoo.envs.core.layout.build_layout` return their layout; the default is
        one section, ``"observation"``, for a game that does not name its parts.
        """
        return {"observation": slice(0, self.observation_size)}

    @property
    def max_decisions(self) -> int:
        """An upper bound on the decisions of one game (used to size truncation limits)."""
        return 10_000

    @property
    def observation_clock(self) -> tuple[int, ...]:
        """Indices of observation entries that only count decisions (a turn's clock, say): two positions
        whose observations differ only there are the same position to a player, which is how an agent spots
        a cycle of moves that change nothing (:class:`~meeplezoo.agents.policy.PolicyAgent`). Default: none."""
        return ()

    @property
    def score_scale(self) -> float:
        """A typical score magnitude, used to scale the ``score_margin`` reward."""
        return 1.0

    @abstractmethod
    def new_state(self, seed: int) -> State:
        """Set the game up from ``seed``."""

    @abstractmethod
    def state_from_dict(self, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict` output, its rules validated (raise :class:`CorruptStateError`)."""

    def state_from_json(self, text: str) -> State:
        """Load a state saved by :meth:`State.to_json`; every defect raises :class:`CorruptStateError`."""
        try:
            doc = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise CorruptStateError(f"{self.name}: saved state is not valid JSON: {exc}") from exc
        if not isinstance(doc, dict):
            raise CorruptStateError(f"{self.name}: saved state must be a JSON object")
        for key in ("game", "format", "config", "state"):
            if key not in doc:
                raise CorruptStateError(f"{self.name}: saved state lacks the key {key!r}")
        if doc["game"] != self.name:
            raise CorruptStateError(f"saved state is of game {doc['game']!r}, not {self.name!r}")
        if doc["format"] != SAVE_FORMAT:
            raise CorruptStateError(f"{self.name}: saved state format {doc['format']!r} is not {SAVE_FORMAT}")
        if doc["config"] != self.config:
            raise CorruptStateError(
                f"{self.name}: saved state config {doc['config']!r} differs from this game's {self.config!r}"
            )
        if not isinstance(doc["state"], dict):
            raise CorruptStateError(f"{self.name}: 'state' must be a JSON object")
        try:
            state = self.state_from_dict(doc["state"])  # (validates the state)
        except CorruptStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise CorruptStateError(f"{self.name}: saved state is corrupt: {exc!r}") from exc
        return state

    def __eq__(self, other: object) -> bool:
        """Games are values: the same class with the same config is the same game."""
        if not isinstance(other, Game):
            return NotImplemented
        return type(self) is type(other) and self.config == other.config

    def __hash__(self) -> int:
        return hash((type(self), json.dumps(self.config, sort_keys=True, default=repr)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.config.items())})"


class State(ABC):
    """A mutable position of a game. Subclasses are slotted dataclasses of plain data."""

    __slots__ = ()
    game: Game

    # --- whose turn, what is legal -------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Seat that must decide now, or :data:`TERMINAL`."""

    @abstractmethod
    def pending(self) -> str:
        """Name of the pending decision (``"game over"`` when finished)."""

    @abstractmethod
    def legal_mask(self) -> np.ndarray:
        """A new ``int8`` array of length ``num_actions``: 1 where the action is legal now."""

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_mask()).tolist()

    def legal_order(self) -> Sequence[int]:
        """The legal actions in the engine's own order, not to be modified: what a search lists at every step
        (cheaper than :meth:`legal_actions` where a game keeps them: no sort, no copy). The default is
        :meth:`legal_actions`."""
        return self.legal_actions()

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal now (games override it with something cheaper than a mask)."""
        return bool(self.legal_mask()[action])

    @abstractmethod
    def apply(self, action: int) -> None:
        """Apply a legal action of the current player (raise :class:`IllegalActionError` otherwise)."""

    # --- outcome ----------------------------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score (final once terminal)."""

    def ranks(self) -> list[int]:
        """0 for the best seat; equal scores share a rank. Games with tiebreaks override."""
        s = self.scores()
        return [sum(1 for other in s if other > mine) for mine in s]

    def adjudicated_ranks(self) -> list[int]:
        """The ranks of a game stopped at its decision cap (``Game.max_decisions``) before it ended, as its
        rules document says: by the game's own standing (points as if the game ended now, then the game's
        tie-breaks), never an all-way tie that would reward the seat that kept the game going. A finished game's
        ranks are :meth:`ranks`; the default (for games whose ``ranks`` already read the standing) is
        :meth:`ranks` too."""
        return self.ranks()

    def standing(self) -> tuple[list[int], list[float]]:
        """``(ranks(), scores())`` together: a game whose ranks read its scores overrides it to score once."""
        return self.ranks(), self.scores()

    def score_sheet(self) -> str:
        """Text of the scores (a game with scoring categories overrides this with its score pad)."""
        ranks = self.ranks()
        return "\n".join(f"P{i}: {score:g} (rank {ranks[i]}; 0 = won)" for i, score in enumerate(self.scores()))

    def automa_score(self) -> float:
        """A solo mode's score to beat (the automa's, final once terminal); games without one keep 0."""
        return 0.0

    def eliminated(self) -> frozenset[int]:
        """Seats out of the game (their rank is final)."""
        return frozenset()

    # --- copies and persistence ----------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """An exact, independent copy (cheap: no deepcopy)."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data of the state."""

    def to_json(self) -> str:
        return json.dumps(
            {"game": self.game.name, "format": SAVE_FORMAT, "config": self.game.config, "state": self.to_dict()},
            separators=(",", ":"),
        )

    def validate(self) -> None:  # noqa: B027 (optional hook: a game without invariants keeps it empty)
        """Raise :class:`CorruptStateError` if a rule invariant is broken (used after loading)."""

    @abstractmethod
    def determinize(self, player: int, rng: np.random.Generator) -> State:
        """A copy where all that ``player`` cannot see is resampled consistently with what they saw."""

    def public_copy(self, player: int) -> State:
        """The position as ``player`` knows it, with fresh chance: what an agent at that seat is given. The
        default is a determinization from fresh OS entropy (no leak, but two positions ``player`` cannot tell
        apart may give different copies); a game that can put its hidden parts in a canonical order overrides
        it so that they give the same copy."""
        return self.determinize(player, np.random.default_rng())

    # --- views ------------------------------------------------------------------------------------
    @abstractmethod
    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``float32`` vector of what ``player`` may know, from their seat ("mine" first)."""

    @abstractmethod
    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        """``float32`` full-information vector (for centralised critics)."""

    @abstractmethod
    def describe_action(self, action: int) -> str:
        """Human-readable name of ``action`` in the pending decision."""

    def public_action_name(self, action: int, viewer: int | None) -> str:
        """The name of ``action`` (of the seat to act) as ``viewer`` may read it in a game log (None: everything).

        Games whose decisions are all public keep this: the full name. A game where some choice is secret or
        names what ``viewer`` cannot see overrides it with a redacted name for the other seats; the
        conformance suite checks that the name is the same however the hidden parts are resampled.
        """
        return self.describe_action(action)

    def automa_turns(self, before: State | None) -> list[str]:
        """A solo mode's automa turns run since ``before`` (the position before the last decision; None: the
        setup), named for the log; games without an automa have none."""
        return []

    @abstractmethod
    def render(self) -> str:
        """Text picture of the position."""
