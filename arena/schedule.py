"""Who plays whom, in which seat, with which seed: a study as a fixed list of :class:`Task` s.

A :class:`Study` is one game configuration, a list of agent specs, a seat count and a number of games per
lineup. Lineups: head-to-head when there are as many agents as seats, else a round robin over every
combination of agents for the seat count (with fewer agents than seats, every multiset that uses each agent
at least once). Seatings: every distinct seat permutation of a lineup, used equally often (when a lineup
has more permutations than games, its cyclic rotations instead, so each agent still sits in every seat
equally often). Games of a lineup are played in *deals*: one seed per deal, every seating of the lineup
plays that seed (mirrored games), and deal ``d`` of every lineup uses the same seed ``study.seed + d``.
Games per lineup are rounded up to a whole number of deals.

Every task has a key (a hash of game, config, seats, seed and time limit); the store records a game by its
key, so running a schedule again plays only what is missing, and the same study reproduces bit for bit.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import games
from ..agents.registry import agent_target, canonical_spec
from ..agents.run_options import DEFAULT_TIME_LIMIT
from ..agents.spec import parse_spec
from ..envs.core.errors import MeepleZooError
from ..options import MAX_GAMES, MAX_SEED
from .errors import ArenaError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass(frozen=True, slots=True)
class Task:
    """One scheduled game: plain data, sent to worker processes or Ray tasks as is."""

    key: str
    game: str
    config: dict[str, Any]  # the game's full config (defaults merged)
    seats: tuple[str, ...]  # agent spec per seat
    seed: int  # env seed
    agent_seeds: tuple[int, ...]
    deal: int
    time_limit: float | None
    imports: tuple[str, ...] = ()
    isolation: str = "process"  # "process": each agent in its own process; "none": in the referee's (trusted)
    budget: dict[str, Any] | None = None  # the agent processes' budget keys besides time_limit (agents.budget)
    preload: tuple[str, ...] = ()  # what the agent processes' fork server imports (every task of the run's)


@dataclass
class Study:
    """One part of a tournament: a game configuration, the agents and how many games per lineup."""

    game: str
    agents: list[str]
    seats: int | None = None  # None: the game's default player count
    games: int = 100  # per lineup
    config: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    time_limit: float | None = DEFAULT_TIME_LIMIT


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of the game seeded ``game_seed``."""
    return int(np.random.SeedSequence([game_seed, seat]).generate_state(1, np.uint32)[0])


