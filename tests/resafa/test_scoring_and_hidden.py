"""End scoring in the seed's list, and hidden information: what observations hide, what determinize resamples."""

from __future__ import annotations

import numpy as np
from resafa_scenario import P0, P1, SPICE, C, empty_store, fresh, give, take_special

from meeplezoo.envs.resafa import ResafaGame
from meeplezoo.envs.resafa.observation import LAYOUT
from meeplezoo.envs.resafa.scoring import final_scoring
from meeplezoo.envs.resafa.state import CATEGORIES

K = len(CATEGORIES)


def sheet(s, seat):
    return dict(zip(CATEGORIES, final_scoring(s.d)[seat * K : seat * K + K], strict=True))


def test_end_scoring_in_the_seed_list():
    s = fresh()
    d = s.d
    empty_store(s, P0)
    d.coins[P0] = 0
    d.vp[P0] = 10
    d.scarabs[P0], d.gate[P0], d.rows[0:3] = 3, 2, [1, 2, 3]
    d.tokens[1] -= 3
    d.tokens[0] -= 5
    d.g_tiles[0:2] = [2, 1]  # 3 garden tiles
    d.g_supply[0] -= 2
    d.g_supply[1] -= 1
    for b in range(5):
        d.canal_owner[b], d.canal_design[b] = P0, b
        d.canal_placed[b] = 1
    give(s, P0, stone=4, marble=3, spice=2, amphora=1)
    d.coins[P0] = 3  # 4 + 3 + 3 = 10 resources and coins: 2 VP
    i = take_special(s, P0, "sp-pink-I-6")  # 1 VP per canal tile
    take_special(s, P0, "sp-white-II-3")  # yellow VP icon 1
    row = sheet(s, P0)
    assert row["during play"] == 10
    assert row["scarabs"] == 7  # 3 scarabs
    assert row["gardens"] == 1 * 3  # garden row value 1 x 3 tiles
    assert row["workshops"] == 2 * 2  # workshop row value 2 x 2 starting workshops
    assert row["canals"] == 3 * 5  # canal row value 3 x 5 canal tiles
    assert row["pink cards"] == 5 and C.specials[i].colour == 3
    assert row["yellow VP"] == 1
    assert row["goods"] == 3  # 2 spice + 1 amphora
    assert row["leftovers"] == 2
    assert row["canal strip"] == 8  # 5 canal tiles
    assert row["total"] == 10 + 7 + 3 + 4 + 15 + 5 + 1 + 3 + 2 + 8


def test_scarabs_count_at_most_five_and_goods_on_the_camel_count():
    s = fresh()
    d = s.d
    d.scarabs[P0] = 6
    d.camel_item[P0], d.camel_load[P0] = SPICE, 2
    d.supply[SPICE] -= 2
    row = sheet(s, P0)
    assert row["scarabs"] == 16 and row["goods"] == 2


def test_canal_strip_thresholds():
    s = fresh()
    d = s.d
    for n, vp in ((2, 0), (3, 5), (4, 5), (5, 8), (6, 8), (7, 15)):
        d.canal_owner = [-1] * len(d.canal_owner)
        for b in range(n):
            d.canal_owner[b] = P1
        assert sheet(s, P1)["canal strip"] == vp, n


def play_random(s, rng, steps):
    for _ in range(steps):
        if s.is_terminal():
            return
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))


def test_observation_hides_deck_orders_hands_and_sack_cards():
    s = ResafaGame(num_players=3).new_state(2)
    rng = np.random.default_rng(2)
    play_random(s, rng, 40)
    d = s.d
    me = 0
    view = s.observe(me)
    # my deck shows as a set: a reshuffle of it changes nothing
    t = s.clone()
    t.d.deck[me] = t.d.deck[me][::-1]
    assert np.array_equal(t.observe(me), view)
    # another seat's hand and deck swapped around: the same view
    t = s.clone()
    other = 1
    pool = t.d.hand[other] + t.d.deck[other]
    k = len(t.d.hand[other])
    t.d.hand[other], t.d.deck[other] = sorted(pool[-k:]), pool[:-k]
    assert np.array_equal(t.observe(me), view)
    # deck orders of the workshop, bonus and special decks
    t = s.clone()
    t.d.ws_decks = [x[::-1] for x in t.d.ws_decks]
    t.d.bonus_decks = [x[::-1] for x in t.d.bonus_decks]
    t.d.spec_decks = [x[:-1][::-1] + x[-1:] if t.d.spec_up[i] else x[::-1] for i, x in enumerate(t.d.spec_decks)]
    assert np.array_equal(t.observe(me), view)
    # but my own hand is mine to see
    assert view[LAYOUT["my_hand"]].sum() == len(d.hand[me])


