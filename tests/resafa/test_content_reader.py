"""The generic content reader (envs/resafa/reader.py): every field read by its dataclass type and ``Annotated``
metadata, every error one line naming the path of the bad value; and the Resafa content read through it."""

from __future__ import annotations

import copy
import doctest
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Annotated

import pytest

from meeplezoo.envs.resafa import reader
from meeplezoo.envs.resafa.content import ContentError, load, read_documents
from meeplezoo.envs.resafa.reader import Absent, Derived, Keys, NonEmpty, OneOf, Range, Reader

RAW = read_documents()


class Fruit(IntEnum):
    APPLE = 0
    PEAR = 1


@dataclass(frozen=True)
class Gift:
    n: Annotated[int, Range(1, 3)] = 1


@dataclass(frozen=True)
class Swap:
    give: Annotated[str, OneOf(("a", "b"))]
    take: Annotated[str, OneOf(("a", "b"))]


@dataclass(frozen=True)
class Pocket:
    """Written in the JSON as its list of effects alone."""

    effects: tuple[Gift | Swap, ...]


@dataclass(frozen=True)
class Tile:
    id: Annotated[str, NonEmpty()]
    fruit: Fruit
    side: Annotated[int, OneOf(("n", "e", "s", "w"))]
    exits: frozenset[Annotated[int, OneOf(("n", "e", "s", "w"))]]
    pair: tuple[int, int]
    level: Annotated[int, Range(0, 2), Absent(0)]
    row: Annotated[int, Derived(-1)]
    prices: Annotated[dict[int, int], Keys(("1", "2"), optional=True)]
    costs: Annotated[dict[str, int], Keys(("small", "large"))]
    pockets: tuple[Pocket, ...] = ()
    colour: Fruit | None = None
    flag: bool = False


def _check_tile(t: Tile, where: str) -> Tile:
    if t.pair[0] > t.pair[1]:
        raise ValueError(f"demo {where}.pair: the first is the smaller")
    return replace(t, row=7)


READ = Reader(
    "demo",
    ValueError,
    {"gift": Gift, "swap": Swap},
    union=Gift | Swap,
    member="effect",
    checks={Tile: _check_tile},
    bare=frozenset({Pocket}),
)
GOOD = {
    "id": "t1",
    "fruit": "pear",
    "side": "s",
    "exits": ["n", "e"],
    "pair": [1, 2],
    "prices": {"2": 5},
    "costs": {"small": 1, "large": 2},
    "pockets": [[{"kind": "gift"}, {"kind": "swap", "give": "a", "take": "b"}]],
}


def _error(raw: dict) -> str:
    with pytest.raises(ValueError) as err:
        READ.read(Tile, raw, "tiles[3]")
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("demo tiles[3]")
    return msg


def test_the_reader_doctest_runs():
    failures, tried = doctest.testmod(reader)
    assert tried > 0 and failures == 0


def test_a_piece_is_read_by_its_field_types_and_checked():
    t = READ.read(Tile, GOOD, "tiles[3]")
    assert (t.id, t.fruit, t.side, t.exits, t.pair) == ("t1", Fruit.PEAR, 2, frozenset({0, 1}), (1, 2))
    assert (t.level, t.colour, t.flag) == (0, None, False)  # Absent, None allowed, the dataclass default
    assert t.prices == {2: 5} and t.costs == {"small": 1, "large": 2}
    assert t.pockets == (Pocket((Gift(1), Swap("a", "b"))),)
    assert t.row == 7  # a Derived field: its value, then the check completes it


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"id": ""}, "tiles[3].id: expected a non-empty id string, got ''"),
        ({"fruit": "plum"}, "tiles[3].fruit: 'plum' is not one of ['apple', 'pear']"),
        ({"side": 2}, "tiles[3].side: 2 is not one of ['n', 'e', 's', 'w']"),
        ({"exits": ["n", "x"]}, "tiles[3].exits[1]: 'x' is not one of"),
        ({"pair": [1, 2, 3]}, "tiles[3].pair: expected a list of exactly 2, got 3"),
        ({"pair": [2, 1]}, "tiles[3].pair: the first is the smaller"),
        ({"pair": [1, True]}, "tiles[3].pair[1]: expected an integer in 0..999, got True"),
        ({"level": 3}, "tiles[3].level: expected an integer in 0..2, got 3"),
        ({"row": 1}, "tiles[3]: unknown field(s) ['row']"),
        ({"prices": {"3": 1}}, "tiles[3].prices: unknown field(s) ['3']"),
        ({"costs": {"small": 1}}, "tiles[3].costs: missing field(s) ['large']"),
        ({"flag": 1}, "tiles[3].flag: expected true/false"),
        ({"colour": "kiwi"}, "tiles[3].colour: 'kiwi' is not one of"),
        ({"pockets": [[{"kind": "gift", "n": 4}]]}, "tiles[3].pockets[0][0] (gift).n: expected an integer in 1..3"),
        ({"pockets": [[{"kind": "steal"}]]}, "tiles[3].pockets[0][0]: unknown effect kind 'steal'"),
        ({"pockets": [[{"kind": ["gift"]}]]}, "tiles[3].pockets[0][0]: unknown effect kind ['gift']"),
        ({"pockets": [[{"give": "a"}]]}, "tiles[3].pockets[0][0]: an effect needs a 'kind'"),
        ({"pockets": [[{"kind": "swap", "give": "a"}]]}, "tiles[3].pockets[0][0] (swap): missing field(s) ['take']"),
        ({"pockets": {"kind": "gift"}}, "tiles[3].pockets: expected a list, got dict"),
    ],
)
def test_each_bad_value_is_one_line_naming_its_path(change, expected):
    assert expected in _error({**GOOD, **change})


