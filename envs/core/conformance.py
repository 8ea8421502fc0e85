"""How the conformance suite (``tests/conformance``) checks a game: the settings a game's manifest names.

Every registered game with an engine gets the whole suite. A game tunes it in ``envs/<game>/conformance.py``
(``SETTINGS``, named by its manifest's ``conformance``): the configurations to play and how much of each, and its
own checks (an invariant over positions, saves a load must refuse). A game without settings is played at its
defaults, once per player count it takes, with the default sizes::

    SETTINGS = ConformanceSettings(
        cases=(ConformanceCase(), ConformanceCase({"num_players": 1}, SOLO_SIZES, shared_win=False)),
        sizes=Sizes(fuzz_games=40),
        invariant=invariant,
    )

Hooks (all optional, all read-only on what they are given):

``invariant(state)``
    Extra checks after every step of the random playouts, beyond ``State.validate()``; raises
    ``AssertionError`` naming what is broken.
``broken_edits``
    Functions that each edit a ``State.to_dict()`` record in place so that it breaks one rule invariant of the
    game (a case may add its own): loading an edited copy must raise ``CorruptStateError``.
``shared_win(state_dict)``
    An edited copy of a *finished* game's ``to_dict()`` where every seat shares the win (ranks all 0).
``random_event_soon(state)``
    An edited copy of a position in which a random event is a few decisions away, for games whose random play
    seldom reaches one (a reshuffle only when a deck runs out).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import State

#: a save's state part (``State.to_dict()``)
Record = dict[str, Any]


@dataclass(frozen=True)
class Sizes:
    """How much the suite plays of one configuration. Each game sizes its cases so that its share of the suite's
    time stays proportionate (well under a minute per game on 2 cores with ``-n 2``); the other tests scale
    from ``fuzz_games``.

    Attributes:
        fuzz_games: random games played to the end on the engine, every position checked.
        save_every: the fuzz test saves and reloads every ``save_every``-th position (and the last).
        load_every: the env-loading test loads every ``load_every``-th position and plays each to the end.
        to_end_every: the clone and JSON tests play a copy to the end from every ``to_end_every``-th position (4
            steps from the others): their cost grows with the square of a game's length.
        roundtrip_every: the clone and JSON round-trip tests check every ``roundtrip_every``-th position.
        corrupt_every: the corrupt-save test breaks the saves of every ``corrupt_every``-th position.
        mutation_positions: the save-mutation fuzz edits every field of the saves of this many positions of one
            random game (and of the finished game); 0 leaves the configuration out.
        chance_positions: positions at which the fresh-chance test compares determinized copies' next random
            event with the real one; ``chance_copies`` copies each, positions every ``chance_every`` decisions.
    """

    fuzz_games: int = 60
    save_every: int = 1
    load_every: int = 10
    to_end_every: int = 9
    roundtrip_every: int = 1
    corrupt_every: int = 13
    mutation_positions: int = 3
    chance_positions: int = 20
    chance_copies: int = 10
    chance_every: int = 7


@dataclass(frozen=True)
class StallCheck:
    """How the suite checks that stalling earns nothing (``tests/conformance/test_stalling.py``).

    Stallers play each case: *passive* (the first legal action whose name holds one of ``passive_words``, else the
    first legal), *first* (always the first legal action), *counter* (when ``counter_words`` is set: an action naming
    one of them whenever one is legal, else the first legal: the answer that keeps an exchange going) and *last*
    (always the last legal action). Each staller plays ``games`` games against the game's baseline agent in the
    other seats (the staller's seat rotating) and one game with every seat stalling. Every game must end by the
    rules before the decision cap, and against the baseline the passive, first and counter stallers never rank
    first, shared or not (the last legal action is often a real move: build, attack; it is checked for length only).

    Attributes:
        passive_words: lower-case words of the game's action names that do least (pass, decline, end the turn).
        counter_words: lower-case words of the answers that prolong an exchange; empty: no counter staller.
        games: games per staller against the baseline, per case.
        max_length: the decisions a staller game may last (None: the game's ``max_decisions``).
        rank_check: whether the stallers must not rank first against the baseline (False for a game where a fixed
            rule can fairly beat its baseline and nothing can stall, said in its rules document).
    """

    passive_words: tuple[str, ...] = ("pass", "decline", "end", "skip", "done", "stop")
    counter_words: tuple[str, ...] = ()
    games: int = 2
    max_length: int | None = None
    rank_check: bool = True


@dataclass(frozen=True)
class ConformanceCase:
    """One configuration the suite plays: the game's config, its sizes (None: the game's ``sizes``), whether the
    game's ``shared_win`` hook applies to it (not where a win cannot be shared, as against a solo automa),
    and edits that break only this configuration's records (made before the game's ``broken_edits``)."""

    config: Mapping[str, Any] = field(default_factory=dict)
    sizes: Sizes | None = None
    shared_win: bool = True
    broken_edits: tuple[Callable[[Record], None], ...] = ()


@dataclass(frozen=True)
class ConformanceSettings:
    """How the suite checks a game: the configurations it plays (see :meth:`configurations`), the default sizes,
    the game's hooks (see the module docstring) and its switches.

    Attributes:
        bad_config: ``(config key, value)`` pairs the game must reject with ``ConfigError``.
        hidden_information: whether some state is hidden from the players (then ``determinize`` must change
            something).
        ranks_follow_scores: whether a higher final score always means a better rank (ties broken either way).
        random_events: whether the game draws random events after the setup (reshuffles, random steals); if not,
            the suite checks that random play draws none.
        stalling: how the stall check plays the game (:class:`StallCheck`).
    """

    cases: tuple[ConformanceCase, ...] = ()
    sizes: Sizes = field(default_factory=Sizes)
    invariant: Callable[[State], None] | None = None
    broken_edits: tuple[Callable[[Record], None], ...] = ()
    shared_win: Callable[[Record], Record] | None = None
    random_event_soon: Callable[[State], State] | None = None
    bad_config: tuple[tuple[str, Any], ...] = ()
    hidden_information: bool = True
    ranks_follow_scores: bool = True
    random_events: bool = True
    stalling: StallCheck = field(default_factory=StallCheck)

    def configurations(self, player_counts: Sequence[int], config_keys: Sequence[str]) -> tuple[ConformanceCase, ...]:
        """The cases to play: those declared, else the game at its defaults once per player count it takes
        (``num_players=N``, when it has that key and more than one count), else once at its defaults."""
        if self.cases:
            return self.cases
        if "num_players" in config_keys and len(player_counts) > 1:
            return tuple(ConformanceCase({"num_players": n}) for n in player_counts)
        return (ConformanceCase(),)


#: the settings of a game whose manifest names none
DEFAULT_SETTINGS = ConformanceSettings()


def edited_copies(record: Record, edits: Iterable[Callable[[Record], None]]) -> list[tuple[str, Record]]:
    """``(edit's name, edited deep copy of record)`` for each edit (a function changing a record in place): the
    saves the suite makes of a game's ``broken_edits``."""
    out = []
    for edit in edits:
        new = copy.deepcopy(record)
        edit(new)
        out.append((edit.__name__, new))
    return out


__all__ = [
    "DEFAULT_SETTINGS",
    "ConformanceCase",
    "ConformanceSettings",
    "Record",
    "Sizes",
    "StallCheck",
    "edited_copies",
]
