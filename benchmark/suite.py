"""A benchmark suite: its tasks, background agents, budget and env versions, read from ``suites/v<N>.toml``.

A suite is data. Suite v1 is ``suites/v1.toml`` (``docs/benchmark.md`` explains it); its frozen calibration is
``suites/v1_calibration.json``. Anything that can change a score (a task, a config, a game count, a seed, the
background, the budget, an env version) makes a new suite version: a score card names the suite version and the
digest of the suite's content, and cards of different versions are never compared.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .. import games
from ..agents.budget import Budget
from ..envs.core.errors import MeepleZooError
from .errors import BenchmarkError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

#: the suite version ``meeplezoo benchmark`` runs
CURRENT_VERSION = 1
#: what a solo task's normalised score is computed from: the final score, or the score minus the automa's
MEASURES = ("score", "margin")


@dataclass(frozen=True, slots=True)
class SuiteTask:
    """One task of the suite: a game configuration, played ``games`` times per background agent (``quick``)."""

    name: str
    game: str
    config: dict[str, Any]  # the game's full config (defaults merged)
    games: int  # per background agent (solo: in all), full suite
    quick: int  # the same, ``--quick``: the first deals of the full suite
    measure: str | None = None  # solo tasks only (:data:`MEASURES`)

    @property
    def players(self) -> int:
        return int(self.config.get("num_players", 2))

    @property
    def solo(self) -> bool:
        return self.players == 1

    def count(self, quick: bool) -> int:
        """Games per background agent (solo: in all) in the full suite or ``--quick``."""
        return self.quick if quick else self.games


@dataclass(frozen=True, slots=True)
class Suite:
    """A versioned benchmark suite (see the module docstring)."""

    name: str
    version: int
    seed: int  # deal d of every task uses env seed seed + d
    background: tuple[str, ...]
    envs: dict[str, int]  # game -> the env version the suite was defined on
    budget: dict[str, Any]  # agents.budget keys enforced on every agent process
    tasks: tuple[SuiteTask, ...]
    source: str = field(default="", compare=False)  # where it was read from

    @property
    def label(self) -> str:
        return f"{self.name} v{self.version}"

    def task(self, name: str) -> SuiteTask:
        for t in self.tasks:
            if t.name == name:
                return t
        raise BenchmarkError(f"suite {self.label} has no task {name!r}; its tasks: {', '.join(self.task_names())}")

    def task_names(self) -> list[str]:
        return [t.name for t in self.tasks]

    def env_names(self) -> dict[str, str]:
        """Game -> the env's versioned name (``board_royale_v1``) the suite runs."""
        return {game: f"{game}_v{version}" for game, version in self.envs.items()}

    def run_budget(self) -> Budget:
        """The budget every agent process of the suite's games runs under."""
        return Budget.read(self.budget, typed=True)

    def digest(self) -> str:
        """SHA-256 of the suite's content (everything that decides the games), canonical JSON."""
        doc = {
            "name": self.name,
            "version": self.version,
            "seed": self.seed,
            "background": list(self.background),
            "envs": self.envs,
            "budget": self.budget,
            "tasks": [[t.name, t.game, t.config, t.games, t.quick, t.measure] for t in self.tasks],
        }
        return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    def check_envs(self) -> None:
        """Raise :class:`BenchmarkError` if an installed game's env version is not the one the suite was defined on."""
        for game, version in self.envs.items():
            installed = games.manifest(game).version
            if installed != version:
                raise BenchmarkError(
                    f"suite {self.label} was defined on {game}_v{version}, this MeepleZoo has {game}_v{installed}: "
                    "its scores are not comparable (a new suite version runs the new env)"
                )


def suite_file(version: int = CURRENT_VERSION) -> Path:
    """The shipped file of suite ``version``."""
    path = Path(str(resources.files("meeplezoo.benchmark").joinpath("suites", f"v{version}.toml")))
    if not path.is_file():
        raise BenchmarkError(f"there is no benchmark suite v{version}; this MeepleZoo runs suite v{CURRENT_VERSION}")
    return path


def load_suite(version: int = CURRENT_VERSION) -> Suite:
    """The shipped suite ``version``, checked (its games and configs exist, its envs are the installed ones)."""
    suite = read_suite(suite_file(version))
    suite.check_envs()
    return suite


