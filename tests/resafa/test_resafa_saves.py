"""Saved positions that used to load and then crash (issue 36): each edited save is refused with a
CorruptStateError naming what is wrong, while the unedited save still loads; and a camel loaded by a card used
while the load count was pending no longer loses its goods."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from save_mutations import refusal

from meeplezoo.envs.core import State
from meeplezoo.envs.resafa import ResafaGame
from meeplezoo.envs.resafa.canals import face
from meeplezoo.envs.resafa.steps import Step

GAME = ResafaGame(num_players=2)


def _front_only_canal(state: State) -> bool:
    d = state.d
    return any(t != -1 and face(t, 1) is None for t in d.canal_design)


def _turn_canal_over(s: dict[str, Any]) -> None:
    box = next(b for b, t in enumerate(s["canal_design"]) if t != -1 and face(t, 1) is None)
    s["canal_side"][box] = 1


def _effects_past_the_list(s: dict[str, Any]) -> None:
    i = next(i for i, t in enumerate(s["stack"]) if t[0] == Step.EFFECTS)
    s["stack"][i][3] += 1000


def _add(name: str, i: int, delta: int) -> Callable[[dict[str, Any]], None]:
    def edit(s: dict[str, Any]) -> None:
        s[name][i] += delta

    return edit


EDITS = [
    # (name, position predicate, edit, words the message must hold)
    ("trade_tile[0] += 1000", lambda s: True, _add("trade_tile", 0, 1000), "trading tiles"),
    ("bonus_display[0] += 1000", lambda s: True, _add("bonus_display", 0, 1000), "bonus display"),
    ("ws_tile of a workshop 1000", lambda s: True, _add("ws_tile", 0, 1001), "workshop tile"),
    ("a canal tile on the back it lacks", _front_only_canal, _turn_canal_over, "canal tile sides"),
    ("half = 2", lambda s: s.d.half != -1, lambda s: s.__setitem__("half", 2), "half"),
    ("one turn more this round", lambda s: s.d.turns == 1, lambda s: s.__setitem__("turns", 2), "turns"),
    ("the next round", lambda s: s.d.round_no == 1, lambda s: s.__setitem__("round_no", 2), "played"),
    ("an effect past its list", lambda s: any(t[0] == Step.EFFECTS for t in s.d.stack), _effects_past_the_list, "task"),
    ("END_TURN while no card is played", lambda s: s.d.card != -1, lambda s: s["stack"][0].__setitem__(0, 0), "bottom"),
]


@pytest.mark.parametrize(("name", "where", "edit", "words"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_save_is_refused_naming_what_is_wrong(name, where, edit, words):
    message = refusal(GAME, where, edit, seeds=10)
    assert re.search(words, message) and "\n" not in message, message


def test_a_camel_loaded_during_the_load_count_keeps_its_goods():
    """Seed 33 of 4 players: at 'how many to load' a bonus card gives a trade that buys marble; loading spice
    afterwards used to overwrite the camel's marble (19 of 20 marble left). The camel now unloads first."""
    game = ResafaGame(num_players=4)
    state, rng = game.new_state(33), random.Random(33)
    for _ in range(220):
        state.apply(rng.choice(state.legal_actions()))
        state.validate()


def test_a_solo_rain_with_resafabots_water_still_to_flow_reloads():
    """Seed 124 solo: the player's water branches (a FLOW decision) above Resafabot's FLOW_RUN task of seat 1;
    its save loads back (the task seats of a solo game are the player's and Resafabot's)."""
    game = ResafaGame(num_players=1)
    state, rng = game.new_state(124), random.Random(124)
    while not any(t[0] == Step.FLOW_RUN and t[1] == 1 for t in state.d.stack):
        assert not state.is_terminal(), "no rain with Resafabot's water left to flow"
        state.apply(rng.choice(state.legal_actions()))
    assert game.state_from_json(state.to_json()).to_dict() == state.to_dict()
