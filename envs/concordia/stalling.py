"""The stall limit (filled in: the seed has no rule for a player who never brings the end closer; see
docs/rules/concordia.md, "Stalling and the decision cap").

The game ends only when a player builds their 15th house or buys out the Forum, so only houses and Forum purchases
bring the end closer; a card can always be played, and a turn of Tribunes, cash bonuses or Senators buying
nothing changes nothing that ends the game. A seat that plays :data:`IDLE_TURNS` turns in a row without building
a house or buying a Forum card (a Diplomat's copy counts as its own) loses: the game ends after that turn, the
seat ranks below every other seat, and the others rank by the final scoring and its tie rule.

``ConcordiaData.idle[seat]`` counts the seat's turns since its last house or purchase: playing a card adds one
(``personalities.apply_main``), a house (``architect.build``) or a Forum card (``forum.apply_buy``) sets it back
to 0, and the turn's end (``turn.run_end_turn``) applies the limit.
"""

from __future__ import annotations

from .state import ConcordiaData
from .steps import Step

#: own turns in a row without a house or a Forum card after which a seat loses: heuristic play's longest run is
#: 8, random play's 215 in 18,000 games (docs/rules/concordia.md)
IDLE_TURNS = 300


def stalled(d: ConcordiaData, seat: int) -> bool:
    """Whether ``seat`` lost by the stall limit (the game is over and it reached :data:`IDLE_TURNS`)."""
    return bool(d.final) and d.idle[seat] >= IDLE_TURNS


def idle_problem(d: ConcordiaData) -> str | None:
    """What makes the saved turn counts impossible, or None: each in 0..IDLE_TURNS, and a seat at the limit only
    while its own turn is under way (its card played) or once the game ended by it."""
    if not all(0 <= x <= IDLE_TURNS for x in d.idle):
        return f"turns without a house or Forum card must be 0..{IDLE_TURNS}, not {d.idle}"
    at_limit = [s for s, x in enumerate(d.idle) if x == IDLE_TURNS]
    if at_limit and (at_limit != [d.active] or [t[0] for t in d.stack] == [Step.MAIN]):
        return f"P{at_limit[0]} is at the stall limit of {IDLE_TURNS} turns outside its own turn"
    return None
