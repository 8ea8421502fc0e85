"""Dive rules (seed "Oyun Akışı", the dive steps 1-5), played as scenarios on hand-made positions."""

from __future__ import annotations

import numpy as np
import pytest
from seastead_scenario import P0, P1, card, dive_turn, fresh, on_top, pending, res, set_res, start

from meeplezoo.envs.seastead.actions import DIVE, HALF0, RES0
from meeplezoo.envs.seastead.content import DIVE_CARDS, NUM_RES, WILD, Deck, Res
from meeplezoo.envs.seastead.game import SeasteadGame
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step

FISH2 = card({"fish": 2}, {"artifact": 1, "kelp": 1})
WILD2 = card({"wild": 2}, {"fish": 2, "kelp": 1})
METAL_WILD = card({"metal": 1, "wild": 1}, {"artifact": 1, "kelp": 2})
ONE_EACH = card({"fish": 1, "artifact": 1, "kelp": 1, "metal": 1}, {"metal": 2, "wild": 1})
ALL_RES = [RES0 + k for k in range(NUM_RES)]


def test_every_dive_card_has_two_different_halves():
    """Seed: "iki set asla aynı kaynaklardan oluşmaz"."""
    for c in DIVE_CARDS:
        assert c.halves[0] != c.halves[1]


@pytest.mark.parametrize("seed", range(5))
def test_setup_deck_bands_and_first_player_from_the_opening_shallows_arrow(seed):
    """The opening Shallows card's arrow names the first player; Depths lie under Shelf under Shallows."""
    s = SeasteadGame().new_state(seed)
    d = s.d
    opening = DIVE_CARDS[d.dive_discard[0]]
    assert d.dive_discard == [opening.id] and opening.deck == Deck.SHALLOWS
    assert d.first_player == d.active == opening.arrow
    assert pending(s) == (Step.MAIN, opening.arrow)
    bands = [DIVE_CARDS[c].deck for c in d.dive_deck]  # bottom .. top
    assert bands == [Deck.DEPTHS] * 4 + [Deck.SHELF] * 12 + [Deck.SHALLOWS] * 3
    s.validate()


@pytest.mark.parametrize("mine", [0, 1])
def test_dive_reveals_the_top_card_and_the_active_player_chooses_the_half_facing_them(mine):
    s = fresh(P0)
    d = s.d
    on_top(d, FISH2)
    start(s)
    size = len(d.dive_deck)
    assert s.legal_actions() == [DIVE]
    s.apply(DIVE)
    assert d.revealed == FISH2 and len(d.dive_deck) == size - 1
    assert pending(s) == (Step.DIVE_SPLIT, P0)
    assert s.legal_actions() == [HALF0, HALF0 + 1]
    s.apply(HALF0 + mine)
    fish2, art_kelp = [2, 0, 0, 0], [0, 1, 1, 0]
    assert res(d, P0) == (fish2 if mine == 0 else art_kelp)
    assert res(d, P1) == (art_kelp if mine == 0 else fish2)
    assert d.supply == [8, 9, 9, 10]
    # the card goes face up onto the discard pile, and the turn passes to the opponent
    assert d.revealed == NO and d.dive_discard[-1] == FISH2 and FISH2 not in d.dive_deck
    assert pending(s) == (Step.MAIN, P1) and d.active == P1
    s.validate()


def test_dive_is_always_offered_even_when_a_build_is_possible():
    s = fresh(P0)
    set_res(s.d, P0, 10, 10, 10, 10)
    start(s)
    assert DIVE in s.legal_actions()
    assert len(s.legal_actions()) > 1
    s.validate()


def test_active_player_takes_first_when_the_supply_runs_short():
    """Seed: "önce sıradaki (aktif) oyuncu kendi payını alır, kalan varsa diğer oyuncu alır"."""
    s = fresh(P0)
    d = s.d
    set_res(d, P0, metal=4)
    set_res(d, P1, metal=4)  # 2 metal left in the supply
    on_top(d, ONE_EACH)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0)  # P0: one of each; P1: 2 metal + 1 wild
    assert res(d, P0) == [1, 1, 1, 5]
    # P1 gets the single metal left; the second one is lost. P1's wild cannot be metal any more.
    assert res(d, P1) == [0, 0, 0, 5] and d.supply[Res.METAL] == 0
    assert pending(s) == (Step.DIVE_WILD, P1)
    assert s.legal_actions() == [RES0 + Res.FISH, RES0 + Res.ARTIFACT, RES0 + Res.KELP]
    s.apply(RES0 + Res.KELP)
    assert res(d, P1) == [0, 0, 1, 5]
    assert pending(s) == (Step.MAIN, P1)
    s.validate()


def test_active_players_wild_is_chosen_before_the_opponent_takes_their_half():
    s = fresh(P0)
    d = s.d
    set_res(d, P1, fish=9)  # 1 fish left
    on_top(d, ONE_EACH)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0 + 1)  # P0: 2 metal + wild; P1: one of each
    assert res(d, P0) == [0, 0, 0, 2]
    assert pending(s) == (Step.DIVE_WILD, P0)
    assert res(d, P1) == [9, 0, 0, 0]  # nothing yet: the opponent takes after the active player
    s.apply(RES0 + Res.FISH)
    assert res(d, P0) == [1, 0, 0, 2]
    assert res(d, P1) == [9, 1, 1, 1]  # the fish of P1's half is lost
    assert d.supply == [0, 9, 9, 7]
    s.validate()


