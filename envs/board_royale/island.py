"""The island wears down who waits: futile exchanges, idle days, the rising tide, and the standing of a game
stopped at the engine's decision cap.

The seed has no end but a survivor or an escape ("Berabere durumu yoktur - ya bir oyuncu hayatta kalır ya da bir
oyuncu kaçar") and lets the decks reshuffle forever ("Bu kural oyunun süresiz devam etmesini sağlar"), so these
rules are filled in (docs/rules/board_royale.md, "Stalling and the decision cap"), in the published game's spirit
(its Disasters pack: "now the island is trying to kill you"), with bounds far above real play:

- **Futile exchanges**: a democracy vote that fails, and an offer cancelled, refused or countered, change
  nothing. At the :data:`RULES.futile_per_turn`-th in one turn the active player's turn is over (no more
  counter-offers; the Action Phase ends) and they get a strike; at :data:`RULES.max_strikes` strikes they are
  voted off the island at the end of that turn (out, their hand face up on the discard pile, nobody loots).
- **Idle days**: a turn in which the active player neither crafts, attacks (a steal or a weapon), completes a
  trade nor carries a vote is idle. From the :data:`RULES.idle_turns`-th idle turn in a row on, the castaway
  loses to exposure, at the end of each idle turn, one random resource card more than the turn before (1, 2,
  3, ...); at 0 resources they are out, on their own turn, and nobody loots them.
- **The rising tide**: from day :data:`RULES.tide_day` on, the active player loses ``day - tide_day + 1``
  random resource cards at the start of every turn (before the Resource Phase). A hand holds at most 24
  resources, so from day ``tide_day + 23`` every turn starts with an elimination until one castaway is left:
  every game ends by the rules.

Losses to exposure and the tide are not attacks (nobody answers or joins them); the cards go face up to the
Resource Discard Pile.
"""

from __future__ import annotations

from .content import NUM_RES, RULES
from .elimination import check_out
from .escape import escape_points
from .resources import K, discard_random, hand_size, move_out
from .state import NO, RoyaleData


def note_progress(d: RoyaleData) -> None:
    """The active player crafted, attacked, traded or carried a vote: this turn is not idle."""
    d.progress = 1


def note_futile(d: RoyaleData) -> None:
    """One more futile exchange this turn; at the bound the active player's turn is over (their Action Phase
    offers nothing more, and no counter-offer is made, once the exchange under way ends)."""
    d.futile += 1
    if d.futile >= RULES.futile_per_turn:
        d.turn_over = 1


def exposure(streak: int) -> int:
    """Resource cards lost at the end of the ``streak``-th idle turn in a row (0 below the bound)."""
    return max(0, streak - RULES.idle_turns + 1)


def tide(round_no: int) -> int:
    """Resource cards the rising tide takes at the start of each turn of day ``round_no`` (0 before it rises)."""
    return max(0, round_no - RULES.tide_day + 1)


def close_turn(d: RoyaleData, seat: int) -> bool:
    """At the end of ``seat``'s turn (after the preparation round): a strike if the turn hit the futile bound
    (voted off at the last one), then count an idle turn or clear the streak, and take the exposure loss.
    Returns whether that ended the game."""
    if d.round_no == 0 or not d.alive[seat]:
        return False
    if d.futile >= RULES.futile_per_turn:
        d.strikes[seat] += 1
        if d.strikes[seat] >= RULES.max_strikes:
            return vote_off(d, seat)
    d.idle[seat] = 0 if d.progress else d.idle[seat] + 1
    loss = exposure(d.idle[seat])
    return loss > 0 and _lose(d, seat, loss)


def open_turn(d: RoyaleData, seat: int) -> bool:
    """At the start of ``seat``'s turn: clear the turn's counts, and let the rising tide take its cards.
    Returns whether that ended the game."""
    d.futile = d.progress = 0
    loss = tide(d.round_no)
    return loss > 0 and _lose(d, seat, loss)


def vote_off(d: RoyaleData, seat: int) -> bool:
    """``seat`` leaves the island: every resource card face up to the discard pile, then out (hidden items
    revealed, items discarded, nobody loots). Returns whether the game ended."""
    for kind in range(NUM_RES):
        for _ in range(d.hand[seat * K + kind]):
            move_out(d, seat, kind, public=True)
            d.res_discard[kind] += 1
    check_out(d, seat, [])
    return d.winner != NO


def _lose(d: RoyaleData, seat: int, count: int) -> bool:
    """``seat`` discards ``count`` random resource cards face up (out at 0, unlooted); whether the game ended."""
    discard_random(d, seat, count, spare_last=False)
    check_out(d, seat, [])
    return d.winner != NO


def adjudicated_ranks(d: RoyaleData) -> list[int]:
    """Ranks of a game stopped before its end: an eliminated seat keeps its rank; the living ones rank 0, 1, ...
    by their standing: fewer strikes, then not under exposure (stalling earns nothing), more escape points (the
    way out), more cards in hand (health; a public count), a shorter idle streak, then clockwise order from the
    start player (a strict order: never a shared place)."""
    n = d.n
    living = [s for s in range(n) if d.alive[s]]
    living.sort(key=lambda s: _standing(d, s))
    ranks = list(d.elim_rank)
    for place, s in enumerate(living):
        ranks[s] = place
    return ranks


def _standing(d: RoyaleData, seat: int) -> tuple[int, ...]:
    """``seat``'s place in :func:`adjudicated_ranks`: smaller is better."""
    exposed = d.idle[seat] >= RULES.idle_turns
    order = (seat - d.first_player) % d.n
    return (d.strikes[seat], exposed, -escape_points(d, seat), -hand_size(d, seat), d.idle[seat], order)
