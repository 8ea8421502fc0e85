"""What a game tells the rest of MeepleZoo about itself: one :class:`GameManifest` per game package.

A game package (built in under ``envs/<game>/`` or a plugin) exports a manifest and declares it under the
``meeplezoo.games`` entry point::

    [project.entry-points."meeplezoo.games"]
    seastead = "meeplezoo.envs.seastead.manifest:MANIFEST"

Everything MeepleZoo's tools need from a game is named here, by reference: the engine, the env module, the solo
Gymnasium env, the agents the game ships (its heuristic, what IS-MCTS asks of it), its training defaults and
configs, its shipped policies, its web table, its conformance settings and its rules page. References are
``"package.module:attr"`` strings (or ``"package.module"`` for a module) resolved by :func:`load` when used, so
reading a manifest imports neither the engine nor torch. Files (rules, view, policies, configs) are package data
beside the game, found with :mod:`importlib.resources`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.abc import Traversable
from typing import Any

from .params import Param


def load(ref: str) -> Any:
    """The object a reference names: ``"pkg.mod:attr"`` (an attribute, dotted paths allowed) or ``"pkg.mod"``."""
    module_name, _, attr = ref.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class SearchHooks:
    """What IS-MCTS asks of a game: functions of the state the search holds (a determinization, so they may read
    the record). A game defines one beside its heuristic and names it in its manifest's ``search``.

    ``estimate(state) -> list[float]``: each seat's estimated final score at a cut-off; ``scale``: a typical margin
    between seats in those units (the softmax temperature). ``variants``: other estimates by name
    (``mcts:estimate=NAME``) as ``(fn, scale)``. ``rollout(state, py_random) -> action``: a cheap rollout policy
    (``rollout=fast``; None: the heuristic's). ``position_key(state, seat) -> hashable``: what the seat knows of the
    position without turn counters (``repeat=1``). ``heuristic``: the name of the game's agent (its manifest's
    ``agents``) whose ``choose(state) -> action`` guides ``rollout=heuristic`` and ``bias``. ``guide(state, seat, begin)
    -> action | None``: a move of the searching seat's that its prior may overlook (``az:guide=W``), read from what that
    seat knows only; None where it has none; with ``begin`` False only the next move of a sequence under way (the
    rollouts finish what the tree began). ``guides``: other guides by name (``az:gname=NAME``). A game without hooks
    is searched with random rollouts and valued by its engine's ``scores()`` at a cut-off."""

    estimate: Callable[[Any], list[float]] | None = None
    scale: float = 1.0
    variants: Mapping[str, tuple[Callable[[Any], list[float]], float]] = field(default_factory=dict)
    rollout: Callable[[Any, Any], int] | None = None
    position_key: Callable[[Any, int], Hashable] | None = None
    heuristic: str = "heuristic"
    guide: Callable[[Any, int, bool], int | None] | None = None
    guides: Mapping[str, Callable[[Any, int, bool], int | None]] = field(default_factory=dict)


