"""Saved positions that used to load and then crash (issue 36): each edited save is refused with a
CorruptStateError naming what is wrong, while the unedited save still loads."""

from __future__ import annotations

import re
from typing import Any

import pytest
from save_mutations import refusal

from meeplezoo.envs.board_royale import BoardRoyaleGame
from meeplezoo.envs.board_royale.steps import Step
from meeplezoo.envs.core import State

GAME = BoardRoyaleGame(num_players=4)
_TRADING = (Step.TRADE_GIVE, Step.TRADE_ASK, Step.TRADE_ANSWER)
_ATTACK = (Step.JOIN, Step.DEFEND, Step.FIGHT, Step.RESOLVE)


def _in_trade(state: State) -> bool:
    d = state.d
    return d.stack[-1][0] == Step.TRADE_ASK and any(d.offer_give)


def _attack_item_1000(s: dict[str, Any]) -> None:
    i = next(i for i, t in enumerate(s["stack"]) if t[0] in _ATTACK)
    s["stack"][i][2] = 1000


def _offer_above_the_hand(s: dict[str, Any]) -> None:
    proposer = s["stack"][-1][1]
    kind = next(k for k in range(len(s["offer_give"])) if s["offer_give"][k])
    s["offer_give"][kind] = s["hand"][proposer * len(s["offer_give"]) + kind] + 1


EDITS = [
    # (name, position predicate, edit, words the message must hold)
    ("offer_give[0] = 1000 outside a trade", lambda s: True, lambda s: s["offer_give"].__setitem__(0, 1000), "offer"),
    ("an offer of a card the proposer lacks", _in_trade, _offer_above_the_hand, "offer_give"),
    ("offer_ask above the other hand", _in_trade, lambda s: s["offer_ask"].__setitem__(0, 999), "offer_ask"),
    ("hid_max one entry short", lambda s: True, lambda s: s["hid_max"].pop(), "hid_max"),
    ("an attack task naming item 1000", lambda s: any(t[0] in _ATTACK for t in s.d.stack), _attack_item_1000, "task"),
    ("the turn's END_TURN replaced", lambda s: len(s.d.stack) > 1, lambda s: s["stack"][0].__setitem__(0, 0), "bottom"),
    (
        "a trade task below the top",
        lambda s: s.d.stack[-1][0] in _TRADING,
        lambda s: s["stack"].append(s["stack"][-1]),
        "task",
    ),
]


@pytest.mark.parametrize(("name", "where", "edit", "words"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_save_is_refused_naming_what_is_wrong(name, where, edit, words):
    message = refusal(GAME, where, edit, seeds=20)
    assert re.search(words, message) and "\n" not in message, message
