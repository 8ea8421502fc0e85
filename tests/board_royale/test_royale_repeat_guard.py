"""Moves that change nothing: Board Royale's turn clock, and the greedy ``ppo`` agent's guard against cycling.

A turn may hold moves that leave the position as it was (an offer made and cancelled, a Pickaxe paying a Wood
to take it back). The rules allow them; only the observation's clock (this turn's decisions) tells the
positions apart, and the game names it in ``observation_clock``. A greedy policy would cycle until the
engine's safety bound; the agent (``agents/policy.py``) never repeats a move from a position met again.
"""

from __future__ import annotations

import numpy as np
import pytest
from royale_scenario import P0, P1, STONE, action_phase, card_a, fresh, give_item, item_a, seat_a, set_hand

from meeplezoo.agents.policy import PolicyAgent
from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.board_royale.actions import NUM_ACTIONS, PASS, TRADE
from meeplezoo.envs.board_royale.content import RULES


def test_the_clock_is_the_one_entry_that_counts_this_turns_decisions():
    s = fresh(2)
    set_hand(s.d, P0, food=2, wood=2)
    set_hand(s.d, P1, iron=2)
    action_phase(s, P0)
    (clock,) = s.game.observation_clock
    before = s.observe(P0)
    s.d.turn_decisions = 1234
    after = s.observe(P0)
    assert np.flatnonzero(before != after).tolist() == [clock]
    assert after[clock] == pytest.approx(1234 / RULES.max_decisions_per_turn)


@pytest.mark.parametrize("cycle", ["offer cancelled", "pickaxe takes back its wood"])
def test_a_cycle_of_moves_that_change_nothing_differs_only_on_the_clock(cycle):
    s = fresh(2)
    set_hand(s.d, P0, food=2, wood=2)
    set_hand(s.d, P1, iron=2)
    pickaxe = give_item(s.d, P0, "Pickaxe")
    s.d.res_deck.remove(STONE)  # the Pickaxe takes from the Resource Discard Pile: give it a card
    s.d.res_discard[STONE] += 1
    action_phase(s, P0)
    (clock,) = s.game.observation_clock
    hands = list(s.d.hand)
    moves = [TRADE, seat_a(P1), PASS] if cycle == "offer cancelled" else [item_a(pickaxe), card_a("wood")]
    for move in moves:  # the first round may change something public: the Pickaxe is now used this round
        s.apply(move)
    before = s.observe(P0)
    for move in moves:
        s.apply(move)
    after = s.observe(P0)
    assert s.d.hand == hands and s.current_player() == P0
    assert np.flatnonzero(before != after).tolist() == [clock]
    assert s.d.turn_decisions == 2 * len(moves)


def _preferring(order: list[int]):
    """A MaskablePPO model on Board Royale (2 players) whose action logits are fixed: ``order`` first to last."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.single_agent import SingleAgentEnv

    model = MaskablePPO("MlpPolicy", SingleAgentEnv("board_royale", env_kwargs={"num_players": 2}), n_steps=64)
    scores = torch.full((NUM_ACTIONS,), -10.0)
    for rank, action in enumerate(order):
        scores[action] = -float(rank)
    with torch.no_grad():
        model.policy.action_net.weight.zero_()
        model.policy.action_net.bias.copy_(scores)
    return model


def _play(agent: PolicyAgent, s, decisions: int) -> list[int]:
    moves = []
    for _ in range(decisions):
        move = agent.act(view_of_state(s, s.current_player(), determinize=False))
        moves.append(move)
        s.apply(move)
    return moves


@pytest.mark.slow
def test_the_greedy_agent_never_repeats_a_move_from_a_position_met_again():
    model = _preferring([TRADE, seat_a(P1), PASS])  # offer, to P1, then cancel: a cycle for a greedy policy
    start = fresh(2)
    set_hand(start.d, P0, food=2, wood=2)
    set_hand(start.d, P1, iron=2)
    action_phase(start, P0)
    for guard in (False, True):
        s = start.clone()
        agent = PolicyAgent(model, seed=1, avoid_repeats=guard)
        moves = _play(agent, s, 7)
        if guard:  # back at the start of the cycle, TRADE was tried: its next choice, PASS, ends the turn
            assert moves[:4] == [TRADE, seat_a(P1), PASS, PASS] and agent.repeats_avoided == 1
            assert s.d.active == P1
        else:
            assert moves == [TRADE, seat_a(P1), PASS] * 2 + [TRADE] and agent.repeats_avoided == 0
            assert s.d.active == P0 and s.d.turn_decisions == 7
    sampled = PolicyAgent(model, seed=1, deterministic=False)
    _play(sampled, start.clone(), 3)
    assert sampled.repeats_avoided == 0 and not sampled._recent  # sampling is left as it is
