"""Board Royale: The Island as a MeepleZoo engine: :class:`BoardRoyaleGame` (config) and :class:`BoardRoyaleState`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core import ConfigError, CorruptStateError, Game
from ..core.chance import arrange
from ..core.tasks import ArgsCheck, StackState, args_problem
from . import island, observation, render, turn
from .actions import MAX_PLAYERS, NUM_ACTIONS
from .content import (
    CARD_EFFECT,
    CARD_TYPE,
    ESCAPE_CARDS,
    KIND_COUNTS,
    NUM_ITEM_CARDS,
    NUM_KINDS,
    NUM_RES,
    RULES,
    Effect,
)
from .resources import canonical_hands, deck_hidden_bounds, hand_limit, hand_size, resources_of, sample_hands
from .state import BLOW_NONE, CODEC, NO, STEAL, RoyaleData, item_cards, setup
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
        return 20_000  # the stall rules end games long before (docs/rules/board_royale.md, section 6)

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

    def adjudicated_ranks(self) -> list[int]:
        """A game stopped at the decision cap: the living ranked by strikes, exposure, escape points, cards in
        hand, idle streak, then clockwise order from the start player (:func:`.island.adjudicated_ranks`)."""
        if self.d.winner != NO:
            return self.ranks()
        return island.adjudicated_ranks(self.d)

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
        sizes |= {"hid_max": n * n, "loot_hidden": NUM_KINDS - NUM_RES, "idle": n, "strikes": n}
        for name, size in sizes.items():
            need(len(getattr(d, name)) == size, f"{name} must have {size} entries")
        need(len(d.joiners) % 2 == 0, "joiners are (seat, card) pairs")
        for t in d.stack:
            need(0 <= t[0] < len(Step) and t[1] in range(n), f"bad task {t}")
        if problems:
            raise CorruptStateError("board_royale: saved state breaks the rules: " + "; ".join(problems))
        need(all(x >= 0 for x in d.hand + d.known + d.res_discard + d.item_used), "negative counts")
        need(all(k in range(NUM_KINDS) for k in d.res_deck), "unknown card kind in the resource deck")
        need(all(c in range(NUM_ITEM_CARDS) for c in d.item_deck + d.item_discard + d.loot_items), "item card ids")
        need(all(c == NO or c in range(NUM_ITEM_CARDS) for c in d.field), "item card ids in the field")
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
        need(d.turn_over in (0, 1) and d.progress in (0, 1), "flags")
        need(all(x >= 0 for x in d.idle + d.strikes) and d.futile >= 0, "idle streaks / strikes / futile exchanges")
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
        if not problems:  # both read item owners by the ids checked above
            problems += _task_problems(d) + _offer_problems(d)
        if problems:
            raise CorruptStateError("board_royale: saved state breaks the rules: " + "; ".join(problems))


# --- saved task stacks and trade offers ----------------------------------------------------------------------
_GAINS = (Effect.DRAW, Effect.STEAL, Effect.SALVAGE)
#: the most cards one gain draws, steals or salvages (the count of a LIMIT, DRAW or SALVAGE task)
MAX_GAIN = max(RULES.draw, *(t.n for c, t in enumerate(CARD_TYPE) if CARD_EFFECT[c] in _GAINS))
_ATTACKS = (Effect.DISCARD, Effect.STEAL)
#: the items a task may name as the attacking one: a weapon card, or the Resource Phase steal
_ATTACK_ITEMS = frozenset((STEAL, *(c for c in range(NUM_ITEM_CARDS) if CARD_EFFECT[c] in _ATTACKS)))
_TARGETED = frozenset(c for c in _ATTACK_ITEMS if c != STEAL and not CARD_TYPE[c].area)
_SALVAGERS = frozenset(c for c in range(NUM_ITEM_CARDS) if CARD_EFFECT[c] == Effect.SALVAGE)
_TRADING = (Step.TRADE_GIVE, Step.TRADE_ASK, Step.TRADE_ANSWER)  # a = the other side of the trade
_COUNTS = (Step.LIMIT, Step.DRAW)  # a = cards about to be gained
#: decisions only the active player makes (on their own turn)
_ACTIVE_ONLY = (Step.PREP, Step.RESOURCE, Step.ACTION, Step.TARGET, Step.SALVAGE_KIND, Step.TRADE_PARTNER)
_ACTIVE_ONLY += (Step.LOOT_SPLIT, Step.FIGHT, Step.RESOLVE)  # only the active player attacks


def _task_problems(d: RoyaleData) -> list[str]:
    """What is wrong with the task stack (each task already 4 ints with a known step and a seat): a turn's
    END_TURN at the bottom only, a trade's task on top only, the turn's own decisions the active player's, a
    blow aimed at a side of the fight under way, and each task's ``a`` and ``b`` as its step reads them
    (:data:`TASK_ARGS`)."""
    stack = d.stack
    out = []
    if stack and stack[0] != (Step.END_TURN, d.active, 0, 0):
        out.append(f"the bottom task {stack[0]} must end the active player's turn")
    if d.blow_on != NO or d.blow_kind != BLOW_NONE:  # a blow under answer: of the fight resolved next
        fight = next((t for t in reversed(stack) if t[0] == Step.RESOLVE), None)
        if fight is None or d.blow_on not in (fight[1], fight[3]):
            out.append(f"blow_on {d.blow_on} is not a side of the running fight")
    top = len(stack) - 1
    for i, (step, seat, _, _) in enumerate(stack):
        if (
            (step in _ACTIVE_ONLY and seat != d.active)
            or (step in _TRADING and i != top)
            or (step == Step.END_TURN and i != 0)
        ):
            out.append(f"bad task {stack[i]}")
    wrong = args_problem(d, TASK_ARGS, lambda s: Step(s).name)
    return out if wrong is None else [*out, wrong]


def _at_seat(join: bool) -> ArgsCheck:
    """An attack task's ``a`` (the attacking item) and ``b`` (another seat): a JOIN's target is not the attacker;
    a DEFEND, FIGHT or RESOLVE is between the attacker and another seat."""
    return lambda d, s, a, b: (
        a in _ATTACK_ITEMS and b in range(d.n) and b != s and (b != d.active if join else d.active in (s, b))
    )


#: per step (:func:`~meeplezoo.envs.core.tasks.args_problem`), the ``a`` and ``b`` it reads (the steps not listed
#: take none)
TASK_ARGS: dict[int, ArgsCheck] = {
    Step.JOIN: _at_seat(join=True),
    **dict.fromkeys((Step.DEFEND, Step.FIGHT, Step.RESOLVE), _at_seat(join=False)),
    # a = the other side of the trade
    **dict.fromkeys(_TRADING, lambda d, s, a, b: a in range(d.n) and a != s and b == 0),
    # a = cards about to be gained
    **dict.fromkeys(_COUNTS, lambda d, s, a, b: 0 <= a <= MAX_GAIN and b == 0),
    Step.TARGET: lambda d, s, a, b: a in _TARGETED and d.item_owner[a] == s and b == 0,
    Step.SALVAGE_KIND: lambda d, s, a, b: a in _SALVAGERS and b == 0,
    Step.SALVAGE: lambda d, s, a, b: a in range(NUM_RES) and 0 <= b <= MAX_GAIN,
    # run_limit asked for just enough discards to gain at most MAX_GAIN
    Step.HAND_DISCARD: lambda d, s, a, b: a >= 1 and b == 0 and hand_size(d, s) - a >= hand_limit(d, s) - MAX_GAIN,
    Step.LOOT_ROOM: lambda d, s, a, b: a in range(NUM_RES, NUM_KINDS) and b == 0,
    Step.VOTE: lambda d, s, a, b: a in range(d.n) and b == 0,
}


def _offer_problems(d: RoyaleData) -> list[str]:
    """What is wrong with the trade offer: empty outside a trade; in one, the proposer gives cards and items
    they hold, and asks for at most the other's hand size and for the other's items."""
    top = d.stack[-1] if d.stack else None
    offer = any(d.offer_give) or any(d.offer_ask) or d.offer_give_items or d.offer_ask_items
    if top is None or top[0] not in _TRADING:
        ok = not offer and d.trade_with == NO and d.counters == 0
        return [] if ok else ["offer_give / offer_ask / offer items / trade_with / counters set outside a trade"]
    proposer, other = (top[2], top[1]) if top[0] == Step.TRADE_ANSWER else (top[1], top[2])
    if {proposer, other} != {d.active, d.trade_with}:
        return ["the trade task's seats are not the active player and the trade partner"]
    out = []
    base = proposer * NUM_KINDS
    if any(d.offer_give[k] > d.hand[base + k] for k in range(NUM_KINDS)):
        out.append("offer_give holds cards the proposer does not hold")
    if sum(d.offer_ask) > hand_size(d, other):
        out.append("offer_ask asks for more cards than the other hand holds")
    if any(d.item_owner[c] != proposer for c in d.offer_give_items):
        out.append("offer_give_items holds items the proposer does not own")
    if any(d.item_owner[c] != other for c in d.offer_ask_items):
        out.append("offer_ask_items holds items the other side does not own")
    return out
