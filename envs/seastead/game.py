"""Seastead as a MeepleZoo engine: :class:`SeasteadGame` (config) and :class:`SeasteadState`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core import ConfigError, CorruptStateError, Game
from ..core.tasks import StackState
from . import observation, render, scoring, turn
from .actions import NUM_ACTIONS
from .content import DIVE_CARDS, DOCKS, NUM_RES, SETUP, SPECIALISTS, Deck
from .state import CODEC, NO, setup
from .steps import NUM_DECISIONS, Step

VARIANTS = ("base",)


class SeasteadGame(Game):
    """Seastead for two players with the A sides of the flotillas (the base game).

    Config: ``variant="base"`` (the B sides with decrees and the solo mode are not implemented yet).
    """

    name = "seastead"
    defaults: ClassVar[dict[str, Any]] = {"variant": "base"}

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        if config["variant"] not in VARIANTS:
            raise ConfigError(f"seastead: variant must be one of {VARIANTS}, not {config['variant']!r}")
        return config

    num_players = 2
    num_actions = NUM_ACTIONS
    observation_size = observation.OBS_SIZE
    state_size = observation.STATE_SIZE
    max_decisions = 2_000
    score_scale = 20.0

    def new_state(self, seed: int) -> SeasteadState:
        s = SeasteadState(self, setup(int(seed)))
        s.refresh()
        return s

    def state_from_dict(self, data: dict[str, Any]) -> SeasteadState:
        return SeasteadState.load(self, data)


class SeasteadState(StackState):
    """A Seastead position; the rules live in the modules named after the rulebook (dive, build, ...)."""

    __slots__ = ()
    machine = turn.MACHINE
    codec = CODEC
    num_actions = NUM_ACTIONS

    def scores(self) -> list[float]:
        d = self.d
        return [float(d.sheet[5]), float(d.sheet[11])] if d.sheet else [0.0, 0.0]

    def ranks(self) -> list[int]:
        keys = [scoring.rank_key(self.d, s) for s in (0, 1)]
        return [sum(1 for k in keys if k > mine) for mine in keys]

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observation.observe(self.d, player, out)

    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        return observation.state_vector(self.d, out)

    def describe_action(self, action: int) -> str:
        return render.describe(self.d, action)

    def render(self) -> str:
        return render.render(self.d)

    def score_sheet(self) -> str:
        return render.score_sheet(self.d) if self.d.sheet else "(no final score yet)"

    def resample_hidden(self, player: int, rng: np.random.Generator) -> None:
        """Reshuffle the hidden deck orders: the dock deck, the specialist deck and the dive deck. The dive deck
        keeps its Shallows/Shelf/Depths bands while they are public (the setup stacks them); once it was rebuilt
        from the shuffled discard pile its whole order is unknown and it is shuffled as a whole."""
        d = self.d
        deck = d.dive_deck
        bands = (Deck.SHALLOWS, Deck.SHELF, Deck.DEPTHS)
        if d.dive_reshuffled:
            d.dive_deck = deck = [deck[i] for i in rng.permutation(len(deck))]
            bands = ()
        for band in bands:
            pos = [i for i, c in enumerate(deck) if DIVE_CARDS[c].deck == band]
            cards = [deck[i] for i in pos]
            for i, j in zip(pos, rng.permutation(len(cards)), strict=True):
                deck[i] = cards[j]
        d.dock_deck = [d.dock_deck[i] for i in rng.permutation(len(d.dock_deck))]
        d.spec_deck = [d.spec_deck[i] for i in rng.permutation(len(d.spec_deck))]

    def validate(self) -> None:
        """Check token conservation and board consistency (raises CorruptStateError)."""
        d = self.d
        problems = []

        def need(ok: bool, what: str) -> None:
            if not ok:
                problems.append(what)

        need(len(d.res) == 2 * NUM_RES and len(d.supply) == NUM_RES, "resource list sizes")
        sizes = {"cleanup": 2, "shortfall": 2, "columns": 2, "ships_boxed": 2, "dock_display": 3, "spec_display": 3}
        sizes |= {"spec_owner": len(SPECIALISTS), "spec_spent": len(SPECIALISTS)}
        for name, size in sizes.items():
            need(len(getattr(d, name)) == size, f"{name} must have {size} entries")
        need(len(d.loc_bld) == len(d.loc_owner) == len(d.ship) == len(d.dock_at) == 24, "board sizes")
        need(len(d.sheet) in (0, 12), "score sheet size")
        need(bool(d.stack) != bool(d.sheet), "the game is over exactly when the score sheet is filled")
        need(all(x >= 0 for x in d.shortfall + d.ships_boxed) and all(0 <= c <= 4 for c in d.columns), "counts")
        need(all(x in (NO, 0, 1) for x in d.loc_owner + d.ship + d.spec_owner), "seat numbers on the board")
        need(all(x in (NO, 0, 1, 2) for x in d.loc_bld), "building types on the board")
        need(all(x in (0, 1) and (x == 0 or d.spec_owner[i] != NO) for i, x in enumerate(d.spec_spent)), "spent")
        need(d.round_no >= 0 and 0 <= d.turns_in_round <= (2 if d.sheet else 1) and 0 <= d.triggers < 16, "round")
        need(d.end_round == NO or d.round_no <= d.end_round <= d.round_no + 1, "end round")
        need(d.dive_reshuffled in (0, 1), "dive_reshuffled is a flag")
        need(d.mine_half in (NO, 0, 1) and d.trawler in (0, 1) and d.engineer in (0, 1), "turn modifiers")
        need(d.prospector in (NO, *range(NUM_RES)) and d.founder in (NO, *range(NUM_RES)), "turn resource kinds")
        need(d.build_type in (NO, 0, 1, 2) and d.built_loc in (NO, *range(24)), "this turn's build")
        if problems:  # the checks below index with these values
            raise CorruptStateError("seastead: saved state breaks the rules: " + "; ".join(problems))
        if not problems:
            for k in range(NUM_RES):
                total = d.supply[k] + d.res[k] + d.res[NUM_RES + k]
                need(total == SETUP.resource_supply, f"{k}: resources total {total} != {SETUP.resource_supply}")
        need(all(x >= 0 for x in d.res + d.supply + d.cleanup + d.built), "negative counts")
        need(
            d.cleanup_supply >= 0 and d.cleanup_supply + sum(d.cleanup) == SETUP.cleanup_supply,
            "cleanup total",
        )
        need(len(d.built) == 6 and all(0 <= b <= 4 for b in d.built), "built counts")
        if not d.sheet:
            for seat in (0, 1):
                for t in range(3):
                    on_board = sum(1 for i in range(24) if d.loc_owner[i] == seat and d.loc_bld[i] == t)
                    need(on_board == d.built[seat * 3 + t], f"P{seat} buildings of type {t} on board")
                ships = d.ship.count(seat) + d.ships_boxed[seat]
                need(ships <= d.built[seat * 3 + 2], f"P{seat} has more ships than shipyards")
        cards = sorted(d.dive_deck + d.dive_discard + ([d.revealed] if d.revealed != NO else []))
        need(cards == list(range(len(DIVE_CARDS))), "dive cards are not each in exactly one place")
        docks = sorted(d.dock_deck + [x for x in d.dock_display + d.dock_at if x != NO])
        need(d.sheet != [] or docks == list(range(len(DOCKS))), "dock tiles are not each in one place")
        owned = [i for i in range(len(SPECIALISTS)) if d.spec_owner[i] != NO]
        specs = sorted(d.spec_deck + [x for x in d.spec_display if x != NO] + owned)
        need(specs == list(range(len(SPECIALISTS))), "specialists are not each in one place")
        need(0 <= d.locked < 4 and sorted(d.demand) == [0, 1, 2, 3], "demand tokens")
        need(d.active in (0, 1) and d.first_player in (0, 1), "seats")
        for t in d.stack:
            need(0 <= t[0] < len(Step) and t[1] in (0, 1), f"bad task {t}")
        need(not d.stack or d.stack[-1][0] < NUM_DECISIONS, "the pending task on top must be a decision")
        if problems:
            raise CorruptStateError("seastead: saved state breaks the rules: " + "; ".join(problems))
