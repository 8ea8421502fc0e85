"""A MeepleZoo engine as an OpenSpiel Python game: :class:`MeepleZooGame` and :class:`MeepleZooState`.

Chance is explicit, and all of it comes first: a new state is a chance node, and four of them deal the
32-bit seed (one byte each, uniform) from which the engine sets the game up and draws every later chance event
(shuffles, draws, dice) with the seeded generator its state owns. To OpenSpiel the game's chance is thus
resolved at the start, which gives the same distribution over games as the engine's draws as it goes; the
seats see none of it, only what the engine shows them. (OpenSpiel's *sampled stochastic* mode would keep the
generator in the game, but a Python game cannot give OpenSpiel that generator's state, so its states could not
be serialized.) The same seed bytes and the same actions give the same game, bit for bit.

Returns are the env's ``win`` reward at the end: zero-sum, +1 to a sole winner and ``-1/(n-1)`` to the others
(ties share); a solo mode is +1 for beating the automa, else -1 (general-sum). A game stopped at the engine's
decision cap ends there, ranked as its rules document says (``adjudicated_ranks``).

The Python-side content of a state is one :class:`Core`: OpenSpiel's ``Clone`` deep-copies it, which is the
engine's cheap ``clone()``, and its pickled form (what ``pyspiel.serialize_game_and_state`` writes) is the
engine's validated JSON save, loaded through ``state_from_json`` (a bad one raises ``CorruptStateError``).
Like every OpenSpiel Python game's, that form is a pickle: deserialize only strings you wrote.
:meth:`MeepleZooState.serialize` and :meth:`MeepleZooGame.deserialize_state` are the JSON form itself, safe for
any input.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from ..envs.core.engine import Game as EngineGame
from ..envs.core.engine import State as EngineState
from ..envs.core.errors import ConfigError, CorruptStateError
from ..envs.core.manifest import GameManifest
from ..envs.core.rewards import seat_return
from .observer import Observer

#: the prefix of every MeepleZoo game's OpenSpiel name (``meeplezoo_seastead``)
PREFIX = "meeplezoo_"
#: the deal: this many chance nodes, each one byte of the engine's seed
DEAL_NODES = 4
DEAL_OUTCOMES = 256
SAVE_FORMAT = 1


def deal_seed(deal: tuple[int, ...]) -> int:
    """The engine seed the deal's bytes spell (big-endian)."""
    return int.from_bytes(bytes(deal), "big")


class Core:
    """What one state holds: the seed bytes dealt so far, the engine state (None until the deal is complete), the
    decisions taken, whether the decision cap stopped the game, each seat's log of the decisions as it may read
    them, and, in a state resampled for a seat (``view_of``), that seat's reading of the log stands for every
    seat's."""

    __slots__ = ("capped", "deal", "decisions", "engine", "log", "names", "view_of")

    def __init__(
        self,
        engine: EngineState | None = None,
        decisions: int = 0,
        capped: bool = False,
        log: tuple | None = None,
        view_of: int | None = None,
        deal: tuple[int, ...] = (),
    ) -> None:
        self.deal = deal
        self.engine = engine
        self.decisions = decisions
        self.capped = capped
        self.log = log  # (previous, actor, names): names is one str (public) or a tuple of one per seat
        self.view_of = view_of
        self.names: dict[int, str] | None = None  # the pending decision's action strings, made when first asked

    def action_names(self) -> dict[int, str]:
        """The legal actions' strings, each unique (OpenSpiel's rule): the engine's name, and where two actions
        share one (two cards of a kind in hand) the action id after it."""
        if self.names is None:
            engine = self.engine
            names = {a: engine.describe_action(a) for a in engine.legal_actions()}
            seen: dict[str, int] = {}
            for name in names.values():
                seen[name] = seen.get(name, 0) + 1
            self.names = {a: name if seen[name] == 1 else f"{name} (action {a})" for a, name in names.items()}
        return self.names

    def __deepcopy__(self, memo: dict) -> Core:
        engine = None if self.engine is None else self.engine.clone()
        return Core(engine, self.decisions, self.capped, self.log, self.view_of, self.deal)

    def __reduce__(self) -> tuple:
        return (core_from_json, (self.to_json(),))

    # --- the log -------------------------------------------------------------------------------------
    def entries(self) -> list[tuple[int, str | tuple[str, ...]]]:
        """The log, oldest first: ``(actor, names)``."""
        out = []
        node = self.log
        while node is not None:
            node, actor, names = node
            out.append((actor, names))
        out.reverse()
        return out

    def read_log(self, seat: int) -> list[str]:
        """The log as ``seat`` may read it: ``"P<actor>: <name>"`` per decision."""
        reader = seat if self.view_of is None else self.view_of
        return [f"P{actor}: {names if isinstance(names, str) else names[reader]}" for actor, names in self.entries()]

    # --- the JSON save -------------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "deal": list(self.deal),
                "engine": None if self.engine is None else json.loads(self.engine.to_json()),
                "decisions": self.decisions,
                "capped": self.capped,
                "log": [[actor, names if isinstance(names, str) else list(names)] for actor, names in self.entries()],
                "view_of": self.view_of,
            },
            separators=(",", ":"),
        )


