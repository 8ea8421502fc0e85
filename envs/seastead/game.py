"""Seastead as a MeepleZoo engine: :class:`SeasteadGame` (config) and :class:`SeasteadState`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core import ConfigError, CorruptStateError, Game
from ..core.chance import arrange, arrange_bands
from ..core.tasks import StackState
from . import observation, render, scoring, turn
from .actions import NUM_ACTIONS
from .content import (
    DECREE_BY_NAME,
    DECREES,
    DIVE_CARDS,
    DOCKS,
    NUM_FLOTILLAS,
    NUM_LOCS,
    NUM_RES,
    SETUP,
    SIDES,
    SOLO,
    SPEC_BY_NAME,
    SPECIALISTS,
    Bld,
    Deck,
)
from .state import BOSS, BOSS_BUILDING, CODEC, NO, RANDOM_DECREE, setup
from .steps import Step

DIVE_BAND = tuple(c.deck for c in DIVE_CARDS)  # each dive card's band (Shallows, Shelf, Depths)
_BAND_ORDER = (Deck.SHALLOWS, Deck.SHELF, Deck.DEPTHS)  # the bands in the order resample_hidden arranges them


def _ships_to_come(d: Any, seat: int) -> int:
    """Ships of ``seat``'s built shipyards not yet on the board or boxed: a new ship waiting to be placed, or
    the effect of a shipyard just built (waiting below the opponent's Investor reaction)."""
    new = sum(1 for t in d.stack if t[0] == Step.SHIP_PLACE and t[1] == seat and t[2] == NO)
    return new + sum(
        1
        for t in d.stack
        if t[0] == Step.BUILDING_EFFECT and t[1] == seat and 0 <= t[2] < NUM_LOCS and d.loc_bld[t[2]] == Bld.SHIPYARD
    )


class SeasteadGame(Game):
    """Seastead: the base game (two players, A sides), the B sides with decrees, the advanced mixed setup and
    the solo mode against the Boss.

    Config: ``sides`` - one letter per flotilla tile, ``"AAAA"`` (default, the base game), ``"BBBB"`` or any
    mix with at least two B sides (the advanced rules); ``decree`` - the starting decree with B sides,
    ``"random"`` (default) or a decree name (the players' agreement; names in data/seastead.json);
    ``num_players`` - 2, or 1 for the solo mode "The Rebel Seastead" (A sides only, no decrees).
    """

    name = "seastead"
    defaults: ClassVar[dict[str, Any]] = {"sides": "AAAA", "decree": "random", "num_players": 2}

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        sides, decree, n = config["sides"], config["decree"], config["num_players"]
        if not isinstance(sides, str) or len(sides) != NUM_FLOTILLAS or set(sides) - set(SIDES):
            raise ConfigError(f"seastead: sides must be 4 letters A or B (one per flotilla tile), not {sides!r}")
        if 0 < sides.count("B") < 2:
            raise ConfigError(f"seastead: sides {sides!r}: mixing A and B sides needs at least two B sides")
        if not isinstance(decree, str) or (decree != "random" and decree not in DECREE_BY_NAME):
            raise ConfigError(f"seastead: decree must be 'random' or one of {sorted(DECREE_BY_NAME)}, not {decree!r}")
        if decree != "random" and "B" not in sides:
            raise ConfigError(f"seastead: decree {decree!r} needs B sides (decrees are used only with them)")
        if isinstance(n, bool) or n not in (1, 2):
            raise ConfigError(f"seastead: num_players must be 2 or 1 (the solo mode), not {n!r}")
        if n == 1 and sides != "AAAA":
            raise ConfigError(f"seastead: the solo mode uses only A sides, not sides={sides!r}")
        return config

    @property
    def num_players(self) -> int:
        return self.config["num_players"]

    @property
    def solo(self) -> bool:
        return self.config["num_players"] == 1

    num_actions = NUM_ACTIONS
    observation_size = observation.OBS_SIZE
    state_size = observation.STATE_SIZE
    max_decisions = 2_000
    score_scale = 20.0

    def observation_layout(self) -> dict[str, slice]:
        """The observation's named sections (:mod:`.observation`)."""
        return dict(observation.LAYOUT)

    def new_state(self, seed: int) -> SeasteadState:
        c = self.config
        sides = tuple(SIDES.index(x) for x in c["sides"])
        decree = RANDOM_DECREE if c["decree"] == "random" else DECREE_BY_NAME[c["decree"]]
        s = SeasteadState(self, setup(int(seed), sides, decree, solo=self.solo))
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
        if d.solo:
            return [float(d.sheet[5]) if d.sheet else 0.0]
        return [float(d.sheet[5]), float(d.sheet[11])] if d.sheet else [0.0, 0.0]

    def automa_score(self) -> float:
        """Solo: the Boss's score (20 + 3 per building once the game is over)."""
        return float(self.d.sheet[BOSS * 6 + 5]) if self.d.sheet else 0.0

    def ranks(self) -> list[int]:
        if self.d.solo:  # seed: "puanınız Boss'unkinden yüksekse kazanırsınız" - rank 0 only for beating it
            return [0 if self.d.sheet and self.d.sheet[5] > self.d.sheet[BOSS * 6 + 5] else 1]
        keys = [scoring.rank_key(self.d, s) for s in (0, 1)]
        return [sum(1 for k in keys if k > mine) for mine in keys]

    def adjudicated_ranks(self) -> list[int]:
        """A game stopped at its decision cap: the final scoring of a copy as if the game ended now (the score
        sheet is blank until then), ranked by the seed's rules: total, buildings left, cleanup tokens; solo,
        beating the Boss's 20 + 3 per building it has so far (docs/rules/seastead.md, "Stalling")."""
        if self.d.sheet:
            return self.ranks()
        ended = self.clone()
        ended.d.sheet = scoring.final_scoring(ended.d)
        return ended.ranks()

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observation.observe(self.d, player, out)

    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        return observation.state_vector(self.d, out)

    def describe_action(self, action: int) -> str:
        return render.describe(self.d, action)

    def automa_turns(self, before: StackState | None) -> list[str]:
        """Solo: the Boss's deliveries and buildings since ``before`` (it answers dives; None: nothing yet)."""
        return render.boss_turns(before.d if before is not None else None, self.d)

    def render(self) -> str:
        return render.render(self.d)

    def score_sheet(self) -> str:
        return render.score_sheet(self.d) if self.d.sheet else "(no final score yet)"

    def resample_hidden(self, player: int, rng: np.random.Generator | None) -> None:
        """Reshuffle (or sort) the hidden deck orders: the dock deck, the specialist deck and the dive deck. The
        dive deck keeps its Shallows/Shelf/Depths bands while they are public (the setup stacks them); once it
        was rebuilt from the shuffled discard pile its whole order is unknown and it is shuffled as a whole."""
        d = self.d
        deck = d.dive_deck
        if d.dive_reshuffled:
            d.dive_deck = arrange(deck, rng)
        else:
            arrange_bands(deck, DIVE_BAND, _BAND_ORDER, rng)
        d.dock_deck = arrange(d.dock_deck, rng)
        d.spec_deck = arrange(d.spec_deck, rng)
        if d.decree_deck:
            k = d.decree_known  # decrees seen going to the bottom stay there, the rest is shuffled
            d.decree_deck = d.decree_deck[:k] + arrange(d.decree_deck[k:], rng)

    def keeps_legal(self, player: int) -> bool:
        """Always: no decision's legal actions read the order of a deck (only whether one is empty), the only
        hidden part (``tests/seastead/test_seastead_lookahead_fast_paths.py``)."""
        return True

    def validate(self) -> None:
        """Check token conservation and board consistency (raises CorruptStateError)."""
        d = self.d
        problems = []

        def need(ok: bool, what: str) -> None:
            if not ok:
                problems.append(what)

        g = self.game.config
        need(d.sides == [SIDES.index(x) for x in g["sides"]], "flotilla sides differ from the config")
        need(d.solo == int(g["num_players"] == 1), "solo flag differs from the config")
        decrees = sorted(d.decree_deck + d.decree_drawn + d.decree_out + ([d.decree] if d.decree != NO else []))
        need(decrees == (list(range(len(DECREES))) if any(d.sides) else []), "decrees are not each in one place")
        need(any(d.sides) == (d.decree != NO) and 0 <= d.decree_known <= len(d.decree_deck), "decree in force")
        need(len(d.decree_drawn) <= SETUP.decree_draw, "drawn decrees")
        boss = (NUM_LOCS * NUM_RES, NUM_LOCS) if d.solo else (0, 0)
        need((len(d.boss_res), len(d.boss_visits)) == boss, "Boss lists")
        need(all(x >= 0 for x in d.boss_res) and all(x in (0, 1) for x in d.boss_visits), "Boss goods")
        if problems:
            raise CorruptStateError("seastead: saved state breaks the rules: " + "; ".join(problems))
        need(len(d.res) == 2 * NUM_RES and len(d.supply) == NUM_RES, "resource list sizes")
        sizes = {"cleanup": 2, "shortfall": 2, "columns": 2, "ships_boxed": 2, "dock_display": 3, "spec_display": 3}
        sizes |= {"spec_owner": len(SPECIALISTS), "spec_spent": len(SPECIALISTS), "built": 6, "demand": 4}
        sizes |= {"loc_bld": NUM_LOCS, "loc_owner": NUM_LOCS, "ship": NUM_LOCS, "dock_at": NUM_LOCS}
        for name, size in sizes.items():
            need(len(getattr(d, name)) == size, f"{name} must have {size} entries")
        need(len(d.sheet) in (0, 12), "score sheet size")
        if problems:  # the checks below index with these lists
            raise CorruptStateError("seastead: saved state breaks the rules: " + "; ".join(problems))
        need(bool(d.stack) != bool(d.sheet), "the game is over exactly when the score sheet is filled")
        need(all(x >= 0 for x in d.shortfall + d.ships_boxed) and all(0 <= c <= 4 for c in d.columns), "counts")
        need(all(x in (NO, 0, 1) for x in d.loc_owner + d.ship + d.spec_owner), "seat numbers on the board")
        need(
            not d.solo or (BOSS not in d.ship + d.spec_owner and d.res[BOSS * NUM_RES :] == [0] * NUM_RES),
            "the Boss holds ships, specialists or resources",
        )
        types = (NO, 0, 1, 2, BOSS_BUILDING) if d.solo else (NO, 0, 1, 2)
        need(all(x in types for x in d.loc_bld), "building types on the board")
        need(
            all(
                (x == BOSS_BUILDING) == (x != NO and o == BOSS and d.solo)
                for x, o in zip(d.loc_bld, d.loc_owner, strict=False)
            )
            or not d.solo,
            "Boss buildings",
        )
        need(all(x in (0, 1) and (x == 0 or d.spec_owner[i] != NO) for i, x in enumerate(d.spec_spent)), "spent")
        per_round = 1 if d.solo else 2  # turns in a round; once the game is over the last round is complete
        turns_ok = d.turns_in_round == per_round if d.sheet else 0 <= d.turns_in_round < per_round
        need(d.round_no >= 0 and turns_ok and 0 <= d.triggers < 16, "round")
        need(d.end_round == NO or d.round_no <= d.end_round <= d.round_no + 1, "end round")
        need(d.dive_reshuffled in (0, 1), "dive_reshuffled is a flag")
        need(d.mine_half in (NO, 0, 1) and d.trawler in (0, 1) and d.engineer in (0, 1), "turn modifiers")
        need(d.prospector in (NO, *range(NUM_RES)) and d.founder in (NO, *range(NUM_RES)), "turn resource kinds")
        need(d.build_type in (NO, 0, 1, 2) and d.built_loc in (NO, *range(24)), "this turn's build")
        docks = [x for x in d.dock_deck + d.dock_display + d.dock_at if x != NO]
        need(all(0 <= x < len(DOCKS) for x in docks) and len(set(docks)) == len(docks), "dock tile ids")
        if not problems:
            for k in range(NUM_RES):
                total = d.supply[k] + d.res[k] + d.res[NUM_RES + k] + sum(d.boss_res[k::NUM_RES])
                need(total == SETUP.resource_supply, f"{k}: resources total {total} != {SETUP.resource_supply}")
        need(all(x >= 0 for x in d.res + d.supply + d.cleanup + d.built), "negative counts")
        need(
            d.cleanup_supply >= 0 and d.cleanup_supply + sum(d.cleanup) == SETUP.cleanup_supply,
            "cleanup total",
        )
        need(all(0 <= b <= 4 for b in d.built), "built counts")
        if not d.sheet:
            for seat in (0,) if d.solo else (0, 1):
                for t in range(3):
                    on_board = sum(1 for i in range(24) if d.loc_owner[i] == seat and d.loc_bld[i] == t)
                    need(on_board == d.built[seat * 3 + t], f"P{seat} buildings of type {t} on board")
                ships = d.ship.count(seat) + d.ships_boxed[seat] + _ships_to_come(d, seat)
                need(ships <= d.built[seat * 3 + 2], f"P{seat} has more ships than shipyards")
        cards = sorted(d.dive_deck + d.dive_discard + ([d.revealed] if d.revealed != NO else []))
        in_box = [c.id for c in DIVE_CARDS if d.solo and c.deck == Deck.DEPTHS]  # solo: no Depths cards
        need(sorted(cards + in_box) == list(range(len(DIVE_CARDS))), "dive cards are not each in exactly one place")
        need(d.sheet != [] or sorted(docks) == list(range(len(DOCKS))), "dock tiles are not each in one place")
        board = d.loc_owner + d.loc_bld + d.dock_at
        need(not d.sheet or board == [NO] * len(board), "final scoring clears the board")
        owned = [i for i in range(len(SPECIALISTS)) if d.spec_owner[i] != NO]
        specs = sorted(d.spec_deck + [x for x in d.spec_display if x != NO] + owned)
        removed = sorted(SPEC_BY_NAME[n] for n in SOLO.removed_specialists) if d.solo else []
        need(sorted(specs + removed) == list(range(len(SPECIALISTS))), "specialists are not each in one place")
        need(0 <= d.locked < 4 and sorted(d.demand) == [0, 1, 2, 3], "demand tokens")
        need(d.active in (0, 1) and d.first_player in (0, 1), "seats")
        for t in d.stack:
            need(0 <= t[0] < len(Step) and t[1] in ((0,) if d.solo else (0, 1)), f"bad task {t}")
        if not problems:  # (the step ids are known: the stack check names them)
            wrong = turn.stack_problem(d)
            need(wrong is None, wrong or "")
        if problems:
            raise CorruptStateError("seastead: saved state breaks the rules: " + "; ".join(problems))