def task_key(game: str, config: dict[str, Any], seats: Sequence[str], seed: int, time_limit: float | None) -> str:
    doc = json.dumps([game, config, list(seats), seed, time_limit], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(doc.encode()).hexdigest()[:24]


def game_config(game: str, config: dict[str, Any], seats: int | None) -> dict[str, Any]:
    """The full config of ``game`` for ``seats`` players (``ConfigError``/:class:`ArenaError` if not allowed)."""
    name = games.resolve(game)
    env = games.make_env(name, **config)
    g = env.unwrapped.game
    if seats is None or seats == g.num_players:
        return dict(g.config)
    if "num_players" not in type(g).defaults:
        raise ArenaError(f"{name} is played by exactly {g.num_players} players; --seats {seats} is not allowed")
    return dict(games.make_env(name, **{**config, "num_players": seats}).unwrapped.game.config)


def lineups(num_agents: int, seats: int) -> list[tuple[int, ...]]:
    """Agent indices per lineup (sorted within a lineup): head-to-head, round robin or repeated agents."""
    if num_agents >= seats:
        return list(itertools.combinations(range(num_agents), seats))
    return [c for c in itertools.combinations_with_replacement(range(num_agents), seats) if len(set(c)) == num_agents]


def seatings(lineup: tuple[int, ...], games_per_lineup: int) -> list[tuple[int, ...]]:
    """The seatings of a lineup used in each deal: all distinct permutations, or its rotations if too many."""
    perms = sorted(set(itertools.permutations(lineup)))
    if len(perms) <= games_per_lineup:
        return perms
    rotations = []
    for r in range(len(lineup)):
        rot = lineup[r:] + lineup[:r]
        if rot not in rotations:
            rotations.append(rot)
    return rotations


def _label(spec: str, game: str) -> str:
    """``spec`` in its canonical form (MeepleZoo's own agents: reading another's parameters would import its code
    here); as written otherwise, or when it makes no agent (``validate`` says why)."""
    try:
        if agent_target(parse_spec(spec)[0], game).startswith("meeplezoo."):
            return canonical_spec(spec, game)
    except MeepleZooError:
        pass
    return spec.strip()


def schedule(study: Study, imports: Sequence[str] = ()) -> list[Task]:
    """Every game of ``study``, deal by deal (so a partial run is balanced across lineups and seats)."""
    name = games.resolve(study.game)
    if not 1 <= study.games <= MAX_GAMES:
        raise ArenaError(f"games must be at least 1 and at most {MAX_GAMES}, not {study.games}")
    if not 0 <= study.seed <= MAX_SEED:  # numpy seeds are not negative, SQLite integers end at 2**63
        raise ArenaError(f"seed must be a whole number from 0 to {MAX_SEED}, not {study.seed}")
    if not study.agents:
        raise ArenaError("give at least one agent")
    agents = [_label(spec, name) for spec in study.agents]
    if len(set(agents)) != len(agents):
        raise ArenaError(f"each agent once, please: {study.agents} repeats one (lineups repeat agents as needed)")
    config = game_config(name, study.config, study.seats)
    n = games.make_env(name, **config).unwrapped.game.num_players
    if len(agents) == 1 and n > 1:
        raise ArenaError(f"one agent cannot play a tournament; give at least 2 for {n} seats")
    plan = [(lineup, seatings(lineup, study.games)) for lineup in lineups(len(agents), n)]
    deals = max(math.ceil(study.games / len(s)) for _, s in plan)
    tasks = []
    for deal in range(deals):
        seed = study.seed + deal
        for _, seats_list in plan:
            if deal >= math.ceil(study.games / len(seats_list)):
                continue  # this lineup has its games already (it has more seatings than others)
            for seating in seats_list:
                specs = tuple(agents[i] for i in seating)
                tasks.append(
                    Task(
                        key=task_key(name, config, specs, seed, study.time_limit),
                        game=name,
                        config=config,
                        seats=specs,
                        seed=seed,
                        agent_seeds=tuple(agent_seed(seed, s) for s in range(n)),
                        deal=deal,
                        time_limit=study.time_limit,
                        imports=tuple(imports),
                    )
                )
    return tasks


# --- study files ----------------------------------------------------------------------------------------------

_STUDY_KEYS = {"game", "agents", "seats", "games", "config", "seed", "time_limit"}


def load_studies(path: str | Path) -> list[Study]:
    """Studies from a TOML file: top-level defaults and one ``[[study]]`` table per game configuration.

    ::

        agents = ["random", "heuristic"]   # defaults for every study
        games = 50
        seed = 1
        [[study]]
        game = "seastead"
        [[study]]
        game = "concordia"
        seats = [2, 4]                     # a list: one study per seat count
        config = { map = "italia" }
    """
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ArenaError(f"cannot read study file {path}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ArenaError(f"study file {path} is not valid TOML: {exc}") from exc
    defaults = {k: v for k, v in doc.items() if k != "study"}
    parts = doc.get("study", [])
    if not isinstance(parts, list) or not parts:
        raise ArenaError(f"study file {path} has no [[study]] tables")
    studies = []
    for i, part in enumerate(parts, 1):
        merged = {**defaults, **part}
        unknown = sorted(set(merged) - _STUDY_KEYS)
        if unknown:
            raise ArenaError(f"study file {path}, study {i}: unknown key(s) {unknown}; known: {sorted(_STUDY_KEYS)}")
        if "game" not in merged or "agents" not in merged:
            raise ArenaError(f"study file {path}, study {i}: 'game' and 'agents' are required")
        seats = merged.pop("seats", None)
        for n in seats if isinstance(seats, list) else [seats]:
            studies.append(_study(path, i, {**merged, "seats": n}))
    return studies


_RANGES = {
    "games": f" (a whole number from 1 to {MAX_GAMES})",
    "seed": f" (a whole number from 0 to {MAX_SEED})",
    "time_limit": " (seconds per decision, 0: no limit)",
}


def _study(path: Path, i: int, fields: dict[str, Any]) -> Study:
    checks = {
        "game": lambda v: isinstance(v, str),
        "agents": lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v),
        "seats": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
        "games": lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_GAMES,
        "config": lambda v: isinstance(v, dict),
        "seed": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SEED,
        "time_limit": lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v < math.inf,
    }
    for key, ok in checks.items():
        if key in fields and not ok(fields[key]):
            raise ArenaError(
                f"study file {path}, study {i}: bad value for {key!r}: {fields[key]!r}{_RANGES.get(key, '')}"
            )
    if fields.get("time_limit") == 0:
        fields["time_limit"] = None
    return Study(**fields)


def validate(study: Study, imports: Sequence[str] = (), isolation: str = "process") -> list[Task]:
    """The study's schedule, after checking the game, seats and every agent spec (one-line errors).

    The ``imports`` (``--import`` modules) run in this process only for ``isolation="none"`` or when they register
    the study's game; otherwise the agents they bring are checked in an agent process (:func:`.play.check_spec`).
    """
    from .play import check_spec, import_plugins

    if isolation == "none" or study.game not in games.game_names():
        import_plugins(imports)
    try:
        tasks = schedule(study, imports)
        for spec in study.agents:
            check_spec(spec, tasks[0].game, imports, isolation)
    except ArenaError:
        raise
    except MeepleZooError as exc:
        raise ArenaError(str(exc)) from exc
    return tasks
