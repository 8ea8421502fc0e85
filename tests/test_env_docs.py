"""Every registered game's env module docstring (its documentation page, ``envs/<game>/env.py`` for MeepleZoo's
own games) agrees with the env it documents: spaces, agents, registry id, config keys and defaults, player
counts."""

from __future__ import annotations

import re

import numpy as np
import pytest

from meeplezoo import games
from meeplezoo.cli import players_text
from meeplezoo.envs.core.adapter import ADAPTER_KEYS
from meeplezoo.envs.core.manifest import load

GAMES = games.game_names()


def rows(doc: str) -> dict[str, str]:
    """The ``====`` table of a docstring: first column -> the rest (continuation lines joined)."""
    table = doc.split("====\n", 1)[1].split("\n====")[0]
    out: dict[str, str] = {}
    last = None
    for line in table.splitlines():
        if line[:1].strip():
            last, _, rest = line.partition("  ")
            out[last] = rest.strip()
        elif last:
            out[last] += " " + line.strip()
    return out


@pytest.fixture(params=GAMES)
def documented(request):
    module = games.env_module(request.param)
    return request.param, module, rows(module.__doc__)


def test_import_and_registry_id(documented):
    """The Import row's statement binds the env module under its PettingZoo name (``seastead_v0``); the registry id
    and the rules command are the game's."""
    game, module, row = documented
    manifest = games.manifest(game)
    statement = re.search(r"``(from [\w.]+ import \w+(?: as \w+)?)``", row["Import"]).group(1)
    bound = statement.split()[-1]
    assert bound == manifest.env_module_name, statement
    namespace: dict = {}
    exec(statement, namespace)
    assert namespace[bound] is module, f"{statement} does not give {manifest.env}"
    assert f'"{manifest.env_id}"' in row["Registry id"]
    assert f"meeplezoo rules {game}" in row["Rules"]


def test_agents(documented):
    game, module, row = documented
    env = module.env()
    if re.search(r"player_\{n-1\}", row["Agents"]):
        assert len(games.player_counts(game)) > 1
    else:
        assert re.findall(r"player_\d+", row["Agents"]) == env.possible_agents


def test_actions_and_action_mask(documented):
    game, module, row = documented
    n = module.env().action_space("player_0").n
    stated = re.search(r"Discrete\((\w+)\)", row["Actions"]).group(1)
    assert stated == str(n) or not stated.isdigit(), f"{game}: docstring says Discrete({stated}), the space is {n}"
    mask = re.search(r"int8\[(\w+)\]", row["Observations"]).group(1)
    assert mask == stated


@pytest.mark.parametrize("game", GAMES)
def test_observation_bounds_are_the_spaces_and_hold_in_play(game):
    module = games.env_module(game)
    row = rows(module.__doc__)
    low, high = map(float, re.search(r"float32\[\w+\] in \[(-?\d+), (-?\d+)\]", row["Observations"]).groups())
    env = module.env()
    box = env.observation_space("player_0")["observation"]
    assert box.dtype == np.float32
    assert (float(box.low.min()), float(box.high.max())) == (low, high), f"{game}: docstring [{low}, {high}], {box}"
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = env.last()
        assert low <= obs["observation"].min() and obs["observation"].max() <= high
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(rng.choice(legal)))
        assert agent  # an agent was selected


def test_config_keys_defaults_and_player_counts(documented):
    game, module, row = documented
    config = row["Config"]
    defaults = module.env().unwrapped.game.defaults
    for key, value in defaults.items():
        assert f"{key}={value!r}" in config.replace('"', "'"), f"{game}: {key}={value!r} missing from Config"
    for key in ADAPTER_KEYS:
        assert key in config, f"{game}: adapter key {key} missing from Config"
    if "num_players" in defaults:
        stated = re.search(r"num_players=\d+`` \((\d+-\d+)\)", config).group(1)
        assert stated == players_text(games.player_counts(game))


def other_configs(game: str) -> list[dict]:
    """The configurations the game's conformance settings play, without their player counts (Concordia's maps
    take different counts)."""
    ref = games.manifest(game).conformance
    cases = load(ref).cases if ref else ()
    return [{k: v for k, v in case.config.items() if k != "num_players"} for case in cases]


@pytest.mark.parametrize("game", GAMES)
def test_player_counts_are_exactly_those_some_config_accepts(game):
    from meeplezoo.envs.core.errors import ConfigError

    counts = games.player_counts(game)
    configs = [{}, *other_configs(game)]

    def accepts(n: int) -> bool:
        for extra in configs:
            try:
                env = games.make_env(game, num_players=n, **extra)
            except ConfigError:
                continue
            return len(env.possible_agents) == n
        return False

    if "num_players" not in games.make_env(game).unwrapped.game.defaults:
        assert counts == (len(games.make_env(game).possible_agents),)
        return
    for n in range(1, 9):
        assert accepts(n) == (n in counts), f"{game}: {n} players"
