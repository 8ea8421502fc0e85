"""Setup for 2-5 players on both maps (seed: "Oyun Hazırlığı", components) and the configuration errors."""

from __future__ import annotations

from collections import Counter

import pytest
from concordia_scenario import fresh, goods

from meeplezoo.envs.concordia import ConcordiaGame
from meeplezoo.envs.concordia.content import CARDS, CITY_TOKENS, COLONISTS, STARTING_HAND, Act
from meeplezoo.envs.concordia.state import NO, board_of, storehouse_used
from meeplezoo.envs.concordia.steps import Step
from meeplezoo.envs.core import ConfigError

CONFIGS = [(2, "italia"), (3, "italia"), (4, "italia"), (3, "imperium"), (4, "imperium"), (5, "imperium")]
FOR_SALE = {1: 8, 2: 7, 3: 6, 4: 5, 5: 4}  # cards in decks I..V


@pytest.mark.parametrize(("n", "board"), CONFIGS)
def test_setup_money_storehouse_colonists_hands_and_praefectus_magnus(n, board):
    s = fresh(n, board, seed=11)
    d = s.d
    m = board_of(d)
    assert d.money == [5 + seat for seat in range(n)]
    for seat in range(n):
        assert goods(s, seat) == [1, 2, 1, 1, 1]  # brick, food, tool, wine, cloth
        assert d.col[seat * COLONISTS : seat * COLONISTS + COLONISTS] == [m.roma, NO, NO, m.roma, NO, NO]
        assert storehouse_used(d, seat) == 6 + 4
        assert d.hand[seat] == list(STARTING_HAND) and d.discard[seat] == [] and d.houses[seat] == []
    starting = Counter(CARDS[c].action for c in STARTING_HAND)
    assert starting == {
        Act.TRIBUNE: 1,
        Act.ARCHITECT: 1,
        Act.PREFECT: 2,
        Act.MERCATOR: 1,
        Act.DIPLOMAT: 1,
        Act.SENATOR: 1,
    }
    assert d.pm == n - 1 and d.concordia == NO and d.active == 0
    assert d.stack == [(Step.MAIN, 0, 0, 0)] and all(r == NO for r in d.route_occ)
    assert d.marker == [1] * len(m.provinces)


@pytest.mark.parametrize(("n", "board"), CONFIGS)
def test_forum_holds_seven_deck_one_cards_and_the_deck_has_decks_one_to_n_with_one_on_top(n, board):
    d = fresh(n, board, seed=5).d
    assert all(CARDS[c].deck == 1 for c in d.forum) and len(d.forum) == 7
    assert len(d.deck) == sum(FOR_SALE[k] for k in range(1, n + 1)) - 7
    bands = [CARDS[c].deck for c in reversed(d.deck)]  # from the top
    assert bands == sorted(bands) and bands[0] == 1 and bands[-1] == n
    assert set(bands) == set(range(1, n + 1))


@pytest.mark.parametrize(("n", "board"), CONFIGS)
def test_city_tokens_are_shuffled_per_letter_and_markers_show_the_most_valuable_good(n, board):
    d = fresh(n, board, seed=3).d
    m = board_of(d)
    for letter, tokens in CITY_TOKENS.items():
        cities = [c for c in range(m.num_cities) if m.letter[c] == letter]
        if board == "italia" and letter == "D":
            assert cities == []  # seed: "'D' jetonları Italia haritasında kullanılmaz"
            continue
        assert sorted(d.city_good[c] for c in cities) == sorted(tokens)
    assert d.city_good[m.roma] == NO
    for p, cities in enumerate(m.province_cities):
        assert d.province_good[p] == max(d.city_good[c] for c in cities if c != m.roma)


def test_city_tokens_differ_between_seeds():
    assert fresh(4, seed=1).d.city_good != fresh(4, seed=2).d.city_good


def test_italia_has_11_provinces_and_imperium_12():
    assert len(board_of(fresh(2).d).provinces) == 11
    assert len(board_of(fresh(3, "imperium").d).provinces) == 12


@pytest.mark.parametrize(
    "config",
    [
        {"num_players": 2, "map": "imperium"},
        {"num_players": 5, "map": "italia"},
        {"num_players": 1, "map": "italia"},
        {"num_players": 6, "map": "imperium"},
        {"num_players": 3, "map": "gallia"},
        {"num_players": "4"},
        {"num_players": True},
        {"num_players": 4.0},
        {"map": None},
        {"intermediate_scoring": "yes"},
        {"intermediate_scoring": 1},
        {"colour": "red"},
    ],
)
def test_bad_configs_raise_config_error(config):
    with pytest.raises(ConfigError):
        ConcordiaGame(**config)


def test_defaults_are_four_players_on_italia_without_intermediate_scoring():
    assert ConcordiaGame().config == {"num_players": 4, "map": "italia", "intermediate_scoring": False}


def test_card_gods_of_decks_one_to_n_match_the_pantheon_table_printed_on_the_boards():
    import json
    from importlib import resources

    raw = json.loads(resources.files("meeplezoo.envs.concordia").joinpath("data", "cards.json").read_text())
    for board, first in (("Italia (2/3/4 players)", 2), ("Imperium (3/4/5 players)", 3)):
        for god, counts in raw["pantheon_board_table"][board].items():
            for k, expected in enumerate(counts):
                n = first + k
                got = sum(1 for c in CARDS if 1 <= c.deck <= n and c.god.name == god.upper())
                assert got == expected, (board, god, n)
