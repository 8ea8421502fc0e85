"""Resafa's action names and log lines in the players' words (issue 37): no internal id reaches a player.

Random games (solo and 2-4 players) name every legal action of every decision (``describe_action``, the Play
page's buttons), each decision as every seat's log reads it (``public_action_name``), Resafabot's turns
(``automa_turns``) and, every 25 decisions, the text board; none may hold an id of the content data, a
(row, col) pair, an index where a place or a card should be named, or a count with the wrong number
("1 coins").
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from meeplezoo.envs.resafa import actions as A
from meeplezoo.envs.resafa import names
from meeplezoo.envs.resafa.content import content
from meeplezoo.envs.resafa.game import ResafaGame

C = content()
_IDS = sorted(
    {x.id for x in (*C.action_cards, *C.workshops, *C.canal_tiles, *C.canal_bonus_tiles, *C.specials)}
    | {x.id for x in (*C.trading_tiles, *C.bonus_cards, *C.sack_cards, *C.centres)},
    key=len,
    reverse=True,
)
INTERNAL = [
    re.compile(r"\b(bc|cb|sp|ws|tt|sack|solo|alpha|beta|gamma|delta)-\w"),  # card, tile and solo card ids
    re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, _IDS)) + r")(?![\w-])"),  # any content id, as printed
    re.compile(r"\(\d+, ?\d+\)"),  # (row, col)
    re.compile(r"\b(option|half|slot|strip|box|room|rotation|cell) \d"),
    re.compile(r"#\d"),
    re.compile(r"(?<![\d.])1 coins\b"),
    re.compile(r"(?<![\d.])(?!1 )\d+ coin\b"),
]


def internal(text: str) -> list[str]:
    """The internal-id patterns ``text`` matches."""
    return [p.pattern for p in INTERNAL if p.search(text)]


def test_the_patterns_catch_the_old_names():
    for old in (
        "use bonus card bc-1-white-9",
        "option 0 (bonus card)",
        "half 0 on top",
        "cell (1, 2)",
        "horizontal from strip 0",
        "+1 coins",
        "network box (2, 3)",
        "trading post box 1",
        "workshop display slot 4 (level II)",
        "canal tile c3 (water tank)",
        "camel to gerasa",
        "play alpha-1 (workshop/white | production/yellow)",
        "face-down special card #2",
        "Resafabot reveals solo-3 and reads solo-4: steps blue, then trade",
    ):
        assert internal(old), old
    assert not internal("camel to Gerasa (1 coin)") and not internal("+11 coins, 2 coins")


def test_names_count_rows_and_columns_as_the_table_draws_them():
    assert names.cell_name(0) == "row 1, column 1 of your garden"
    assert names.cell_name(24) == "row 5, column 5 of your garden"
    assert names.box_name(2, 1).startswith("row 1, column 2 ")
    assert names.plural(1, "coin") == "1 coin" and names.plural(0, "coin") == "0 coins"


@pytest.mark.parametrize("players,seed", [(1, 0), (1, 5), (2, 1), (3, 2), (4, 3)])
def test_every_name_and_log_line_of_a_random_game_is_in_players_words(players, seed):
    s = ResafaGame(num_players=players).new_state(seed)
    rng = np.random.default_rng(seed)
    bad: dict[str, str] = {}
    kinds = set()
    lines = list(s.automa_turns(None))
    decisions = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        for a in legal:
            name = s.describe_action(a)
            kinds.add(A.action_range(a)[0])
            for p in internal(name):
                bad.setdefault(p, name)
        action = int(rng.choice(legal))
        lines += [s.public_action_name(action, v) for v in (None, *range(players))]
        decisions += 1
        if decisions % 25 == 0:
            lines.append(s.render())
        before = s.clone()
        s.apply(action)
        lines += s.automa_turns(before)
    for line in lines:
        for p in internal(line):
            bad.setdefault(p, line)
    assert not bad, bad
    assert {"SLOT0", "HALF0", "OPT0", "CELL0", "GPOS0", "BOX0", "MOVE0", "CANAL0"} <= kinds
    assert players > 1 or any(line.startswith("Resafabot reveals") for line in lines)
