"""Agents with a network decide on one torch thread in any process, as they do in their own agent process, and
give the caller its own thread count back."""

from __future__ import annotations

import pytest

from meeplezoo.agents import make_agent
from meeplezoo.agents.torch_threads import one_torch_thread
from meeplezoo.agents.view import view_of_state
from meeplezoo.games import manifest

torch = pytest.importorskip("torch")


@pytest.fixture
def two_threads():
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(before)


def seastead_view():
    engine = manifest("seastead").engine_class()(num_players=2)
    state = engine.new_state(3)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return view_of_state(state, state.current_player())


def threads_in_forward(module):
    """Record torch's thread count at every forward pass of ``module``."""
    seen: list[int] = []
    module.register_forward_pre_hook(lambda *_: seen.append(torch.get_num_threads()))
    return seen


def test_the_block_runs_on_one_thread_and_restores_the_count_even_on_an_error(two_threads):
    with one_torch_thread():
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == 2
    with pytest.raises(KeyError), one_torch_thread():
        raise KeyError("boom")
    assert torch.get_num_threads() == 2


@pytest.mark.parametrize("spec", ["az:sims=8", "az:sims=0"])
def test_az_searches_on_one_thread_in_the_callers_process(two_threads, spec):
    agent = make_agent(spec, "seastead", seed=1)
    view = seastead_view()
    agent.act(view)  # loads the shipped network
    seen = threads_in_forward(agent.net.module)
    action = agent.act(view)
    assert seen and set(seen) == {1} and torch.get_num_threads() == 2
    assert view.action_mask[action]


def test_ppo_acts_and_reads_its_distribution_on_one_thread(two_threads):
    pytest.importorskip("sb3_contrib")
    agent = make_agent("ppo:deterministic=false", "seastead", seed=1)
    view = seastead_view()
    agent.act(view)  # loads the shipped policy
    seen = threads_in_forward(agent.model.policy.action_net)  # the logits of every read of the policy
    assert view.action_mask[agent.act(view)]
    probabilities = agent.action_probabilities(view)
    assert probabilities is not None and probabilities.sum() == pytest.approx(1.0)
    assert len(seen) >= 1 and set(seen) == {1} and torch.get_num_threads() == 2
