"""No credit for stalling, on every game case of :mod:`games` (issue 39).

Stallers (:class:`Staller`: passive, always-first-legal, always-last-legal and, where the game names its counter
answers, always-counter) play each case against the game's baseline agent and all together. Every game must end
by the rules well before the decision cap, and a passive, first or counter staller facing the baseline never ranks
first, shared or not.
What a game does about a seat that stalls is its rules document's (``docs/rules/GAME.md``, "Stalling").
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from games import CASES, GameCase

from meeplezoo.agents import make_agent
from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.core import State

pytestmark = pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])

KINDS = ("passive", "first", "last", "counter")
#: the stallers that must never rank first (the last legal action is often a real move: it is checked for length)
RANKED = ("passive", "first", "counter")


class Staller:
    """Picks by a fixed rule that never tries to win: see :class:`~meeplezoo.envs.core.conformance.StallCheck`."""

    def __init__(self, kind: str, words: tuple[str, ...]) -> None:
        self.kind = kind
        self.pattern = re.compile("|".join(re.escape(w) for w in words), re.I) if words else None

    def act(self, state: State) -> int:
        legal = state.legal_actions()
        if self.kind == "last":
            return legal[-1]
        if self.pattern is not None:
            for action in legal:
                if self.pattern.search(state.describe_action(action)):
                    return action
        return legal[0]


def staller(case: GameCase, kind: str) -> Staller:
    check = case.stalling
    words = {"passive": check.passive_words, "counter": check.counter_words}.get(kind, ())
    return Staller(kind, words)


def kinds(case: GameCase) -> list[str]:
    return [k for k in KINDS if k != "counter" or case.stalling.counter_words]


def play(case: GameCase, seed: int, seats: dict[int, Staller]) -> tuple[State, int]:
    """Play one game on the engine: the stallers in their seats, the baseline agent in the others."""
    game = case.game()
    state = game.new_state(seed)
    baseline = case.manifest.baseline_agent
    others = {s: make_agent(baseline, case.name, seed=seed * 10 + s) for s in range(game.num_players) if s not in seats}
    limit = case.stalling.max_length or game.max_decisions
    steps = 0
    while not state.is_terminal() and steps < limit:
        seat = state.current_player()
        agent = seats.get(seat)
        state.apply(agent.act(state) if agent else int(others[seat].act(view_of_state(state, seat))))
        steps += 1
    return state, steps


def test_a_staller_against_the_baseline_ends_the_game_and_never_ranks_first(case):
    check = case.stalling
    n = case.game().num_players
    for kind in kinds(case):
        for g in range(check.games):
            seat = g % n
            state, steps = play(case, seed=100 + g, seats={seat: staller(case, kind)})
            what = f"{case.id}: a {kind} staller in seat {seat} (seed {100 + g})"
            assert state.is_terminal(), f"{what} kept the game going for {steps} decisions"
            if check.rank_check and kind in RANKED:
                assert state.ranks()[seat] != 0, f"{what} ranked first: ranks {state.ranks()}"


def test_every_seat_stalling_still_ends_the_game(case):
    n = case.game().num_players
    for kind in kinds(case):
        state, steps = play(case, seed=7, seats={s: staller(case, kind) for s in range(n)})
        assert state.is_terminal(), f"{case.id}: every seat {kind} kept the game going for {steps} decisions"
        ranks = state.ranks()
        assert all(0 <= r < max(n, 2) for r in ranks), f"{case.id}: ranks {ranks}"  # solo: 0 won, 1 lost


def test_a_game_stopped_at_its_cap_is_ranked_by_its_standing(case):
    """Adjudication (``State.adjudicated_ranks``) of positions part way through random games: ranks in range,
    and a seat ranks first only if it leads the standing the game's rules document names; never every seat
    sharing first place once the seats' scores differ."""
    game = case.game()
    n = game.num_players
    rng = np.random.default_rng(3)
    for seed in range(3):
        state = game.new_state(seed)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
            steps += 1
            if steps % 97 == 0:
                ranks = state.adjudicated_ranks()
                assert len(ranks) == n and all(0 <= r < max(n, 2) for r in ranks), f"{case.id}: {ranks}"
                assert n == 1 or min(ranks) == 0, f"{case.id}: nobody ranks first in {ranks}"
                if n > 1 and len(set(state.scores())) > 1:
                    assert ranks.count(0) < n, f"{case.id} at {steps}: every seat first although scores differ"