_TOP = {"name", "version", "seed", "background", "envs", "budget", "task"}
_TASK = {"name", "game", "config", "games", "quick", "measure"}


def read_suite(path: str | Path) -> Suite:
    """A suite from a TOML file (the shipped ones, or one of your own for experiments); one-line errors."""
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BenchmarkError(f"cannot read suite file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise BenchmarkError(f"suite file {path} is not valid TOML: {exc}") from None
    where = f"suite file {path}"
    _keys(doc, _TOP, where)
    name, version, seed = doc.get("name"), doc.get("version"), doc.get("seed")
    if not isinstance(name, str) or not name:
        raise BenchmarkError(f"{where}: 'name' must be a non-empty string")
    for key, value in (("version", version), ("seed", seed)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise BenchmarkError(f"{where}: {key!r} must be a whole number >= 0, not {value!r}")
    background = doc.get("background")
    if not isinstance(background, list) or not background or not all(isinstance(b, str) for b in background):
        raise BenchmarkError(f"{where}: 'background' must be a list of agent specs")
    if "random" not in background or "heuristic" not in background:
        raise BenchmarkError(f"{where}: the background must hold 'random' and 'heuristic' (the normalisation's ends)")
    envs = doc.get("envs")
    if not isinstance(envs, dict) or not all(isinstance(v, int) for v in envs.values()):
        raise BenchmarkError(f"{where}: 'envs' must map each game to its env version")
    budget = doc.get("budget", {})
    try:
        Budget.read(budget, typed=True)
    except MeepleZooError as exc:
        raise BenchmarkError(f"{where}: [budget]: {exc}") from None
    tasks = tuple(_task(where, i, t, envs) for i, t in enumerate(doc.get("task", []), 1))
    if not tasks:
        raise BenchmarkError(f"{where} has no [[task]] tables")
    if len({t.name for t in tasks}) != len(tasks):
        raise BenchmarkError(f"{where}: task names repeat")
    return Suite(name, version, seed, tuple(background), dict(envs), dict(budget), tasks, str(path))


def _keys(doc: dict[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(doc) - known)
    if unknown:
        raise BenchmarkError(f"{where}: unknown key(s) {unknown}; known: {sorted(known)}")


def _task(where: str, i: int, raw: Any, envs: dict[str, int]) -> SuiteTask:
    where = f"{where}, task {i}"
    if not isinstance(raw, dict):
        raise BenchmarkError(f"{where}: a [[task]] table, please")
    _keys(raw, _TASK, where)
    name, game, config = raw.get("name"), raw.get("game"), raw.get("config", {})
    if not isinstance(name, str) or not name or not isinstance(game, str) or not isinstance(config, dict):
        raise BenchmarkError(f"{where}: 'name' and 'game' (strings) and 'config' (a table) are required")
    if game not in envs:
        raise BenchmarkError(f"{where}: game {game!r} has no env version in [envs]")
    try:
        env = games.make_env(game, **config)
    except MeepleZooError as exc:
        raise BenchmarkError(f"{where} ({name}): {exc}") from None
    full = dict(env.unwrapped.game.config)
    players = int(env.unwrapped.game.num_players)
    counts = [raw.get("games"), raw.get("quick")]
    for key, value in zip(("games", "quick"), counts, strict=True):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1 or value % players:
            raise BenchmarkError(f"{where} ({name}): {key!r} must be a positive multiple of {players}, not {value!r}")
    if counts[1] > counts[0]:
        raise BenchmarkError(f"{where} ({name}): 'quick' ({counts[1]}) cannot exceed 'games' ({counts[0]})")
    measure = raw.get("measure")
    if (players == 1) != (measure is not None) or (measure is not None and measure not in MEASURES):
        raise BenchmarkError(f"{where} ({name}): a solo task needs 'measure' {MEASURES}, and only a solo task has one")
    return SuiteTask(name, game, full, counts[0], counts[1], measure)


def deals(task: SuiteTask, quick: bool) -> int:
    """Deals (env seeds) of ``task``: each deal seats the focal agent once in every seat (solo: one game)."""
    return math.ceil(task.count(quick) / task.players)


__all__ = ["CURRENT_VERSION", "MEASURES", "Suite", "SuiteTask", "deals", "load_suite", "read_suite", "suite_file"]
