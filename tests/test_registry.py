"""The one registry (meeplezoo/games.py): built-in games are read from the ``meeplezoo.games`` entry point like
plugins, and a declaration MeepleZoo cannot use is skipped with a warning, never breaking the others."""

from __future__ import annotations

import dataclasses
from importlib.metadata import EntryPoint
from types import SimpleNamespace

import pytest

from meeplezoo import games, plugins
from meeplezoo.envs.core.manifest import GameManifest


@pytest.fixture
def declared(monkeypatch):
    """Replace the installed ``meeplezoo.games`` entry points by the given ones (the registry is read afresh)."""

    def use(*eps: EntryPoint) -> list[GameManifest]:
        monkeypatch.setattr(plugins, "_entry_points", lambda group: list(eps) if group == plugins.GAMES_GROUP else [])
        games._manifests.cache_clear()
        return games.manifests()

    yield use
    games._manifests.cache_clear()


def test_every_built_in_game_is_declared_by_the_meeplezoo_distribution_like_a_plugin():
    found = {d.name: d for d in plugins.game_declarations()}
    for manifest in games.manifests():
        if manifest.distribution != "meeplezoo":
            continue
        assert found[manifest.name].value == f"{manifest.package}.manifest:MANIFEST"
        assert manifest.env_id == f"meeplezoo/{manifest.name}-v{manifest.version}"
        assert manifest.package == f"meeplezoo.envs.{manifest.name}"


def test_names_resolve_from_the_short_name_the_env_module_and_the_registry_id():
    for manifest in games.manifests():
        for name in (manifest.name, manifest.env_module_name, manifest.env_id):
            assert games.resolve(name) == manifest.name
    with pytest.raises(games.UnknownGameError, match="unknown game 'chess'"):
        games.resolve("chess")


def test_listing_order_is_the_manifests_order_then_the_name(declared):
    base = games.manifest(games.game_names()[0])
    value = f"{base.package}.manifest:MANIFEST"
    got = declared(EntryPoint(base.name, value, plugins.GAMES_GROUP))
    assert [m.name for m in got] == [base.name] and got[0].distribution == "plugin"


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("not a reference", "must be 'package.module:MANIFEST'"),
        ("meeplezoo.no_such_module:MANIFEST", "cannot be loaded: ModuleNotFoundError"),
        ("meeplezoo.games:manifests", "is not a GameManifest named 'ghost'"),
    ],
)
def test_an_unusable_declaration_is_skipped_with_a_warning(declared, value, why):
    good = games.manifest(games.game_names()[0])
    eps = (
        EntryPoint("ghost", value, plugins.GAMES_GROUP),
        EntryPoint(good.name, f"{good.package}.manifest:MANIFEST", ""),
    )
    with pytest.warns(plugins.PluginWarning, match=why):
        got = declared(*eps)
    assert [m.name for m in got] == [good.name]


def test_a_manifest_under_another_name_is_refused(declared):
    good = games.manifest(games.game_names()[0])
    with pytest.warns(plugins.PluginWarning, match="is not a GameManifest named 'other'"):
        assert declared(EntryPoint("other", f"{good.package}.manifest:MANIFEST", plugins.GAMES_GROUP)) == []


def test_a_bare_env_module_declaration_gets_an_env_only_manifest():
    found = plugins.GameDeclaration("tictactoe", "some_pkg.tictactoe_v3", "meeplezoo-ttt")
    manifest = games._from_env_module(found)
    assert manifest is not None
    assert (manifest.env, manifest.version, manifest.engine, manifest.package) == (
        "some_pkg.tictactoe_v3",
        3,
        None,
        "some_pkg",
    )
    assert dataclasses.replace(manifest, distribution="meeplezoo-ttt").env_id == "meeplezoo-ttt/tictactoe-v3"
    assert games._from_env_module(plugins.GameDeclaration("other", "some_pkg.tictactoe_v3", "x")) is None


def test_every_manifest_names_things_that_load():
    from meeplezoo.envs.core.manifest import load

    for manifest in games.manifests():
        module = manifest.env_module()
        assert callable(module.env) and callable(module.raw_env)
        if manifest.engine:
            assert manifest.engine_class().name == manifest.name
            assert [p.name for p in manifest.config_params()] == list(manifest.engine_class().defaults)
        for target in manifest.agents.values():
            assert callable(load(target))
        if manifest.search:
            assert load(manifest.search).estimate is not None
        assert manifest.rules(), f"{manifest.name} ships no rules page"
        for fn in manifest.value_models.values():
            assert callable(load(fn))
        assert set(games.player_counts(manifest.name)) == set(getattr(module, "PLAYER_COUNTS", manifest.player_counts))


def _declared_by(distribution: str, name: str, value: str) -> SimpleNamespace:
    """An entry point as importlib.metadata gives it, from ``distribution``."""
    return SimpleNamespace(name=name, value=value, dist=SimpleNamespace(metadata={"Name": distribution}))


def test_a_plugin_reusing_a_built_in_name_is_skipped_whatever_the_order(declared):
    good = games.manifest(games.game_names()[0])
    value = f"{good.package}.manifest:MANIFEST"
    impostor = _declared_by("aaa-first-by-name", good.name, "meeplezoo.games:manifests")
    with pytest.warns(plugins.PluginWarning, match=f"{good.name!r} of aaa-first-by-name skipped: meeplezoo declares"):
        got = declared(impostor, _declared_by("meeplezoo", good.name, value))
    assert [(m.name, m.distribution) for m in got] == [(good.name, "meeplezoo")]
