"""Goofspiel's agents and what IS-MCTS asks of the game (:data:`SEARCH`, named in the manifest).

``greedy`` (the manifest's agent): win the upper half of the prizes left as cheaply as is sure, throw the lowest
card at the others. ``match`` (declared as a plugin agent, ``match@goofspiel``): bid the card equal to the prize.
"""

from __future__ import annotations

from typing import Any

from meeplezoo.agents.base import BaseAgent
from meeplezoo.envs.core.manifest import SearchHooks

from .game import GoofspielState


class GreedyAgent(BaseAgent):
    """For a prize in the upper half of those left: the lowest card above every card another seat may still
    bid, else the card one above the prize's rank in the hand (to outbid a player who bids by rank); for a lower
    prize: the lowest card."""

    name = "greedy"
    owns_its_views = True  # reads its view's public copy once, in act

    def act(self, view: Any) -> int:
        return greedy_bid(view.public_state(copy=False), view.seat) - 1

    def choose(self, state: GoofspielState) -> int:
        """The action of the seat to act in ``state`` (IS-MCTS's ``rollout=heuristic`` and ``bias`` ask it)."""
        return greedy_bid(state, state.current_player()) - 1


def greedy_bid(state: GoofspielState, seat: int) -> int:
    """The greedy bid (a card) of ``seat`` (to act) in ``state``."""
    d = state.d
    hand = d.hands[seat]
    left = sorted([*d.deck, d.prize])
    rank = left.index(d.prize)
    if 2 * rank < len(left):
        return hand[0]
    top = max((max(state.unrevealed(s), default=0) for s in range(len(d.hands)) if s != seat), default=0)
    sure = [card for card in hand if card > top]
    return sure[0] if sure else hand[min(rank + 1, len(hand) - 1)]


class MatchAgent(BaseAgent):
    """Bids the card equal to the prize (always in hand: prize ``p`` is turned up once, card ``p`` bid once).
    Reads the observation only (its ``prize`` section), so it needs no public copy."""

    name = "match"
    uses_determinize = False

    def act(self, view: Any) -> int:
        cards = view.num_actions
        prize = view.observation[1 + 2 * cards : 1 + 3 * cards]  # the layout's "prize" (after pending, hand, my_bid)
        action = int(prize.argmax())
        return action if view.action_mask[action] else int(view.legal_actions[0])


def estimate_scores(state: GoofspielState) -> list[float]:
    """Each seat's points plus a share of the prizes still to come, in proportion to the cards it has left."""
    d = state.d
    to_come = sum(d.deck) + d.prize
    strength = [sum(state.unrevealed(s)) for s in range(len(d.hands))]
    total = sum(strength) or 1
    return [points + to_come * s / total for points, s in zip(d.points, strength, strict=True)]


SEARCH = SearchHooks(estimate=estimate_scores, scale=6.0, heuristic="greedy")
