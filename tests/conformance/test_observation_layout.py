"""``env.observation_layout()``: the observation's named sections tile the vector, and name what they hold."""

from __future__ import annotations

import numpy as np
import pytest
from games import CASES, GameCase

from meeplezoo.envs.core import Game


def make_env(case: GameCase):
    return case.env_module().env(**case.config)


@pytest.fixture(params=CASES, ids=[c.id for c in CASES])
def case(request) -> GameCase:
    return request.param


def test_the_sections_tile_the_observation_in_order(case):
    env = make_env(case)
    layout = env.observation_layout()
    assert len(layout) > 1  # every shipped game names its parts
    at = 0
    for name, part in layout.items():
        assert part.start == at and part.stop > part.start and part.step is None, name
        at = part.stop
    assert at == env.observation_space(env.possible_agents[0])["observation"].shape[0]


def test_the_layout_is_a_copy(case):
    env = make_env(case)
    env.observation_layout().clear()
    assert env.observation_layout()


def test_the_pending_section_names_the_decision_of_the_seat_to_act(case):
    """``pending`` is one-hot for the seat to act, and one decision always lights the same entry."""
    env = make_env(case)
    env.reset(seed=5)
    pending = env.observation_layout()["pending"]
    rng = np.random.default_rng(0)
    index_of: dict[str, int] = {}
    for n, _agent in enumerate(env.agent_iter()):
        if n == 150:
            break
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        hot = obs["observation"][pending]
        assert hot.sum() == 1 and set(np.unique(hot)) <= {0.0, 1.0}, env.state_obj.pending()
        name = env.state_obj.pending()
        assert index_of.setdefault(name, int(hot.argmax())) == int(hot.argmax()), name
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    width = pending.stop - pending.start
    assert len(set(index_of.values())) > 1 or width == 1  # several kinds of decision were seen, if there are several


def test_a_game_that_names_no_parts_has_one_section():
    class Plain(Game):
        name = "plain"
        num_players = 2
        num_actions = 3
        observation_size = 7
        state_size = 7

        def new_state(self, seed):
            raise NotImplementedError

        def state_from_dict(self, data):
            raise NotImplementedError

    assert Plain().observation_layout() == {"observation": slice(0, 7)}
