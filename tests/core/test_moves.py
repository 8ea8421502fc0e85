"""``distinct_moves``: the legal actions as a player chooses among them (issue 37: two identical cards gave two
identical buttons). Identical outcomes are one move; same names with different outcomes are numbered."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from meeplezoo.envs.core.moves import distinct_moves
from meeplezoo.games import make_env


def test_two_identical_cards_in_concordia_are_one_move():
    state = make_env("concordia", num_players=2).unwrapped.game.new_state(0)
    prefects = [a for a in state.legal_actions() if state.describe_action(a) == "play Prefect [Saturnus, start]"]
    assert len(prefects) == 2  # two copies of the card, with ids of their own
    moves = distinct_moves(state)
    assert [a for a, name in moves if name.startswith("play Prefect")] == [min(prefects)]
    assert len(moves) == len(state.legal_actions()) - 1 and len({n for _, n in moves}) == len(moves)
    assert state.legal_actions() == sorted(state.legal_actions())  # it changed nothing in the state


def test_resafa_sack_cards_printed_alike_are_one_move():
    from meeplezoo.envs.resafa import actions as A
    from meeplezoo.envs.resafa.game import ResafaGame
    from meeplezoo.envs.resafa.steps import Step

    s = ResafaGame(num_players=2).new_state(0)
    seat = s.current_player()
    for c in (0, 1, 8):  # sack-01 and sack-02: +1 stone each; sack-09: +1 marble
        s.d.sack_deck.remove(c)
        s.d.sack_hand[seat].append(c)
    s.d.stack.append((int(Step.HAND_LIMIT), seat, 0, 0))
    s.refresh()  # what is legal in the position set up
    assert {A.USE_SACK0, A.USE_SACK0 + 1, A.USE_SACK0 + 8} <= set(s.legal_actions())
    moves = dict(distinct_moves(s))
    assert moves[A.USE_SACK0] == "use a sack card: +1 stone" and A.USE_SACK0 + 1 not in moves
    assert moves[A.USE_SACK0 + 8] == "use a sack card: +1 marble"


class _Coins:
    """A stub state: three moves named alike, "take a coin"; moves 0 and 2 give 1 coin, move 1 gives 2."""

    game = SimpleNamespace(num_players=1)

    def __init__(self, coins: int = 0, over: bool = False) -> None:
        self.coins, self.over = coins, over

    def legal_actions(self) -> list[int]:
        return [0, 1, 2]

    def describe_action(self, action: int) -> str:
        return "take a coin"

    def clone(self) -> _Coins:
        return _Coins(self.coins, self.over)

    def apply(self, action: int) -> None:
        self.coins += 2 if action == 1 else 1

    def is_terminal(self) -> bool:
        return False

    def current_player(self) -> int:
        return 0

    def pending(self) -> str:
        return "take coins"

    def observe(self, player: int) -> np.ndarray:
        return np.array([self.coins], dtype=np.float32)

    def render(self) -> str:
        return f"{self.coins} coins"


def test_same_names_with_different_outcomes_are_numbered():
    assert distinct_moves(_Coins()) == [(0, "take a coin (way 1 of 2)"), (1, "take a coin (way 2 of 2)")]
