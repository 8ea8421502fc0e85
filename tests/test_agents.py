"""The agents API: the random baseline, the registry, play_game and play_match, on every MeepleZoo game."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents import (
    Agent,
    AgentUnavailableError,
    RandomAgent,
    UnknownAgentError,
    available_agents,
    make_agent,
    play_game,
    play_match,
    register_agent,
    unregister_agent,
)
from meeplezoo.agents.view import seat_view
from meeplezoo.games import game_names, make_env

GAMES = game_names()
SEEDS = [0, 1, 2]


def random_agents(env, base_seed: int) -> dict:
    return {a: RandomAgent(seed=base_seed + i) for i, a in enumerate(env.possible_agents)}


@pytest.mark.parametrize("game", GAMES)
def test_random_agent_only_picks_legal_actions(game):
    env = make_env(game)
    picked = []

    def check(env, agent, action):
        mask = env.observe(agent)["action_mask"]
        assert mask[action] == 1, f"{agent} picked illegal {action} ({env.describe_action(action)})"
        picked.append(action)

    for seed in SEEDS:
        record = play_game(env, random_agents(env, seed), seed, on_decision=check)
        assert not record.illegal_action
        assert record.steps == len(picked)
        picked.clear()


@pytest.mark.parametrize("game", GAMES)
def test_random_agent_is_uniform_over_the_mask(game):
    env = make_env(game)
    env.reset(seed=0)
    agent = env.agent_selection
    legal = np.flatnonzero(env.observe(agent)["action_mask"])
    bot = RandomAgent(seed=0)
    view = seat_view(env, agent)
    counts = {int(a): 0 for a in legal}
    for _ in range(200 * len(legal)):
        counts[bot.act(view)] += 1
    assert set(counts) == {int(a) for a in legal}
    assert all(c > 100 for c in counts.values())  # expected 200 each


@pytest.mark.parametrize("game", GAMES)
def test_play_game_is_reproducible(game):
    env = make_env(game)
    first = play_game(env, random_agents(env, 5), seed=11, record_actions=True)
    again = play_game(make_env(game), random_agents(env, 5), seed=11, record_actions=True)
    assert first == again
    assert len(first.decisions) == first.steps > 0


@pytest.mark.parametrize("game", GAMES)
def test_game_record_is_consistent(game):
    env = make_env(game)
    record = play_game(env, random_agents(env, 0), seed=3, record_actions=True)
    assert set(record.scores) == set(record.ranks) == set(record.rewards) == set(env.possible_agents)
    assert record.winners and all(record.ranks[w] == 0 for w in record.winners)
    assert not record.truncated
    assert sum(record.rewards.values()) == pytest.approx(0.0)  # the default reward mode is zero-sum
    best = max(record.rewards.values())
    assert all(record.rewards[w] == best for w in record.winners)
    assert all(d.name for d in record.decisions)
    assert record.players == dict.fromkeys(env.possible_agents, "random")


def test_play_game_truncates_at_max_steps():
    env = make_env("seastead")
    record = play_game(env, random_agents(env, 0), seed=0, max_steps=10)
    assert record.truncated and record.steps == 10


def test_play_game_needs_an_agent_per_seat():
    env = make_env("seastead")
    with pytest.raises(ValueError, match="player_1"):
        play_game(env, {"player_0": RandomAgent(seed=0)}, seed=0)


@pytest.mark.filterwarnings("ignore:The old environment creation API:DeprecationWarning")
def test_play_game_works_on_a_pettingzoo_classic_env():
    pytest.importorskip("pygame")
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    record = play_game(env, random_agents(env, 0), seed=0)
    assert record.steps >= 7
    assert sorted(record.ranks.values())[0] == 0


def test_registry_has_random_for_every_game_and_heuristic_for_seastead():
    for game in GAMES:
        assert "random" in available_agents(game)
        bot = make_agent("random", game, seed=3)
        assert isinstance(bot, Agent) and isinstance(bot, RandomAgent)
    assert "heuristic" in available_agents("seastead")
    assert available_agents("seastead_v0") == available_agents("meeplezoo/seastead-v0")


def test_make_agent_reports_an_unknown_name():
    with pytest.raises(UnknownAgentError, match=r"no agent 'nobody' for seastead; available: .*random"):
        make_agent("nobody", "seastead")


def test_make_agent_reports_a_missing_module_clearly():
    register_agent("ghost", "meeplezoo.agents.no_such_module:Ghost", game="seastead")
    try:
        with pytest.raises(AgentUnavailableError, match=r"meeplezoo\.agents\.no_such_module"):
            make_agent("ghost", "seastead")
    finally:
        unregister_agent("ghost", "seastead")
    assert "ghost" not in available_agents("seastead")


def test_each_built_in_game_registers_the_heuristic_its_manifest_names():
    from meeplezoo import games
    from meeplezoo.agents.registry import agent_target

    for game in ("seastead", "concordia", "board_royale", "resafa"):
        target = games.manifest(game).agents["heuristic"]
        assert target.startswith(f"meeplezoo.envs.{game}.heuristic:") and agent_target("heuristic", game) == target
    assert agent_target("valued", "concordia") == games.manifest("concordia").agents["valued"]
    assert "valued" not in available_agents("seastead")  # a game's agent is registered for that game only


def test_heuristic_agent_plays():
    env = make_env("seastead")
    agents = {"player_0": make_agent("heuristic", "seastead", seed=0), "player_1": RandomAgent(seed=1)}
    record = play_game(env, agents, seed=4, labels={"player_0": "heuristic", "player_1": "random"})
    assert record.steps > 0 and not record.illegal_action


def test_register_agent_rejects_a_malformed_target():
    with pytest.raises(ValueError, match=r"package\.module:Class"):
        register_agent("bad", "no_colon_here")


def test_play_match_rotates_seats_and_counts_every_game():
    result = play_match("seastead", ["random", "random"], games=4, seed=20)
    assert result.labels == ["random", "random#2"]
    assert [r.players["player_0"] for r in result.records] == ["random", "random#2", "random", "random#2"]
    assert [r.seed for r in result.records] == [20, 21, 22, 23]
    for s in result.standings():
        assert s.games == 4 == s.wins + s.draws + s.losses + s.unfinished
    assert sum(s.wins for s in result.standings()) + sum(s.draws for s in result.standings()) / 2 <= 4


def test_play_match_games_replay_alone():
    """Game g of a match is play_game with seed+g and agents seeded by agent_seed(seed+g, seat)."""
    from meeplezoo.agents.match import agent_seed

    result = play_match("seastead", ["random", "random"], games=2, seed=30)
    env = make_env("seastead")
    agents = {a: make_agent("random", "seastead", seed=agent_seed(31, i)) for i, a in enumerate(env.possible_agents)}
    replay = play_game(env, agents, 31, labels=result.records[1].players)
    assert replay == result.records[1]


def test_play_match_accepts_agent_factories():
    result = play_match("seastead", [lambda s: RandomAgent(seed=s), "random"], games=2, seed=0, labels=["mine", "r"])
    assert {s.label for s in result.standings()} == {"mine", "r"}


@pytest.mark.parametrize(
    "module",
    [
        "meeplezoo.games",
        "meeplezoo.agents",
        "meeplezoo.agents.registry",
        "meeplezoo.agents.match",
        "meeplezoo.agents.view",
        "meeplezoo.agents.spec",
        "meeplezoo.agents.reference",
        "meeplezoo.agents.budget",
        "meeplezoo.agents.run_options",
        "meeplezoo.agents.isolation",
    ],
)
def test_docstring_examples(module):
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried and not failures


def test_list_shows_every_agent_with_its_parameters(capsys):
    from meeplezoo import cli

    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for text in ("mcts", "iters=int (default 300)", "rollout=random|heuristic", "ppo", "path=str", "human"):
        assert text in out


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:depth=3", "has no parameter 'depth'"),
        ("mcts:iters=x", "iters takes a whole number of at least 1, not 'x'"),
        ("robot", "unknown agent"),
    ],
)
def test_play_reports_a_bad_agent_spec_in_one_line(capsys, spec, message):
    from meeplezoo import cli

    assert cli.main(["play", "seastead", "--agents", spec, "random", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_tie_on_points_says_the_tie_break_decided():
    """Seastead breaks a tie on points; the record says so, and a clear win does not."""
    env = make_env("seastead")
    seen = {True: 0, False: 0}
    for seed in range(60):
        record = play_game(env, random_agents(env, seed), seed=seed)
        scores = sorted(record.scores.values())
        tied = scores[0] == scores[1]
        assert record.tie_break == (tied and len(record.winners) == 1)
        seen[record.tie_break] += 1
        if seen[True] and seen[False] >= 3:
            break
    assert seen[True] >= 1, "no tie on points in 60 random games"
