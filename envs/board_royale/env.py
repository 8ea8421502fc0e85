"""Board Royale: The Island (2-6 players) as a PettingZoo AEC environment.

Survivors on a desert island draw resources (which are also their health), craft items from a 4-card
crafting field, attack each other, trade and vote. A player with no resource card left is eliminated at
once; the last player standing wins, or the first to escape (10 escape points of crafted items, or a
complete escape set).

==================== ==============================================================================
Import               ``from meeplezoo.envs import board_royale_v1``
Agents               ``player_0`` .. ``player_{n-1}``
Actions              ``Discrete(N)`` (the same for every player count); ranges in
                     :mod:`meeplezoo.envs.board_royale.actions`
Observations         ``{"observation": float32[M] in [-1, 1], "action_mask": int8[N]}``; layout
                     :data:`meeplezoo.envs.board_royale.observation.LAYOUT`
Registry id          ``pettingzoo.make("aec", "meeplezoo/board_royale-v1")`` after ``import meeplezoo``
Rules                ``meeplezoo rules board_royale``: how to play (``envs/board_royale/rules.md``)
Config               ``num_players=4`` (2-6), ``elimination_only=False``; adapter keys
                     ``render_mode``, ``reward_mode``, ``illegal_action``, ``illegal_reward``,
                     ``max_cycles``
==================== ==============================================================================

A turn is a sequence of decisions of the active agent (resource phase, then any number of actions until
"end the turn"). Decisions of other agents are AEC steps of those agents: answering an attack (answers
alternate between the two sides until one passes), joining a collaborative attack, voting, answering or
countering a trade offer, making room in hand for looted hidden items. ``observation[pending]`` one-hot
names the pending decision (:class:`meeplezoo.envs.board_royale.steps.Step`) and ``to_act`` says whether it
is the viewer's.

Elimination: an eliminated agent is terminated with its final reward (its rank is fixed when it goes out),
steps once with ``None`` and leaves ``env.agents``; the others play on.

Score (``state.scores()``, what ``meeplezoo play`` and ``arena`` print): zero-sum survival points, set only by
the order players go out (:mod:`meeplezoo.envs.board_royale.elimination`): an eliminated player loses 1 per
player still alive and each of those gains 1; an escaping player gains 1 per living opponent and each of those
loses 1. The winner always scores ``num_players - 1``; at 4 players a last-standing game scores 3/1/-1/-3 by
place (winner, then out third, second, first), an escape with all alive 3/-1/-1/-1. Escape points (10 of
crafted items to escape) are not the score: the Watch page charts them, and the arena report plots them at the
end of each game.

Rewards: by ``reward_mode`` (:mod:`meeplezoo.envs.core.rewards`) from the ranks: the winner 0, living losers
1, an eliminated seat the number of players still alive when it went out. The decks reshuffle forever, but
stall rules end every game (:mod:`meeplezoo.envs.board_royale.island`: futile exchanges, idle turns, the
rising tide from day 200); if ``max_cycles`` truncates one first, **a truncated game returns 0 to every agent
still in it** (the adapter's rule; agents eliminated earlier keep the negative reward they already received)
and ``state.adjudicated_ranks()`` ranks it by its standing.

Version history: v0 - first release (base game and the elimination-only variant).
"""

from __future__ import annotations

from ..core import env_factory
from .game import BoardRoyaleGame
from .manifest import MANIFEST

#: the player counts this env supports (``num_players`` config)
PLAYER_COUNTS = MANIFEST.player_counts

raw_env = env_factory(BoardRoyaleGame, "board_royale_v1")


def env(**kwargs):
    """The Board Royale env. The adapter has PettingZoo's wrapper checks built in (order enforcing, action
    bounds, illegal-move handling), so no wrapper stack is added."""
    return raw_env(**kwargs)
