"""The ppo agent: a saved MaskablePPO .zip by spec string, acting with the mask, deterministic or sampled."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from meeplezoo.agents import make_agent, play_game
from meeplezoo.agents.spec import AgentSpecError
from meeplezoo.games import make_env


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.config import load_config
    from meeplezoo.training.trainer import train

    out = tmp_path_factory.mktemp("ppo")
    config = load_config("seastead", None, {"total_steps": 64, "n_envs": 1, "n_steps": 32, "batch_size": 16})
    train("seastead", out, config, log=lambda _: None)
    return out / "final.zip"


@pytest.mark.slow
def test_a_saved_model_plays_legal_games_by_spec(model_path):
    env = make_env("seastead")
    for spec in (f"ppo:{model_path}", f"ppo:path={model_path},deterministic=false"):
        agents = {"player_0": make_agent(spec, "seastead", seed=1), "player_1": make_agent("random", "seastead", 2)}
        record = play_game(env, agents, seed=5, record_actions=True)  # the adapter warns on an illegal action
        assert not record.illegal_action and not record.truncated and record.players["player_0"] == spec
        again = play_game(
            env,
            {"player_0": make_agent(spec, "seastead", seed=1), "player_1": make_agent("random", "seastead", 2)},
            seed=5,
            record_actions=True,
        )
        assert again.decisions == record.decisions  # the same agent seed replays the game, sampled or not


@pytest.mark.slow
def test_a_sampled_game_depends_on_the_agent_seed_alone_not_on_what_its_process_did_before(monkeypatch):
    """Sampling draws from the agent's own generator. The shipped policy is loaded at the agent's first move, and a
    load draws from torch's global generator: the game with the first load and the game with the loaded model, each
    after another global seed, are the same game, and a loaded model's moves leave that generator as it was."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from meeplezoo.agents import policy

    monkeypatch.setattr(policy, "_LOADED", {})  # the first game loads the policy, the second finds it loaded
    env = make_env("seastead")

    def sampled_game(agent_seed: int) -> list:
        agents = {
            "player_0": make_agent("ppo:deterministic=false", "seastead", seed=agent_seed),
            "player_1": make_agent("heuristic", "seastead", seed=2),
        }
        return play_game(env, agents, seed=5, record_actions=True).decisions

    games = []
    for global_seed in (0, 1):
        torch.manual_seed(global_seed)
        games.append(sampled_game(3))
    assert len(policy._LOADED) == 1 and games[0] == games[1]
    before = torch.get_rng_state()
    other = sampled_game(4)
    assert torch.equal(torch.get_rng_state(), before)
    assert other != games[0]  # another agent seed, another game


@pytest.mark.slow
def test_sampled_moves_follow_the_policys_distribution(model_path):
    import numpy as np

    from meeplezoo.agents.view import seat_view

    env = make_env("seastead")
    env.reset(seed=2)
    view = seat_view(env, env.agent_selection)
    while len(view.legal_actions) < 4:  # into the game, to a choice of several moves
        env.step(int(view.legal_actions[0]))
        view = seat_view(env, env.agent_selection)
    agent = make_agent(f"ppo:path={model_path},deterministic=false", "seastead", seed=0)
    probs = agent.action_probabilities(view)
    draws = 4000
    counts = np.bincount([agent.act(view) for _ in range(draws)], minlength=probs.size)
    assert counts[probs == 0].sum() == 0 and (probs > 0).sum() >= 2
    spread = np.sqrt(draws * probs * (1 - probs))  # a binomial count's standard deviation
    assert np.all(np.abs(counts - draws * probs) <= 5 * spread + 1)


def test_a_model_without_a_readable_distribution_samples_from_a_fork_of_torchs_generator():
    """``predict`` alone (no ``policy.get_distribution``) samples with torch's global generator: the agent runs
    it under a fork seeded from its own generator, so a seed replays and the global generator is untouched."""
    torch = pytest.importorskip("torch")
    import numpy as np

    from meeplezoo.agents.policy import PolicyAgent
    from meeplezoo.agents.view import seat_view

    class PredictOnly:
        def predict(self, obs, action_masks, deterministic):
            legal = np.flatnonzero(action_masks)
            return int(legal[torch.randint(len(legal), (1,)).item()]), None

    env = make_env("seastead")
    env.reset(seed=0)
    view = seat_view(env, env.agent_selection)
    while len(view.legal_actions) < 4:
        env.step(int(view.legal_actions[0]))
        view = seat_view(env, env.agent_selection)
    torch.manual_seed(0)
    before = torch.get_rng_state()
    moves = [PolicyAgent(PredictOnly(), seed=s, deterministic=False).act(view) for s in range(12)]
    again = [PolicyAgent(PredictOnly(), seed=s, deterministic=False).act(view) for s in range(12)]
    assert torch.equal(torch.get_rng_state(), before)
    assert moves == again and len(set(moves)) >= 2 and all(view.action_mask[m] for m in moves)