def test_missing_and_unknown_fields():
    raw = {k: v for k, v in GOOD.items() if k not in ("fruit", "side")}
    assert _error(raw) == "demo tiles[3]: missing field(s) ['fruit', 'side']"
    assert _error({**GOOD, "size": 3}) == "demo tiles[3]: unknown field(s) ['size']"
    assert _error([GOOD]) == "demo tiles[3]: expected an object, got list"


def test_null_is_read_only_where_none_is_allowed():
    assert READ.read(Tile, {**GOOD, "colour": None}, "t").colour is None
    assert "tiles[3].fruit: None is not one of" in _error({**GOOD, "fruit": None})


# --- the Resafa content through the reader ----------------------------------------------------------------------


def _broken(mutate) -> str:
    doc = copy.deepcopy(RAW)
    mutate(doc)
    with pytest.raises(ContentError) as err:
        load(doc)
    assert "\n" not in str(err.value)
    return str(err.value)


def test_a_water_tank_is_the_back_of_a_tile_never_written():
    tanks = [t for t in load(copy.deepcopy(RAW)).canal_tiles if t.back is not None]
    assert tanks and all(t.back.tank and not t.front.tank for t in tanks)
    msg = _broken(lambda d: d["canal_tiles"][0]["front"].update(tank=True))
    assert msg == "resafa content canal_tiles[0].front: unknown field(s) ['tank']"


def test_canal_boxes_get_their_row_and_column_from_their_place():
    side = load(copy.deepcopy(RAW)).board_sides[0]
    net = side.network
    assert [(b.row, b.col) for b in net.boxes] == [(r, c) for r in range(net.rows) for c in range(net.cols)]


def test_a_water_source_off_its_network_names_the_network_range():
    msg = _broken(lambda d: d["board_sides"][0]["network"]["sources"][0].update(row=7))
    rows = RAW["board_sides"][0]["network"]["rows"]
    assert msg == f"resafa content board_sides[0].network.sources[0].row: expected an integer in 0..{rows - 1}, got 7"


def test_a_card_space_off_the_track():
    msg = _broken(lambda d: d["tracks"][0]["cards"].__setitem__(2, 40))
    assert msg.startswith("resafa content tracks[0].cards[2]: expected an integer in 1..")


def test_an_action_card_has_two_halves():
    msg = _broken(lambda d: d["action_cards"][4]["halves"].append(d["action_cards"][4]["halves"][0]))
    assert msg == "resafa content action_cards[4].halves: expected a list of exactly 2, got 3"


def test_a_special_card_name_is_text():
    assert _broken(lambda d: d["specials"][3].update(name=7)) == (
        "resafa content specials[3].name: expected a string, got 7"
    )


def test_the_canal_strip_counts_canal_tiles_1_to_7():
    msg = _broken(lambda d: d["scoring"]["canal_strip"].update({"8": 20}))
    assert msg == "resafa content scoring.canal_strip: unknown field(s) ['8']"


def test_track_spaces_left_out_mean_no_rewards():
    doc = copy.deepcopy(RAW)
    for t in doc["tracks"]:
        del t["spaces"]
    tracks = load(doc).tracks
    assert all(t.spaces == ((),) * len(t.levels) for t in tracks)
