"""Determinization: a copy deals the unseen cards again, consistently with everything the viewer saw, in
particular when a hidden item could have entered each hand (issue 7, item 2)."""

from __future__ import annotations

import numpy as np
import pytest
from royale_scenario import P0, P1, P2, begin_turn, fresh, hand, seat_a, set_hand

from meeplezoo.envs.board_royale import BoardRoyaleGame
from meeplezoo.envs.board_royale.actions import DRAW, PASS
from meeplezoo.envs.board_royale.resources import deck_hidden_bounds, hand_size

COPIES = 400


def hidden(d, seat: int) -> int:
    return sum(hand(d, seat)[5:])


@pytest.mark.parametrize("n", [2, 4, 6])
def test_opponents_who_drew_nothing_since_the_deal_hold_no_hidden_item(n):
    """The starting hands are dealt before the hidden items go into the Resource Deck, so after the first
    player's preparation draw no other hand can hold one (before the fix: about 27% of copies did). The
    first player's two drawn cards may be hidden items: some copies say so, none gives more than two."""
    for seed in range(3):
        state = BoardRoyaleGame(num_players=n).new_state(seed)
        first = state.d.first_player
        other = (first + 1) % n
        rng = np.random.default_rng(seed)
        for _ in range(COPIES // 4):
            det = state.determinize(first, rng)
            assert all(hidden(det.d, s) == 0 for s in range(n) if s != first)
            det.validate()
        seen = [hidden(state.determinize(other, rng).d, first) for _ in range(COPIES)]
        assert max(seen) <= 2 and sum(x > 0 for x in seen) > 0


def test_after_a_reshuffle_without_hidden_items_a_draw_is_no_hidden_item():
    """A reshuffled deck is the public discard pile: if it held no hidden item, cards drawn from it are none."""
    s = fresh(3)
    d = s.d
    set_hand(d, P0, food=3)
    set_hand(d, P1, wood=3)
    set_hand(d, P2, iron=5, decoy=4, ricochet=3, deadfall=2)  # every hidden item is in P2's hand
    d.res_discard = [d.res_deck.count(k) for k in range(8)]
    d.res_deck = []
    d.deck_built = d.deck_hidden = 0
    n = d.n
    d.hid_max[P0 * n + P1] = 0  # P0 saw P1 draw nothing since the deal
    begin_turn(s, P1)
    s.apply(DRAW)  # the deck is rebuilt from the discard pile (no hidden item in it)
    assert d.deck_hidden == 0 and d.hid_max[P0 * n + P1] == 0
    rng = np.random.default_rng(1)
    for _ in range(COPIES):
        det = s.determinize(P0, rng)
        assert hidden(det.d, P1) == 0 and hidden(det.d, P2) == 9
    assert deck_hidden_bounds(d) == (0, 0)


def test_a_card_stolen_from_a_hand_without_hidden_items_is_no_hidden_item():
    """P2 steals from P1, whose hand P0 knows cannot hold a hidden item: in P0's copies the stolen card is a
    resource (before the fix: P2 often held a hidden item)."""
    s = fresh(3)
    d = s.d
    set_hand(d, P0, food=3)
    set_hand(d, P1, wood=2, stone=2)
    set_hand(d, P2, iron=3)
    n = d.n
    d.hid_max[P0 * n + P1] = d.hid_max[P0 * n + P2] = 0
    begin_turn(s, P2)
    s.apply(seat_a(P1))
    s.apply(PASS)  # P1 does not answer
    assert d.hid_max[P0 * n + P2] == 0 and hand_size(d, P2) == 4
    rng = np.random.default_rng(2)
    counts = [hidden(s.determinize(P0, rng).d, P2) for _ in range(COPIES)]
    assert max(counts) == 0
    # the victim saw which card went: in P1's copies P2 holds that very card
    stolen = next(k for k in range(5) if hand(d, P2)[k] > (3 if k == 3 else 0))
    assert all(hand(s.determinize(P1, rng).d, P2)[stolen] >= 1 for _ in range(50))


@pytest.mark.parametrize("n", [2, 3, 5])
def test_random_play_determinizations_fit_the_viewers_history(n):
    """In random games, every copy from every seat validates (the hidden-item bounds hold in the copy), keeps
    the viewer's observation and all hand sizes, and the real position keeps its bounds (validate)."""
    game = BoardRoyaleGame(num_players=n)
    for seed in range(3):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while not state.is_terminal() and steps < 1500:
            state.apply(int(rng.choice(state.legal_actions())))
            steps += 1
            if steps % 30 == 0:
                state.validate()
                for viewer in range(n):
                    if not state.d.alive[viewer]:
                        continue
                    det = state.determinize(viewer, rng)
                    det.validate()
                    assert np.array_equal(det.observe(viewer), state.observe(viewer))
                    assert [hand_size(det.d, s) for s in range(n)] == [hand_size(state.d, s) for s in range(n)]
                    assert det.legal_actions() == state.legal_actions() or state.current_player() != viewer


def _split_by_brute_force(total, free, low, cap, rng):
    """The hidden-item split written out: the full table of weighted ways, then each place's count drawn
    (or the smallest that fits) as :func:`_split_hidden` documents it."""
    from math import comb

    m = len(free)
    ways = [[0] * (total + 1) for _ in range(m + 1)]
    ways[m][0] = 1
    for i in range(m - 1, -1, -1):
        for r in range(total + 1):
            ways[i][r] = sum(comb(free[i], x) * ways[i + 1][r - x] for x in range(low[i], min(cap[i], r) + 1))
    if ways[0][total] == 0:
        return None
    out, r = [], total
    for i in range(m):
        options = [(x, comb(free[i], x) * ways[i + 1][r - x]) for x in range(low[i], min(cap[i], r) + 1)]
        if rng is None:
            chosen = next(x for x, w in options if w)
        else:
            pick, chosen = rng.random() * sum(w for _, w in options), options[-1][0]
            for x, w in options:
                if pick < w:
                    chosen = x
                    break
                pick -= w
        out.append(chosen)
        r -= chosen
    return out


def test_the_hidden_split_matches_the_full_table_draw_for_draw():
    """The fast split (bounds for the canonical deal, no table row for the first place) gives the same
    counts as the full table, with the same generator, and refuses exactly the impossible deals."""
    import random

    from meeplezoo.envs.board_royale.resources import _split_hidden

    cases = random.Random(5)
    checked = refused = 0
    for t in range(3000):
        m = cases.randint(1, 6)
        free = [cases.randint(0, 12) for _ in range(m)]
        cap = [cases.randint(0, 14) for _ in range(m)]
        low = [cases.randint(0, 3) if cases.random() < 0.3 else 0 for _ in range(m)]
        total = cases.randint(0, 25)
        for seed in (None, t):
            want = _split_by_brute_force(total, free, low, cap, None if seed is None else np.random.default_rng(seed))
            if want is None:
                with pytest.raises(AssertionError, match="no deal of the hidden items"):
                    _split_hidden(total, free, low, cap, None if seed is None else np.random.default_rng(seed))
                refused += 1
                continue
            got = _split_hidden(total, free, low, cap, None if seed is None else np.random.default_rng(seed))
            assert got == want, (total, free, low, cap, seed)
            checked += 1
    assert checked > 2000 and refused > 1000
