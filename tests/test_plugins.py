"""Plugin discovery from entry points, in process (the installed plugin is played in test_installed.py)."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from meeplezoo import cli, games, plugins


def entry_points_of(*eps: EntryPoint):
    return lambda group: sorted((ep for ep in eps if ep.group == group), key=lambda ep: ep.name)


def test_games_and_agents_are_read_from_their_groups(monkeypatch):
    monkeypatch.setattr(
        plugins,
        "_entry_points",
        entry_points_of(
            EntryPoint("nim", "meeplezoo_nim.nim_v0", plugins.GAMES_GROUP),
            EntryPoint("greedy@nim", "meeplezoo_nim.bots:GreedyNimAgent", plugins.AGENTS_GROUP),
            EntryPoint("corner", "pkg.bots:Corner", plugins.AGENTS_GROUP),
        ),
    )
    (game,) = plugins.plugin_games.__wrapped__()
    assert (game.name, game.package, game.module) == ("nim", "meeplezoo_nim", "nim_v0")
    assert game.env_id == "plugin/nim-v0"  # no distribution behind a hand-made entry point
    assert plugins.plugin_agents() == [
        ("corner", "pkg.bots:Corner", None),
        ("greedy", "meeplezoo_nim.bots:GreedyNimAgent", "nim"),
    ]


def test_a_game_entry_point_that_is_not_an_env_module_is_skipped_with_a_warning(monkeypatch):
    monkeypatch.setattr(
        plugins, "_entry_points", entry_points_of(EntryPoint("nim", "meeplezoo_nim.bots:Nim", plugins.GAMES_GROUP))
    )
    with pytest.warns(plugins.PluginWarning, match="must be the env module"):
        assert plugins.plugin_games.__wrapped__() == ()


def test_built_in_agent_names_win(monkeypatch):
    monkeypatch.setattr(
        plugins,
        "_entry_points",
        entry_points_of(
            EntryPoint("random@seastead", "pkg:Fake", plugins.AGENTS_GROUP),
            EntryPoint("fresh", "pkg:Fresh", plugins.AGENTS_GROUP),
        ),
    )
    registered = []
    taken = {("random", "seastead")}
    with pytest.warns(plugins.PluginWarning, match="'random' skipped"):
        plugins.register_plugin_agents(
            lambda name, target, game=None: registered.append((name, target, game)),
            lambda name, game: (name, game) in taken,
        )
    assert registered == [("fresh", "pkg:Fresh", None)]


@pytest.fixture
def ghost(monkeypatch):
    """A plugin game whose package is not installed."""
    game = plugins.PluginGame("ghost", "ghost-dist/ghost-v0", "ghost_pkg", "ghost_v0", "ghost-dist")
    monkeypatch.setattr(games, "plugin_games", lambda: (game,))
    return game


def test_a_broken_plugin_game_is_a_one_line_error_and_list_still_works(capsys, ghost):
    assert "ghost" in games.game_names() and games.entry("ghost").env_id == ghost.env_id
    code = cli.main(["list"])
    out, _ = capsys.readouterr()
    assert code == 0 and "seastead" in out and "unavailable: plugin game 'ghost'" in out
    code = cli.main(["play", "ghost"])
    _, err = capsys.readouterr()
    assert code == 2 and "plugin game 'ghost' (ghost-dist/ghost-v0) cannot be imported" in err
    assert err.count("\n") == 1


def test_a_plugin_game_cannot_shadow_a_built_in_one(monkeypatch):
    monkeypatch.setattr(
        plugins, "_entry_points", entry_points_of(EntryPoint("seastead", "evil.seastead_v0", plugins.GAMES_GROUP))
    )
    with pytest.warns(plugins.PluginWarning, match="'seastead' skipped: the name is built in"):
        assert plugins.plugin_games.__wrapped__() == ()
    fake = plugins.PluginGame("seastead", "evil/seastead-v0", "evil", "seastead_v0", "evil")
    monkeypatch.setattr(games, "plugin_games", lambda: (fake,))
    assert games.entry("seastead").package == "meeplezoo.envs"