def core_from_json(text: str, engine_game: EngineGame | None = None) -> Core:
    """A :class:`Core` from :meth:`Core.to_json` (its engine's game from the save, or ``engine_game``, which the
    save must match); every defect raises :class:`CorruptStateError`."""
    try:
        doc = json.loads(text)
    except (TypeError, json.JSONDecodeError) as exc:
        raise CorruptStateError(f"OpenSpiel state: not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise CorruptStateError(f"OpenSpiel state: a JSON object of format {SAVE_FORMAT} expected")
    missing = {"deal", "engine", "decisions", "capped", "log", "view_of"} - set(doc)
    if missing:
        raise CorruptStateError(f"OpenSpiel state: lacks {sorted(missing)}")
    deal = doc["deal"]
    if not (
        isinstance(deal, list)
        and len(deal) <= DEAL_NODES
        and all(isinstance(b, int) and not isinstance(b, bool) and 0 <= b < DEAL_OUTCOMES for b in deal)
    ):
        raise CorruptStateError(f"OpenSpiel state: 'deal' must be up to {DEAL_NODES} bytes, not {deal!r}")
    saved = doc["engine"]
    if (saved is None) != (len(deal) < DEAL_NODES):
        raise CorruptStateError("OpenSpiel state: an engine state exactly when the deal is complete")
    engine = None
    if saved is not None:
        if not isinstance(saved, dict):
            raise CorruptStateError("OpenSpiel state: 'engine' must be a saved engine state")
        if engine_game is None:
            engine_game = _engine_game_of_save(saved)
        engine = engine_game.state_from_json(json.dumps(saved))
    num_players = None if engine is None else engine.game.num_players
    decisions, capped, view_of = doc["decisions"], doc["capped"], doc["view_of"]
    if not isinstance(decisions, int) or isinstance(decisions, bool) or decisions < 0:
        raise CorruptStateError(f"OpenSpiel state: 'decisions' must be a count, not {decisions!r}")
    if not isinstance(capped, bool) or (capped and engine is None):
        raise CorruptStateError(f"OpenSpiel state: 'capped' must be a bool (and false before the deal), not {capped!r}")
    if engine is None and (decisions or doc["log"] or view_of is not None):
        raise CorruptStateError("OpenSpiel state: decisions or a log before the deal")
    if view_of is not None and (
        not isinstance(view_of, int) or isinstance(view_of, bool) or not 0 <= view_of < (num_players or 0)
    ):
        raise CorruptStateError(f"OpenSpiel state: 'view_of' must be a seat or null, not {view_of!r}")
    log = None
    entries = doc["log"]
    if not isinstance(entries, list) or len(entries) != decisions:
        raise CorruptStateError("OpenSpiel state: 'log' must list one entry per decision")
    for entry in entries:
        if not (
            isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and not isinstance(entry[0], bool)
        ):
            raise CorruptStateError(f"OpenSpiel state: a log entry must be [seat, names], not {entry!r}")
        actor, names = entry
        if not 0 <= actor < (num_players or 0):
            raise CorruptStateError(f"OpenSpiel state: log entry of seat {actor} at a {num_players}-seat table")
        if isinstance(names, list):
            if len(names) != num_players or not all(isinstance(n, str) for n in names):
                raise CorruptStateError("OpenSpiel state: a log entry's names must be one string per seat")
            names = tuple(names)
        elif not isinstance(names, str):
            raise CorruptStateError(f"OpenSpiel state: a log entry's name must be a string, not {names!r}")
        log = (log, actor, names)
    return Core(engine, decisions, capped, log, view_of, tuple(deal))


def _engine_game_of_save(saved: dict) -> EngineGame:
    from .. import games

    name, config = saved.get("game"), saved.get("config")
    if not isinstance(name, str) or not isinstance(config, dict):
        raise CorruptStateError("OpenSpiel state: the engine save names no game and config")
    try:
        return games.manifest(name).engine_class()(**config)
    except (games.UnknownGameError, ConfigError, TypeError) as exc:
        raise CorruptStateError(f"OpenSpiel state: {exc}") from None


class MeepleZooGame(pyspiel.Game):
    """One configuration of a MeepleZoo game, loaded by ``pyspiel.load_game`` (see the module docstring)."""

    manifest: GameManifest  # set on each game's subclass by :func:`~meeplezoo.openspiel.registration.register`
    game_type: pyspiel.GameType  # the registered type (zero-sum)
    solo_type: pyspiel.GameType  # the same, general-sum: a solo configuration plays against the automa

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cls = self.manifest.engine_class()
        try:
            self.engine_game: EngineGame = cls(**params)
        except ConfigError as exc:
            raise pyspiel.SpielError(str(exc)) from None
        n = self.engine_game.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine_game.num_actions,
            max_chance_outcomes=DEAL_OUTCOMES,
            num_players=n,
            min_utility=-1.0 if n == 1 else -1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0 if n > 1 else None,
            max_game_length=self.engine_game.max_decisions,
        )
        super().__init__(self.game_type_for(n), info, params)

    @classmethod
    def game_type_for(cls, num_players: int) -> pyspiel.GameType:
        """The registered type; a solo configuration's utility is general-sum (it plays against the automa)."""
        return cls.solo_type if num_players == 1 else cls.game_type

    def new_initial_state(self) -> MeepleZooState:
        return MeepleZooState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)

    def deserialize_state(self, text: str) -> MeepleZooState:
        """A state from :meth:`MeepleZooState.serialize` (JSON, validated: a bad one raises ``CorruptStateError``)."""
        state = MeepleZooState(self)
        state.core = core_from_json(text, self.engine_game)
        return state

    def state_of(self, engine: EngineState, view_of: int | None = None) -> MeepleZooState:
        """A dealt state holding ``engine`` (not copied) with an empty log: how a position from outside OpenSpiel
        (an agent's view) enters it. ``view_of``: the seat whose knowledge it is."""
        if engine.game != self.engine_game:
            raise ValueError(f"{engine.game!r} is not this game's configuration {self.engine_game!r}")
        state = MeepleZooState(self)
        state.core = Core(engine, 0, False, None, view_of, (0,) * DEAL_NODES)
        return state


