"""Goofspiel (a MeepleZoo plugin game) as a PettingZoo AEC environment.

Every player holds the cards 1..C and bids one face down for each prize card 1..C turned up in a hidden
shuffled order; the single highest bid wins the prize's value (a tie for the highest discards it).

==================== ==============================================================================
Import               ``from meeplezoo_goofspiel import env as goofspiel_v0`` (or ``make_env("goofspiel")`` of
                     :mod:`meeplezoo.games`)
Agents               ``player_0`` .. ``player_{n-1}`` (2-4)
Actions              ``Discrete(C)`` for ``cards=C``: action ``a`` bids the card ``a + 1``
Observations         ``{"observation": float32[N] in [-1, 1], "action_mask": int8[C]}``, N = (n + 3)C + 3n + 4,
                     values in [0, 1]: sections ``pending``, ``hand``, ``my_bid``, ``prize``, ``prizes_left``,
                     ``others_cards``, ``has_bid``, ``points``, ``last_bids``, ``last_prize``, ``round``,
                     ``my_turn`` (``env.observation_layout()``); the other seats' bids of this round are not in it
Registry id          ``pettingzoo.make("aec", "meeplezoo-goofspiel/goofspiel-v0")`` after ``import meeplezoo``
Rules                ``meeplezoo rules goofspiel`` (``rules.md`` beside this module)
Config               ``num_players=2`` (2-4), ``cards=9`` (3-13); adapter keys ``render_mode``,
                     ``reward_mode``, ``illegal_action``, ``illegal_reward``, ``max_cycles``
==================== ==============================================================================

Rewards: at the end, by ``reward_mode`` (:mod:`meeplezoo.envs.core.rewards`).

Version history: v0 - the game as in ``rules.md``.
"""

from __future__ import annotations

from meeplezoo.envs.core import env_factory

from .game import GoofspielGame

raw_env = env_factory(GoofspielGame, "goofspiel_v0")


def env(**kwargs):
    """The Goofspiel env (the adapter has PettingZoo's wrapper checks built in)."""
    return raw_env(**kwargs)