@dataclass(frozen=True)
class GameManifest:
    """One game, described for every tool: see the module docstring.

    Attributes:
        name: short name (``seastead``), the CLI's and the registry's key.
        title: the game's name for people (``Seastead``).
        package: the game's Python package (package data lives beside it).
        engine: reference to the :class:`~meeplezoo.envs.core.Game` subclass, or None for a game that is an AEC
            env only (then it has no save, determinize or search).
        env: reference to the env module, with ``env(**config)`` and ``raw_env(**config)``.
        version: the env version (``<name>-v<version>``): bumped when a change can change results.
        player_counts: the ``num_players`` the game takes.
        solo_env: reference to ``fn(**kwargs) -> gymnasium.Env`` for the solo mode, registered as ``solo_env_id``.
        agents: agent name -> ``"module:Class"`` the game ships (``heuristic``, ...), for this game only; the first
            is its baseline (``meeplezoo baselines`` plays it against random players).
        search: reference to the game's :class:`SearchHooks` (None: the engine's scores at a cut-off).
        tuned_mcts: player count -> the IS-MCTS spec tuned for that table, which ``python -m meeplezoo.bench.mcts``
            measures against the game's heuristic (none: the game is not benchmarked).
        value_models: name -> ``fn(state) -> list[float]``, each seat's chance to win (public facts only).
        own_cards: ``fn(view, state) -> str``, the acting seat's hidden holdings in words (the terminal ``human``).
        training: the game's training defaults over :class:`meeplezoo.training.config.TrainConfig`.
        value_fitters: name -> reference to the :class:`~meeplezoo.envs.core.value_fit.ValueFitter` of a value
            model the game fits on its own games (:mod:`meeplezoo.training.value_fit`).
        table: ``fn(state, seat) -> dict``, the web table (None: the generic one from the saved record).
        conformance: reference to the game's :class:`~meeplezoo.envs.core.conformance.ConformanceSettings`, or None
            (defaults).
        order: position in listings (built-in games first, in the order they joined).
        distribution: the installed distribution that declared the game (set by the registry).
    """

    name: str
    title: str
    package: str
    env: str
    engine: str | None = None
    version: int = 0
    player_counts: tuple[int, ...] = (2,)
    solo_env: str | None = None
    solo_env_id: str | None = None
    agents: Mapping[str, str] = field(default_factory=dict)
    search: str | None = None
    tuned_mcts: Mapping[int, str] = field(default_factory=dict)
    value_models: Mapping[str, str] = field(default_factory=dict)
    own_cards: str | None = None
    training: Mapping[str, Any] = field(default_factory=dict)
    value_fitters: Mapping[str, str] = field(default_factory=dict)
    table: str | None = None
    conformance: str | None = None
    order: int = 100
    distribution: str = ""

    @property
    def env_module_name(self) -> str:
        """The env module's own name (``seastead_v0``): PettingZoo's name for the env."""
        return f"{self.name}_v{self.version}"

    @property
    def baseline_agent(self) -> str:
        """The game's own baseline agent (the first of ``agents``), or ``random`` for a game that ships none."""
        return next(iter(self.agents), "random")

    @property
    def env_id(self) -> str:
        """The PettingZoo registry id: ``<distribution>/<name>-v<version>`` (``meeplezoo/seastead-v0``)."""
        return f"{self.distribution or 'plugin'}/{self.name}-v{self.version}"

    def files(self) -> Traversable:
        """The game package's folder (its rules page, view, shipped policies and configs)."""
        return resources.files(self.package)

    def data_file(self, *parts: str) -> Traversable | None:
        """A file shipped with the game (``rules.md``, ``policies/seastead.zip``), or None if it has none."""
        path = self.files().joinpath(*parts)
        return path if path.is_file() else None

    def rules(self) -> str | None:
        """The game's rules page (``rules.md`` beside it), or None."""
        path = self.data_file("rules.md")
        return path.read_text(encoding="utf-8") if path else None

    def view_script(self) -> str | None:
        """The game's table view for the browser (``view.js`` beside it), or None: the generic table."""
        path = self.data_file("view.js")
        return path.read_text(encoding="utf-8") if path else None

    def shipped_policy(self, num_players: int) -> Traversable | None:
        """The policy shipped for ``num_players`` (``policies/<name>_<n>p.zip``), else the game's
        (``policies/<name>.zip``), else None."""
        return self.data_file("policies", f"{self.name}_{num_players}p.zip") or self.data_file(
            "policies", f"{self.name}.zip"
        )

    def training_configs(self) -> dict[str, Traversable]:
        """The training configs shipped with the game (``configs/*.toml``), by file stem."""
        folder = self.files().joinpath("configs")
        if not folder.is_dir():
            return {}
        return {p.name[:-5]: p for p in sorted(folder.iterdir(), key=lambda p: p.name) if p.name.endswith(".toml")}

    def engine_class(self) -> Any:
        if self.engine is None:
            raise TypeError(f"{self.name} has no MeepleZoo engine (an AEC env only)")
        return load(self.engine)

    def env_module(self) -> Any:
        return load(self.env)

    def config_params(self) -> tuple[Param, ...]:
        """The game's config schema: its engine's parameters (none for an env-only game)."""
        return self.engine_class().config_params() if self.engine else ()


__all__ = ["GameManifest", "SearchHooks", "load"]
