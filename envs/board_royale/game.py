"""Board Royale: The Island as a MeepleZoo engine: :class:`BoardRoyaleGame` (config) and :class:`BoardRoyaleState`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core import ConfigError, CorruptStateError, Game
from ..core.chance import arrange
from ..core.tasks import StackState
from . import observation, render, turn
from .actions import MAX_PLAYERS, NUM_ACTIONS
from .content import ESCAPE_CARDS, KIND_COUNTS, NUM_ITEM_CARDS, NUM_KINDS, NUM_RES, RULES
from .resources import canonical_hands, deck_hidden_bounds, hand_limit, hand_size, resources_of, sample_hands
from .state import CODEC, NO, item_cards, setup
from .steps import Step

#: decisions whose legal actions read only the deciding seat's own hand and public facts (hand sizes, face-up
#: items, piles, offers), which a public copy of that seat keeps; a trade answer also reads the proposer's
#: resources, which the canonical deal may move
_PUBLIC_LEGAL = frozenset(s for s in turn.DECISIONS if s != Step.TRADE_ANSWER)


class BoardRoyaleGame(Game):
    """Board Royale: The Island for 2-6 players.

    Config: ``num_players`` (2-6, default 4), ``elimination_only`` (default False: the variant without escape
    cards, where the last player standing is the only way to win).
    """

    name = "board_royale"
    defaults: ClassVar[dict[str, Any]] = {"num_players": 4, "elimination_only": False}

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        n = config["num_players"]
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_PLAYERS:
            raise ConfigError(f"board_royale: num_players must be an int from 2 to {MAX_PLAYERS}, not {n!r}")
        if not isinstance(config["elimination_only"], bool):
            raise ConfigError(
                f"board_royale: elimination_only must be True or False, not {config['elimination_only']!r}"
            )
        return config

    @property
    def num_players(self) -> int:
        return self.config["num_players"]

    num_actions = NUM_ACTIONS
    observation_size = observation.OBS_SIZE
    observation_clock = (observation.TURN_CLOCK,)
    state_size = observation.STATE_SIZE

    def observation_layout(self) -> dict[str, slice]:
        """The observation's named sections (:mod:`.observation`)."""
        return dict(observation.LAYOUT)

    @property
    def max_decisions(self) -> int:
        return 40_000

    @property
    def score_scale(self) -> float:
        return float(self.num_players - 1)

    def new_state(self, seed: int) -> BoardRoyaleState:
        d = setup(int(seed), self.num_players, self.config["elimination_only"])
        turn.start_turn(d, d.first_player)
        turn.advance(d)
        return BoardRoyaleState(self, d)

    def state_from_dict(self, data: dict[str, Any]) -> BoardRoyaleState:
        return BoardRoyaleState.load(self, data)


