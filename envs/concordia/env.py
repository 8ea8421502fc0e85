"""Concordia (base game) on the Italia (2-4 players) and Imperium (3-5 players) maps as a PettingZoo AEC env.

Players lead Roman trading dynasties: each turn they play one personality card from their hand (Tribune,
Architect, Prefect, Mercator, Diplomat, Senator, Consul, Colonist, specialists), spreading colonists along
land and sea routes, building houses, producing goods and buying cards in the Forum. Cards score at the end
by their gods (Vesta, Jupiter, Saturnus, Mercurius, Mars, Minerva).

==================== ==============================================================================
Import               ``from meeplezoo.envs import concordia_v0``
Agents               ``player_0`` .. ``player_{n-1}``
Actions              ``Discrete(367)``; ranges in :mod:`meeplezoo.envs.concordia.actions`
Observations         ``{"observation": float32[N] in [-1, 1], "action_mask": int8[367]}``; N depends on
                     the players and the map (:func:`meeplezoo.envs.concordia.observation.layout`)
Registry id          ``pettingzoo.make("aec", "meeplezoo/concordia-v0")`` after ``import meeplezoo``
Rules                ``meeplezoo rules concordia``: how to play (``envs/concordia/rules.md``)
Config               ``num_players=4`` (2-5), ``map="italia"`` (2-4 players) or ``"imperium"`` (3-5),
                     ``intermediate_scoring=False`` (running scores in observations and rendering);
                     adapter keys ``render_mode``, ``reward_mode``, ``illegal_action``,
                     ``illegal_reward``, ``max_cycles``
==================== ==============================================================================

A turn is one card; its choices are a short sequence of decisions of the same agent: Architect (pick a
colonist, pick its destination route among those reachable with the points left, ... stop; then a city to
build in, ... stop), Prefect (province or cash), Mercator (a trade: good, buy/sell, count; at most two goods),
Diplomat (whose top discard to copy), Senator/Consul (a Forum slot, then the good paid for each '?'), Colonist
(where to place, or the tax), Tribune (an optional colonist in Roma). A storehouse over 12 asks its owner to
discard, even on another player's turn. Decisions with no choice are skipped. ``observation[pending]``
one-hot names the pending decision (:class:`meeplezoo.envs.concordia.steps.Step`).

Observation layout (per configuration; per-seat blocks start with the viewer): pending decision, flags (to
act, Concordia taken), per-seat scalars (money, goods, storehouse, houses, colonists, Praefectus Magnus,
Concordia, active, hand size, running score when ``intermediate_scoring`` or at the end), task scalars
(movement points, goods traded, cards bought, '?' left, Senator, cards left in decks I..V), the colonist
being moved, per-seat cards in hand / discard pile / top discard, houses, colonists on routes (one per
route; its kind is the route's) and in cities (per seat, city and kind: count / 3), city goods, province
markers, Forum row. Hidden: only the Forum deck order.

Rewards: at the end, by ``reward_mode`` (:mod:`meeplezoo.envs.core.rewards`): ``win`` (ties broken by the
Praefectus Magnus rule, so there is always one winner), ``rank`` or ``score_margin`` (margin / 30).

Version history: v0 - first release (base game, Italia and Imperium).
"""

from __future__ import annotations

from ..core import env_factory
from .game import ConcordiaGame
from .manifest import MANIFEST

#: the player counts this env supports (``num_players`` config)
PLAYER_COUNTS = MANIFEST.player_counts

raw_env = env_factory(ConcordiaGame, "concordia_v0")


def env(**kwargs):
    """The Concordia env. The adapter has PettingZoo's wrapper checks built in (order enforcing, action
    bounds, illegal-move handling), so no wrapper stack is added."""
    return raw_env(**kwargs)
