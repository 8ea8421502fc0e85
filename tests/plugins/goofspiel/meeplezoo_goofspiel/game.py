"""Goofspiel as a MeepleZoo engine: :class:`GoofspielGame` (the config) and :class:`GoofspielState` (a position).

The rules (``rules.md`` beside this module): each player holds the cards ``1..cards``; the prize cards ``1..cards``
are shuffled face down. A round reveals the top prize; every player in seat order bids one card face down; when
all have bid the bids are revealed: the single highest bid wins the prize's value, a tie for the highest bid
discards the prize. Bid cards are spent. After ``cards`` rounds the highest total wins (equal totals share a rank).

The turn is MeepleZoo's task stack (:mod:`meeplezoo.envs.core.tasks`): a round pushes one ``bid`` decision per
seat over an automatic ``reveal`` step. What is hidden: the prize deck's order (from everyone) and, until the
reveal, each bid of this round (from the other seats): :meth:`GoofspielState.resample_hidden` resamples both.

>>> state = GoofspielGame(cards=4).new_state(seed=1)
>>> state.pending(), state.current_player(), state.legal_actions()
('bid a card for the prize', 0, [0, 1, 2, 3])
>>> state.describe_action(3)
'bid 4'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core import Chance, ConfigError, CorruptStateError, Game
from meeplezoo.envs.core.chance import arrange
from meeplezoo.envs.core.layout import build_layout
from meeplezoo.envs.core.records import RecordCodec
from meeplezoo.envs.core.tasks import StackState, TaskMachine

NO_BID = 0  # a seat's bid before it bids (cards are 1..N)


class Step(IntEnum):
    """The steps of a round: one ``BID`` decision per seat, then the automatic ``REVEAL``."""

    BID = 0
    REVEAL = 1


BID, REVEAL = int(Step.BID), int(Step.REVEAL)  # as saved in the task stack: plain ints


@dataclass(slots=True)
class GoofspielData:
    """A Goofspiel position as plain data (cards are their values, ``1..N``)."""

    chance: Chance
    stack: list[tuple[int, int, int, int]]  # the task stack: the pending decision on top
    deck: list[int]  # prize cards face down, the next on top (last): their order is hidden
    prize: int  # the prize card face up this round (0 once the game is over)
    hands: list[list[int]]  # per seat, the cards not yet bid, ascending
    bids: list[int]  # per seat, this round's face-down bid (NO_BID before bidding): hidden from the others
    played: list[list[int]]  # per seat, its revealed bids, round by round
    prizes: list[int]  # the prizes of the rounds played, in order
    points: list[int]  # per seat, the value of the prizes won
    legal: tuple[int, ...] = ()  # the pending decision's legal actions (derived, not saved)


CODEC = RecordCodec(GoofspielData, "goofspiel")


# --- the turn: bids and the reveal -------------------------------------------------------------------------
def _bid_legal(d: GoofspielData, seat: int, a: int, b: int) -> list[int]:
    return [card - 1 for card in d.hands[seat]]


def _bid(d: GoofspielData, action: int, seat: int, a: int, b: int) -> None:
    card = action + 1
    d.hands[seat].remove(card)
    d.bids[seat] = card


def _reveal(d: GoofspielData, seat: int, a: int, b: int) -> None:
    """Rule "reveal": the single highest bid wins the prize; a tie for the highest discards it."""
    top = max(d.bids)
    winners = [s for s, bid in enumerate(d.bids) if bid == top]
    if len(winners) == 1:
        d.points[winners[0]] += d.prize
    for s, bid in enumerate(d.bids):
        d.played[s].append(bid)
        d.bids[s] = NO_BID
    d.prizes.append(d.prize)
    d.prize = 0
    if d.deck:
        _start_round(d)


def _start_round(d: GoofspielData) -> None:
    """Turn the top prize face up and ask every seat for a bid, seat 0 first (pushed in reverse)."""
    d.prize = d.deck.pop()
    d.stack.append((REVEAL, 0, 0, 0))
    d.stack.extend((BID, seat, 0, 0) for seat in reversed(range(len(d.hands))))


MACHINE = TaskMachine(
    decisions={Step.BID: (_bid_legal, _bid)},
    automatic={Step.REVEAL: _reveal},
    names={Step.BID: "bid a card for the prize", Step.REVEAL: "reveal the bids"},
)


def expected_stack(d: GoofspielData) -> list[tuple[int, int, int, int]]:
    """The task stack a position of play has: this round's bids still to come over the reveal (none at the end)."""
    if not d.prize:
        return []
    bid = sum(1 for x in d.bids if x != NO_BID)
    return [(REVEAL, 0, 0, 0), *((BID, s, 0, 0) for s in reversed(range(bid, len(d.bids))))]


