"""Tiny Duel: a test-only card duel that exercises every feature of the shared core.

Not shipped. It exists so that :mod:`meeplezoo.envs.core` (engine protocol, chance, rewards and the AEC
adapter) is tested on its own, before any real game leans on it.

Rules
-----
* 2 to 6 players (config ``num_players``), each with ``max_hp`` (3) hit points and a hidden hand of
  ``hand_size`` (2) cards dealt from a shuffled deck of ``strikes`` strike, ``blocks`` block and ``heals``
  heal cards. The deck order is hidden; the discard pile is face up.
* A turn is a sequence of decisions:

  1. ``play``: the active player plays a strike, plays a heal (only when hurt: +1 hit point) or passes;
  2. ``target`` (after a strike): the active player chooses a living opponent, by seat offset;
  3. ``react`` (the target's decision, on someone else's turn): block with a block card or take the hit
     (-1 hit point).

  Then the active player draws a card (unless holding ``hand_limit`` cards; an empty deck is refilled by
  shuffling the discard pile) and the turn passes to the next living seat.
* A player at 0 hit points is eliminated and discards their hand face up. The last one standing wins;
  after ``max_turns`` turns the game ends and survivors rank by hit points (ties share). Eliminated
  players rank below every survivor, later eliminations above earlier ones.

Actions (``Discrete(n + 4)`` for ``n`` players)
------------------------------------------------
======================  =========================================
``0``                   pass
``1``                   play a strike
``2``                   play a heal
``3 .. n+1``            strike the player ``1 .. n-1`` seats on
``n+2``                 block
``n+3``                 take the hit
======================  =========================================

Observation of seat ``p`` (``5n + 13`` floats in [0, 1]; seat blocks from ``p``'s seat, ``p`` first)
-----------------------------------------------------------------------------------------------------
=============  =======  ===============================================================
slice          length   content
=============  =======  ===============================================================
seats          3n       per relative seat: hp / max_hp, alive, hand size / hand_limit
hand           3        own strike, block, heal counts / hand_limit
pending        4        one-hot play, target, react, game over
my_decision    1        1 if the pending decision is mine
active         n        one-hot relative seat of the active player
target         n        one-hot relative seat of the strike's target (react only)
discard        3        strike, block, heal counts in the discard pile / deck total
deck           1        cards in the deck / deck total
turn           1        turns played / max_turns
=============  =======  ===============================================================

The full-information :meth:`DuelState.state_vector` (``8n + 14`` floats) is in absolute seat order and
adds every hand, the deck composition and its top card.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, ClassVar

import numpy as np

from meeplezoo.envs.core import (
    TERMINAL,
    ActionTypeError,
    Chance,
    ConfigError,
    CorruptStateError,
    Game,
    IllegalActionError,
    State,
    env_factory,
)


class Card(IntEnum):
    STRIKE = 0
    BLOCK = 1
    HEAL = 2


CARDS = tuple(Card)


class Decision(Enum):
    PLAY = "play"
    TARGET = "target"
    REACT = "react"
    OVER = "game over"


DECISIONS = tuple(Decision)
PASS, PLAY_STRIKE, PLAY_HEAL, FIRST_TARGET = 0, 1, 2, 3


class TinyDuel(Game):
    """Configuration of Tiny Duel (every rule number is a config key)."""

    name = "tiny_duel"
    defaults: ClassVar[dict[str, Any]] = {
        "num_players": 2,
        "max_hp": 3,
        "hand_size": 2,
        "hand_limit": 3,
        "strikes": 10,
        "blocks": 6,
        "heals": 4,
        "max_turns": 40,
    }
    _bounds: ClassVar[dict[str, tuple[int, int]]] = {
        "num_players": (2, 6),
        "max_hp": (1, 9),
        "hand_size": (0, 9),
        "hand_limit": (1, 9),
        "strikes": (0, 99),
        "blocks": (0, 99),
        "heals": (0, 99),
        "max_turns": (1, 10_000),
    }

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        for key, (low, high) in self._bounds.items():
            value = config[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ConfigError(f"{self.name}: {key} must be an int in [{low}, {high}], not {value!r}")
        if config["hand_size"] > config["hand_limit"]:
            raise ConfigError(f"{self.name}: hand_size {config['hand_size']} exceeds hand_limit")
        total = config["strikes"] + config["blocks"] + config["heals"]
        if total < config["num_players"] * config["hand_size"]:
            raise ConfigError(f"{self.name}: a deck of {total} cards cannot deal the starting hands")
        return config

    # --- metadata -------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.config["num_players"]

    @property
    def num_actions(self) -> int:
        return self.num_players + 4

    @property
    def observation_size(self) -> int:
        return 5 * self.num_players + 13

    @property
    def state_size(self) -> int:
        return 8 * self.num_players + 14

    @property
    def max_decisions(self) -> int:
        return 3 * self.config["max_turns"]

    @property
    def score_scale(self) -> float:
        return float(self.config["max_hp"])

    @property
    def card_totals(self) -> tuple[int, int, int]:
        return (self.config["strikes"], self.config["blocks"], self.config["heals"])

    @property
    def block(self) -> int:
        """The action ``block``."""
        return self.num_players + 2

    @property
    def take_hit(self) -> int:
        """The action ``take the hit``."""
        return self.num_players + 3

    def target(self, offset: int) -> int:
        """The action striking the player ``offset`` seats on (1 .. n-1)."""
        return FIRST_TARGET + offset - 1

    # --- states ---------------------------------------------------------------------------------
    def new_state(self, seed: int) -> DuelState:
        n = self.num_players
        state = DuelState(
            game=self,
            chance=Chance(seed),
            hp=[self.config["max_hp"]] * n,
            hands=[[0, 0, 0] for _ in range(n)],
            deck=[],
            discard=[0, 0, 0],
            active=0,
            decision=Decision.PLAY,
            target=-1,
            turn=0,
            out=[],
        )
        cards = [card for card in CARDS for _ in range(self.card_totals[card])]
        order = state.chance.generator().permutation(len(cards))
        state.deck = [int(cards[i]) for i in order]
        for _ in range(self.config["hand_size"]):
            for seat in range(n):
                state.hands[seat][state.deck.pop()] += 1
        return state

    def position(
        self,
        *,
        hp: list[int] | None = None,
        hands: list[list[int]] | None = None,
        active: int = 0,
        decision: str = "play",
        target: int = -1,
        turn: int = 0,
        out: list[int] | None = None,
        seed: int = 0,
    ) -> DuelState:
        """A hand-made position for scenario tests (validated).

        Unset hit points are full, unset hands empty; ``out`` defaults to the 0-hp seats in seat order.
        The cards not in hands form the deck, sorted so that strikes are drawn first, then blocks, heals.

        >>> state = TinyDuel(num_players=3).position(hp=[3, 1, 3], hands=[[1, 0, 0], [0, 0, 0], [0, 1, 0]])
        >>> state.pending(), state.current_player(), len(state.deck)
        ('play', 0, 18)
        """
        n = self.num_players
        hp = list(hp) if hp is not None else [self.config["max_hp"]] * n
        hands = [list(hand) for hand in hands] if hands is not None else [[0, 0, 0] for _ in range(n)]
        left = [total - sum(hand[card] for hand in hands) for card, total in enumerate(self.card_totals)]
        state = DuelState(
            game=self,
            chance=Chance(seed),
            hp=hp,
            hands=hands,
            deck=[card for card in reversed(CARDS) for _ in range(left[card])],
            discard=[0, 0, 0],
            active=active,
            decision=Decision(decision),
            target=target,
            turn=turn,
            out=list(out) if out is not None else [seat for seat in range(n) if hp[seat] == 0],
        )
        state.validate()
        return state

    def state_from_dict(self, data: dict[str, Any]) -> DuelState:
        keys = {"chance", "hp", "hands", "deck", "discard", "active", "decision", "target", "turn", "out"}
        if not isinstance(data, dict) or set(data) != keys:
            got = sorted(data) if isinstance(data, dict) else type(data).__name__
            raise CorruptStateError(f"{self.name}: state keys must be {sorted(keys)}, got {got}")
        try:
            decision = Decision(data["decision"])
        except ValueError as exc:
            raise CorruptStateError(f"{self.name}: unknown decision {data['decision']!r}") from exc
        state = DuelState(
            game=self,
            chance=Chance.from_dict(data["chance"]),
            hp=_ints(data["hp"], "hp"),
            hands=[_ints(hand, "hand") for hand in _list(data["hands"], "hands")],
            deck=_ints(data["deck"], "deck"),
            discard=_ints(data["discard"], "discard"),
            active=_int(data["active"], "active"),
            decision=decision,
            target=_int(data["target"], "target"),
            turn=_int(data["turn"], "turn"),
            out=_ints(data["out"], "out"),
        )
        state.validate()
        return state


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptStateError(f"tiny_duel: {what} must be an int, not {value!r}")
    return value


def _list(value: Any, what: str) -> list:
    if not isinstance(value, list):
        raise CorruptStateError(f"tiny_duel: {what} must be a list, not {value!r}")
    return value


def _ints(value: Any, what: str) -> list[int]:
    return [_int(v, what) for v in _list(value, what)]


@dataclass(slots=True)
class DuelState(State):
    """A position of Tiny Duel: plain data, hands as card counts ``[strike, block, heal]``."""

    game: TinyDuel
    chance: Chance
    hp: list[int]
    hands: list[list[int]]
    deck: list[int]  # top card last
    discard: list[int]  # counts per card, face up
    active: int
    decision: Decision
    target: int  # seat of the strike's target while reacting, else -1
    turn: int
    out: list[int]  # eliminated seats, in order of elimination

    # --- whose turn, what is legal -------------------------------------------------------------
    def current_player(self) -> int:
        if self.decision is Decision.OVER:
            return TERMINAL
        return self.target if self.decision is Decision.REACT else self.active

    def pending(self) -> str:
        return self.decision.value

    def legal_mask(self) -> np.ndarray:
        game = self.game
        mask = np.zeros(game.num_actions, np.int8)
        if self.decision is Decision.PLAY:
            hand = self.hands[self.active]
            mask[PASS] = 1
            mask[PLAY_STRIKE] = hand[Card.STRIKE] > 0
            mask[PLAY_HEAL] = hand[Card.HEAL] > 0 and self.hp[self.active] < game.config["max_hp"]
        elif self.decision is Decision.TARGET:
            n = game.num_players
            for offset in range(1, n):
                mask[game.target(offset)] = self.hp[(self.active + offset) % n] > 0
        elif self.decision is Decision.REACT:
            mask[game.block] = self.hands[self.target][Card.BLOCK] > 0
            mask[game.take_hit] = 1
        return mask

    def apply(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ActionTypeError(f"tiny_duel: an action is an int, not {action!r}")
        action = int(action)
        game = self.game
        if not 0 <= action < game.num_actions or not self.legal_mask()[action]:
            raise IllegalActionError(action, self.current_player(), self.pending())
        if self.decision is Decision.PLAY:
            hand = self.hands[self.active]
            if action == PLAY_STRIKE:
                hand[Card.STRIKE] -= 1
                self.discard[Card.STRIKE] += 1
                self.decision = Decision.TARGET
                return
            if action == PLAY_HEAL:
                hand[Card.HEAL] -= 1
                self.discard[Card.HEAL] += 1
                self.hp[self.active] += 1
            self._end_turn()
        elif self.decision is Decision.TARGET:
            self.target = (self.active + action - FIRST_TARGET + 1) % game.num_players
            self.decision = Decision.REACT
        else:  # REACT
            victim = self.target
            if action == game.block:
                self.hands[victim][Card.BLOCK] -= 1
                self.discard[Card.BLOCK] += 1
            else:
                self.hp[victim] -= 1
                if self.hp[victim] == 0:
                    self.out.append(victim)
                    for card in CARDS:
                        self.discard[card] += self.hands[victim][card]
                    self.hands[victim] = [0, 0, 0]
            self.target = -1
            self._end_turn()

    def _end_turn(self) -> None:
        self._draw(self.active)
        self.turn += 1
        n = self.game.num_players
        if n - len(self.out) <= 1 or self.turn >= self.game.config["max_turns"]:
            self.decision = Decision.OVER
            return
        seat = (self.active + 1) % n
        while self.hp[seat] == 0:
            seat = (seat + 1) % n
        self.active = seat
        self.decision = Decision.PLAY

    def _draw(self, seat: int) -> None:
        hand = self.hands[seat]
        if sum(hand) >= self.game.config["hand_limit"]:
            return
        if not self.deck:
            cards = [card for card in CARDS for _ in range(self.discard[card])]
            if not cards:
                return
            order = self.chance.generator().permutation(len(cards))
            self.deck = [int(cards[i]) for i in order]
            self.discard = [0, 0, 0]
        hand[self.deck.pop()] += 1

    # --- outcome ----------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.decision is Decision.OVER

    def scores(self) -> list[float]:
        return [float(hp) for hp in self.hp]

    def ranks(self) -> list[int]:
        n = self.game.num_players
        ranks = [0] * n
        for order, seat in enumerate(self.out):
            ranks[seat] = n - 1 - order
        alive = [seat for seat in range(n) if self.hp[seat] > 0]
        for seat in alive:
            ranks[seat] = sum(1 for other in alive if self.hp[other] > self.hp[seat])
        return ranks

    def eliminated(self) -> frozenset[int]:
        return frozenset(self.out)

    # --- copies and persistence ----------------------------------------------------------------
    def clone(self) -> DuelState:
        return DuelState(
            game=self.game,
            chance=self.chance.copy(),
            hp=self.hp[:],
            hands=[hand[:] for hand in self.hands],
            deck=self.deck[:],
            discard=self.discard[:],
            active=self.active,
            decision=self.decision,
            target=self.target,
            turn=self.turn,
            out=self.out[:],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "chance": self.chance.to_dict(),
            "hp": self.hp[:],
            "hands": [hand[:] for hand in self.hands],
            "deck": self.deck[:],
            "discard": self.discard[:],
            "active": self.active,
            "decision": self.decision.value,
            "target": self.target,
            "turn": self.turn,
            "out": self.out[:],
        }

    def validate(self) -> None:
        game = self.game
        n, cfg = game.num_players, game.config

        def check(ok: bool, what: str) -> None:
            if not ok:
                raise CorruptStateError(f"tiny_duel: {what}")

        check(len(self.hp) == n and len(self.hands) == n, f"hp and hands need {n} seats")
        check(all(0 <= hp <= cfg["max_hp"] for hp in self.hp), f"hit points out of range: {self.hp}")
        check(all(len(hand) == 3 and min(hand) >= 0 for hand in self.hands), f"bad hands {self.hands}")
        check(all(sum(hand) <= cfg["hand_limit"] for hand in self.hands), "a hand exceeds hand_limit")
        check(len(self.discard) == 3 and min(self.discard) >= 0, f"bad discard {self.discard}")
        check(all(card in (0, 1, 2) for card in self.deck), f"bad deck {self.deck}")
        check(len(set(self.out)) == len(self.out), f"seat eliminated twice: {self.out}")
        check(set(self.out) == {s for s in range(n) if self.hp[s] == 0}, "eliminated seats and 0 hp differ")
        check(all(sum(self.hands[s]) == 0 for s in self.out), "an eliminated player holds cards")
        for card in CARDS:
            held = sum(hand[card] for hand in self.hands) + self.deck.count(card) + self.discard[card]
            check(
                held == game.card_totals[card],
                f"{card.name.lower()} cards: {held} != {game.card_totals[card]}",
            )
        check(0 <= self.turn <= cfg["max_turns"], f"turn {self.turn} out of range")
        check(0 <= self.active < n, f"active seat {self.active} out of range")
        over = n - len(self.out) <= 1 or self.turn >= cfg["max_turns"]
        check(over == (self.decision is Decision.OVER), f"decision {self.pending()!r} but game over is {over}")
        if not over:
            check(self.hp[self.active] > 0, "the active player is eliminated")
        if self.decision is Decision.REACT:
            check(0 <= self.target < n and self.target != self.active, f"bad target {self.target}")
            check(self.hp[self.target] > 0, "the target is eliminated")
        else:
            check(self.target == -1, f"target {self.target} outside a reaction")

    def determinize(self, player: int, rng: np.random.Generator) -> DuelState:
        """Redeal the other players' hands and the deck from their pooled cards; reseed future chance."""
        copy = self.clone()
        others = [s for s in range(self.game.num_players) if s != player]
        pool = list(copy.deck)
        for seat in others:
            pool += [card for card in CARDS for _ in range(copy.hands[seat][card])]
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for seat in others:
            size = sum(copy.hands[seat])
            copy.hands[seat] = [0, 0, 0]
            for _ in range(size):
                copy.hands[seat][pool.pop()] += 1
        copy.deck = [int(card) for card in pool]
        copy.chance = Chance(int(rng.integers(2**63 - 1)))
        return copy

    # --- views ------------------------------------------------------------------------------------
    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        game = self.game
        n, cfg = game.num_players, game.config
        obs = np.zeros(game.observation_size, np.float32) if out is None else out
        obs[:] = 0.0
        total = float(sum(game.card_totals))
        limit = float(cfg["hand_limit"])
        for rel in range(n):
            seat = (player + rel) % n
            obs[3 * rel : 3 * rel + 3] = (
                self.hp[seat] / cfg["max_hp"],
                self.hp[seat] > 0,
                sum(self.hands[seat]) / limit,
            )
        i = 3 * n
        obs[i : i + 3] = [count / limit for count in self.hands[player]]
        i += 3
        obs[i + DECISIONS.index(self.decision)] = 1.0
        i += 4
        obs[i] = self.current_player() == player
        i += 1
        obs[i + (self.active - player) % n] = 1.0
        i += n
        if self.decision is Decision.REACT:
            obs[i + (self.target - player) % n] = 1.0
        i += n
        obs[i : i + 3] = [count / total for count in self.discard]
        obs[i + 3] = len(self.deck) / total
        obs[i + 4] = self.turn / cfg["max_turns"]
        return obs

    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        game = self.game
        n, cfg = game.num_players, game.config
        vec = np.zeros(game.state_size, np.float32) if out is None else out
        vec[:] = 0.0
        total = float(sum(game.card_totals))
        limit = float(cfg["hand_limit"])
        for seat in range(n):
            vec[5 * seat] = self.hp[seat] / cfg["max_hp"]
            vec[5 * seat + 1] = self.hp[seat] > 0
            vec[5 * seat + 2 : 5 * seat + 5] = [count / limit for count in self.hands[seat]]
        i = 5 * n
        vec[i : i + 3] = [self.deck.count(card) / total for card in CARDS]
        if self.deck:
            vec[i + 3 + self.deck[-1]] = 1.0
        vec[i + 6 : i + 9] = [count / total for count in self.discard]
        i += 9
        vec[i + DECISIONS.index(self.decision)] = 1.0
        i += 4
        if self.current_player() != TERMINAL:
            vec[i + self.current_player()] = 1.0
        vec[i + n + self.active] = 1.0
        if self.decision is Decision.REACT:
            vec[i + 2 * n + self.target] = 1.0
        vec[i + 3 * n] = self.turn / cfg["max_turns"]
        return vec

    def describe_action(self, action: int) -> str:
        game = self.game
        n = game.num_players
        if action == PASS:
            return "pass"
        if action == PLAY_STRIKE:
            return "play a strike"
        if action == PLAY_HEAL:
            return "play a heal"
        if FIRST_TARGET <= action < FIRST_TARGET + n - 1:
            offset = action - FIRST_TARGET + 1
            return f"strike player_{(self.active + offset) % n} ({offset} seat(s) on)"
        if action == game.block:
            return "block"
        if action == game.take_hit:
            return "take the hit"
        raise ValueError(f"tiny_duel: action {action} is outside Discrete({game.num_actions})")

    def render(self) -> str:
        cfg = self.game.config
        lines = [f"turn {self.turn}/{cfg['max_turns']}, pending {self.pending()!r}"]
        for seat, (hp, hand) in enumerate(zip(self.hp, self.hands, strict=True)):
            marks = ("*" if seat == self.current_player() else " ") + ("!" if seat == self.target else " ")
            cards = ", ".join(f"{count} {card.name.lower()}" for card, count in zip(CARDS, hand, strict=True) if count)
            status = f"hp {hp}/{cfg['max_hp']}  hand: {cards or '-'}" if hp else "eliminated"
            lines.append(f"{marks} player_{seat}: {status}")
        lines.append(f"deck {len(self.deck)}  discard {self.discard}")
        return "\n".join(lines)


raw_env = env_factory(TinyDuel, "tiny_duel_v0")
