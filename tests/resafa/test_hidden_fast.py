"""The fast resampling of hidden parts against the plain one it replaced (draw for draw, list for list)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.chance import arrange
from meeplezoo.envs.resafa import ResafaGame
from meeplezoo.envs.resafa.game import ResafaState
from meeplezoo.envs.resafa.state import NO, ResafaData
from meeplezoo.envs.resafa.steps import Step


def reference_resample(d: ResafaData, player: int, rng: np.random.Generator | None) -> None:
    """``ResafaState.resample_hidden`` as it was written on :func:`arrange` (the reference)."""

    def order(xs: list[int]) -> list[int]:
        return arrange(xs, rng)

    d.deck[player] = order(d.deck[player])
    for s in range(d.players):
        if s == player:
            continue
        pool = order(d.hand[s] + d.deck[s])
        k = len(d.hand[s])
        d.hand[s], d.deck[s] = sorted(pool[:k]), pool[k:]
    others = [s for s in range(d.players) if s != player]
    pool = order(d.sack_deck + d.sack_discard + [c for s in others for c in d.sack_hand[s]])
    for s in others:
        k = len(d.sack_hand[s])
        d.sack_hand[s], pool = sorted(pool[:k]), pool[k:]
    k = len(d.sack_discard)
    d.sack_discard, d.sack_deck = pool[:k], pool[k:]
    d.ws_decks = [order(x) for x in d.ws_decks]
    d.bonus_decks = [order(x) for x in d.bonus_decks]
    pending_search = (
        d.stack[-1][2] if d.stack and d.stack[-1][0] == Step.SEARCH_PICK and d.stack[-1][1] == player else NO
    )
    for k in range(len(d.spec_decks)):
        cards = d.spec_decks[k]
        up = cards[-1:] if d.spec_up[k] else []
        down = cards[:-1] if d.spec_up[k] else cards[:]
        if d.advanced or (d.spec_known[player] >> k) & 1 or k == pending_search:
            down = order(down)
        else:
            pool = order(down + d.spec_box[k])
            down, d.spec_box[k] = pool[: len(down)], sorted(pool[len(down) :])
        d.spec_decks[k] = down + up
    if d.players == 1:
        d.bot_deck = order(d.bot_deck[:-1]) + d.bot_deck[-1:]
        d.bot_canals = order(d.bot_canals)


def positions(players: int, advanced: bool, seed: int) -> list[ResafaState]:
    game = ResafaGame(num_players=players, advanced_setup=advanced)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    while not state.is_terminal() and len(out) < 400:
        out.append(state.clone())
        state.apply(int(rng.choice(state.legal_actions())))
    return out


@pytest.mark.parametrize(("players", "advanced"), [(1, False), (2, False), (3, True), (4, False)])
def test_resample_hidden_matches_the_reference(players: int, advanced: bool) -> None:
    for state in positions(players, advanced, seed=players * 5 + 1)[::3]:
        seat = state.current_player()
        for seed in (None, 1, 2):
            fast, slow = state.clone(), state.clone()
            r1 = None if seed is None else np.random.default_rng(seed)
            r2 = None if seed is None else np.random.default_rng(seed)
            fast.resample_hidden(seat, r1)
            reference_resample(slow.d, seat, r2)
            assert fast.to_dict() == slow.to_dict()
            if seed is not None:
                assert r1.bit_generator.state == r2.bit_generator.state