def setup(seed: int, num_players: int, cards: int) -> GoofspielData:
    """The start: full hands, the prize deck shuffled by the game's chance (its only random event)."""
    chance = Chance(seed)
    deck = list(range(1, cards + 1))
    chance.generator().shuffle(deck)
    d = GoofspielData(
        chance=chance,
        stack=[],
        deck=deck,
        prize=0,
        hands=[list(range(1, cards + 1)) for _ in range(num_players)],
        bids=[NO_BID] * num_players,
        played=[[] for _ in range(num_players)],
        prizes=[],
        points=[0] * num_players,
    )
    _start_round(d)
    return d


def won_points(d: GoofspielData) -> list[int]:
    """Each seat's points recomputed from the revealed rounds (what ``points`` must hold)."""
    points = [0] * len(d.hands)
    for r, prize in enumerate(d.prizes):
        bids = [played[r] for played in d.played]
        if bids.count(max(bids)) == 1:
            points[bids.index(max(bids))] += prize
    return points


# --- the game -------------------------------------------------------------------------------------------------
class GoofspielGame(Game):
    """Goofspiel: ``num_players`` (2-4) bid with the cards ``1..cards`` (3-13) for the prizes ``1..cards``."""

    name = "goofspiel"
    defaults: ClassVar[dict[str, Any]] = {"num_players": 2, "cards": 9}
    config_help: ClassVar[dict[str, str]] = {
        "num_players": "players (2-4)",
        "cards": "cards per hand and prize cards, valued 1..cards (3-13): the number of rounds",
    }
    _bounds: ClassVar[dict[str, tuple[int, int]]] = {"num_players": (2, 4), "cards": (3, 13)}

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        for key, (low, high) in self._bounds.items():
            value = config[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ConfigError(f"goofspiel: {key} must be an int in [{low}, {high}], not {value!r}")
        return config

    @property
    def num_players(self) -> int:
        return self.config["num_players"]

    @property
    def cards(self) -> int:
        return self.config["cards"]

    @property
    def num_actions(self) -> int:
        return self.cards

    @cached_property
    def _layout(self) -> tuple[dict[str, slice], int]:
        n, cards = self.num_players, self.cards
        return build_layout(
            [
                ("pending", 1),  # one-hot of the pending decision: the one decision, bid (0 once the game is over)
                ("hand", cards),  # my cards not yet bid
                ("my_bid", cards),  # one-hot: my face-down bid this round
                ("prize", cards),  # one-hot: the prize face up
                ("prizes_left", cards),  # the prizes still face down (as a set)
                ("others_cards", (n - 1) * cards),  # per other seat (from mine on): its cards not yet revealed
                ("has_bid", n),  # per seat (me first): has bid this round
                ("points", n),  # per seat: points / the total prize value
                ("last_bids", n),  # per seat: last round's revealed bid / cards
                ("last_prize", 1),  # last round's prize / cards
                ("round", 1),  # rounds played / cards
                ("my_turn", 1),
            ]
        )

    def observation_layout(self) -> dict[str, slice]:
        return dict(self._layout[0])

    @property
    def observation_size(self) -> int:
        return self._layout[1]

    @property
    def state_size(self) -> int:
        return 2 * self.num_players * self.cards + 2 * self.cards + self.num_players + 1

    @property
    def max_decisions(self) -> int:
        return self.num_players * self.cards

    @property
    def score_scale(self) -> float:
        return float(self.cards)

    @property
    def total_value(self) -> int:
        """The value of all the prizes."""
        return self.cards * (self.cards + 1) // 2

    def new_state(self, seed: int) -> GoofspielState:
        state = GoofspielState(self, setup(int(seed), self.num_players, self.cards))
        state.refresh()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> GoofspielState:
        return GoofspielState.load(self, data)


class GoofspielState(StackState):
    """A Goofspiel position (``d``: :class:`GoofspielData`)."""

    __slots__ = ()
    machine = MACHINE
    codec = CODEC
    game: GoofspielGame

    @property
    def num_actions(self) -> int:  # type: ignore[override]  (per config, not per class)
        return self.game.cards

    def keeps_legal(self, player: int) -> bool:
        """The seat to bid has not bid yet, so resampling never touches its hand: its legal bids stay."""
        return True

    def resample_hidden(self, player: int, rng: np.random.Generator | None) -> None:
        """The prize deck's order, and each other seat's face-down bid among its unrevealed cards."""
        d = self.d
        d.deck = arrange(d.deck, rng)
        for seat, bid in enumerate(d.bids):
            if seat != player and bid != NO_BID:
                pool = arrange([*d.hands[seat], bid], rng)
                d.bids[seat] = pool.pop()  # canonical (rng None): the highest
                d.hands[seat] = sorted(pool)

    def unrevealed(self, seat: int) -> list[int]:
        """The cards of ``seat`` nobody has seen played: its hand and its face-down bid (public knowledge)."""
        bid = self.d.bids[seat]
        return sorted([*self.d.hands[seat], bid]) if bid != NO_BID else list(self.d.hands[seat])

    # --- outcome ------------------------------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(p) for p in self.d.points]

    # --- names and pictures -------------------------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        if not 0 <= action < self.game.cards:
            raise ValueError(f"goofspiel: action {action} is outside Discrete({self.game.cards})")
        return f"bid {action + 1}"

    def public_action_name(self, action: int, viewer: int | None) -> str:
        """A bid is secret from the other seats until the reveal: the last bid of a round is revealed at once."""
        actor = self.current_player()
        last = sum(1 for bid in self.d.bids if bid == NO_BID) == 1
        if viewer is None or viewer == actor or last:
            return self.describe_action(action)
        return "bid a card face down"

    def render(self) -> str:
        d, cards = self.d, self.game.cards
        lines = [f"Goofspiel, round {len(d.prizes) + (1 if d.prize else 0)} of {cards}"]
        if d.prize:
            lines.append(f"prize: {d.prize}   face down: {len(d.deck)} prize card(s) {sorted(d.deck)}")
        if d.prizes:
            last = ", ".join(f"P{s} {played[-1]}" for s, played in enumerate(d.played))
            lines.append(f"last round: prize {d.prizes[-1]}, bids {last}")
        to_act = self.current_player()
        for seat in range(self.game.num_players):
            mark = "*" if seat == to_act else " "
            bid = "  (bid face down)" if d.bids[seat] != NO_BID else ""
            cards_left = " ".join(map(str, self.unrevealed(seat))) or "-"
            lines.append(f"{mark} P{seat}: {d.points[seat]:3d} points   cards {cards_left}{bid}")
        return "\n".join(lines)

    # --- vectors ------------------------------------------------------------------------------------------
    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        game, d = self.game, self.d
        n, cards = game.num_players, game.cards
        at = game._layout[0]
        obs = np.zeros(game.observation_size, np.float32) if out is None else out
        obs[:] = 0.0
        obs[at["pending"].start] = bool(d.stack)
        start = at["hand"].start
        for card in d.hands[player]:
            obs[start + card - 1] = 1.0
        if d.bids[player] != NO_BID:
            obs[at["my_bid"].start + d.bids[player] - 1] = 1.0
        if d.prize:
            obs[at["prize"].start + d.prize - 1] = 1.0
        for card in d.deck:
            obs[at["prizes_left"].start + card - 1] = 1.0
        start = at["others_cards"].start
        for rel in range(1, n):
            for card in self.unrevealed((player + rel) % n):
                obs[start + (rel - 1) * cards + card - 1] = 1.0
        last = [played[-1] if played else 0 for played in d.played]
        for rel in range(n):
            seat = (player + rel) % n
            obs[at["has_bid"].start + rel] = d.bids[seat] != NO_BID
            obs[at["points"].start + rel] = d.points[seat] / game.total_value
            obs[at["last_bids"].start + rel] = last[seat] / cards
        obs[at["last_prize"].start] = (d.prizes[-1] if d.prizes else 0) / cards
        obs[at["round"].start] = len(d.prizes) / cards
        obs[at["my_turn"].start] = self.current_player() == player
        return obs

    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        game, d = self.game, self.d
        n, cards = game.num_players, game.cards
        vec = np.zeros(game.state_size, np.float32) if out is None else out
        vec[:] = 0.0
        for seat in range(n):
            for card in d.hands[seat]:
                vec[seat * cards + card - 1] = 1.0
            if d.bids[seat] != NO_BID:
                vec[(n + seat) * cards + d.bids[seat] - 1] = 1.0
        i = 2 * n * cards
        vec[i : i + len(d.deck)] = [card / cards for card in d.deck]  # the deck in order, bottom first
        i += cards
        if d.prize:
            vec[i + d.prize - 1] = 1.0
        i += cards
        vec[i : i + n] = [p / game.total_value for p in d.points]
        vec[i + n] = len(d.prizes) / cards
        return vec

    # --- validation ---------------------------------------------------------------------------------------
    def validate(self) -> None:
        """Every card in exactly one place, the revealed rounds adding up to the points, the stack a round's."""
        d, game = self.d, self.game
        n, cards = game.num_players, game.cards
        full = list(range(1, cards + 1))
        problems = []
        if not (len(d.hands) == len(d.bids) == len(d.played) == len(d.points) == n):
            raise CorruptStateError(f"goofspiel: saved state breaks the rules: hands, bids, played, points need {n}")
        rounds = len(d.prizes)
        if any(len(played) != rounds for played in d.played):
            problems.append(f"every seat must have played {rounds} card(s), one per revealed prize")
        for seat in range(n):
            held = [*d.hands[seat], *d.played[seat], *([d.bids[seat]] if d.bids[seat] != NO_BID else [])]
            if sorted(held) != full or d.hands[seat] != sorted(d.hands[seat]):
                problems.append(f"P{seat}'s hand, bid and played cards are not the cards 1..{cards} once each")
        prize = [d.prize] if d.prize else []
        if sorted([*d.deck, *prize, *d.prizes]) != full:
            problems.append(f"the prize cards are not each in one place (1..{cards})")
        if bool(d.prize) != (rounds < cards):
            problems.append(f"a prize is face up after {rounds} round(s) of {cards}")
        bid = [x != NO_BID for x in d.bids]
        if bid != sorted(bid, reverse=True) or all(bid):
            problems.append(f"bids {d.bids}: seats bid in order and a round ends at the last bid")
        if not problems and d.points != won_points(d):
            problems.append(f"points {d.points} are not what the revealed rounds give {won_points(d)}")
        if not problems and d.stack != expected_stack(d):
            problems.append(f"the task stack {d.stack} is not this round's")
        if problems:
            raise CorruptStateError("goofspiel: saved state breaks the rules: " + "; ".join(problems))