def test_determinize_resamples_hidden_parts_consistently():
    s = ResafaGame(num_players=2).new_state(9)
    play_random(s, np.random.default_rng(9), 25)
    d = s.d
    seen_other_hands = set()
    for k in range(20):
        t = s.determinize(0, np.random.default_rng(k))
        t.validate()
        assert t.d.hand[0] == d.hand[0] and sorted(t.d.deck[0]) == sorted(d.deck[0])
        assert sorted(t.d.hand[1] + t.d.deck[1]) == sorted(d.hand[1] + d.deck[1])
        assert t.d.played == d.played and t.d.bonus_hand == d.bonus_hand
        assert t.d.sack_hand[0] == d.sack_hand[0] and len(t.d.sack_hand[1]) == len(d.sack_hand[1])
        assert [len(x) for x in t.d.spec_decks] == [len(x) for x in d.spec_decks]
        for i in range(12):
            if d.spec_up[i]:
                assert t.d.spec_decks[i][-1] == d.spec_decks[i][-1]  # face-up cards stay
        seen_other_hands.add(tuple(t.d.hand[1]))
        assert np.array_equal(t.observe(0), s.observe(0))
    assert len(seen_other_hands) > 1


def test_determinize_keeps_a_searched_deck_and_swaps_unsearched_ones_with_the_box():
    s = fresh()
    d = s.d
    d.spec_known[P0] = 1 << 0
    hidden0 = sorted(d.spec_decks[0][:-1])
    changed = False
    for k in range(20):
        t = s.determinize(P0, np.random.default_rng(k))
        assert sorted(t.d.spec_decks[0][:-1]) == hidden0  # P0 searched deck 0: its set is known
        for j in (1, 3, 4):
            assert sorted(t.d.spec_decks[j] + t.d.spec_box[j]) == sorted(d.spec_decks[j] + d.spec_box[j])
            if d.spec_up[j]:
                assert t.d.spec_decks[j][-1] == d.spec_decks[j][-1]
        changed |= sorted(t.d.spec_decks[4]) != sorted(d.spec_decks[4])
    assert changed


def test_advanced_setup_makes_the_boxed_special_cards_public_and_determinize_keeps_them():
    """Seed variant: "kurulumda kutuya geri konan özel kartları inceleyebilirler" (config advanced_setup)."""
    import pytest

    from meeplezoo.envs.core import ConfigError, CorruptStateError

    box = LAYOUT["spec_box"]
    plain = ResafaGame(num_players=2).new_state(3)
    adv = ResafaGame(num_players=2, advanced_setup=True).new_state(3)
    assert plain.d.spec_box == adv.d.spec_box  # same setup, only the knowledge differs
    boxed = sorted(c for deck in adv.d.spec_box for c in deck)
    for seat in (P0, P1):
        assert not plain.observe(seat)[box].any()
        assert sorted(np.flatnonzero(adv.observe(seat)[box])) == boxed
    for k in range(10):
        t = adv.determinize(P0, np.random.default_rng(k))
        assert t.d.spec_box == adv.d.spec_box  # the box is known: nothing swaps with it
        for j, deck in enumerate(adv.d.spec_decks):
            assert sorted(t.d.spec_decks[j]) == sorted(deck)
    swapped = any(plain.determinize(P0, np.random.default_rng(k)).d.spec_box != plain.d.spec_box for k in range(10))
    assert swapped  # without the variant the box is unknown and resampled
    with pytest.raises(ConfigError, match="advanced_setup"):
        ResafaGame(num_players=2, advanced_setup=1)
    with pytest.raises(CorruptStateError, match="advanced"):
        ResafaGame(num_players=2).state_from_dict(adv.to_dict())


def test_determinize_pools_the_sack_discard_pile_which_shows_only_as_a_count():
    s = ResafaGame(num_players=2).new_state(4)
    d = s.d
    for _ in range(3):
        d.sack_discard.append(d.sack_deck.pop())
    s.validate()
    hidden = sorted(d.sack_deck + d.sack_discard + d.sack_hand[1])
    discards = set()
    for k in range(20):
        t = s.determinize(0, np.random.default_rng(k))
        t.validate()
        assert len(t.d.sack_discard) == 3 and len(t.d.sack_deck) == len(d.sack_deck)
        assert sorted(t.d.sack_deck + t.d.sack_discard + t.d.sack_hand[1]) == hidden
        assert t.d.sack_hand[0] == d.sack_hand[0]
        assert np.array_equal(t.observe(0), s.observe(0))
        discards.add(tuple(sorted(t.d.sack_discard)))
    assert len(discards) > 1  # the true discards are not kept
