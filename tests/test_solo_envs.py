"""One convention for every solo Gymnasium env (envs/core/solo_gym.py): the same ``reward=`` choices and
default, and the final ``info`` with the score, the score to beat, the win and the game's solo rating band."""

from __future__ import annotations

from collections.abc import Callable

import gymnasium
import numpy as np
import pytest

from meeplezoo import games
from meeplezoo.envs.core.solo_gym import DEFAULT_SOLO_REWARD, SOLO_REWARDS
from meeplezoo.envs.resafa.solo import band as resafa_band

#: each solo env -> the band its rules give a final score (None: the rules define no bands)
BANDS: dict[str, Callable[[float], str | None]] = {
    "meeplezoo/SeasteadSolo-v0": lambda score: None,  # won or lost against the Boss, no rating bands
    "meeplezoo/ResafaSolo-v0": resafa_band,  # the designer's scale: 150 fair ... 220+ excellent
}
RESULT_KEYS = {"score", "automa_score", "won", "band"}


def play(env_id: str, reward: str, seed: int) -> tuple[float, dict, gymnasium.Env]:
    """A whole game of random legal moves; checks that no earlier step pays or tells a result."""
    env = gymnasium.make(env_id, reward=reward).unwrapped
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        _, r, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            assert terminated and not truncated
            return r, info, env
        assert r == 0.0 and not RESULT_KEYS & set(info)


def test_every_solo_env_has_the_same_reward_choices_and_default():
    solo_ids = {m.solo_env_id for m in games.manifests() if m.solo_env_id}
    assert set(BANDS) == solo_ids  # a new solo env says here which bands its rules define
    assert DEFAULT_SOLO_REWARD == "win" and set(SOLO_REWARDS) == {"win", "score", "score_margin"}
    for env_id in BANDS:
        assert gymnasium.make(env_id).unwrapped.reward_mode == DEFAULT_SOLO_REWARD


@pytest.mark.parametrize("env_id", sorted(BANDS))
def test_the_final_info_carries_the_score_and_the_band_and_win_pays_plus_or_minus_one(env_id):
    reward, info, env = play(env_id, DEFAULT_SOLO_REWARD, seed=1)
    state = env.state
    score = state.scores()[0]
    assert info["score"] == score and info["automa_score"] == state.automa_score()
    assert info["won"] == (state.ranks()[0] == 0) and reward == (1.0 if info["won"] else -1.0)
    assert info["band"] == BANDS[env_id](score)
    assert info["action_mask"].shape == (env.game.num_actions,)
    score_reward, score_info, _ = play(env_id, "score", seed=1)  # the same game, paid in points
    assert score_reward == score and score_info["score"] == score and score_info["band"] == info["band"]


class Finished:
    """The three answers of a finished one-seat state that the final ``info`` reads."""

    def __init__(self, score: float, to_beat: float, won: bool) -> None:
        self.score, self.to_beat, self.won = score, to_beat, won

    def scores(self) -> list[float]:
        return [self.score]

    def automa_score(self) -> float:
        return self.to_beat

    def ranks(self) -> list[int]:
        return [0 if self.won else 1]


def test_the_band_is_the_rating_the_games_solo_rules_give_the_score():
    resafa = gymnasium.make("meeplezoo/ResafaSolo-v0").unwrapped
    for score, band in (
        (149, "below fair (under 150)"),
        (150, "fair"),
        (185, "good"),
        (200, "very good"),
        (240, "excellent"),
    ):
        result = resafa.result(Finished(score, 150.0, score >= 150))
        assert result == {"score": score, "automa_score": 150.0, "won": score >= 150, "band": band}
    seastead = gymnasium.make("meeplezoo/SeasteadSolo-v0").unwrapped
    assert seastead.result(Finished(70, 41.0, True)) == {"score": 70, "automa_score": 41.0, "won": True, "band": None}
