"""An agent's optional ``prepare(game, num_players)``: the agent process calls it before the first decision, so that
loading a model counts against the start budget, not a decision's CPU budget; the shipped policy loads its table's
model there."""

from __future__ import annotations

import subprocess
import sys

from meeplezoo.agents import make_agent
from meeplezoo.agents.policy import PolicyAgent
from meeplezoo.agents.view import view_for
from meeplezoo.games import make_env

#: run in a fresh process: the fork server a process starts first keeps what it preloads (here torch) for every
#: agent process after it, and other tests cap their agents' address space below torch's
ISOLATED = """
from meeplezoo.agents.budget import Budget
from meeplezoo.agents.isolation import IsolatedAgent, preload_for, process_cpu
from meeplezoo.agents.view import view_for
from meeplezoo.games import make_env

env = make_env("concordia", num_players=4)
env.reset(seed=3)
name = env.agent_selection
with IsolatedAgent(
    "ppo",
    "concordia",
    seed=0,
    seat=env.possible_agents.index(name),
    engine_config=dict(env.unwrapped.game.config),
    budget=Budget(decision_cpu=1.0),  # loading the policy alone takes about that
    preload=preload_for(["ppo"], "concordia"),
) as agent:
    loading = process_cpu(agent.process.pid)  # making the agent and preparing it (its model loaded)
    view = view_for(env, name, agent)
    action = agent.act(view)  # a forfeit (Forfeit raised) past 1 CPU s
    decision = process_cpu(agent.process.pid) - loading
print(action in view.legal_actions, decision, loading)
"""


def test_the_shipped_policy_loads_before_its_first_isolated_decision():
    done = subprocess.run([sys.executable, "-c", ISOLATED], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    legal, decision, loading = done.stdout.split()
    assert legal == "True"
    assert float(decision) < 0.5 and float(decision) < float(loading) / 5, (decision, loading)


def test_prepare_loads_the_model_of_the_table_in_process():
    four = make_agent("ppo", "concordia", seed=0)
    assert isinstance(four, PolicyAgent) and four.model is None  # loaded at the first decision unless prepared
    four.prepare("concordia", 4)
    model = four.model
    assert model is not None
    four.prepare("concordia", 4)
    assert four.model is model  # a second call loads nothing
    two = make_agent("ppo", "concordia", seed=0)
    two.prepare("concordia", 2)
    # Concordia ships a policy for 2 players and one for the other tables: their observations differ in size
    assert two.model.observation_space.shape != model.observation_space.shape
    env = make_env("concordia", num_players=4)
    env.reset(seed=3)
    name = env.agent_selection
    view = view_for(env, name, four)
    assert four.act(view) in view.legal_actions
    assert four.model is model  # the prepared model played: the first decision loaded no other
    env.close()