@pytest.mark.slow
def test_a_model_of_another_game_is_refused_in_one_line(model_path):
    env = make_env("concordia", num_players=2)
    agents = {"player_0": make_agent(f"ppo:{model_path}", "concordia"), "player_1": make_agent("random", "concordia")}
    with pytest.raises(AgentSpecError, match=r"the model expects observations of shape"):
        play_game(env, agents, seed=0)


def test_a_file_that_is_not_a_model_is_a_one_line_error(tmp_path):
    pytest.importorskip("sb3_contrib")
    bad = tmp_path / "notes.zip"
    bad.write_text("not a zip")
    with pytest.raises(AgentSpecError, match=r"is not a MaskablePPO model") as info:
        make_agent(f"ppo:{bad}", "seastead")
    assert "\n" not in str(info.value)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["seastead", "board_royale", "resafa"])
def test_ppo_alone_plays_the_shipped_policy_of_the_game(game):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.agents.policy import shipped_policy

    env = make_env(game)
    agents = {a: make_agent("random", game, seed=i) for i, a in enumerate(env.possible_agents)}
    agents["player_0"] = make_agent("ppo", game, seed=0)
    record = play_game(env, agents, seed=1)
    assert not record.illegal_action and agents["player_0"].model is not None
    assert shipped_policy(game).stat().st_size < 5_000_000


@pytest.fixture
def game_folder(tmp_path, monkeypatch):
    """Concordia's manifest with its package moved to an empty folder (``fakegame/``): the policies found are the
    ones a test writes into ``fakegame/policies/``."""
    import dataclasses

    from meeplezoo import games

    package = tmp_path / "fakegame"
    (package / "policies").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fakegame", raising=False)  # another test's folder
    fake = dataclasses.replace(games.manifest("concordia"), package="fakegame")
    real = games.manifest
    monkeypatch.setattr(games, "manifest", lambda name: fake if games.resolve(name) == "concordia" else real(name))
    return package / "policies"


def test_ppo_alone_for_a_game_without_a_shipped_policy_is_a_one_line_error(game_folder):
    from meeplezoo.agents import policy

    with pytest.raises(AgentSpecError, match=r"^ppo: no policy ships for concordia; give a saved model") as info:
        policy.shipped_policy("concordia", 2)
    assert "\n" not in str(info.value)


def test_the_shipped_policy_of_a_table_is_its_player_counts_if_one_ships(game_folder):
    from meeplezoo.agents import policy

    (game_folder / "concordia.zip").write_bytes(b"")
    (game_folder / "concordia_2p.zip").write_bytes(b"")
    assert policy.shipped_policy("concordia", 2) == game_folder / "concordia_2p.zip"
    assert policy.shipped_policy("concordia", 4) == game_folder / "concordia.zip"  # none for 4: the game's own
    assert policy.shipped_policy("concordia") == game_folder / "concordia.zip"
    (game_folder / "concordia.zip").unlink()
    with pytest.raises(AgentSpecError, match=r"no policy ships for concordia"):
        policy.shipped_policy("concordia", 3)


def test_the_shipped_policies_live_in_their_games_packages():
    from meeplezoo import envs
    from meeplezoo.agents.policy import shipped_policy

    for game in ("seastead", "concordia", "board_royale", "resafa"):
        assert shipped_policy(game) == Path(envs.__file__).parent / game / "policies" / f"{game}.zip"
    assert shipped_policy("concordia", 2).name == "concordia_2p.zip"
    assert shipped_policy("concordia", 4).name == "concordia.zip"


@pytest.mark.slow
def test_every_shipped_policy_fits_its_games_current_spaces():
    """A policy trained before a game's observation or action space changed would fail at its first move."""
    pytest.importorskip("sb3_contrib")
    from meeplezoo import games
    from meeplezoo.agents.policy import advisor_of, load_model

    shipped = [
        (m.name, file)
        for m in games.manifests()
        if m.files().joinpath("policies").is_dir()
        for file in sorted(Path(str(m.files())).joinpath("policies").glob("*.zip"))
    ]
    assert {game for game, _ in shipped} >= {"seastead", "concordia", "board_royale", "resafa"}
    for game, file in shipped:
        players = file.stem.removeprefix(game).removeprefix("_")
        if players:  # <game>_<n>p.zip: the policy of n-player tables
            assert players.endswith("p") and players[:-1].isdigit(), file
            env = make_env(game, num_players=int(players[:-1]))
        else:
            env = make_env(game)
        model = load_model(str(file))
        agent = env.possible_agents[0]
        n = env.action_space(agent).n
        advice = n if advisor_of(model) else 0  # an advised policy also reads the advisor's move, one-hot
        assert model.observation_space.shape == (env.observation_space(agent)["observation"].shape[0] + advice,), (
            file.stem
        )
        assert model.action_space.n == n, file.stem