class BoardRoyaleState(StackState):
    """A Board Royale position; the rules live in the modules named after the rulebook (attack, trade, ...)."""

    __slots__ = ()
    machine = turn.MACHINE
    codec = CODEC
    num_actions = NUM_ACTIONS

    def ranks(self) -> list[int]:
        """The winner 0; other living players 1 once someone won (0 while the game runs); an eliminated seat
        the number of players alive right after its elimination (final from that moment)."""
        d = self.d
        out = []
        for s in range(d.n):
            if not d.alive[s]:
                out.append(d.elim_rank[s])
            elif d.winner == NO or d.winner == s:
                out.append(0)
            else:
                out.append(1)
        return out

    def scores(self) -> list[float]:
        """Zero-sum survival points (:mod:`.elimination`): higher is better, final for a seat once it is out."""
        return [float(x) for x in self.d.score]

    def eliminated(self) -> frozenset[int]:
        alive = self.d.alive
        if all(alive):  # the usual case, asked after every step: no generator to run
            return frozenset()
        return frozenset(s for s in range(self.d.n) if not alive[s])

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observation.observe(self.d, player, out)

    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        return observation.state_vector(self.d, out)

    def describe_action(self, action: int) -> str:
        return render.describe(self.d, action)

    def render(self) -> str:
        return render.render(self.d)

    def resample_hidden(self, player: int, rng: np.random.Generator | None) -> None:
        """Resample (or deal canonically) the other hands (keeping their sizes, what ``player`` knows about
        them, and a resource in every living hand) and the Resource Deck's order; shuffle the Item Deck."""
        d = self.d
        if rng is None:
            canonical_hands(d, player)
        else:
            sample_hands(d, player, rng)
        d.item_deck = arrange(d.item_deck, rng)

    def keeps_legal(self, player: int) -> bool:
        """When ``player`` makes the pending decision and it reads only what they see (:data:`_PUBLIC_LEGAL`)."""
        stack = self.d.stack
        return bool(stack) and stack[-1][1] == player and stack[-1][0] in _PUBLIC_LEGAL

    def validate(self) -> None:
        """Check card conservation and consistency (raises CorruptStateError)."""
        d = self.d
        n = self.game.num_players
        problems: list[str] = []

        def need(ok: bool, what: str) -> None:
            if not ok:
                problems.append(what)

        need(d.n == n, f"n must be {n}")
        sizes = {"hand": n * NUM_KINDS, "known": n * n * NUM_KINDS, "res_discard": NUM_KINDS}
        sizes |= {"item_owner": NUM_ITEM_CARDS, "item_used": NUM_ITEM_CARDS, "field": RULES.field_size}
        sizes |= {"alive": n, "elim_rank": n, "score": n, "offer_give": NUM_KINDS, "offer_ask": NUM_KINDS}
        for name, size in sizes.items():
            need(len(getattr(d, name)) == size, f"{name} must have {size} entries")
        need(len(d.joiners) % 2 == 0, "joiners are (seat, card) pairs")
        need(len(d.loot_hidden) == NUM_KINDS - NUM_RES, "loot_hidden has one count per hidden kind")
        if problems:
            raise CorruptStateError("board_royale: saved state breaks the rules: " + "; ".join(problems))
        need(all(x >= 0 for x in d.hand + d.known + d.res_discard + d.item_used), "negative counts")
        need(all(k in range(NUM_KINDS) for k in d.res_deck), "unknown card kind in the resource deck")
        if problems:
            raise CorruptStateError("board_royale: saved state breaks the rules: " + "; ".join(problems))
        for k in range(NUM_KINDS):
            total = d.res_deck.count(k) + d.res_discard[k] + sum(d.hand[s * NUM_KINDS + k] for s in range(n))
            need(total == KIND_COUNTS[k], f"kind {k}: {total} cards, expected {KIND_COUNTS[k]}")
        in_play = item_cards(self.game.config["elimination_only"])
        owned = [c for c in range(NUM_ITEM_CARDS) if d.item_owner[c] != NO]
        placed = sorted(d.item_deck + d.item_discard + [c for c in d.field if c != NO] + owned + d.loot_items)
        need(placed == in_play, "item cards are not each in exactly one place")
        need(all(o in (NO, *range(n)) for o in d.item_owner), "item owner is not a seat")
        need(
            not self.game.config["elimination_only"] or not any(c in ESCAPE_CARDS for c in placed),
            "escape cards in the elimination-only variant",
        )
        need(all(a in (0, 1) for a in d.alive) and sum(d.alive) >= 1, "alive flags")
        need(sum(d.score) == 0, "survival scores must sum to 0")
        for s in range(n):
            if d.alive[s]:
                need(d.elim_rank[s] == NO, f"P{s} is alive with a rank")
                need(resources_of(d, s) >= 1 or d.winner != NO, f"P{s} is alive without resources")
                need(hand_size(d, s) <= hand_limit(d, s), f"P{s} is above the hand limit")
            else:
                need(1 <= d.elim_rank[s] < n, f"P{s} eliminated with rank {d.elim_rank[s]}")
                need(hand_size(d, s) == 0, f"P{s} is out but holds cards")
                need(all(o != s for o in d.item_owner), f"P{s} is out but owns items")
        need(len(d.hid_max) == n * n, "hid_max must have n * n entries")
        for v in range(n):
            for h in range(n):
                hidden = sum(d.hand[h * NUM_KINDS + NUM_RES : (h + 1) * NUM_KINDS])
                bound = d.hid_max[v * n + h]
                need(bound == 0 if v == h else hidden <= bound <= hand_size(d, h), "hidden-item bound")
                for k in range(NUM_KINDS):
                    x = d.known[(v * n + h) * NUM_KINDS + k]
                    need(x <= d.hand[h * NUM_KINDS + k] and (v != h or x == 0), "knowledge above the hand")
        lo, hi = deck_hidden_bounds(d)
        need(lo <= sum(1 for k in d.res_deck if k >= NUM_RES) <= hi, "hidden items in the Resource Deck")
        need(d.deck_built >= len(d.res_deck), "deck size when built")
        need(d.first_player in range(n) and d.active in range(n), "seats")
        need(d.round_no >= 0 and d.turn_decisions >= 0, "round / decisions this turn")
        need(0 <= d.vote_yes < (1 << n) and 0 <= d.vote_no < (1 << n), "bitmasks")
        need(d.turn_over in (0, 1), "flags")
        looting = any(t[0] == Step.LOOT for t in d.stack)
        need(all(x >= 0 for x in d.loot_hidden), "negative loot")
        need(
            all(d.loot_hidden[h] <= d.res_discard[NUM_RES + h] for h in range(len(d.loot_hidden))),
            "looted hidden items must lie on the discard pile",
        )
        need(looting or not (d.loot_items or any(d.loot_hidden) or d.loot_takers), "loot without a LOOT task")
        need(0 <= d.loot_takers < (1 << n) and (not looting or d.loot_takers), "loot takers")
        need(d.field_round == NO or 1 <= d.field_round <= d.round_no, "field round")
        need(0 <= d.blow_kind <= 2 and 0 <= d.blow_n <= 6 and d.answers >= 0, "blow under answer")
        need(d.blow_on in (NO, *range(n)), "blow on a seat")
        for name in ("offer_give_items", "offer_ask_items"):
            cards = getattr(d, name)
            need(len(set(cards)) == len(cards) and all(c in range(NUM_ITEM_CARDS) for c in cards), name)
        need(all(x >= 0 for x in d.offer_give + d.offer_ask), "offer counts")
        need(d.trade_with in (NO, *range(n)) and 0 <= d.counters <= RULES.max_counter_offers, "trade")
        need(d.winner in (NO, *range(n)) and 0 <= d.win_kind <= 3, "winner")
        need((d.winner == NO) == (d.win_kind == 0), "winner and win kind")
        need((d.winner == NO) == bool(d.stack), "the game is over exactly when there is a winner")
        for t in d.stack:
            need(0 <= t[0] < len(Step) and t[1] in range(n), f"bad task {t}")
        if problems:
            raise CorruptStateError("board_royale: saved state breaks the rules: " + "; ".join(problems))
