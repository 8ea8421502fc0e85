"""Seastead (base game, B sides with decrees, solo against the Boss) as a PettingZoo AEC environment.

Two players race to become the most prestigious resident of four floating flotillas: each turn they dive
("I cut, you choose": split a dive card's two resource halves) or build a port, academy or shipyard.

==================== ==============================================================================
Import               ``from meeplezoo.envs import seastead_v0``
Agents               ``player_0`` .. ``player_{n-1}``: ``player_0``, ``player_1`` (solo: ``player_0`` only)
Actions              ``Discrete(59)``; ranges in :mod:`meeplezoo.envs.seastead.actions`
Observations         ``{"observation": float32[N] in [-1, 1], "action_mask": int8[59]}``
Registry id          ``pettingzoo.make("aec", "meeplezoo/seastead-v0")`` after ``import meeplezoo``
Rules                ``meeplezoo rules seastead``: how to play (``envs/seastead/rules.md``)
Config               ``sides="AAAA"`` (one letter A/B per flotilla tile: "BBBB", or a mix with at
                     least two B), ``decree="random"`` or a decree name (B sides), ``num_players=2``
                     (1-2); 1 is solo against the Boss (also ``gymnasium.make("meeplezoo/SeasteadSolo-v0")``);
                     adapter keys ``render_mode``, ``reward_mode``, ``illegal_action``,
                     ``illegal_reward``, ``max_cycles``
==================== ==============================================================================

A turn is a sequence of decisions by the same agent (choose dive/build, then the half or the location, then
docks, specialists, ships, bonuses); reactions (Agent, Investor, the ship owner's bonus, an opponent's free
resource) are decisions of the other agent in the AEC loop. ``observation[pending]`` one-hot names the
pending decision (:class:`meeplezoo.envs.seastead.steps.Step`); the layout table is
:data:`meeplezoo.envs.seastead.observation.LAYOUT`.

Rewards: at the end, by ``reward_mode`` (:mod:`meeplezoo.envs.core.rewards`): ``win`` (+1/-1, 0 for a
shared win after the seed's tiebreaks), ``rank`` or ``score_margin`` (margin / 20).

Version history: v0 - base game (A sides); B sides with decrees, the advanced mixed setup and the solo mode
added as config keys.
"""

from __future__ import annotations

from ..core import env_factory
from ..core.solo_gym import SoloGymEnv
from .game import SeasteadGame
from .manifest import MANIFEST

#: the player counts this env supports (``num_players`` config)
PLAYER_COUNTS = MANIFEST.player_counts

raw_env = env_factory(SeasteadGame, "seastead_v0")


def solo_gym_env(**kwargs) -> SoloGymEnv:
    """The solo mode "The Rebel Seastead" as a Gymnasium env (``gymnasium.make("meeplezoo/SeasteadSolo-v0")``).

    The solo convention of :mod:`~meeplezoo.envs.core.solo_gym`: ``reward="win"`` (the default) +1 for
    strictly beating the Boss's score, -1 otherwise; ``"score"`` the final score; ``"score_margin"`` (score -
    Boss's score) / 20. The final ``info`` carries ``score``, ``automa_score`` (the Boss's), ``won`` and
    ``band=None``: the solo rules define no rating bands, only the win against the Boss. Keyword arguments
    go to :class:`~meeplezoo.envs.core.solo_gym.SoloGymEnv` (``reward``, ``illegal_reward``, ``render_mode``,
    ``max_steps``)."""
    return SoloGymEnv(SeasteadGame(num_players=1), **kwargs)


def env(**kwargs):
    """The Seastead env. The adapter has PettingZoo's wrapper checks built in (order enforcing, action
    bounds, illegal-move handling), so no wrapper stack is added."""
    return raw_env(**kwargs)
