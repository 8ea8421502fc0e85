"""The env-version tripwire: a fingerprint of what decides each built-in game's results, checked against the record.

    python scripts/env_fingerprints.py            # print <name>_v<version> <fingerprint>, one line per game
    python scripts/env_fingerprints.py --check    # exit 1 if a game's results changed but its env version did not
    python scripts/env_fingerprints.py --write    # record the current fingerprints in envs/fingerprints.json

Any change to a game that can change results bumps its env version (``seastead_v0`` -> ``seastead_v1``, the
PettingZoo rule; ``docs/benchmark.md``), so that a benchmark suite, a score card or a stored game that names
``seastead_v0`` keeps meaning the same game. The fingerprint of a game is a short sha256 of seeded games at every
config in :data:`CONFIGS` (each player count, and the variants the benchmark suite plays), played by seeded random
agents and by the game's baseline heuristic through :func:`meeplezoo.agents.play_game`, the loop the arena and the
benchmark use: at each decision the acting seat, its observation, its legal actions and the action taken; at the
end each seat's score, rank and reward, the decision count and whether the game was cut off.

``envs/fingerprints.json`` maps each ``<name>_v<version>`` to its fingerprint, beside the numpy version that made
them: numpy's generators feed every deal, so a numpy upgrade that changes its streams changes the fingerprints
without any game changing (then regenerate with ``--write``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from behaviour_digest import _feed

#: the recorded fingerprints (a repo file read by this script and its test; not installed)
FILE = Path(__file__).resolve().parent.parent / "envs" / "fingerprints.json"
#: the configs each game is fingerprinted at: every player count, and the variants the benchmark suite plays
#: (a built-in game missing here is fingerprinted at each of its manifest's player counts)
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "seastead": [{"num_players": 1}, {"num_players": 2}, {"num_players": 2, "sides": "BBBB", "decree": "random"}],
    "concordia": [{"num_players": n} for n in (2, 3, 4)] + [{"num_players": 5, "map": "imperium"}],
    "board_royale": [{"num_players": n} for n in (2, 3, 4, 5, 6)],
    "resafa": [{"num_players": n} for n in (1, 2, 3, 4)],
}
#: seeded games per (config, agent): all four games together take about 5 CPU seconds
GAMES = 3
#: the first deal's env seed (deal g is seed SEED + g; seat i's agent is seeded 10 * g + i)
SEED = 1000
#: the fingerprint's length in hex digits (64 bits)
LENGTH = 16
REGENERATE = "python scripts/env_fingerprints.py --write"


def builtin_games() -> list[str]:
    """The registered games MeepleZoo itself ships (packages under ``meeplezoo.envs``), in listing order."""
    from meeplezoo import games

    return [m.name for m in games.manifests() if m.package.startswith("meeplezoo.envs.")]


def configs(game: str) -> list[dict[str, Any]]:
    """The configs ``game`` is fingerprinted at (:data:`CONFIGS`, else one per player count)."""
    from meeplezoo import games

    if game in CONFIGS:
        return CONFIGS[game]
    return [{"num_players": n} for n in games.manifest(game).player_counts]


def versioned_name(game: str) -> str:
    """The env's versioned name (``board_royale_v1``) from its manifest: the key of its fingerprint."""
    from meeplezoo import games

    return games.manifest(game).env_module_name


def fingerprint(game: str, games_per: int = GAMES) -> str:
    """The fingerprint of ``game``: see the module docstring."""
    from meeplezoo import games
    from meeplezoo.agents import play_game
    from meeplezoo.agents.registry import make_agent

    h = hashlib.sha256()

    def decision(env: Any, agent: str, action: int) -> None:
        obs = env.observe(agent)
        _feed(h, agent, obs["observation"], np.flatnonzero(obs["action_mask"]), action)

    for config in configs(game):
        for spec in ("random", games.manifest(game).baseline_agent):
            for g in range(games_per):
                env = games.make_env(game, **config)
                seats = {a: make_agent(spec, game, seed=10 * g + i) for i, a in enumerate(env.possible_agents)}
                record = play_game(env, seats, seed=SEED + g, on_decision=decision)
                _feed(h, config, spec, record.scores, record.ranks, record.rewards, record.steps, record.truncated)
    return h.hexdigest()[:LENGTH]


def current(names: Iterable[str] | None = None) -> dict[str, str]:
    """``<name>_v<version>`` -> fingerprint of each game in ``names`` (default: every built-in game)."""
    return {versioned_name(game): fingerprint(game) for game in (builtin_games() if names is None else names)}


def read_recorded(path: Path = FILE) -> dict[str, str]:
    """The recorded fingerprints (and the ``numpy`` version that made them); ValueError with one line if unreadable."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}; make it with {REGENERATE}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}); remake it with {REGENERATE}") from None
    if not isinstance(doc, dict) or not all(isinstance(v, str) for v in doc.values()):
        raise ValueError(f"{path} must map each <name>_v<version> to its fingerprint; remake it with {REGENERATE}")
    return doc


def write(fingerprints: Mapping[str, str], path: Path = FILE) -> None:
    """Record ``fingerprints`` (only these: older versions' entries go) with the numpy version that made them."""
    doc = {**fingerprints, "numpy": np.__version__}
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def check(fingerprints: Mapping[str, str], recorded: Mapping[str, str]) -> list[str]:
    """One line per game of ``fingerprints`` whose results changed while its env version did not, or whose env
    version is not recorded yet; [] when all match. A change under another numpy than the record's adds a note:
    the streams, not the game, may have changed."""
    problems, changed = [], False
    for name, digest in fingerprints.items():
        game, _, version = name.rpartition("_v")
        if name not in recorded:
            problems.append(f"{name}: new env version, not recorded yet: run {REGENERATE}")
        elif recorded[name] != digest:
            changed = True
            problems.append(
                f"{game}'s results changed but its env version is still v{version}: bump `version` in "
                f"envs/{game}/manifest.py (the PettingZoo rule; docs/benchmark.md), then run {REGENERATE}"
            )
    made_with = recorded.get("numpy")
    if changed and made_with != np.__version__:
        problems.append(
            f"note: the fingerprints were recorded with numpy {made_with}, this is numpy {np.__version__}: the random "
            f"streams may have changed with numpy rather than the games; if no game's rules changed, regenerate "
            f"them with {REGENERATE} (no version bump)"
        )
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help=f"compare with {FILE.name}; exit 1 naming each problem")
    mode.add_argument("--write", action="store_true", help=f"record the current fingerprints in {FILE.name}")
    args = p.parse_args(argv)
    recorded: dict[str, str] = {}
    if args.check:
        try:
            recorded = read_recorded(FILE)
        except ValueError as exc:
            print(f"env_fingerprints: {exc}", file=sys.stderr)
            return 2
    fingerprints = {}
    for game in builtin_games():
        name, digest = versioned_name(game), fingerprint(game)
        fingerprints[name] = digest
        print(name, digest, flush=True)
    if args.write:
        write(fingerprints, FILE)
        print(f"wrote {FILE} (numpy {np.__version__})")
    if args.check:
        problems = check(fingerprints, recorded)
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
