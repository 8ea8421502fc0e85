"""Scenarios: colour tracks, level limits, special cards (face up or searched), pink early bonus, effects."""

from __future__ import annotations

from resafa_scenario import P0, STONE, A, C, Step, fresh, play, special, start, store, take_special

from meeplezoo.envs.resafa.content import Colour
from meeplezoo.envs.resafa.tracks import can_step

BLUE, WHITE, YELLOW, PINK = Colour.BLUE, Colour.WHITE, Colour.YELLOW, Colour.PINK


def deck_no(colour, level):
    return int(colour) * 3 + level - 1


def test_reaching_a_card_space_offers_the_face_up_card_or_a_search():
    s = fresh()
    d = s.d
    d.track[P0 * 4 + PINK] = 1
    start(s, Step.STEP, P0, PINK)
    assert s.pending_step() == Step.SPECIAL and s.d.stack[-1][2] == deck_no(PINK, 1)
    assert s.legal_actions() == [A.TAKE_TOP, A.SEARCH]


def test_face_up_card_gives_one_vp_and_one_coin_and_reveals_the_next_cards():
    s = fresh()
    d = s.d
    d.round_no = 5  # no pink early bonus in rounds 5-6
    k = deck_no(PINK, 1)
    top, below = d.spec_decks[k][-1], d.spec_decks[k][-2]
    vp, coins = d.vp[P0], d.coins[P0]
    start(s, Step.SPECIAL, P0, k)
    play(s, A.TAKE_TOP)
    assert d.spec_owner[top] == P0 and (d.vp[P0], d.coins[P0]) == (vp + 1, coins + 1)
    assert d.spec_decks[k][-1] == below and d.spec_up[k] == 1  # the next card is turned face up
    assert d.spec_up[k + 1] == 1  # and the top card of the level II deck too


def test_search_gives_no_bonus_keeps_the_face_up_card_and_reshuffles_the_rest():
    s = fresh()
    d = s.d
    d.round_no = 5
    k = deck_no(WHITE, 1)
    top = d.spec_decks[k][-1]
    hidden = sorted(d.spec_decks[k][:-1])
    vp, coins = d.vp[P0], d.coins[P0]
    start(s, Step.SPECIAL, P0, k)
    play(s, A.SEARCH)
    assert s.legal_actions() == [A.PICK0 + i for i in range(len(hidden))]
    play(s, A.PICK0 + 1)
    assert d.spec_owner[hidden[1]] == P0 and (d.vp[P0], d.coins[P0]) == (vp, coins)
    assert d.spec_decks[k][-1] == top and sorted(d.spec_decks[k][:-1]) == [c for c in hidden if c != hidden[1]]
    assert d.spec_up[k + 1] == 1  # either way the next level's top card is revealed


def test_searching_shows_the_cards_only_to_the_searcher():
    s = fresh()
    from meeplezoo.envs.resafa.observation import LAYOUT

    k = deck_no(BLUE, 1)
    start(s, Step.SPECIAL, P0, k)
    before = s.observe(1)[LAYOUT["search"]].copy()
    play(s, A.SEARCH)
    assert s.observe(0)[LAYOUT["search"]].sum() == len(s.d.spec_decks[k]) - 1
    assert s.observe(1)[LAYOUT["search"]].sum() == 0 == before.sum()


def test_pink_cards_early_bonus_by_round():
    for rnd, bonus in ((1, (2, 3)), (2, (2, 3)), (3, (1, 1)), (4, (1, 1)), (5, (0, 0)), (6, (0, 0))):
        s = fresh()
        d = s.d
        d.round_no = rnd
        vp, coins = d.vp[P0], d.coins[P0]
        start(s, Step.SPECIAL, P0, deck_no(PINK, 1))
        play(s, A.TAKE_TOP)
        assert (d.coins[P0] - coins, d.vp[P0] - vp) == (1 + bonus[0], 1 + bonus[1]), rnd


def test_level_limits_yellow_white_blue_but_not_pink():
    s = fresh()
    d = s.d
    t = P0 * 4
    d.track[t + BLUE], d.track[t + WHITE], d.track[t + YELLOW] = 4, 4, 4
    assert can_step(d, P0, BLUE)
    d.track[t + BLUE] = 5  # blue in level II
    assert can_step(d, P0, WHITE)
    d.track[t + WHITE] = 5  # white in level II: two tracks at level II
    assert not can_step(d, P0, YELLOW)  # the third may not enter level II
    d.track[t + BLUE] = 7
    assert can_step(d, P0, WHITE) or d.track[t + WHITE] == 5
    d.track[t + BLUE] = 8  # blue at level III
    d.track[t + WHITE] = 7
    assert not can_step(d, P0, WHITE)  # only one track reaches level III
    d.track[t + PINK] = 9
    assert can_step(d, P0, PINK)
    d.track[t + PINK] = 10
    assert not can_step(d, P0, PINK)  # the end of the track


def test_only_the_deck_of_the_markers_level():
    s = fresh()
    d = s.d
    d.track[P0 * 4 + BLUE] = 4
    start(s, Step.STEP, P0, BLUE)
    assert s.d.stack[-1][:3] == (Step.SPECIAL, P0, deck_no(BLUE, 2))
    assert s.legal_actions() == [A.SEARCH]  # level II is still face down: only a search


def test_track_end_spaces_give_their_printed_vp():
    s = fresh()
    d = s.d
    d.track[P0 * 4 + PINK] = 8
    vp = d.vp[P0]
    start(s, Step.STEP, P0, PINK)
    assert d.vp[P0] == vp + 1


def test_instant_special_card_used_once_permanent_discount_applies():
    s = fresh()
    d = s.d
    i = take_special(s, P0, "sp-white-I-5")  # instant: 2 stone
    s.refresh()
    assert A.USE_SPEC0 + i in s.legal_actions()
    stone = store(s, P0)[STONE]
    play(s, A.USE_SPEC0 + i)
    assert store(s, P0)[STONE] == stone + 2 and d.spec_used[i] == 1
    assert A.USE_SPEC0 + i not in s.legal_actions()
    take_special(s, P0, "sp-white-I-1")  # permanent: small gardens cost 1 stone less
    from meeplezoo.envs.resafa.economy import build_cost
    from meeplezoo.envs.resafa.gardens import _COST

    assert not build_cost(d, P0, _COST[0], "garden_small", None)


def test_trigger_special_card_fires_on_its_event():
    s = fresh()
    d = s.d
    take_special(s, P0, "sp-white-I-6")  # each workshop built: +1 VP
    vp = d.vp[P0]
    start(s, Step.WS_PICK, P0)
    play(s, A.WS0, A.FACE0, A.CELL0)
    if s.pending_step() == Step.WS_ROT:
        play(s, A.ROT0)
    assert d.vp[P0] == vp + 1


def test_choice_and_convert_effects_are_small_decisions():
    s = fresh()
    d = s.d
    from meeplezoo.envs.resafa.effects import push_effects

    choice = C.specials[special("sp-blue-II-6")].effects  # free canal or a free trade
    push_effects(d, P0, choice)
    s.refresh()
    assert s.pending_step() == Step.CHOICE and s.legal_actions() == [A.OPT0, A.OPT0 + 1]
    convert = next(c.effects for c in C.sack_cards if type(c.effects[0]).__name__ == "Convert")
    s2 = fresh()
    s2.d.coins[P0] = 10
    push_effects(s2.d, P0, convert)
    s2.refresh()
    assert s2.pending_step() == Step.CONVERT and set(s2.legal_actions()) == {A.USE, A.PASS}
