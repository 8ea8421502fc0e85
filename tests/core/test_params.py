"""The one parameter system (envs/core/params.py): one reading of bools and numbers, one error format."""

from __future__ import annotations

import pytest

from meeplezoo.envs.core.params import (
    Param,
    ParamError,
    bind,
    defaults_of,
    params_from_defaults,
    parse_assignments,
    parse_call,
)

FLAG = Param("forced", bool, False)
ITERS = Param("iters", int, 300, minimum=1)
GAMMA = Param("gamma", float, 0.99, minimum=0.0, maximum=1.0)
ROLLOUT = Param("rollout", str, "random", choices=("random", "heuristic"))


@pytest.mark.parametrize("text", ["y", "yes", "TRUE", "1", "on", " On "])
def test_every_true_spelling_reads_as_true(text):
    assert FLAG.read(text) is True


@pytest.mark.parametrize("text", ["n", "no", "false", "0", "off"])
def test_every_false_spelling_reads_as_false(text):
    assert FLAG.read(text) is False


def test_numbers_read_one_way():
    assert ITERS.read("1_000") == 1000
    assert GAMMA.read("0.5") == 0.5 and isinstance(GAMMA.read("1"), float)


@pytest.mark.parametrize(
    ("param", "text", "message"),
    [
        (FLAG, "maybe", "agent 'mcts': forced takes true or false, not 'maybe'"),
        (ITERS, "many", "agent 'mcts': iters takes a whole number of at least 1, not 'many'"),
        (ITERS, "0", "agent 'mcts': iters takes a whole number of at least 1, not '0'"),
        (GAMMA, "nan", "agent 'mcts': gamma takes a number from 0 to 1, not 'nan'"),
        (GAMMA, "2", "agent 'mcts': gamma takes a number from 0 to 1, not '2'"),
        (ROLLOUT, "smart", "agent 'mcts': rollout takes one of random, heuristic, not 'smart'"),
    ],
)
def test_a_bad_value_is_one_line_in_one_format(param, text, message):
    with pytest.raises(ParamError) as err:
        param.read(text, "agent 'mcts'")
    assert str(err.value) == message


def test_typed_values_are_checked_not_coerced():
    assert ITERS.check(5) == 5
    assert GAMMA.check(1) == 1.0 and isinstance(GAMMA.check(1), float)
    for bad in (True, 2.5, "5"):
        with pytest.raises(ParamError, match="iters takes a whole number"):
            ITERS.check(bad, "config")
    with pytest.raises(ParamError, match="forced takes true or false, not 1"):
        FLAG.check(1)


def test_lists_read_from_text_and_check_their_elements():
    arch = Param("net_arch", list, [64, 64], element=int)
    assert arch.read("32,32") == [32, 32] == arch.read("[32, 32]")
    with pytest.raises(ParamError, match="net_arch takes a list of a whole number"):
        arch.check([32, "x"])


def test_a_parameter_without_a_type_takes_none_numbers_or_text():
    anything = Param("max_cycles", None, None)
    assert anything.read("none") is None and anything.read("12") == 12 and anything.read("x") == "x"


def test_calls_read_in_both_spellings():
    assert parse_call("mcts:iters=400,forced=y") == ("mcts", {"iters": "400", "forced": "y"})
    assert parse_call("mcts(iters=400, forced=y)") == ("mcts", {"iters": "400", "forced": "y"})
    assert parse_call("ppo:models/a.zip") == ("ppo", {"": "models/a.zip"})
    bad_calls = [("mcts(iters=1", r"ends with '\)'"), ("mcts:iters=1,x", "'x' is not KEY=VALUE"), ("", "non-empty")]
    for bad, why in bad_calls:
        with pytest.raises(ParamError, match=why):
            parse_call(bad)


def test_bind_names_the_unknown_key_and_lists_the_known_ones():
    params = (ITERS, FLAG)
    assert bind("agent 'mcts'", params, {"": "5", "forced": "y"}) == {"iters": 5, "forced": True}
    with pytest.raises(ParamError) as err:
        bind("agent 'mcts'", params, {"iterz": "5"})
    assert str(err.value) == "agent 'mcts' has no parameter 'iterz'; its parameters: iters, forced"


def test_schemas_typed_by_their_defaults():
    params = params_from_defaults({"map": "italia", "num_players": 4, "flag": False, "sides": ["A"]})
    assert [p.type for p in params] == [str, int, bool, list]
    assert defaults_of(params) == {"map": "italia", "num_players": 4, "flag": False, "sides": ["A"]}
    assert params[1].read("3") == 3
    with pytest.raises(ParamError, match="num_players takes a whole number, not 'three'"):
        params[1].read("three")


def test_assignments_need_key_equals_value():
    assert parse_assignments(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(ParamError, match="--set takes KEY=VALUE, not 'oops'"):
        parse_assignments(["oops"])


def test_an_empty_choice_is_shown_quoted():
    shaping = Param("shaping", str, "", choices=("", "standing"))
    with pytest.raises(ParamError, match="""one of "", standing, not 'vibes'"""):
        shaping.read("vibes")


def test_the_adapters_keyword_defaults_are_its_declared_parameters():
    import inspect

    from meeplezoo.envs.core.adapter import ADAPTER_KEYS, ADAPTER_PARAMS, EngineEnv

    signature = inspect.signature(EngineEnv.__init__).parameters
    assert {p.name: p.default for p in ADAPTER_PARAMS} == {p.name: signature[p.name].default for p in ADAPTER_PARAMS}
    assert ADAPTER_KEYS == {"render_mode", *(p.name for p in ADAPTER_PARAMS)} <= set(signature)
