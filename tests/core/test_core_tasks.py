"""The shared task-stack machine and plain-data record codec, on a tiny counting game of their own."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from meeplezoo.envs.core import Chance, CorruptStateError, IllegalActionError
from meeplezoo.envs.core.records import RecordCodec
from meeplezoo.envs.core.tasks import TaskMachine

ASK, ADD, DOUBLE = 0, 1, 2  # ASK: a decision (add 1 or 2, or stop); ADD/DOUBLE: automatic steps


@dataclass(slots=True)
class Rec:
    chance: Chance
    total: int
    log: list[int]
    hands: list[list[int]]
    stack: list[tuple[int, int, int, int]]
    legal: tuple[int, ...] = ()


def legal_ask(r: Rec, seat: int, a: int, b: int) -> list[int]:
    return [1, 2, 0] if r.total < 10 else []  # impossible once 10 is reached: skipped


def apply_ask(r: Rec, action: int, seat: int, a: int, b: int) -> None:
    if action:
        r.stack += [(ASK, 1 - seat, 0, 0), (ADD, seat, action, 0)]


def run_add(r: Rec, seat: int, n: int, b: int) -> None:
    r.total += n
    r.log.append(seat)


MACHINE = TaskMachine({ASK: (legal_ask, apply_ask)}, {ADD: run_add}, {ASK: "add 1 or 2, or stop"})
CODEC = RecordCodec(Rec, "counting")


def new() -> Rec:
    r = Rec(Chance(1), 0, [], [[1, 2], [3]], [(ASK, 0, 0, 0)])
    MACHINE.advance(r)
    return r


def test_decisions_alternate_automatic_steps_run_and_impossible_decisions_are_skipped() -> None:
    r = new()
    assert r.legal == (1, 2, 0)
    for action in (2, 2, 2, 2, 1):
        MACHINE.apply(r, action)
    assert r.total == 9 and r.log == [0, 1, 0, 1, 0] and r.stack == [(ASK, 1, 0, 0)]
    MACHINE.apply(r, 2)  # 11: the next ASK has no legal action and is skipped; the stack empties
    assert r.total == 11 and r.stack == [] and r.legal == () and MACHINE.pending(r) == "game over"


def test_an_illegal_action_names_the_pending_decision_and_changes_nothing() -> None:
    r = new()
    with pytest.raises(IllegalActionError, match="add 1 or 2, or stop") as err:
        MACHINE.apply(r, 7)
    assert err.value.action == 7 and err.value.player == 0
    assert r.total == 0 and r.stack == [(ASK, 0, 0, 0)]


def test_a_step_cannot_be_both_decision_and_automatic_and_decisions_need_names() -> None:
    with pytest.raises(ValueError, match="both"):
        TaskMachine({ASK: (legal_ask, apply_ask)}, {ASK: run_add}, {ASK: "x"})
    with pytest.raises(ValueError, match="without a name"):
        TaskMachine({ASK: (legal_ask, apply_ask)}, {}, {})


def test_codec_clone_copies_lists_and_chance_and_shares_nothing_mutable() -> None:
    r = new()
    MACHINE.apply(r, 2)
    c = CODEC.clone(r)
    assert CODEC.to_dict(c) == CODEC.to_dict(r) and c.legal == r.legal
    assert c.log is not r.log and c.stack is not r.stack and c.chance is not r.chance
    assert all(x is not y for x, y in zip(c.hands, r.hands, strict=True)) and c.hands == r.hands
    c.hands[0].append(9)
    MACHINE.apply(c, 1)
    c.chance.generator()
    assert r.total == 2 and r.log == [0] and r.chance.events == 0 and r.hands == [[1, 2], [3]]


def test_codec_round_trip_skips_derived_fields_and_copies_lists() -> None:
    r = new()
    MACHINE.apply(r, 1)
    data = CODEC.to_dict(r)
    assert "legal" not in data and data["stack"] == [[ASK, 1, 0, 0]]
    data["log"].append(99)
    data["hands"][1].append(99)
    assert r.log == [0] and r.hands == [[1, 2], [3]]
    back = CODEC.from_dict(CODEC.to_dict(r))
    MACHINE.advance(back)
    assert CODEC.to_dict(back) == CODEC.to_dict(r) and back.legal == r.legal


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("total", "3", "must be an integer"),
        ("total", True, "must be an integer"),
        ("log", [1, "x"], "list of integers"),
        ("stack", [[0, 1, "a", 0]], "list of integer lists"),
        ("hands", [[1], 2], "list of integer lists"),
        ("chance", {"seed": -1, "events": 0}, "chance"),
    ],
)
def test_codec_rejects_wrong_types(field: str, value: object, message: str) -> None:
    data = CODEC.to_dict(new())
    data[field] = value
    with pytest.raises(CorruptStateError, match=message):
        CODEC.from_dict(data)


def test_codec_rejects_missing_and_unknown_fields() -> None:
    data = CODEC.to_dict(new())
    del data["log"]
    data["extra"] = 1
    with pytest.raises(CorruptStateError, match=r"missing \['log'\], unexpected \['extra'\]"):
        CODEC.from_dict(data)


def test_build_layout_gives_consecutive_slices_and_refuses_a_repeated_name() -> None:
    from meeplezoo.envs.core.layout import build_layout

    slices, size = build_layout([("a", 3), ("b", 0), ("c", 2)])
    assert slices == {"a": slice(0, 3), "b": slice(3, 3), "c": slice(3, 5)} and size == 5
    with pytest.raises(ValueError, match="'a' appears twice"):
        build_layout([("a", 1), ("a", 2)])


def test_a_sharing_clone_shares_only_what_it_names():
    r = new()
    plain = CODEC.sharing_clone()(r)
    assert plain.log is not r.log and plain.hands[0] is not r.hands[0] and CODEC.to_dict(plain) == CODEC.to_dict(r)
    kept = CODEC.sharing_clone(shared=("log",), shallow=("hands",))(r)
    assert CODEC.to_dict(kept) == CODEC.to_dict(r) and kept.chance is not r.chance
    assert kept.log is r.log and kept.hands is not r.hands and kept.hands[1] is r.hands[1]
    assert kept.stack is not r.stack
    with pytest.raises(ValueError, match="total"):
        CODEC.sharing_clone(shared=("total",))
    with pytest.raises(ValueError, match="log"):
        CODEC.sharing_clone(shallow=("log",))
