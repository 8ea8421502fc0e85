"""The az policy-value network: priors masked to the legal actions, seat-relative values in [-1, 1], a ``.pt`` file
that round-trips and that is refused, in one line, for another game, other sizes or when it is no network."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from meeplezoo.games import manifest  # noqa: E402
from meeplezoo.training.az_net import AZNet, AZNetError, fit, load_net, losses  # noqa: E402


def engine(game: str, **config):
    return manifest(game).engine_class()(**config)


@pytest.fixture(scope="module")
def seastead():
    return engine("seastead", num_players=2)


@pytest.fixture(scope="module")
def positions(seastead):
    """Observations and masks of a few real positions (random play)."""
    rng = np.random.default_rng(0)
    state = seastead.new_state(7)
    obs, masks = [], []
    while not state.is_terminal() and len(obs) < 12:
        obs.append(state.observe(state.current_player()))
        masks.append(state.legal_mask().astype(bool))
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return np.stack(obs), np.stack(masks)


def test_the_prior_is_zero_on_illegal_actions_and_sums_to_one(seastead, positions):
    net = AZNet.for_game(seastead, hidden=(16,), seed=0)
    obs, masks = positions
    assert (masks.sum(axis=1) < masks.shape[1]).all()  # every position has illegal actions to mask
    priors, values = net.evaluate_batch(obs, masks)
    assert priors.shape == masks.shape and values.shape == (len(obs), 2)
    assert (priors[~masks] == 0).all() and (priors[masks] > 0).all()
    np.testing.assert_allclose(priors.sum(axis=1), 1.0, rtol=1e-5)
    assert (np.abs(values) <= 1).all()


def test_a_seeded_net_draws_the_weights_of_its_seed_and_leaves_the_global_generator_alone(seastead):
    torch.manual_seed(123)
    before = torch.get_rng_state()
    net = AZNet.for_game(seastead, hidden=(16,), seed=5)
    assert torch.equal(torch.get_rng_state(), before)
    torch.manual_seed(5)  # the weights a seeded global generator draws: those of every shipped network's run
    drawn = AZNet(net.meta).module.state_dict()
    for key, value in net.module.state_dict().items():
        assert torch.equal(value, drawn[key]), key
    other = AZNet.for_game(seastead, hidden=(16,), seed=6).module.state_dict()
    assert not all(torch.equal(value, other[key]) for key, value in drawn.items())


def test_a_saved_net_loads_with_the_same_outputs_and_meta(tmp_path, seastead, positions):
    net = AZNet.for_game(seastead, hidden=(16, 8), seed=3)
    path = net.save(tmp_path / "net.pt")
    back = load_net(path, "seastead", seastead.observation_size, seastead.num_actions, 2)
    assert back.meta == net.meta and back.meta["config"] == seastead.config and back.hidden == (16, 8)
    for got, want in zip(back.evaluate_batch(*positions), net.evaluate_batch(*positions), strict=True):
        np.testing.assert_array_equal(got, want)


def test_a_net_for_another_game_or_size_is_refused_in_one_line(tmp_path, seastead):
    other = AZNet.for_game(engine("concordia", num_players=2), hidden=(8,), seed=0).save(tmp_path / "other.pt")
    with pytest.raises(AZNetError, match=r"is a network for game 'concordia', not 'seastead'") as info:
        load_net(other, "seastead")
    assert "\n" not in str(info.value)
    mine = AZNet.for_game(seastead, hidden=(8,), seed=0).save(tmp_path / "mine.pt")
    with pytest.raises(AZNetError, match=r"observation_size 1502, not 99$"):
        load_net(mine, "seastead", observation_size=99)
    with pytest.raises(AZNetError, match=r"num_players 2, not 4$"):
        load_net(mine, num_players=4)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a torch file", r"is not an az network file: "),
        (None, r"^az: no network file '.*missing.pt'$"),
    ],
)
def test_a_file_that_is_no_net_is_one_line(tmp_path, content, message):
    path = tmp_path / "missing.pt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(AZNetError, match=message) as info:
        load_net(path)
    assert "\n" not in str(info.value)


def test_a_torch_file_of_another_kind_is_refused(tmp_path):
    path = tmp_path / "weights.pt"
    torch.save({"meta": '{"format": "something else"}', "weights": {}}, path)
    with pytest.raises(AZNetError, match=r"is not an az network file \(no 'meeplezoo-az' meta\)"):
        load_net(path)


def test_fitting_lowers_the_loss_towards_the_targets(seastead, positions):
    net = AZNet.for_game(seastead, hidden=(32,), seed=1)
    obs, masks = positions
    rng = np.random.default_rng(0)
    pi = np.where(masks, rng.random(masks.shape), 0).astype(np.float32)
    pi /= pi.sum(axis=1, keepdims=True)
    z = np.tile(np.array([[0.5, -0.5]], np.float32), (len(obs), 1))
    arrays = {"obs": obs.astype(np.float32), "mask": masks, "pi": pi, "z": z}
    tensors = [torch.from_numpy(arrays[k]) for k in ("obs", "mask", "pi", "z")]
    with torch.no_grad():
        before, _ = losses(net, *tensors)
    optimizer = torch.optim.AdamW(net.module.parameters(), lr=1e-2)
    figures = fit(net, optimizer, arrays, steps=30, batch_size=8, rng=rng)
    with torch.no_grad():
        after, _ = losses(net, *tensors)
    assert float(after) < 0.8 * float(before)
    assert {"loss", "policy_loss", "value_loss", "policy_entropy", "value_error"} <= figures.keys()
    assert fit(net, optimizer, arrays, steps=0, batch_size=8, rng=rng) == {}


def test_a_position_without_a_policy_target_teaches_the_value_head_only(seastead, positions):
    net = AZNet.for_game(seastead, hidden=(32,), seed=1)
    obs, masks = positions
    rng = np.random.default_rng(0)
    pi = np.where(masks, rng.random(masks.shape), 0).astype(np.float32)
    pi /= pi.sum(axis=1, keepdims=True)
    z = rng.uniform(-1, 1, (len(obs), 2)).astype(np.float32)
    half = len(obs) // 2
    value_only = pi.copy()
    value_only[half:] = 0.0  # the second half: value games' positions
    t = {k: torch.from_numpy(v) for k, v in {"obs": obs.astype(np.float32), "mask": masks, "z": z}.items()}
    with torch.no_grad():
        _, mixed = losses(net, t["obs"], t["mask"], torch.from_numpy(value_only), t["z"])
        _, targeted = losses(net, t["obs"][:half], t["mask"][:half], torch.from_numpy(pi[:half]), t["z"][:half])
        _, every = losses(net, t["obs"], t["mask"], torch.from_numpy(pi), t["z"])
    # the policy loss is the mean over the positions that have a policy target; the value loss counts every one
    assert mixed["policy_loss"] == pytest.approx(targeted["policy_loss"], rel=1e-6)
    assert mixed["value_loss"] == pytest.approx(every["value_loss"], rel=1e-6)
    assert mixed["value_loss"] != pytest.approx(targeted["value_loss"], rel=1e-3)


def test_the_docstring_examples_hold():
    import doctest

    from meeplezoo.agents import az_net

    failures, tried = doctest.testmod(az_net)
    assert tried and not failures
