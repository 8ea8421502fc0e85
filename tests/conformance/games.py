"""The game cases the conformance suite runs on, read from the registry (test-only).

Every registered game with an engine (:func:`meeplezoo.games.manifests`, built-in or an installed plugin) gets
the whole suite. What the suite cannot guess of a game (the configurations to play, how much of each, an
invariant, broken saves...) is the game's :class:`~meeplezoo.envs.core.conformance.ConformanceSettings`, named
by its manifest's ``conformance`` (``envs/<game>/conformance.py``); a game that names none is played with the
defaults. A :class:`GameCase` is one configuration of one game; adding a configuration is a line in the game's
settings, never here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from meeplezoo import games
from meeplezoo.envs.core import Game
from meeplezoo.envs.core.conformance import DEFAULT_SETTINGS, ConformanceSettings, Record, Sizes, StallCheck
from meeplezoo.envs.core.manifest import GameManifest, load


@dataclass(frozen=True)
class GameCase:
    """One configuration of a registered game, with the game's conformance settings and the case's sizes."""

    manifest: GameManifest
    settings: ConformanceSettings
    config: Mapping[str, Any] = field(default_factory=dict)
    sizes: Sizes = field(default_factory=Sizes)
    #: the game's shared-win hook where this configuration has a shared win, else None
    shared_win: Callable[[Record], Record] | None = None
    #: the edits of a saved record a load must refuse: the case's own, then the game's
    broken_edits: tuple[Callable[[Record], None], ...] = ()
    #: the game's stall check
    stalling: StallCheck = field(default_factory=StallCheck)

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def id(self) -> str:
        return "-".join([self.name, *(f"{k}={v}" for k, v in self.config.items())])

    @property
    def game_cls(self) -> type[Game]:
        return self.manifest.engine_class()

    def game(self) -> Game:
        return self.game_cls(**self.config)

    def env_module(self) -> ModuleType:
        return self.manifest.env_module()


def settings_of(manifest: GameManifest) -> ConformanceSettings:
    """The conformance settings a manifest names (the defaults when it names none)."""
    if manifest.conformance is None:
        return DEFAULT_SETTINGS
    settings = load(manifest.conformance)
    assert isinstance(settings, ConformanceSettings), f"{manifest.name}: {manifest.conformance} is not settings"
    return settings


def cases_of(manifest: GameManifest, settings: ConformanceSettings | None = None) -> list[GameCase]:
    """Every configuration the suite plays of one game (with the settings its manifest names, unless given)."""
    settings = settings or settings_of(manifest)
    keys = list(manifest.engine_class().defaults)
    return [
        GameCase(
            manifest,
            settings,
            dict(case.config),
            case.sizes or settings.sizes,
            settings.shared_win if case.shared_win else None,
            (*case.broken_edits, *settings.broken_edits),
            settings.stalling,
        )
        for case in settings.configurations(manifest.player_counts, keys)
    ]


#: the games the suite checks: every registered game with an engine (an env-only game has no engine to check)
CHECKED: list[GameManifest] = [m for m in games.manifests() if m.engine is not None]
CASES: list[GameCase] = [case for manifest in CHECKED for case in cases_of(manifest)]
