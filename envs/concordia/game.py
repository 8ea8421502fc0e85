"""Concordia as a MeepleZoo engine: :class:`ConcordiaGame` (config) and :class:`ConcordiaState`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core import ConfigError, CorruptStateError, Game
from ..core.chance import arrange_bands
from ..core.tasks import StackState
from . import observation, render, scoring, turn
from .actions import NUM_ACTIONS
from .content import (
    CARDS,
    COLONISTS,
    COLONISTS_PER_KIND,
    FORUM_SIZE,
    MAX_HOUSES,
    NUM_CARDS,
    NUM_GOODS,
    PLAYERS,
    STOREHOUSE,
)
from .stalling import idle_problem, stalled
from .state import (
    BOARD_INDEX,
    CODEC,
    NO,
    ConcordiaData,
    board_of,
    setup,
    storehouse_used,
)
from .steps import Step

#: the most goods of one kind a storehouse can hold for a moment: full, then a specialist's production (one per
#: house) and the Praefectus Magnus bonus, before the owner discards down to the storehouse size
MAX_GOODS = STOREHOUSE + MAX_HOUSES + 2
#: per card id, the numeral on its back (0: starting cards, 1..5: Forum decks I..V)
_BAND_OF = tuple(c.deck for c in CARDS)
_BANDS = max(_BAND_OF) + 1


class ConcordiaGame(Game):
    """Concordia, base game. Config: ``num_players`` (2-5), ``map`` ("italia": 2-4 players, "imperium": 3-5)
    and ``intermediate_scoring`` (the seed's optional running score, shown in observations and rendering)."""

    name = "concordia"
    defaults: ClassVar[dict[str, Any]] = {"num_players": 4, "map": "italia", "intermediate_scoring": False}

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        n, board, inter = config["num_players"], config["map"], config["intermediate_scoring"]
        if not isinstance(board, str) or board not in PLAYERS:
            raise ConfigError(f"concordia: map must be one of {sorted(PLAYERS)}, not {board!r}")
        if isinstance(n, bool) or not isinstance(n, int):
            raise ConfigError(f"concordia: num_players must be an int, not {n!r}")
        if n not in PLAYERS[board]:
            raise ConfigError(
                f"concordia: num_players={n} is not allowed on the {board} map "
                f"({PLAYERS[board][0]}-{PLAYERS[board][-1]} players)"
            )
        if not isinstance(inter, bool):
            raise ConfigError(f"concordia: intermediate_scoring must be True or False, not {inter!r}")
        return config

    @property
    def num_players(self) -> int:
        return self.config["num_players"]

    @property
    def board(self) -> int:
        return BOARD_INDEX[self.config["map"]]

    num_actions = NUM_ACTIONS

    @property
    def observation_size(self) -> int:
        return observation.layout(self.num_players, self.board).size

    def observation_layout(self) -> dict[str, slice]:
        """The observation's named sections (:mod:`.observation`)."""
        return dict(observation.layout(self.num_players, self.board).slices)

    @property
    def state_size(self) -> int:
        return observation.layout(self.num_players, self.board).state_size

    # random play: mean ~700, longest of 18,000 seeded games 3,104; every seat stalling ends by the stall limit
    # (:mod:`.stalling`) within 3,121 (docs/rules/concordia.md, section 7)
    max_decisions = 20_000
    score_scale = 30.0

    def new_state(self, seed: int) -> ConcordiaState:
        s = ConcordiaState(self, setup(int(seed), self.num_players, self.board, self.config["intermediate_scoring"]))
        s.refresh()
        return s

    def state_from_dict(self, data: dict[str, Any]) -> ConcordiaState:
        return ConcordiaState.load(self, data)


def _colonist_problems(d: ConcordiaData) -> list[str]:
    """Colonists on the board and off it, each route's kind and its one colonist, the route occupancy table."""
    m = board_of(d)
    nc, nr = m.num_cities, m.num_routes
    problems: list[str] = []
    occ = [NO] * nr
    for k, pos in enumerate(d.col):
        if pos == NO:
            continue
        if not 0 <= pos < nc + nr:
            problems.append(f"colonist {k} off the board")
            continue
        if pos >= nc:
            r = pos - nc
            kind = 0 if k % COLONISTS < COLONISTS_PER_KIND else 1
            if m.routes[r][2] != kind:
                problems.append(f"colonist {k} on a route of the other kind")
            if occ[r] != NO:
                problems.append(f"two colonists on route {r}")
            occ[r] = k
    if occ != d.route_occ:
        problems.append("route occupancy")
    return problems


class ConcordiaState(StackState):
    """A Concordia position; the rules live in the modules named after the rulebook."""

    __slots__ = ()
    machine = turn.MACHINE
    codec = CODEC
    num_actions = NUM_ACTIONS

    def scores(self) -> list[float]:
        d = self.d
        if d.final:
            return [float(x) for x in d.final]
        return [float(x) for x in scoring.final_scores(d)]

    def god_sheet(self, seat: int) -> list[int]:
        """Vesta, Jupiter, Saturnus, Mercurius, Mars, Minerva, Concordia, total (as if the game ended now)."""
        return scoring.seat_sheet(self.d, seat)

    def score_sheet(self) -> str:
        """The score pad: each god's points per seat, the Concordia card and the total."""
        heads = ("Vesta", "Jupiter", "Saturnus", "Mercurius", "Mars", "Minerva", "Concordia", "total")
        sheets = [self.god_sheet(seat) for seat in range(self.d.n)]
        rows = [f"{'':<10}" + "".join(f"{'P' + str(seat):>6}" for seat in range(self.d.n))]
        rows += [f"{h:<10}" + "".join(f"{sheet[i]:>6}" for sheet in sheets) for i, h in enumerate(heads)]
        return "\n".join(rows)

    def ranks(self) -> list[int]:
        return self.standing()[0]

    def standing(self) -> tuple[list[int], list[float]]:
        """The ranks (score, then the tiebreak) and the scores, from one scoring of the seats. A seat that lost by
        the stall limit ranks below every other seat (:mod:`.stalling`). Before the end these are the ranks "as if
        the game ended now": what a game stopped at the decision cap is ranked by (:meth:`adjudicated_ranks`)."""
        d = self.d
        s = self.scores()
        keys = [(not stalled(d, i), s[i], scoring.tiebreak(d, i)) for i in range(d.n)]
        return [sum(1 for k in keys if k > mine) for mine in keys], s

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observation.observe(self.d, player, out)

    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        return observation.state_vector(self.d, out)

    def describe_action(self, action: int) -> str:
        return render.describe(self.d, action)

    def render(self) -> str:
        return render.render(self.d)

    def resample_hidden(self, player: int, rng: np.random.Generator | None) -> None:
        """Reshuffle (or sort) the Forum deck within its numbered bands (the numerals on the card backs are
        public)."""
        arrange_bands(self.d.deck, _BAND_OF, range(1, _BANDS), rng)

    def keeps_legal(self, player: int) -> bool:
        """Always: the Forum deck, the only hidden part, is read by no decision's legal actions
        (``tests/concordia/test_concordia_engine_fast.py`` compares the public copy with the re-read one)."""
        return True

    def validate(self) -> None:
        """Check the rule invariants of the position (raises CorruptStateError)."""
        d = self.d
        g = self.game
        problems: list[str] = []

        def need(ok: bool, what: str) -> None:
            if not ok:
                problems.append(what)

        n = g.num_players
        need(d.n == n and d.board == g.board, "players or map differ from the config")
        need(d.intermediate == int(g.config["intermediate_scoring"]), "intermediate scoring flag")
        if problems:
            raise CorruptStateError("concordia: saved state breaks the rules: " + "; ".join(problems))
        m = board_of(d)
        nc, nr = m.num_cities, m.num_routes
        sizes = {
            "money": n,
            "goods": n * NUM_GOODS,
            "col": n * COLONISTS,
            "route_occ": nr,
            "hand": n,
            "discard": n,
            "houses": n,
            "city_houses": nc,
            "city_good": nc,
            "province_good": len(m.provinces),
            "marker": len(m.provinces),
            "forum": FORUM_SIZE,
            "idle": n,
        }
        for name, size in sizes.items():
            need(len(getattr(d, name)) == size, f"{name} must have {size} entries")
        need(0 <= d.pm < n and d.concordia in (NO, *range(n)) and 0 <= d.active < n, "seats")
        need(d.turns >= 0, "turn counter")
        if problems:
            raise CorruptStateError("concordia: saved state breaks the rules: " + "; ".join(problems))
        need(all(x >= 0 for x in d.money + d.goods), "negative money or goods")
        need(all(x <= MAX_GOODS for x in d.goods), f"more than {MAX_GOODS} goods of a kind")
        need(all(x in (0, 1) for x in d.marker), "markers")
        need(all(0 <= x < NUM_GOODS for x in d.province_good), "province goods")
        need(
            all((x == NO) == (c == m.roma) and (x == NO or 0 <= x < NUM_GOODS) for c, x in enumerate(d.city_good)),
            "city goods (Roma has none)",
        )
        need(all(c == NO or 0 <= c < NUM_CARDS for c in d.deck + d.forum), "Forum card ids")
        for s in range(n):
            need(all(0 <= c < NUM_CARDS for c in d.hand[s] + d.discard[s]), f"P{s} card ids")
        if problems:  # the checks below index the card table with these ids
            raise CorruptStateError("concordia: saved state breaks the rules: " + "; ".join(problems))
        # cards: starting cards once per seat, every card for sale in exactly one place
        sale = list(d.deck) + [c for c in d.forum if c != NO]
        for s in range(n):
            owned = d.hand[s] + d.discard[s]
            need(sorted(c for c in owned if CARDS[c].deck == 0) == list(range(7)), f"P{s} starting cards")
            sale += [c for c in owned if CARDS[c].deck > 0]
            need(d.hand[s] == sorted(d.hand[s]), f"P{s} hand is kept sorted")
            need(len(d.houses[s]) <= MAX_HOUSES and len(set(d.houses[s])) == len(d.houses[s]), f"P{s} houses")
            need(all(0 <= c < nc and c != m.roma for c in d.houses[s]), f"P{s} house cities")
        bands = {CARDS[c].deck for c in sale}
        expected = sorted(c.id for c in CARDS if 1 <= c.deck <= n)
        need(sorted(sale) == expected and bands <= set(range(1, n + 1)), "Forum cards are not each in one place")
        need(
            all(c != NO for c in d.forum) or not d.deck or any(t[0] == Step.REFILL for t in d.stack),
            "Forum gap with cards left in the deck outside a purchase",
        )
        counts = [0] * nc
        for s in range(n):
            for c in d.houses[s]:
                if 0 <= c < nc:
                    counts[c] += 1
        need(counts == d.city_houses, "houses per city")
        problems += _colonist_problems(d)
        over = {t[1] for t in d.stack if t[0] == Step.OVERFLOW}
        for s in range(n):
            need(storehouse_used(d, s) <= STOREHOUSE or s in over, f"P{s} storehouse holds more than {STOREHOUSE}")
        need(bool(d.stack) != bool(d.final), "the game is over exactly when the final scores are set")
        need(not d.final or len(d.final) == n, "final scores size")
        for t in d.stack:
            need(0 <= t[0] < len(Step) and 0 <= t[1] < n, f"bad task {t}")
        if not problems:  # (the step ids are known: the stack check names them)
            wrong = turn.stack_problem(d) or idle_problem(d)
            need(wrong is None, wrong or "")
        if problems:
            raise CorruptStateError("concordia: saved state breaks the rules: " + "; ".join(problems))