def test_wild_symbols_are_chosen_one_by_one_by_the_player_who_receives_them():
    s = fresh(P0)
    d = s.d
    on_top(d, WILD2)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0 + 1)  # P0 keeps 2 fish + 1 kelp, the wild half faces P1
    assert res(d, P0) == [2, 0, 1, 0]
    assert pending(s) == (Step.DIVE_WILD, P1) and d.stack[-1][2] == 2
    assert s.legal_actions() == ALL_RES
    s.apply(RES0 + Res.ARTIFACT)
    assert pending(s) == (Step.DIVE_WILD, P1) and d.stack[-1][2] == 1
    s.apply(RES0 + Res.ARTIFACT)
    assert res(d, P1) == [0, 2, 0, 0]
    assert pending(s) == (Step.MAIN, P1) and d.dive_discard[-1] == WILD2
    s.validate()


def test_own_wild_half_is_chosen_by_the_active_player():
    s = fresh(P1)
    d = s.d
    on_top(d, METAL_WILD)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0)
    assert res(d, P1) == [0, 0, 0, 1]
    assert pending(s) == (Step.DIVE_WILD, P1)
    s.apply(RES0 + Res.METAL)
    assert res(d, P1) == [0, 0, 0, 2] and res(d, P0) == [0, 1, 2, 0]
    assert pending(s) == (Step.MAIN, P0)
    s.validate()


def test_wild_choices_are_limited_to_kinds_left_in_the_supply():
    s = fresh(P0)
    d = s.d
    set_res(d, P1, artifact=10)
    on_top(d, WILD2)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0)
    assert s.legal_actions() == [RES0 + Res.FISH, RES0 + Res.KELP, RES0 + Res.METAL]
    s.validate()


def test_wilds_are_lost_when_the_supply_is_empty():
    s = fresh(P0)
    d = s.d
    set_res(d, P0, 10, 10, 10, 10)
    on_top(d, WILD2)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0)  # nothing left anywhere: no wild decision, nothing taken
    assert res(d, P0) == [10, 10, 10, 10] and res(d, P1) == [0, 0, 0, 0]
    assert pending(s) == (Step.MAIN, P1) and d.dive_discard[-1] == WILD2
    s.validate()


def test_discard_pile_collects_revealed_cards_in_order():
    s = fresh(P0)
    d = s.d
    second, first = [c.id for c in DIVE_CARDS if c.deck == Deck.SHELF and not any(h[WILD] for h in c.halves)][:2]
    on_top(d, second, first)
    start(s)
    dive_turn(s)
    dive_turn(s)
    assert d.dive_discard[-2:] == [first, second]
    assert pending(s) == (Step.MAIN, P0) and d.round_no == 1
    s.validate()


def test_empty_dive_deck_is_rebuilt_from_the_shuffled_discard_pile():
    s = fresh(P0)
    d = s.d
    d.dive_discard = sorted(d.dive_deck + d.dive_discard)
    d.dive_deck = []
    start(s)
    s.apply(DIVE)
    shown = d.revealed
    assert d.dive_discard == [] and len(d.dive_deck) == len(DIVE_CARDS) - 1
    assert shown != NO and shown not in d.dive_deck
    assert sorted([*d.dive_deck, shown]) == list(range(len(DIVE_CARDS)))
    s.apply(HALF0)
    while s.pending_step() == Step.DIVE_WILD:
        s.apply(s.legal_actions()[0])
    assert d.dive_discard == [shown] and pending(s) == (Step.MAIN, P1)
    assert sum(res(d, P0)) + sum(res(d, P1)) == sum(sum(h[:WILD]) + h[WILD] for h in DIVE_CARDS[shown].halves)
    s.validate()


def _bands(deck: list[int]) -> list[Deck]:
    return [DIVE_CARDS[c].deck for c in deck]


def test_determinize_keeps_the_public_bands_of_the_setup_deck():
    """The setup stacks the dive deck Depths / Shelf / Shallows (card backs): every copy keeps that order."""
    s = fresh(P0)
    dive_turn(s)
    truth = _bands(s.d.dive_deck)
    for k in range(50):
        det = s.determinize(P1, np.random.default_rng(k))
        assert _bands(det.d.dive_deck) == truth
        assert np.array_equal(det.observe(P1), s.observe(P1))


def test_determinize_does_not_keep_the_band_order_of_a_reshuffled_dive_deck():
    """Issue 7 item 2. After the discard pile was shuffled into a new deck, the order of its bands is no longer
    public: copies shuffle the whole deck (consistent with the view: same cards, same counts per band)."""
    s = fresh(P0)
    d = s.d
    d.dive_discard = sorted(d.dive_discard + d.dive_deck)
    d.dive_deck = []
    dive_turn(s)  # reveal reshuffles the discard pile into a new deck
    assert d.dive_reshuffled == 1 and len(d.dive_deck) == len(DIVE_CARDS) - 1
    truth = _bands(d.dive_deck)
    same = 0
    for k in range(100):
        det = s.determinize(P1, np.random.default_rng(k))
        det.validate()
        assert np.array_equal(det.observe(P1), s.observe(P1)) and sorted(det.d.dive_deck) == sorted(d.dive_deck)
        same += _bands(det.d.dive_deck) == truth
    # 19 cards in bands of 3/12/4 have 19!/(3!12!4!) = 3.9 million band orders: a kept order is no accident
    assert same <= 1, f"{same} of 100 copies kept the band order of the reshuffled deck"
