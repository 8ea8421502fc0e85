"""Potential-based reward shaping of the single-agent env: dense credit, the same total return."""

from __future__ import annotations

import pytest

from meeplezoo.envs.core.manifest import load
from meeplezoo.envs.core.rewards import seat_return
from meeplezoo.training.config import TrainConfigError, load_config
from meeplezoo.training.single_agent import SingleAgentEnv


def _play(env: SingleAgentEnv, seed: int) -> tuple[list[float], list[float]]:
    """The rewards of one game (the learner plays its last legal action) and the potentials before each step."""
    env.reset(seed=seed)
    rewards, potentials = [], []
    while True:
        potentials.append(env._potential())
        legal = env.action_masks().nonzero()[0]
        _, reward, terminated, truncated, _ = env.step(int(legal[-1]))
        rewards.append(reward)
        if terminated or truncated:
            return rewards, potentials


def test_standing_shaping_pays_each_change_of_the_margin_and_the_same_total():
    kwargs = {"opponent": "heuristic", "reward_mode": "score_margin", "env_kwargs": {"num_players": 2}}
    plain = SingleAgentEnv("concordia", **kwargs)
    shaped = SingleAgentEnv("concordia", shaping="standing", shaping_gamma=1.0, **kwargs)
    base, _ = _play(plain, 7)
    rewards, potentials = _play(shaped, 7)
    assert len(rewards) == len(base) and sum(base) == base[-1]  # unshaped: all of it at the end
    assert sum(rewards) == pytest.approx(base[-1] - potentials[0])  # telescopes: the margin gained from here
    state = shaped.aec.unwrapped.state_obj
    seat = shaped.possible_agents.index(shaped.learner)
    final = seat_return("score_margin", seat, state.ranks(), state.scores(), 30.0)
    assert base[-1] == pytest.approx(final)
    for t in range(len(rewards) - 1):  # mid-game: exactly the change of the standing margin
        assert rewards[t] == pytest.approx(potentials[t + 1] - potentials[t])
    assert sum(r != 0.0 for r in rewards[:-1]) > 10  # dense: the margin moves during the game


def test_the_shaping_term_is_discounted_by_gamma():
    env = SingleAgentEnv(
        "concordia",
        opponent="heuristic",
        reward_mode="score_margin",
        env_kwargs={"num_players": 2},
        shaping="standing",
        shaping_gamma=0.9,
    )
    rewards, potentials = _play(env, 3)
    for t in range(len(rewards) - 1):
        assert rewards[t] == pytest.approx(0.9 * potentials[t + 1] - potentials[t])
    assert rewards[-1] == pytest.approx(env._standing_return() - potentials[-1])  # phi(end) = 0


def test_value_shaping_uses_board_royales_fitted_win_chances():
    env = SingleAgentEnv(
        "board_royale", opponent="heuristic", env_kwargs={"num_players": 2}, shaping="value", shaping_gamma=1.0
    )
    rewards, potentials = _play(env, 5)
    assert all(-1.0 <= p <= 1.0 for p in potentials) and len(set(potentials)) > 5
    state = env.aec.unwrapped.state_obj
    final = seat_return("win", env.possible_agents.index(env.learner), state.ranks(), state.scores(), 1.0)
    assert sum(rewards) == pytest.approx(final - potentials[0])
    from meeplezoo.games import manifest
    from meeplezoo.training.single_agent import win_model

    assert win_model("board_royale") is load(manifest("board_royale").value_models["win"])  # the manifest's model
    assert sum(win_model("board_royale")(state)) == pytest.approx(1.0)


def test_bad_shaping_settings_are_refused():
    with pytest.raises(ValueError, match="shaping takes one of"):
        SingleAgentEnv("seastead", shaping="vibes")
    with pytest.raises(ValueError, match="seastead has none"):
        SingleAgentEnv("seastead", shaping="value")
    with pytest.raises(TrainConfigError, match="shaping takes one of"):
        load_config("seastead", None, {"shaping": "vibes"})


def test_the_trainer_refuses_value_shaping_without_a_model_before_writing_anything(tmp_path):
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.single_agent import ShapingError
    from meeplezoo.training.trainer import train

    out = tmp_path / "run"
    with pytest.raises(ShapingError, match="seastead has none"):
        train("seastead", out, load_config("seastead", None, {"shaping": "value"}))
    assert not out.exists()
