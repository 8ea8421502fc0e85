"""The advised (residual) policy: the advisor's move on the learner's view as input and logit prior."""

from __future__ import annotations

import numpy as np
import pytest
from tiny_advised_run import TINY_ADVISED_RUN

from meeplezoo.agents import make_agent
from meeplezoo.agents.match import play_game
from meeplezoo.agents.policy import PolicyAgent, advisor_of, with_advice
from meeplezoo.agents.view import seat_view
from meeplezoo.games import make_env
from meeplezoo.training.config import TrainConfigError, load_config
from meeplezoo.training.single_agent import SingleAgentEnv

pytest.importorskip("sb3_contrib")

GAME, ENV = "concordia", {"num_players": 2}  # its heuristic is deterministic: a position gives one choice


def test_with_advice_appends_a_one_hot_of_the_move():
    out = with_advice(np.array([0.5, 2.0], np.float32), 1, 3)
    assert out.dtype == np.float32 and out.tolist() == [0.5, 2.0, 0.0, 1.0, 0.0]
    assert with_advice(np.zeros(2, np.float32), -1, 3).tolist() == [0.0] * 5  # no advice: zeros


def test_the_env_appends_the_advisors_move_on_the_learners_view():
    env = SingleAgentEnv(GAME, opponent="heuristic", env_kwargs=ENV, advisor="heuristic")
    plain = SingleAgentEnv(GAME, opponent="heuristic", env_kwargs=ENV)
    n_obs, n_act = plain.observation_space.shape[0], int(env.action_space.n)
    assert env.observation_space.shape == (n_obs + n_act,)
    obs, _ = env.reset(seed=3)
    for _ in range(40):
        advice = obs[n_obs:]
        assert advice.sum() == 1.0 and env.action_masks()[int(advice.argmax())]  # one legal move
        own = make_agent("heuristic", GAME, seed=0).act(seat_view(env.aec, env.learner))
        assert int(advice.argmax()) == own  # what the heuristic plays on the learner's view
        assert np.array_equal(obs[:n_obs], env.aec.observe(env.learner)["observation"])
        legal = np.flatnonzero(env.action_masks())
        obs, _, terminated, truncated, _ = env.step(int(legal[-1]))  # not the advice: the game goes its own way
        if terminated or truncated:
            assert obs[n_obs:].sum() == 0.0  # a finished game has no advice
            break


def _advised_model(tmp_path, advice_weight: float = 4.0, advice_anchor: float = 0.0):
    from sb3_contrib import MaskablePPO

    from meeplezoo.training.advised_policy import AdvisedPolicy

    env = SingleAgentEnv(GAME, opponent="heuristic", env_kwargs=ENV, advisor="heuristic")
    kwargs = {"net_arch": [16], "advice_size": int(env.action_space.n), "advice_weight": advice_weight}
    kwargs["advice_anchor"] = advice_anchor
    return MaskablePPO(AdvisedPolicy, env, n_steps=64, batch_size=32, n_epochs=1, policy_kwargs=kwargs, seed=1)


def test_an_untrained_advised_policy_plays_its_advisors_game(tmp_path):
    model = _advised_model(tmp_path)
    assert advisor_of(model) == "heuristic" and PolicyAgent(model).uses_determinize
    policy, twin = PolicyAgent(model, seed=5), make_agent("heuristic", GAME, seed=5)

    class Shadow:
        """The policy, checking at every decision that it plays what a heuristic would."""

        def __init__(self) -> None:
            self.decisions = 0

        def act(self, view):
            action = policy.act(view)
            assert action == twin.act(view)
            self.decisions += 1
            return action

    shadow = Shadow()
    env = make_env(GAME, **ENV)
    play_game(env, {"player_0": shadow, "player_1": make_agent("heuristic", GAME, seed=6)}, seed=11)
    assert shadow.decisions > 50


def test_the_advice_weight_trains_saves_and_loads(tmp_path):
    from meeplezoo.agents.policy import load_model

    model = _advised_model(tmp_path, advice_weight=2.5)
    policy = model.policy
    assert any(p is policy.advice_weight for g in policy.optimizer.param_groups for p in g["params"])
    model.learn(64)
    moved = policy.advice_weight.item()
    assert moved != 2.5  # PPO's update reached it
    model.save(tmp_path / "m.zip")
    loaded = load_model(str(tmp_path / "m.zip"))
    assert advisor_of(loaded) == "heuristic" and loaded.policy.advice_size == model.policy.advice_size
    assert loaded.policy.advice_weight.item() == moved
    obs, _ = SingleAgentEnv(GAME, opponent="heuristic", env_kwargs=ENV, advisor="heuristic").reset(seed=2)
    import torch

    with torch.no_grad():
        a = model.policy.get_distribution(torch.as_tensor(obs[None])).distribution.logits
        b = loaded.policy.get_distribution(torch.as_tensor(obs[None])).distribution.logits
    assert torch.equal(a, b)


def test_a_model_without_its_advice_size_is_refused(tmp_path):
    from meeplezoo.agents.spec import AgentSpecError

    model = _advised_model(tmp_path)
    env = SingleAgentEnv("board_royale", opponent="random", env_kwargs={"num_players": 2})
    env.reset(seed=0)
    view = seat_view(env.aec, env.learner)
    with pytest.raises(AgentSpecError, match="of advice"):
        PolicyAgent(model).act(view)


