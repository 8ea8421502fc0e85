"""Resafa (Vladimír Suchý) for 1-4 players as a PettingZoo AEC environment (1: solo against Resafabot).

Merchants of a 3rd-century caravan stop build their business: each turn a player plays one card of a personal
6-card action deck, oriented so that its chosen half is on top, and takes its main action (workshop,
production, garden, canal, trade, provisions) and the colour action of its colour (bonus card, a step on the
special-card track, or a sack card) in either order. Six rounds of three cards; rain scores the canal network
after rounds 2, 4 and 6; the end scoring follows.

==================== ==============================================================================
Import               ``from meeplezoo.envs import resafa_v0``
Agents               ``player_0`` .. ``player_{n-1}``
Actions              ``Discrete(N)`` (one size for every player count); ranges in
                     :mod:`meeplezoo.envs.resafa.actions`
Observations         ``{"observation": float32[M] in [-1, 1], "action_mask": int8[N]}`` (the values lie in
                     [0, 1]); layout :data:`meeplezoo.envs.resafa.observation.LAYOUT` (4 seat blocks,
                     viewer first)
Registry id          ``pettingzoo.make("aec", "meeplezoo/resafa-v0")`` after ``import meeplezoo``
Rules                ``meeplezoo rules resafa``: how to play (``envs/resafa/rules.md``)
Config               ``num_players=2`` (1-4); 1 is the solo mode against Resafabot (one agent; also
                     ``gymnasium.make("meeplezoo/ResafaSolo-v0")``, :func:`solo_gym_env`);
                     ``advanced_setup=False`` (True: the special cards returned to the box at setup are
                     public, the seed's advanced setup rule); adapter keys ``render_mode``,
                     ``reward_mode``, ``illegal_action``, ``illegal_reward``, ``max_cycles``
==================== ==============================================================================

A turn is a sequence of small decisions of the same agent: the card, its orientation (upgraded yellow cards:
the main action and the colour), main or colour action first, then each part (a workshop from the display,
its face, cell and rotation; each production room; a garden tile's size, square and position; a canal tile,
its side and box; the camel's destination, what to load in Resafa, buy/sell and how many, the trading post
box, the merchant row; bonus-card slot, track, special card taken face up or searched ...). Held bonus, sack,
canal bonus and instant special cards may be used at every decision of the own turn where using one first
can change something (:data:`meeplezoo.envs.resafa.turn.CARD_WINDOWS`); the hand limit is checked at the
end. In rain scoring, the player who placed the tile under a water cube chooses its branches.
``observation[pending]`` one-hot names the pending decision (:class:`meeplezoo.envs.resafa.steps.Step`).

Hidden: every deck order (action decks, even your own; workshop, bonus, sack, special decks), the other seats'
hands (only the set of their unplayed cards is public) and sack cards, face-down special cards, the special
cards returned to the box (public with ``advanced_setup=True``).

Rewards: at the end, by ``reward_mode`` (:mod:`meeplezoo.envs.core.rewards`): ``win`` (ties broken by most
canal tiles; still tied seats share the win), ``rank`` or ``score_margin`` (margin / 30). Solo: Resafabot
scores nothing; the AEC env's one agent gets +1 for reaching the designer's fair target (150 VP), -1 below it;
the Gymnasium env :func:`solo_gym_env` pays the same by default (``reward="score"`` for the final VP) and its
final ``info`` names the band. The designer's scale: 150 fair, 180 good, 200 very good, 220+ excellent
(``state.verdict()`` names the band).

Version history: v0 - first release (2-4 players); the solo mode (num_players=1, ResafaSolo-v0) added;
ResafaSolo-v0 pays +1/-1 by default like every solo env (was the final VP, now ``reward="score"``).
"""

from __future__ import annotations

from ..core import env_factory
from ..core.solo_gym import SoloGymEnv
from .game import ResafaGame
from .manifest import MANIFEST
from .solo import band

#: the player counts this env supports (``num_players`` config)
PLAYER_COUNTS = MANIFEST.player_counts

raw_env = env_factory(ResafaGame, "resafa_v0")


def solo_gym_env(**kwargs) -> SoloGymEnv:
    """The solo mode against Resafabot as a Gymnasium env (``gymnasium.make("meeplezoo/ResafaSolo-v0")``).

    The solo convention of :mod:`~meeplezoo.envs.core.solo_gym`: ``reward="win"`` (the default) +1 from the
    designer's fair target (150 VP), -1 below; ``"score"`` the final VP; ``"score_margin"`` (VP - 150) / 30. The
    final ``info`` carries ``score``, ``automa_score`` (150), ``won`` and ``band``, the designer's band of the
    score ("below fair (under 150)", "fair", "good", "very good", "excellent"). Keyword arguments go to
    :class:`~meeplezoo.envs.core.solo_gym.SoloGymEnv` (``reward``, ``illegal_reward``, ``render_mode``,
    ``max_steps``)."""
    return SoloGymEnv(ResafaGame(num_players=1), band=band, **kwargs)


def env(**kwargs):
    """The Resafa env. The adapter has PettingZoo's wrapper checks built in (order enforcing, action bounds,
    illegal-move handling), so no wrapper stack is added."""
    return raw_env(**kwargs)
