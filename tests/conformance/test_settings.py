"""How the suite reads a game's conformance settings from its manifest (:mod:`games`), the defaults included."""

from __future__ import annotations

import dataclasses

from games import CASES, cases_of

from meeplezoo import games
from meeplezoo.envs.core.conformance import DEFAULT_SETTINGS, ConformanceCase, ConformanceSettings, Sizes


def test_a_game_without_settings_is_played_once_per_player_count_with_the_default_sizes():
    manifest = dataclasses.replace(games.manifests()[0], conformance=None, player_counts=(2, 3))
    cases = cases_of(manifest)
    assert [c.config for c in cases] == [{"num_players": 2}, {"num_players": 3}]
    assert all(c.settings is DEFAULT_SETTINGS and c.sizes == Sizes() and c.shared_win is None for c in cases)
    assert [c.id for c in cases] == [f"{manifest.name}-num_players=2", f"{manifest.name}-num_players=3"]


def test_default_configurations():
    settings = ConformanceSettings()
    assert settings.configurations((2,), ["num_players"]) == (ConformanceCase(),)
    assert settings.configurations((2, 4), ["seed_deck"]) == (ConformanceCase(),)  # no player count to set
    assert settings.configurations((1, 2), ["num_players"]) == (
        ConformanceCase({"num_players": 1}),
        ConformanceCase({"num_players": 2}),
    )
    declared = (ConformanceCase({"num_players": 2}, Sizes(fuzz_games=1)),)
    assert ConformanceSettings(cases=declared).configurations((1, 2), ["num_players"]) == declared


def test_a_case_takes_its_own_sizes_and_the_shared_win_only_where_it_applies():
    def tie(record):
        return record

    settings = ConformanceSettings(
        cases=(ConformanceCase(), ConformanceCase({"num_players": 1}, Sizes(fuzz_games=2), shared_win=False)),
        sizes=Sizes(fuzz_games=5),
        shared_win=tie,
    )
    base, solo = cases_of(games.manifests()[0], settings)
    assert (base.sizes.fuzz_games, base.shared_win) == (5, tie)
    assert (solo.sizes.fuzz_games, solo.shared_win) == (2, None)


def test_every_case_id_is_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
