"""Games and agents declared by entry points, read in process: the installed Goofspiel plugin
(``tests/plugins/goofspiel``, ``pip install -e``), the legacy bare env-module form (``tests/plugins/nim``, put on
the path and declared by hand) and what the registry does with declarations it cannot use. The tools on the
plugin game are in test_fifth_game.py; the wheel-installed plugin in test_installed.py."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test

from meeplezoo import games, plugins
from meeplezoo.agents import registry
from meeplezoo.envs.core.manifest import GameManifest

NIM = Path(__file__).parent / "plugins" / "nim"


@pytest.fixture
def declare(monkeypatch):
    """``declare(*entry_points, keep=True)``: the installed entry points (or none) plus these, for the registry."""
    installed = plugins._entry_points

    def with_extra(*eps: EntryPoint, keep: bool = True) -> None:
        def found(group: str) -> list[EntryPoint]:
            extra = [ep for ep in eps if ep.group == group]
            return sorted([*(installed(group) if keep else []), *extra], key=lambda ep: ep.name)

        monkeypatch.setattr(plugins, "_entry_points", found)
        games._manifests.cache_clear()

    yield with_extra
    games._manifests.cache_clear()  # rebuilt from the real entry points when next asked


# --- the installed plugin ---------------------------------------------------------------------------------
def test_the_installed_plugin_game_is_registered_under_its_distribution():
    game = games.manifest("goofspiel")
    assert (game.distribution, game.env_id, game.env_module_name) == (
        "meeplezoo-goofspiel",
        "meeplezoo-goofspiel/goofspiel-v0",
        "goofspiel_v0",
    )
    assert games.resolve("meeplezoo-goofspiel/goofspiel-v0") == games.resolve("goofspiel_v0") == "goofspiel"
    assert games.player_counts("goofspiel") == (2, 3, 4)
    assert [p.name for p in game.config_params()] == ["num_players", "cards"]
    assert game.rules().startswith("# Goofspiel")
    assert game.view_script() is None and game.table is None  # the web's generic table
    assert games.game_names()[-1] == "goofspiel"  # plugins after the built-in games


def test_the_installed_plugin_game_is_in_the_pettingzoo_and_gymnasium_registries():
    env = pettingzoo.make("aec", "meeplezoo-goofspiel/goofspiel-v0", num_players=3, cards=5)
    api_test(env, num_cycles=30)
    assert games.game_of(env) == "goofspiel"
    single = gymnasium.make("meeplezoo-goofspiel/goofspiel-single-v0", opponent="random")
    obs, _ = single.reset(seed=0)
    assert obs.shape == games.make_env("goofspiel").observation_space("player_0")["observation"].shape


def test_the_plugin_agents_are_its_manifest_s_and_its_entry_point_s_for_this_game_only():
    assert {"greedy", "match", "random", "mcts"} <= set(registry.available_agents("goofspiel"))
    assert not {"greedy", "match"} & set(registry.available_agents("seastead"))
    assert registry.agent_target("match", "goofspiel") == "meeplezoo_goofspiel.heuristic:MatchAgent"
    ep = {e.name: e.value for e in plugins._entry_points(plugins.AGENTS_GROUP)}
    assert ep["match@goofspiel"] == "meeplezoo_goofspiel.heuristic:MatchAgent"


# --- declarations ---------------------------------------------------------------------------------------
def test_games_and_agents_are_read_from_their_groups(declare):
    declare(
        EntryPoint("nim", "meeplezoo_nim.nim_v0", plugins.GAMES_GROUP),
        EntryPoint("greedy@nim", "meeplezoo_nim.bots:GreedyNimAgent", plugins.AGENTS_GROUP),
        EntryPoint("corner", "pkg.bots:Corner", plugins.AGENTS_GROUP),
        keep=False,
    )
    assert plugins.game_declarations() == [plugins.GameDeclaration("nim", "meeplezoo_nim.nim_v0", "plugin")]
    assert plugins.plugin_agents() == [
        ("corner", "pkg.bots:Corner", None),
        ("greedy", "meeplezoo_nim.bots:GreedyNimAgent", "nim"),
    ]


def test_a_bare_env_module_entry_point_still_registers_an_env_only_game(declare, monkeypatch):
    monkeypatch.syspath_prepend(str(NIM))
    declare(EntryPoint("nim", "meeplezoo_nim.nim_v0", plugins.GAMES_GROUP))
    nim = games.manifest("nim")
    assert (nim.engine, nim.env, nim.package) == (None, "meeplezoo_nim.nim_v0", "meeplezoo_nim")
    assert nim.env_id == "plugin/nim-v0"  # no distribution behind a hand-made entry point
    assert games.resolve("nim_v0") == "nim" and "seastead" in games.game_names()
    assert games.player_counts("nim") == (2, 3)  # from the module's PLAYER_COUNTS
    assert nim.config_params() == () and nim.rules() is None
    env = games.make_env("nim", num_players=3)
    env.reset(seed=0)
    rng, returns = np.random.default_rng(0), []
    while env.agents:
        obs, reward, done, cut, _ = env.last()
        returns.append(reward)
        env.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert returns.count(1.0) == 1 and sum(returns) == 0  # one seat took the last stick
    with pytest.raises(TypeError, match="nim has no MeepleZoo engine"):
        nim.engine_class()


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("meeplezoo_nim.bots", "must be 'package.module:MANIFEST' or the env module"),
        ("meeplezoo_nim.other_v0", "must be 'package.module:MANIFEST' or the env module"),  # the name differs
        ("no_such_package.manifest:MANIFEST", "cannot be loaded: ModuleNotFoundError"),
        ("meeplezoo_goofspiel.manifest:MANIFEST", "is not a GameManifest named 'nim'"),
        ("meeplezoo_goofspiel.game:GoofspielGame", "is not a GameManifest named 'nim'"),
    ],
)
def test_a_game_entry_point_the_registry_cannot_use_is_skipped_with_a_warning(declare, value, problem):
    declare(EntryPoint("nim", value, plugins.GAMES_GROUP))
    with pytest.warns(plugins.PluginWarning, match=f"game 'nim' skipped: .*{problem}"):
        names = games.game_names()
    assert "nim" not in names and {"seastead", "goofspiel"} <= set(names)


def test_a_game_name_declared_twice_keeps_one_with_a_warning(declare):
    declare(EntryPoint("goofspiel", "evil.goofspiel_v0", plugins.GAMES_GROUP))
    with pytest.warns(plugins.PluginWarning, match="game 'goofspiel' of .* skipped: .* declares it too"):
        declared = [d for d in plugins.game_declarations() if d.name == "goofspiel"]
    assert len(declared) == 1


def test_built_in_agent_names_win(monkeypatch):
    monkeypatch.setattr(
        plugins,
        "_entry_points",
        lambda group: [
            EntryPoint("fresh", "pkg:Fresh", group),
            EntryPoint("random@goofspiel", "pkg:Fake", group),
        ],
    )
    registered = []
    taken = {("random", "goofspiel")}
    with pytest.warns(plugins.PluginWarning, match="'random' skipped"):
        plugins.register_plugin_agents(
            lambda name, target, game=None: registered.append((name, target, game)),
            lambda name, game: (name, game) in taken,
        )
    assert registered == [("fresh", "pkg:Fresh", None)]


def test_a_plugin_game_whose_package_is_missing_fails_in_one_line_and_list_still_works(declare, capsys):
    from meeplezoo import cli

    declare(EntryPoint("ghost", "ghost_pkg.ghost_v0", plugins.GAMES_GROUP))
    assert isinstance(games.manifest("ghost"), GameManifest)  # declared; nothing imported yet
    with pytest.raises(games.UnknownGameError, match=r"game 'ghost' \(plugin/ghost-v0\) cannot be imported"):
        games.env_module("ghost")
    code = cli.main(["list"])
    out, _ = capsys.readouterr()
    assert code == 0 and "seastead" in out and "goofspiel" in out and "ghost" in out
    code = cli.main(["play", "ghost"])
    _, err = capsys.readouterr()
    assert code == 2 and "game 'ghost' (plugin/ghost-v0) cannot be imported" in err
    assert err.count("\n") == 1