class MeepleZooState(pyspiel.State):
    """A position of a :class:`MeepleZooGame` (see the module docstring)."""

    def __init__(self, game: MeepleZooGame) -> None:
        super().__init__(game)
        self.core = Core()

    @property
    def engine(self) -> EngineState | None:
        """The engine state (None before the deal)."""
        return self.core.engine

    def current_player(self) -> int:
        core = self.core
        if core.engine is None:
            return pyspiel.PlayerId.CHANCE
        if core.capped or core.engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return core.engine.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player() or player < 0:
            return []
        return self.core.engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.core.engine is not None:
            raise pyspiel.SpielError("chance_outcomes: not a chance node")
        return [(b, 1.0 / DEAL_OUTCOMES) for b in range(DEAL_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        core = self.core
        game: MeepleZooGame = self.get_game()
        if core.engine is None:
            core.deal = (*core.deal, action)
            if len(core.deal) == DEAL_NODES:
                core.engine = game.engine_game.new_state(deal_seed(core.deal))
            return
        engine = core.engine
        actor = engine.current_player()
        full = engine.describe_action(action)
        names: str | tuple[str, ...] = full
        if type(engine).public_action_name is not EngineState.public_action_name:  # a game with secret choices
            names = tuple(
                full if seat == actor else engine.public_action_name(action, seat)
                for seat in range(engine.game.num_players)
            )
            names = full if all(n == full for n in names) else names
        engine.apply(action)
        core.names = None
        core.log = (core.log, actor, names)
        core.decisions += 1
        if core.decisions >= engine.game.max_decisions and not engine.is_terminal():
            core.capped = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal seed byte {len(self.core.deal) + 1}: {action}"
        engine = self.core.engine
        if engine is None or player != self.current_player():
            return f"action {action}"
        return self.core.action_names().get(action, f"action {action}")

    def is_terminal(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list[float]:
        engine = self.core.engine
        if engine is None or not self.is_terminal():
            return [0.0] * self.num_players()
        ranks = engine.adjudicated_ranks() if self.core.capped else engine.ranks()
        return [seat_return("win", seat, ranks, (), 1.0) for seat in range(len(ranks))]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> MeepleZooState:
        """A state ``player_id`` cannot tell from this one (their information state string and tensor are equal),
        with the hidden parts resampled and fresh chance (the engine's ``determinize``). The seed comes from
        ``probability_sampler()`` (OpenSpiel's sampler, a float in [0, 1)) when given, else from the OS. In the
        copy, every seat's log reads as ``player_id`` reads it and the deal's bytes are fresh too: nothing the seat
        did not see reaches it. (Its OpenSpiel ``history()`` is empty.)"""
        core = self.core
        if core.engine is None:
            return self.clone()
        seed = int(probability_sampler() * 2**53) if probability_sampler is not None else None
        rng = np.random.default_rng(seed)
        engine = core.engine.determinize(player_id, rng)
        state = MeepleZooState(self.get_game())
        view_of = player_id if core.view_of is None else core.view_of
        deal = tuple(int(b) for b in rng.integers(0, DEAL_OUTCOMES, DEAL_NODES))  # not the true seed's bytes
        state.core = Core(engine, core.decisions, core.capped, core.log, view_of, deal)
        return state

    def serialize(self) -> str:
        """The state as JSON (the engine's validated save, the decisions taken, the log): the form
        :meth:`MeepleZooGame.deserialize_state` reads back."""
        return self.core.to_json()

    def __str__(self) -> str:
        engine = self.core.engine
        if engine is None:
            return "(before the deal)"
        text = engine.render()
        return text + ("\n(stopped at the decision cap)" if self.core.capped else "")