def test_the_warm_start_sees_the_advice_too():
    from meeplezoo.training.pool import OpponentPool
    from meeplezoo.training.pretrain import collect

    config = load_config(GAME, None, {"advisor": "heuristic", "pretrain_games": 2, "env": ENV})
    demos = collect(GAME, config, OpponentPool(GAME, ["heuristic"], self_play=0.0), 2, seed=1)
    n_act = demos.masks.shape[1]
    advice = demos.observations[:, -n_act:]
    assert (advice.sum(axis=1) == 1).all()
    assert (advice.argmax(axis=1) == demos.actions).all()  # the demonstrator is the advisor: its labels


def test_the_anchor_adds_its_loss_to_the_gradient_and_nothing_to_the_values(tmp_path):
    import torch

    anchored = _advised_model(tmp_path, advice_weight=1.0, advice_anchor=0.7).policy
    plain = _advised_model(tmp_path, advice_weight=1.0).policy
    plain.load_state_dict(anchored.state_dict())
    env = SingleAgentEnv(GAME, opponent="heuristic", env_kwargs=ENV, advisor="heuristic")
    rows, masks, actions = [], [], []
    obs, _ = env.reset(seed=3)
    for _ in range(12):  # a few learner positions, each with a legal move that is not always the advice
        mask = env.action_masks()
        rows.append(obs)
        masks.append(mask)
        actions.append(int(np.flatnonzero(mask)[-1]))
        obs, _, done, _, _ = env.step(int(np.argmax(obs[-env.action_space.n :])))
        if done:
            obs, _ = env.reset()
    obs_t = torch.as_tensor(np.array(rows))
    act_t, mask_t = torch.as_tensor(actions), torch.as_tensor(np.array(masks))

    def grads(policy, extra: bool):
        policy.zero_grad()
        values, log_prob, _ = policy.evaluate_actions(obs_t, act_t, action_masks=mask_t)
        loss = -log_prob.mean() + values.mean()
        if extra:  # the anchor written out: 0.7 x -mean log pi(advice)
            advised = obs_t[:, -env.action_space.n :].argmax(dim=1)
            loss = loss - 0.7 * policy.get_distribution(obs_t, mask_t.numpy()).log_prob(advised).mean()
        loss.backward()
        return values.detach(), log_prob.detach(), [p.grad.clone() for p in policy.parameters()]

    v1, lp1, g1 = grads(anchored, extra=False)
    v2, lp2, g2 = grads(plain, extra=True)
    assert torch.equal(v1, v2) and torch.allclose(lp1, lp2)  # the returned values are untouched
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g1, g2, strict=True))
    _, _, g0 = grads(plain, extra=False)
    assert not all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g0, g2, strict=True))  # the anchor mattered


def test_advice_followed_counts_the_rollouts_moves_that_were_the_advice(tmp_path):
    from meeplezoo.training.trainer import _advice_followed

    model = _advised_model(tmp_path)
    buffer, n = model.rollout_buffer, model.policy.advice_size
    buffer.observations[:] = 0.0
    buffer.observations[:, :, -n + 3] = 1.0  # the advice is action 3 everywhere
    buffer.actions[:] = 5.0
    buffer.actions[: buffer.buffer_size // 4] = 3.0  # a quarter of the moves follow it
    assert _advice_followed(model) == 0.25


def test_bad_advisor_settings_are_one_line_errors():
    with pytest.raises(TrainConfigError, match="advice_weight takes a number of at least 0, not -1"):
        load_config(GAME, None, {"advisor": "heuristic", "advice_weight": -1.0})
    with pytest.raises(TrainConfigError, match="advice_anchor takes a number of at least 0, not"):
        load_config(GAME, None, {"advisor": "heuristic", "advice_anchor": -0.5})
    with pytest.raises(TrainConfigError, match="advice_anchor needs an advisor"):
        load_config(GAME, None, {"advice_anchor": 0.5})
    from meeplezoo.agents.registry import UnknownAgentError

    with pytest.raises(UnknownAgentError):
        SingleAgentEnv(GAME, env_kwargs=ENV, advisor="nobody")


@pytest.mark.slow
def test_a_tiny_advised_run_trains_and_its_model_plays(tmp_path):
    from meeplezoo.training.logs import read_scalars
    from meeplezoo.training.trainer import train

    config = load_config(
        "board_royale",
        None,
        {
            **TINY_ADVISED_RUN,
            "advisor": "heuristic",
            "advice_weight": 1.0,
            "advice_anchor": 0.5,
            "env": {"num_players": 2},
        },
    )
    train("board_royale", tmp_path, config, log=lambda _: None)
    agent = make_agent(f"ppo:{tmp_path / 'final.zip'}", "board_royale", seed=0)
    assert advisor_of(agent.model) == "heuristic"
    env = make_env("board_royale", num_players=2)
    record = play_game(env, {"player_0": agent, "player_1": make_agent("random", "board_royale", seed=1)}, seed=4)
    assert record.players == {"player_0": "ppo:" + str(tmp_path / "final.zip"), "player_1": "random"}
    scalars = read_scalars(tmp_path)
    assert "train/advice_weight" in scalars
    followed = [value for _, value in scalars["train/advice_followed"]]
    assert len(followed) == 2 and all(0.0 < share < 1.0 for share in followed)  # a weak prior: some deviations
    assert agent.model.policy.advice_anchor == 0.5  # kept with the saved model


def test_the_rllib_backend_refuses_an_advisor(tmp_path):
    pytest.importorskip("ray")
    from meeplezoo.training.rllib import train_rllib
    from meeplezoo.training.trainer import TrainError

    with pytest.raises(TrainError, match="does not take an advisor"):
        train_rllib(GAME, tmp_path, load_config(GAME, None, {"advisor": "heuristic"}))
    assert not (tmp_path / "config.toml").exists()  # refused before anything was written
