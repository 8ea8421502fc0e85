"""The az agent: PUCT over determinizations with a policy-value network.

The search is checked on a toy game whose best move is known (an immediate win against a prior that prefers a
losing move; a value head that rewards one line with a uniform prior), then on the smallest real table
(2-player Seastead with a tiny untrained net): ``az:sims=0`` plays legal moves from the policy alone, the same
seed makes the same decisions, the agent reads only its view (two true states the seat cannot tell apart give
the same move, and the true state is left as it was), and a missing or foreign network is one line."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pytest

pytest.importorskip("torch")

from meeplezoo.agents import make_agent, play_game, play_match
from meeplezoo.agents.az import AZAgent, PUCTSearch, choose, search_settings
from meeplezoo.agents.az_net import AZNet
from meeplezoo.agents.spec import AgentSpecError
from meeplezoo.agents.view import SeatView, view_of_state
from meeplezoo.games import make_env, manifest

# --- a toy game for the search alone -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ToyGame:
    """Two seats alternate choosing one of 3 actions; with ``sudden=True`` action 2 wins at once for its taker
    (for seat 0 only at the first move, for seat 1 always), else the game ends after ``length`` moves, drawn."""

    sudden: bool = True
    length: int = 6
    num_players: int = 2
    num_actions: int = 3


@dataclass
class ToyState:
    game: ToyGame
    moves: list[int] = field(default_factory=list)
    winner: int = -1

    def is_terminal(self) -> bool:
        return self.winner >= 0 or len(self.moves) >= self.game.length

    def current_player(self) -> int:
        return len(self.moves) % 2

    def pending(self) -> str:
        return "choose"

    def legal_order(self) -> list[int]:
        return [0, 1, 2]

    def legal_mask(self) -> np.ndarray:
        return np.ones(3, np.int8)

    def apply(self, action: int) -> None:
        seat = self.current_player()
        self.moves.append(action)
        if self.game.sudden and action == 2 and (seat == 1 or len(self.moves) == 1):
            self.winner = seat

    def observe(self, seat: int) -> np.ndarray:
        """One-hot of the first move (zeros before it) and the observer's seat."""
        out = np.zeros(4, np.float32)
        if self.moves:
            out[self.moves[0]] = 1.0
        out[3] = seat
        return out

    def standing(self) -> tuple[list[int], list[float]]:
        if self.winner < 0:
            return [0, 0], [0.0, 0.0]
        return [0 if s == self.winner else 1 for s in range(2)], [float(s == self.winner) for s in range(2)]


def evaluator(prior: list[float], value_of_first: dict[int, float] | None = None):
    """A stub network: the same prior everywhere (masked), and the observer's value +v when the first move was
    one in ``value_of_first`` (v for seat 0: the other seat gets -v), else 0."""
    calls = []

    def evaluate(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(obs))
        priors = np.where(masks, np.array(prior, np.float32), 0.0)
        priors /= priors.sum(axis=1, keepdims=True)
        values = np.zeros((len(obs), 2), np.float32)
        for i, row in enumerate(obs):
            first = int(np.argmax(row[:3])) if row[:3].any() else -1
            v = (value_of_first or {}).get(first, 0.0)
            seat0 = v if row[3] == 0 else -v  # seat-relative: entry 0 is the observer's
            values[i] = [seat0, -seat0]
        return priors, values

    evaluate.calls = calls  # type: ignore[attr-defined]
    return evaluate


@pytest.mark.parametrize("batch", [1, 8])
def test_the_search_finds_the_winning_move_against_a_misleading_prior(batch):
    game = ToyGame(sudden=True)
    search = PUCTSearch(evaluator([0.9, 0.08, 0.02]), c_puct=1.5, batch=batch, rng=np.random.default_rng(0))
    visits, prior = search.run(lambda: ToyState(game), seat=0, sims=200)
    assert prior[0] > prior[2]  # the prior preferred the losing move
    assert visits.sum() == 199  # every simulation but the root's own evaluation went to a child
    assert int(np.argmax(visits)) == 2 and visits[2] > 0.6 * visits.sum()
    assert choose(visits, prior, [0, 1, 2], 0.0, np.random.default_rng(0)) == 2
    assert search.times.simulations == 200
    if batch > 1:  # the leaves were evaluated several per network call
        assert search.times.calls < search.times.evaluations


def test_the_value_head_backed_up_picks_the_line_it_rewards():
    game = ToyGame(sudden=False, length=6)  # no terminal within reach of the values: the stub decides
    evaluate = evaluator([1 / 3] * 3, {1: 0.8})
    search = PUCTSearch(evaluate, c_puct=1.0, batch=4, rng=np.random.default_rng(0))
    visits, _ = search.run(lambda: ToyState(game), seat=0, sims=120)
    assert int(np.argmax(visits)) == 1 and visits[1] > 0.6 * visits.sum()


@pytest.mark.parametrize("mix", [0.0, 0.6, 1.0])
def test_a_static_estimate_mixed_into_leaf_values_outweighs_the_network_by_its_share(mix):
    """The network says first move 1 is worth +0.8 to seat 0; the estimate says first move 0 is worth +0.8. The
    leaf value is ``(1 - mix)`` network plus ``mix`` estimate, so the search follows the larger share."""
    game = ToyGame(sudden=False, length=6)

    def estimate(state: ToyState) -> list[float]:
        v = 0.8 if state.moves and state.moves[0] == 0 else 0.0
        return [v, -v]

    search = PUCTSearch(
        evaluator([1 / 3] * 3, {1: 0.8}), c_puct=1.0, batch=4, rng=np.random.default_rng(0), estimate=estimate, mix=mix
    )
    visits, _ = search.run(lambda: ToyState(game), seat=0, sims=120)
    assert int(np.argmax(visits)) == (1 if mix < 0.5 else 0) and visits.max() > 0.6 * visits.sum()


@pytest.mark.parametrize("qnorm", [False, True])
def test_qnorm_lets_small_value_differences_outweigh_the_prior(qnorm):
    """First move 1 is worth +0.02 to seat 0 and the prior favours move 0 nine to one: on the raw [-1, 1] scale a
    difference of 0.02 never outweighs the prior's exploration term, rescaled to the values met it does (no game
    ends within reach: the stub values every leaf)."""
    game = ToyGame(sudden=False, length=400)
    search = PUCTSearch(
        evaluator([0.9, 0.05, 0.05], {1: 0.02}), c_puct=1.5, batch=1, rng=np.random.default_rng(0), qnorm=qnorm
    )
    visits, _ = search.run(lambda: ToyState(game), seat=0, sims=200)
    assert int(np.argmax(visits)) == (1 if qnorm else 0)
    assert (search.low, search.high) == pytest.approx((-0.02, 0.02))  # the range of the values backed up
    plain = PUCTSearch(evaluator([0.9, 0.05, 0.05], {1: 0.02}), c_puct=1.5, batch=1, rng=np.random.default_rng(0))
    if not qnorm:  # off, the search is the plain one, visit for visit
        assert np.array_equal(plain.run(lambda: ToyState(game), seat=0, sims=200)[0], visits)


def test_a_leaf_rollout_plays_the_policy_cutoff_decisions_before_the_estimate_reads_it():
    """Each leaf's estimate is read after exactly ``cutoff`` rollout moves (the policy's: all 1s here) played on from
    the leaf, whose observation was taken before; the rollout is part of the leaf, not of the tree."""
    game = ToyGame(sudden=False, length=400)
    seen: list[list[int]] = []

    def estimate(state: ToyState) -> list[float]:
        seen.append(list(state.moves))
        return [0.0, 0.0]

    search = PUCTSearch(
        evaluator([0.8, 0.1, 0.1]),
        c_puct=1.5,
        batch=4,
        rng=np.random.default_rng(0),
        estimate=estimate,
        mix=0.5,
        rollout=lambda state: 1,
        cutoff=5,
    )
    visits, _ = search.run(lambda: ToyState(game), seat=0, sims=40)
    assert len(seen) == search.times.evaluations  # one estimate per leaf the network valued
    assert all(len(moves) >= 5 and moves[-5:] == [1] * 5 for moves in seen)
    assert any(moves[:-5] and moves[-6] != 1 for moves in seen)  # the tree's own moves lie above the rollout
    assert visits.sum() == 39 and visits[0] > visits[1]  # the tree was not walked by the rollout moves


@pytest.mark.parametrize("mix", [0.5, 1.0])
def test_a_rollout_that_finishes_the_game_backs_up_its_real_result(mix):
    """The rollout policy plays 2, which wins at once for seat 1: every leaf after seat 0's first move 0 or 1 is a
    loss for seat 0 by its real result (the estimate, which says +1 for seat 0, is never read), so with the
    network's zero values mixed in, the search goes for the immediate win, move 2."""
    game = ToyGame(sudden=True, length=6)
    read = []

    def estimate(state: ToyState) -> list[float]:
        read.append(1)
        return [1.0, -1.0]

    search = PUCTSearch(
        evaluator([0.45, 0.45, 0.1]),
        c_puct=1.5,
        batch=1,
        rng=np.random.default_rng(0),
        estimate=estimate,
        mix=mix,
        rollout=lambda state: 2,
        cutoff=0,
    )
    visits, _ = search.run(lambda: ToyState(game), seat=0, sims=60)
    assert not read
    assert visits[2] >= 0.85 * visits.sum()
    no_rollout = PUCTSearch(
        evaluator([0.45, 0.45, 0.1]), c_puct=1.5, batch=1, rng=np.random.default_rng(0), estimate=estimate, mix=mix
    )  # the estimate values the same leaves, +1 for seat 0: moves 0 and 1 look as good as they are likely
    plain, _ = no_rollout.run(lambda: ToyState(game), seat=0, sims=60)
    assert read and plain[2] < 0.7 * plain.sum()


@pytest.mark.parametrize("ptemp", [1.0, 3.0])
def test_a_prior_temperature_flattens_the_networks_policy(ptemp):
    """The stored prior is the policy raised to ``1 / ptemp``, renormalised: 1 leaves it as the network gave it."""
    game = ToyGame(sudden=False, length=400)
    policy = np.array([0.8, 0.15, 0.05])
    search = PUCTSearch(evaluator(list(policy)), c_puct=1.5, batch=1, rng=np.random.default_rng(0), ptemp=ptemp)
    _, prior = search.run(lambda: ToyState(game), seat=0, sims=30)
    expected = policy ** (1 / ptemp)
    assert prior == pytest.approx(expected / expected.sum(), rel=1e-6)
    assert (prior[0] < 0.8) == (ptemp > 1)


@pytest.mark.parametrize("first", ["parent", "root", "all"])
def test_first_visits_try_each_move_once_in_prior_order_before_any_twice(first):
    """With a prior of 0.9 on move 0, plain PUCT spends the first simulations on move 0; ``first=root`` tries the
    three root moves once each, in the prior's order, before any twice, and ``first=all`` does so at every node
    (the root's next visits follow the prior, to move 0, whose replies are then tried in the same way)."""
    game = ToyGame(sudden=False, length=400)
    order: list[list[int]] = []

    def estimate(state: ToyState) -> list[float]:
        order.append(list(state.moves))
        return [0.0, 0.0]

    def search() -> PUCTSearch:
        return PUCTSearch(
            evaluator([0.9, 0.02, 0.08]), c_puct=1.5, batch=1, rng=np.random.default_rng(0), estimate=estimate,
            mix=1.0, first=first,
        )  # fmt: skip

    visits, _ = search().run(lambda: ToyState(game), seat=0, sims=4)
    roots = [moves[0] for moves in order[1:]]  # the first leaf is the root itself
    if first == "parent":
        assert roots == [0, 0, 0] and visits.tolist() == [3, 0, 0]
    else:
        assert roots == [0, 2, 1] and visits.tolist() == [1, 1, 1]
    order.clear()
    search().run(lambda: ToyState(game), seat=0, sims=7)  # then 3 more, each through move 0 (its prior leads)
    replies = [tuple(moves) for moves in order if len(moves) == 2]  # the leaves just below move 0
    if first == "all":  # there too, each reply once in prior order
        assert replies == [(0, 0), (0, 2), (0, 1)]
    elif first == "root":  # below the root, plain PUCT: reply 0 and then deeper under it
        deeper = [moves[:2] for moves in order if len(moves) >= 2]
        assert replies == [(0, 0)] and len(deeper) == 3 and all(line == [0, 0] for line in deeper)
    with pytest.raises(ValueError, match=r"^first takes one of parent, root, all, not 'leaf'$"):
        PUCTSearch(evaluator([1 / 3] * 3), c_puct=1.5, batch=1, rng=np.random.default_rng(0), first="leaf")


@pytest.mark.parametrize("vloss", [1.0, 0.0])
def test_the_virtual_loss_spreads_a_batch_by_its_size(vloss):
    """Batches of 4 descents after the root's evaluation, the prior 0.9 on move 0 and every value 0. A virtual loss
    of 1 makes move 0 look lost while its descent waits, so the batch's next descent takes move 2 (the next prior);
    a virtual visit of value 0 leaves move 0 the best, so every descent follows it. Every virtual loss is taken
    back: only the real values (all 0) are backed up."""
    game = ToyGame(sudden=False, length=400)
    search = PUCTSearch(evaluator([0.9, 0.02, 0.08]), c_puct=1.5, batch=4, rng=np.random.default_rng(0), vloss=vloss)
    visits, _ = search.run(lambda: ToyState(game), seat=0, sims=5)
    assert visits.tolist() == ([3, 0, 1] if vloss == 1.0 else [4, 0, 0])
    assert search.times.simulations == 5 and search.low == search.high == 0.0


def test_the_estimated_values_are_the_games_estimate_as_a_margin():
    from meeplezoo.agents.az import estimated_values
    from meeplezoo.agents.mcts import search_hooks

    game = manifest("seastead").engine_class()(num_players=2)
    state = game.new_state(11)
    rng = np.random.default_rng(2)
    for _ in range(60):  # somewhere in the middle of a game
        state.apply(int(rng.choice(state.legal_order())))
    hooks = search_hooks("seastead")
    a, b = hooks.estimate(state)
    assert a != b  # the margin is not trivially 0
    for mode, scale in (("margin", 2.0 * game.score_scale), ("win", hooks.scale)):
        assert estimated_values("seastead", mode)(state) == pytest.approx(
            [math.tanh((a - b) / scale), math.tanh((b - a) / scale)]
        )


def test_an_alternative_estimate_is_read_in_its_own_scale_whatever_the_mode():
    """``estimate=fitted`` (Board Royale's win model, as ``mcts:estimate=fitted``): each seat's value is the tanh of
    its margin in the variant's units over its own scale, in either mode, and differs from the default estimate."""
    from meeplezoo.agents.az import estimated_values
    from meeplezoo.agents.mcts import search_hooks

    game = manifest("board_royale").engine_class()(num_players=2)
    state = game.new_state(4)
    rng = np.random.default_rng(3)
    for _ in range(120):  # into the game, where the seats' positions differ
        state.apply(int(rng.choice(state.legal_order())))
    assert not state.is_terminal()
    fn, scale = search_hooks("board_royale").variants["fitted"]
    a, b = fn(state)
    assert a != b
    expected = [math.tanh((a - b) / scale), math.tanh((b - a) / scale)]
    for mode in ("margin", "win"):
        assert estimated_values("board_royale", mode, "fitted")(state) == pytest.approx(expected)
    assert estimated_values("board_royale", "win")(state) != pytest.approx(expected)


def test_the_agent_values_leaves_by_the_estimate_it_names_and_refuses_one_the_game_lacks():
    """``az:estimate=NAME`` reaches the search's leaf values; a name the game lacks is one line naming the
    choices, before any game (the agent's spec) or any run (an expert-iteration run's ``search``)."""
    from meeplezoo.agents.spec import ParamError
    from meeplezoo.training.az_train import AZRun

    with pytest.raises(AgentSpecError, match=r"^agent 'az' for seastead: estimate takes one of default.*'fitted'"):
        make_agent("az:mix=1,rollout=random,prior=uniform,estimate=fitted", "seastead", seed=0)
    with pytest.raises(ParamError, match=r"estimate takes one of default, items, fitted, fitted2p, not 'nope'"):
        make_agent("az:mix=1,rollout=random,prior=uniform,estimate=nope", "board_royale", seed=0)
    with pytest.raises(ParamError, match=r"^agent 'az' for seastead: estimate takes one of default"):
        AZRun("seastead", "unused-run-dir", {"search": "mix=1,rollout=random,estimate=fitted"})
    with pytest.raises(ParamError, match=r"^az: estimate=fitted names the estimate mix blends into leaf values"):
        AZRun("board_royale", "unused-run-dir", {"search": "estimate=fitted"})
    assert search_settings("mix=1,estimate=fitted")["estimate"] == "fitted"
    with pytest.raises(AgentSpecError, match=r"^az: estimate=fitted names the estimate mix blends into leaf values"):
        make_agent("az:estimate=fitted", "board_royale", seed=0)

    from meeplezoo.agents.az import estimated_values

    engine = manifest("board_royale").engine_class()(num_players=2)
    state = engine.new_state(4)
    rng = np.random.default_rng(3)
    for _ in range(120):
        state.apply(int(rng.choice(state.legal_order())))
    agent = make_agent("az:sims=8,mix=1,rollout=random,cutoff=2,prior=uniform,estimate=fitted", "board_royale", seed=7)
    assert repr(agent).endswith("cutoff=2, estimate=fitted, seed=7)")
    agent.act(view_of_state(state, state.current_player()))
    probe = state.clone()
    for _ in range(9):  # other positions than the one searched
        probe.apply(int(rng.choice(probe.legal_order())))
    assert agent._estimate(probe) == estimated_values("board_royale", "margin", "fitted")(probe)
    assert agent._estimate(probe) != estimated_values("board_royale", "margin")(probe)


def test_root_noise_changes_the_root_prior_only_over_legal_actions():
    game = ToyGame(sudden=False)
    search = PUCTSearch(
        evaluator([0.5, 0.5, 1e-6]), c_puct=1.0, batch=1, rng=np.random.default_rng(1), noise=(0.3, 0.5)
    )
    _, prior = search.run(lambda: ToyState(game), seat=0, sims=10)
    assert prior[2] > 1e-3 and abs(prior.sum() - 1) < 1e-6  # noise gave the neglected move a real share


# --- the agent on a real table ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def net_file(tmp_path_factory):
    engine = manifest("seastead").engine_class()(num_players=2)
    return AZNet.for_game(engine, hidden=(16,), seed=0).save(tmp_path_factory.mktemp("az") / "tiny.pt")


def test_sims_0_plays_legal_moves_from_the_policy_alone(net_file):
    agent = make_agent(f"az:sims=0,path={net_file}", "seastead", seed=1)
    assert not agent.uses_determinize  # its views need no public copy
    env = make_env("seastead")
    record = play_game(env, {"player_0": agent, "player_1": make_agent("random", "seastead", 2)}, seed=3)
    assert not record.illegal_action and not record.truncated


def first_choice(engine, seed: int = 5):
    """A new game of ``engine`` played to its first decision with more than one legal move."""
    state = engine.new_state(seed)
    while len(state.legal_order()) < 2:
        state.apply(state.legal_order()[0])
    return state


def counted_calls(net):
    """``net`` with its ``evaluate_batch`` counted: the list of each call's batch size, and the real evaluator."""
    calls, real = [], net.evaluate_batch
    net.evaluate_batch = lambda obs, masks: calls.append(len(obs)) or real(obs, masks)
    return calls, real


def counted_observes(monkeypatch, state):
    """The seats of every ``observe`` call on states of ``state``'s class, from now on."""
    observed, real = [], type(state).observe
    monkeypatch.setattr(type(state), "observe", lambda self, seat: observed.append(seat) or real(self, seat))
    return observed


def game_against_random(spec: str, agent_seed: int):
    """One recorded 2-player Seastead game (seed 4) of agent ``spec`` (seeded ``agent_seed``) against random."""
    agents = {
        "player_0": make_agent(spec, "seastead", seed=agent_seed),
        "player_1": make_agent("random", "seastead", 2),
    }
    return play_game(make_env("seastead"), agents, seed=4, record_actions=True)


def test_the_same_seed_makes_the_same_decisions(net_file):
    spec = f"az:sims=12,batch=4,temp=1,path={net_file}"  # temp=1: the agent's generator picks moves too

    def play(seed: int):
        result = play_match("seastead", [spec, "random"], games=1, seed=seed)
        return result.records[0]

    records = [game_against_random(spec, s) for s in (7, 7, 8)]
    assert records[0].decisions == records[1].decisions
    assert records[0].decisions != records[2].decisions  # another agent seed: other determinizations and draws
    assert not records[0].illegal_action
    assert play(5).ranks == play(5).ranks


def test_the_search_distribution_is_the_last_searchs_visit_shares(net_file):
    engine = manifest("seastead").engine_class()(num_players=2)
    state = first_choice(engine)
    view = view_of_state(state, state.current_player())
    agent = make_agent(f"az:path={net_file},sims=24,batch=4", "seastead", seed=1)
    action = agent.act(view)
    shares = agent.search_distribution()
    assert shares.shape == (engine.num_actions,) and shares.sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(shares)) <= set(view.legal_actions) and shares[action] == shares.max()
    assert shares.min() >= 0 and agent.last_simulations == 24
    policy_alone = make_agent(f"az:path={net_file},sims=0", "seastead", seed=1)
    policy_alone.act(view_of_state(state, state.current_player()))
    assert policy_alone.search_distribution() is None  # no search, no visits: a learner takes the move


def test_a_uniform_prior_with_rollout_values_never_calls_the_network(monkeypatch):
    """``prior=uniform,mix=1``: every leaf is valued by the rollout and the estimate, every prior is uniform, so the
    network's weights play no part: two networks of other weights play the same game, none is called, and no leaf
    is observed. With ``mix`` below 1 the network values the leaves (observed, and it is called) while the priors
    stay uniform."""
    engine = manifest("seastead").engine_class()(num_players=2)
    spec = {"sims": 16, "mix": 1.0, "rollout": "random", "cutoff": 4, "prior": "uniform", "qnorm": True}
    games = []
    for weights_seed in (0, 1):
        net = AZNet.for_game(engine, hidden=(16,), seed=weights_seed, value="margin")
        calls, _ = counted_calls(net)
        agents = {f"player_{i}": AZAgent(seed=7 + i, net=net, **spec) for i in range(2)}
        record = play_game(make_env("seastead"), agents, seed=11, max_steps=60, record_actions=True)
        games.append([d.action for d in record.decisions])
        assert not calls and not record.illegal_action
    assert games[0] == games[1] and len(games[0]) >= 20
    net = AZNet.for_game(engine, hidden=(16,), seed=0, value="margin")
    calls, _ = counted_calls(net)
    state = first_choice(engine)
    observed = counted_observes(monkeypatch, state)
    view = view_of_state(state, state.current_player())
    assert view.observation.size == engine.observation_size  # the view's own (made once, lazily; the agent reads it)
    observed.clear()  # the searches' leaves are counted from here
    AZAgent(seed=1, net=net, **spec).act(view)
    assert not observed  # no network reads them: the leaves are not observed
    AZAgent(seed=1, net=net, **{**spec, "mix": 0.5}).act(view)
    assert calls and observed


@pytest.mark.parametrize("value", ["net", "win", "margin"])
def test_value_sets_how_the_search_values_finished_games_and_the_estimate(value, monkeypatch):
    """A margin-valued network: ``value=net`` values finished games and the estimate by its mode, ``win`` and
    ``margin`` by theirs (what the search maximises: the win, or the score margin)."""
    import meeplezoo.agents.az as az

    engine = manifest("seastead").engine_class()(num_players=2)
    net = AZNet.for_game(engine, hidden=(16,), seed=0, value="margin")
    finals, estimates = set(), set()
    real_final, real_estimated = az.final_values, az.estimated_values
    monkeypatch.setattr(
        az, "final_values", lambda state, mode="win", ranks=None: finals.add(mode) or real_final(state, mode, ranks)
    )
    monkeypatch.setattr(
        az,
        "estimated_values",
        lambda game, mode="win", variant="default": estimates.add(mode) or real_estimated(game, mode, variant),
    )
    state = first_choice(engine)
    agent = AZAgent(seed=1, net=net, sims=30, mix=1.0, rollout="random", cutoff=0, prior="uniform", value=value)
    agent.act(view_of_state(state, state.current_player()))  # rollouts to the end: every leaf a finished game
    expected = "margin" if value == "net" else value
    assert finals == {expected} and estimates == {expected}


def test_the_agent_reads_its_view_only(net_file):
    engine = manifest("seastead").engine_class()(num_players=2)
    state = engine.new_state(11)
    rng = np.random.default_rng(0)
    for _ in range(25):  # into the game: hidden parts (decks, the other seat's cards) to resample
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    seat = state.current_player()
    twin = state.determinize(seat, np.random.default_rng(5))  # what the seat cannot see, drawn otherwise
    assert twin.to_json() != state.to_json()
    before = state.to_json()
    moves = []
    for true_state in (state, twin):
        agent = AZAgent(seed=3, sims=40, batch=4, path=str(net_file))
        moves.append(agent.act(view_of_state(true_state, seat)))
    assert moves[0] == moves[1]
    assert state.to_json() == before  # the search played on determinizations, never on the true state


def test_a_missing_or_foreign_network_is_one_line(tmp_path, net_file):
    with pytest.raises(AgentSpecError, match=r"^az: no network ships for resafa with 3 players; train one") as info:
        make_agent("az", "resafa", seed=0).prepare("resafa", 3)
    assert "\n" not in str(info.value)
    with pytest.raises(AgentSpecError, match=r"^az: no network file '.*nothing.pt'$"):
        make_agent(f"az:path={tmp_path / 'nothing.pt'}", "seastead").prepare("seastead", 2)
    env = make_env("concordia", num_players=2)
    agents = {
        "player_0": make_agent(f"az:sims=0,path={net_file}", "concordia"),
        "player_1": make_agent("random", "concordia"),
    }
    with pytest.raises(AgentSpecError, match=r"^az: the network is for seastead with 2 players and 59 actions; this"):
        play_game(env, agents, seed=0)


def test_a_search_that_calls_no_network_plays_where_none_ships(monkeypatch, tmp_path):
    """``prior=uniform,mix=1`` calls no network, so it loads none (Resafa ships none for 3 players) and plays the
    moves it plays with a margin network given (``value=net`` means margin without one). The policy alone
    (``sims=0``) and an explicit ``path`` still need their network."""
    import meeplezoo.agents.az as az

    spec = "az:sims=12,prior=uniform,mix=1,rollout=random,cutoff=4,batch=1,qnorm=1,reuse=1"
    engine = manifest("resafa").engine_class()(num_players=3)
    net = AZNet.for_game(engine, hidden=(8,), seed=0, value="margin")
    games = []
    for given in (net, None):
        if given is None:
            monkeypatch.setattr(az, "cached_net", lambda path: pytest.fail(f"loaded {path}"))
        agents = {f"player_{i}": make_agent(spec, "resafa", seed=5 + i) for i in range(3)}
        for agent in agents.values():
            agent.net = given
            agent.prepare("resafa", 3)
        record = play_game(make_env("resafa", num_players=3), agents, seed=2, max_steps=45, record_actions=True)
        assert not record.illegal_action
        games.append([d.action for d in record.decisions])
    assert games[0] == games[1] and len(games[0]) == 45
    monkeypatch.undo()
    with pytest.raises(AgentSpecError, match=r"^az: no network ships for resafa with 3 players; train one"):
        make_agent("az:sims=0,prior=uniform,mix=1", "resafa").prepare("resafa", 3)
    with pytest.raises(AgentSpecError, match=r"^az: no network file '.*nothing.pt'$"):
        make_agent(f"{spec},path={tmp_path / 'nothing.pt'}", "resafa").prepare("resafa", 3)


def test_the_spec_reads_every_parameter():
    agent = make_agent("az:sims=50,seconds=0.25,c_puct=2,batch=4,temp=0.5,mix=0.25,qnorm=1,path=x.pt", "seastead")
    assert (agent.sims, agent.seconds, agent.c_puct, agent.batch, agent.temp, agent.mix, agent.path) == (
        50,
        0.25,
        2.0,
        4,
        0.5,
        0.25,
        "x.pt",
    )
    assert agent.qnorm is True and make_agent("az", "seastead").qnorm is False
    with pytest.raises(AgentSpecError, match=r"^agent 'az': batch takes a whole number of at least 1, not '0'$"):
        make_agent("az:batch=0", "seastead")
    for bad in ("1.5", "-0.1", "x"):
        with pytest.raises(AgentSpecError, match=rf"^agent 'az': mix takes a number from 0 to 1, not '{bad}'$"):
            make_agent(f"az:mix={bad}", "seastead")
    agent = make_agent("az:mix=0.5,rollout=heuristic,cutoff=12,ptemp=2", "board_royale")
    assert (agent.rollout, agent.cutoff, agent.ptemp) == ("heuristic", 12, 2.0) and make_agent(
        "az", "seastead"
    ).rollout == "none"
    assert repr(agent) == (
        "AZAgent(sims=200, c_puct=1.5, batch=8, temp=0, ptemp=2, qnorm=False, first=parent, vloss=1, prior=net, "
        "deepen=0, reuse=False, stop=False, value=net, mix=0.5, rollout=heuristic, cutoff=12, seed=None)"
    )
    assert repr(make_agent("az:sims=50", "seastead")) == (
        "AZAgent(sims=50, c_puct=1.5, batch=8, temp=0, ptemp=1, qnorm=False, first=parent, vloss=1, prior=net, "
        "deepen=0, reuse=False, stop=False, value=net, seed=None)"
    )
    assert make_agent("az:first=root", "seastead").first == "root" and make_agent("az", "seastead").first == "parent"
    assert make_agent("az:reuse=1,prior=root", "seastead").reuse is True and make_agent("az", "seastead").reuse is False
    with pytest.raises(AgentSpecError, match=r"^agent 'az': first takes one of parent, root, all, not 'leaf'$"):
        make_agent("az:first=leaf", "seastead")
    for bad, message in (
        ("prior=learnt", "prior takes one of net, uniform, root, not 'learnt'"),
        ("value=draw", "value takes one of net, win, margin, not 'draw'"),
        ("vloss=2", "vloss takes a number from 0 to 1, not '2'"),
        ("reuse=maybe", "reuse takes true or false, not 'maybe'"),
        ("deepen=-1", "deepen takes a whole number of at least 0, not '-1'"),
    ):
        with pytest.raises(AgentSpecError, match=rf"^agent 'az': {message}$"):
            make_agent(f"az:{bad}", "seastead")
    with pytest.raises(AgentSpecError, match=r"^az: rollout=random values leaves by the estimate, which needs mix"):
        make_agent("az:rollout=random", "seastead")
    with pytest.raises(
        AgentSpecError, match=r"^az: deepen=4 gives nodes below the root .* needs prior=root \(prior=net"
    ):
        make_agent("az:deepen=4", "seastead")
    assert make_agent("az:deepen=4,prior=root", "seastead").deepen == 4 and make_agent("az", "seastead").deepen == 0
    with pytest.raises(AgentSpecError, match=r"^agent 'az': rollout takes one of none, random, heuristic, fast, not"):
        make_agent("az:mix=1,rollout=greedy", "seastead")


def test_random_rollouts_replay_for_the_same_seed(net_file):
    spec = f"az:sims=16,batch=4,mix=0.5,rollout=random,cutoff=8,path={net_file}"
    records = [game_against_random(spec, 7) for _ in range(2)]
    assert records[0].decisions == records[1].decisions and not records[0].illegal_action
    plain = game_against_random(f"az:sims=16,batch=4,mix=0.5,path={net_file}", 7)
    assert plain.decisions != records[0].decisions  # the rollouts changed the leaf values, hence some moves


def test_a_cpu_time_budget_bounds_a_decision(net_file):
    import time

    engine = manifest("seastead").engine_class()(num_players=2)
    state = engine.new_state(2)
    while len(state.legal_actions()) < 2:  # a real choice to think about
        state.apply(state.legal_actions()[0])
    agent = AZAgent(seed=0, seconds=0.05, path=str(net_file))
    began = time.process_time()
    agent.act(view_of_state(state, state.current_player()))
    assert time.process_time() - began < 0.5 and agent.last_simulations > 1


@pytest.mark.parametrize("players", [1, 2])
def test_finished_games_are_valued_by_win_or_by_score_margin(players):
    import math

    from meeplezoo.agents.az import final_values

    engine = manifest("seastead").engine_class()(num_players=players)
    state = engine.new_state(4)
    rng = np.random.default_rng(4)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    ranks, scores = state.standing()
    win = final_values(state, "win")
    assert win == [1.0 if r == 0 and ranks.count(0) == 1 else (0.0 if r == 0 else -1.0) for r in ranks]
    bar = state.automa_score() if players == 1 else None
    margins = [s - (bar if bar is not None else max(scores[:i] + scores[i + 1 :])) for i, s in enumerate(scores)]
    assert final_values(state, "margin") == pytest.approx([math.tanh(m / 40.0) for m in margins])  # 2 x score_scale
    if players == 1:
        assert win == [1.0 if scores[0] > bar else -1.0] or scores[0] == bar


#: the networks the games ship (``policies/az_<n>p.pt``, made by ``configs/<game>_az_<n>p.toml``): (game, players)
SHIPPED = (
    ("seastead", 2),
    ("concordia", 2),
    ("board_royale", 2),
    ("resafa", 2),
    ("seastead", 1),
    ("concordia", 4),
    ("board_royale", 4),
)


@pytest.mark.parametrize(("game_name", "players"), SHIPPED)
def test_a_shipped_network_plays_as_plain_az(game_name, players):
    """``az`` without a path plays the network the game ships for the table (package data, trained by its shipped
    config); its policy alone beats random (solo: the Boss)."""
    from meeplezoo.agents.az import shipped_net
    from meeplezoo.agents.az_net import load_net
    from meeplezoo.training.config import tomllib

    game = manifest(game_name)
    file = shipped_net(game_name, players)
    assert file.name == f"az_{players}p.pt" and file.stat().st_size < 12_000_000  # small: package data
    env = make_env(game_name, num_players=players)
    size, actions = env.observation_space("player_0")["observation"].shape[0], env.action_space("player_0").n
    net = load_net(file, game_name, size, actions, players)
    config = tomllib.loads(game.training_configs()[f"{game_name}_az_{players}p"].read_text(encoding="utf-8"))
    assert config["algo"] == "az" and config["env"] == {"num_players": players}
    assert (list(net.hidden), net.value) == (config["hidden"], config["value"])
    if players == 1:
        for seed in (5, 6):
            record = play_game(env, {"player_0": make_agent("az:sims=0", game_name, seed=seed)}, seed)
            assert record.ranks["player_0"] == 0 and not record.truncated  # the policy alone beats the Boss
        seats = {"player_0": make_agent("az:sims=16", game_name, seed=1)}
    else:
        entrants = ["az:sims=0"] + ["random"] * (players - 1)
        # the policy alone beats random: every game of 2 players; at 4, at least 4 of 6 (each random player's
        # share is 1.5), since Board Royale's dice let a random player win now and then
        games, least = (2, 2) if players == 2 else (6, 4)
        result = play_match(game_name, entrants, games, seed=5, env_kwargs={"num_players": players})
        standing = next(s for s in result.standings() if s.label == "az:sims=0")
        assert standing.games == games and standing.wins >= least
        seats = {"player_0": make_agent("az:sims=16", game_name, seed=1)}
        seats.update({f"player_{i}": make_agent("random", game_name, seed=i) for i in range(1, players)})
    record = play_game(env, seats, 3)
    assert not record.illegal_action and not record.truncated


def test_a_root_prior_calls_the_network_once_a_search_and_observes_only_the_root(monkeypatch):
    """``prior=root,mix=1``: the root's prior is the network's policy at the seat's observation, every leaf below it
    is valued by the rollout and the estimate under a uniform prior, so a search makes one network call (of one
    position) and observes one state; ``prior=net`` calls the network at every new leaf."""
    engine = manifest("seastead").engine_class()(num_players=2)
    net = AZNet.for_game(engine, hidden=(16,), seed=0, value="margin")
    calls, real = counted_calls(net)
    state = first_choice(engine)
    observed = counted_observes(monkeypatch, state)
    view = view_of_state(state, state.current_player())
    mask = view.action_mask[None].astype(bool)
    expected = real(view.observation[None], mask)[0][0]
    observed.clear()
    spec = {"sims": 16, "mix": 1.0, "rollout": "random", "cutoff": 4, "prior": "root", "batch": 1}
    visits, prior = AZAgent(seed=1, net=net, **spec).search(view)
    assert calls == [1] and observed == [view.seat]
    assert visits.sum() == 15  # the first simulation evaluates the root itself
    np.testing.assert_allclose(prior, expected, rtol=1e-6, atol=1e-7)
    calls.clear()
    AZAgent(seed=1, net=net, **{**spec, "prior": "net"}).search(view)
    assert len(calls) > 1


def _tree(node, depth: int = 0):
    """Every node of a search tree below ``node`` with its depth (``node`` itself at ``depth``)."""
    yield node, depth
    for child in node.children.values():
        yield from _tree(child, depth + 1)


def move_before_same_seat(agent, engine, seed: int = 5):
    """Play ``agent`` in every seat of a new game (forced moves applied) until one of its searched moves leaves the
    same seat a real decision: the state before that move, the move, the state after it, and for each earlier
    searched move whether a tree was kept and whether the same seat decided next."""
    state, earlier = engine.new_state(seed), []
    while True:
        while len(state.legal_order()) < 2:
            state.apply(state.legal_order()[0])
        seat = state.current_player()
        action = agent.act(view_of_state(state, seat))
        after = state.clone()
        after.apply(action)
        if after.current_player() == seat and len(after.legal_order()) > 1:
            return state, action, after, earlier
        earlier.append((agent._kept is not None, after.current_player() == seat))
        state = after


@pytest.mark.parametrize("deepen", [2, 5])
def test_deepen_calls_the_network_at_each_node_the_search_comes_back_to(deepen):
    """``prior=root,mix=1,deepen=K``: a node below the root keeps the uniform prior it was made with until ``K``
    simulations have passed through it; the next descent through it replaces that prior by the network's policy
    there, one call of one position. So every node of one real choice visited more than ``K`` times has the
    network's prior, no node visited fewer has it (nor a forced move), and the network is called once for the root
    and once for each such prior."""
    from meeplezoo.agents.az import _learned

    engine = manifest("seastead").engine_class()(num_players=2)
    net = AZNet.for_game(engine, hidden=(16,), seed=0, value="margin")
    calls, _ = counted_calls(net)
    state = first_choice(engine)
    view = view_of_state(state, state.current_player())
    spec = {"sims": 60, "mix": 1.0, "rollout": "random", "cutoff": 4, "prior": "root", "batch": 1}
    agent = AZAgent(seed=1, net=net, deepen=deepen, **spec)
    agent.search(view)
    below = [node for node, depth in _tree(agent._root) if depth]
    learned = [node for node in below if node.learned]
    choices = [node for node in below if len(node.priors) == 1 and (next(iter(node.priors.values())) > 0).sum() > 1]
    assert all(node.n > deepen for node in learned) and all(node.learned for node in choices if node.n > deepen)
    assert all(node.learned is None for node in below if node.n < deepen)
    assert len(learned) >= 3 and calls == [1] * (1 + sum(len(node.learned) for node in learned))
    for node in learned:  # the network's policy, not the uniform share it replaced
        for key in node.learned:
            legal = node.priors[key][node.priors[key] > 0]
            assert legal.max() > legal.min()
    assert _learned(agent._root, 0)
    calls.clear()
    AZAgent(seed=1, net=net, **spec).search(view)
    assert calls == [1]  # without deepen: the root's call only


def test_a_kept_root_takes_the_networks_prior_with_prior_root():
    """``prior=root,reuse=1``: the tree kept below the seat's move was made with uniform priors, so the kept root is
    evaluated by the network before the search goes on; its prior is the network's policy at the view."""
    engine = manifest("seastead").engine_class()(num_players=2)
    net = AZNet.for_game(engine, hidden=(16,), seed=0, value="margin")
    spec = {"sims": 30, "mix": 1.0, "rollout": "random", "cutoff": 4, "prior": "root", "batch": 1, "reuse": True}
    calls, real = counted_calls(net)
    agent = AZAgent(seed=1, net=net, **spec)
    _, _, state, _ = move_before_same_seat(agent, engine)
    assert agent._kept is not None
    seat = state.current_player()
    view = view_of_state(state, seat)
    key = (agent._decisions[state.pending()] * 2 + seat) * engine.num_actions
    kept = agent._kept[0].priors[key]
    legal = view.action_mask.astype(bool)
    np.testing.assert_allclose(kept[legal], 1.0 / legal.sum())  # made below the root: uniform
    before = agent._kept[0].n
    calls.clear()
    visits, prior = agent.search(view)
    expected = real(view.observation[None], legal[None])[0][0]
    np.testing.assert_allclose(prior, expected, rtol=1e-6, atol=1e-7)
    assert calls == [1] and visits.sum() > 30 and before > 1  # the kept tree searched on, the root evaluated once


def _reuse_game(game: str, reuse: bool, sims: int = 12):
    """Two ``prior=uniform,mix=1`` az agents (one per seat) play ``game`` from seed 3: for each real decision, the
    seat, whether the previous decision (forced ones included) was the same seat's, and the root's visits."""
    engine = manifest(game).engine_class()(num_players=2)
    net = AZNet.for_game(engine, hidden=(16,), seed=0, value="margin")
    spec = {"sims": sims, "mix": 1.0, "rollout": "random", "cutoff": 6, "prior": "uniform", "batch": 1}
    agents = [AZAgent(seed=seat, net=net, reuse=reuse, **spec) for seat in range(2)]
    state, previous, rows, actions = engine.new_state(3), None, [], []
    while not state.is_terminal() and len(actions) < 400:
        seat = state.current_player()
        legal = state.legal_order()
        action = agents[seat].act(view_of_state(state, seat))
        if len(legal) > 1:
            rows.append((seat, previous == seat, int(agents[seat]._last_visits.sum())))
        previous = seat
        actions.append(action)
        state.apply(action)
    return rows, actions


@pytest.mark.parametrize("game", ["seastead", "resafa"])
def test_reuse_searches_on_from_the_tree_below_the_seats_own_move(game):
    """``reuse``: a decision that follows the same seat's own move starts from the tree kept below it, so its root
    holds more than the new simulations' visits; one after another seat's decision never does; without reuse every
    root holds exactly the new simulations (less the first, which evaluates the root)."""
    rows, _ = _reuse_game(game, reuse=True)
    kept = [row for row in rows if row[2] > 11]
    assert len(kept) >= len(rows) // 4  # most decisions of a turn are one seat's in a row
    assert all(same_seat for _, same_seat, _ in kept)
    assert all(visits >= 11 for _, _, visits in rows)
    plain, _ = _reuse_game(game, reuse=False)
    assert {visits for _, _, visits in plain} == {11}


def test_reuse_keeps_the_moves_subtree_and_nothing_past_a_turn_handed_over_or_in_another_position():
    """The kept tree is the child of the move made, and it is used only while the seat's knowledge after the move
    (its public copy with the move played) is what the next view shows: a move that gives another seat the decision
    keeps nothing, and another position uses nothing kept."""
    from meeplezoo.agents.az import subtree

    engine = manifest("seastead").engine_class()(num_players=2)
    net = AZNet.for_game(engine, hidden=(16,), seed=0, value="margin")
    agent = AZAgent(seed=1, net=net, sims=30, batch=1, mix=1.0, rollout="random", cutoff=6, prior="uniform")
    agent.reuse = True
    state, action, after, earlier = move_before_same_seat(agent, engine)  # a move that leaves the seat to decide
    assert all(same_seat for kept, same_seat in earlier if kept)
    seat = state.current_player()
    child = agent._root.children[action]
    assert agent._kept is not None and agent._kept[0] is child
    key = (agent._decisions[after.pending()] * 2 + seat) * engine.num_actions  # the next decision's tree key
    kept = subtree(child, key, engine.num_actions)
    assert kept.children and all(kept.children[a] is child.children[key + a] for a in kept.children)
    assert kept.priors[0] is child.priors[key] and kept.n == 1 + sum(c.n for c in kept.children.values())
    kept_now = agent._kept
    other = engine.new_state(6)  # another position of the same seat: nothing kept applies there
    while len(other.legal_order()) < 2 or other.current_player() != seat:
        other.apply(other.legal_order()[0])
    assert agent._reused(view_of_state(other, seat)) is None
    agent._kept = kept_now
    before = kept.n - 1
    agent.act(view_of_state(after, seat))  # the next decision searches on from the kept tree
    assert agent._last_visits.sum() == before + 30


def test_reuse_keeps_nothing_when_the_public_copy_refuses_the_move(monkeypatch):
    """A move the seat's public copy cannot replay (its legality rests on what the copy holds otherwise) keeps no
    tree, and the agent's move still stands."""
    from meeplezoo.envs.core.errors import IllegalActionError

    engine = manifest("seastead").engine_class()(num_players=2)
    net = AZNet.for_game(engine, hidden=(16,), seed=0, value="margin")
    agent = AZAgent(seed=1, net=net, sims=12, batch=1, mix=1.0, rollout="random", cutoff=4, prior="uniform", reuse=True)
    state = first_choice(engine)
    view = view_of_state(state, state.current_player())

    class Refusing:
        """The seat's public copy, refusing every move played on it."""

        def __init__(self, state):
            self.state = state

        def apply(self, action):
            raise IllegalActionError(action, self.state.current_player(), self.state.pending(), "not in this copy")

        def __getattr__(self, name):
            return getattr(self.state, name)

    real = SeatView.public_state
    monkeypatch.setattr(SeatView, "public_state", lambda self, copy=True: Refusing(real(self, copy)))
    action = agent.act(view)
    assert action in view.legal_actions and agent._root.children.get(action) is not None  # a move it searched
    assert agent._kept is None


def test_stop_ends_a_search_once_its_most_visited_move_is_settled():
    """``stop=1``: a search of ``sims`` ends once the most visited root move leads every other by more than the
    simulations left. With the same seed it is the first part of the full search (no root visit count above the
    full one's), it plays the full search's move, and it makes fewer simulations where one move runs away."""
    from meeplezoo.agents.az import _decided

    engine = manifest("seastead").engine_class()(num_players=2)
    spec = {"sims": 60, "mix": 1.0, "rollout": "random", "cutoff": 4, "prior": "uniform", "batch": 1}
    state, saved, searched = engine.new_state(11), 0, 0
    while not state.is_terminal() and searched < 20:
        seat, legal = state.current_player(), state.legal_order()
        if len(legal) < 2:
            state.apply(legal[0])
            continue
        view = view_of_state(state, seat)
        full, early = AZAgent(seed=searched, **spec), AZAgent(seed=searched, stop=True, **spec)
        action = full.act(view)
        assert early.act(view) == action
        assert (early._last_visits <= full._last_visits).all()
        assert early.last_simulations <= full.last_simulations == 60
        if early.last_simulations < 60:
            assert _decided(early._root, 60 - early.last_simulations)
            saved += 60 - early.last_simulations
        searched += 1
        state.apply(action)
    assert searched == 20 and saved > 0


def test_stop_needs_the_most_visited_move_and_a_count_of_simulations():
    """``stop`` with a drawn move (``temp`` above 0) or a time budget has no settled move to stop at: one line."""
    for extra in ({"temp": 1.0}, {"seconds": 0.1}):
        with pytest.raises(AgentSpecError, match=r"^az: stop=1 ends a search of sims once its most visited move"):
            make_agent("az:stop=1," + ",".join(f"{k}={v}" for k, v in extra.items()), "seastead", seed=0)


def _mast_search(estimate, mast: float, seed: int = 0) -> PUCTSearch:
    return PUCTSearch(
        evaluator([1 / 3] * 3), c_puct=1.5, batch=1, rng=np.random.default_rng(seed), estimate=estimate, mix=1.0,
        rollout=lambda state: 0, cutoff=4, mast=mast,
    )  # fmt: skip


def test_mast_rollouts_learn_the_move_that_pays_and_play_it():
    """``mast``: a rollout plays, for the seat to move, the move with the best mean value that the search has backed
    up through it, and a random one with probability ``mast``. Seat 0's value here is the share of its moves that
    were move 1 (seat 1's moves change nothing), so MAST learns move 1 for seat 0 and its rollouts then play it
    nearly always, where the uniform ``rollout`` policy it replaces would play move 0 (as given) and a uniformly random
    one a third of the time. Each move's mean is exactly the mean value of the simulations that played it (counted
    once per time it was played), over the tree's part of the simulation and the rollout's."""
    game = ToyGame(sudden=False, length=400)
    played: list[tuple[list[int], list[float]]] = []

    def estimate(state: ToyState) -> list[float]:
        mine = state.moves[0::2]
        v = sum(m == 1 for m in mine) / len(mine) if mine else 0.0
        played.append((list(state.moves), [v, -v]))
        return [v, -v]

    search = _mast_search(estimate, mast=0.1)
    search.run(lambda: ToyState(game), seat=0, sims=300)
    assert len(played) == 300
    late = [m for moves, _ in played[150:] for i, m in enumerate(moves[-4:], len(moves) - 4) if i % 2 == 0]
    assert sum(m == 1 for m in late) >= 0.85 * len(late)  # greedy 90% of the time, and a random draw may give 1 too
    sums = np.zeros((2, 3))
    counts = np.zeros((2, 3))
    for moves, values in played:
        for i, m in enumerate(moves):
            sums[i % 2, m] += values[i % 2]
            counts[i % 2, m] += 1
    means = np.where(counts > 0, sums / np.maximum(counts, 1), np.inf)
    assert np.array(search._mast_q) == pytest.approx(means, rel=1e-9, abs=1e-12)
    assert np.array(search._mast_n).tolist() == counts.tolist()
    assert means[0, 1] == means[0].max() > means[0, 0]


def test_mast_rollouts_replay_bit_for_bit_and_leave_the_plain_search_as_it_was():
    """The same generator gives the same MAST search; ``mast=0`` (the default) plays the ``rollout`` policy given."""
    game = ToyGame(sudden=False, length=400)

    def run(mast: float, seed: int) -> tuple[list[int], list[list[int]]]:
        seen: list[list[int]] = []

        def estimate(state: ToyState) -> list[float]:
            seen.append(list(state.moves))
            return [0.5 * (state.moves[-1] == 2) - 0.25, 0.0]

        visits, _ = _mast_search(estimate, mast, seed).run(lambda: ToyState(game), seat=0, sims=80)
        return visits.tolist(), seen

    assert run(0.3, 5) == run(0.3, 5)
    assert run(0.3, 5) != run(0.3, 6)
    _, plain = run(0.0, 5)
    assert all(moves[-4:] == [0, 0, 0, 0] for moves in plain[1:] if len(moves) >= 4)  # the policy given: move 0


def test_mast_needs_random_rollouts():
    """``mast`` takes the place of uniformly random rollouts: with no rollout, or a heuristic one, it is one line;
    its probability lies in [0, 1]; the agent's repr shows it."""
    for spec in ("az:mast=0.3", "az:mast=0.3,mix=1,rollout=heuristic"):
        with pytest.raises(AgentSpecError, match=r"^az: mast=0.3 plays the rollouts by the moves' mean values"):
            make_agent(spec, "seastead", seed=0)
    with pytest.raises(AgentSpecError, match=r"^agent 'az': mast takes a number from 0 to 1, not '1.5'$"):
        make_agent("az:mast=1.5,mix=1,rollout=random", "seastead")
    agent = make_agent("az:mast=0.3,mix=1,rollout=random,prior=uniform", "seastead", seed=0)
    assert agent.mast == 0.3 and repr(agent).endswith("mix=1, rollout=random, cutoff=20, mast=0.3, seed=0)")
    assert search_settings("mix=1,rollout=random,mast=0.2")["mast"] == 0.2  # an expert-iteration run's search


def _priors_by_mover(root, num_players: int, num_actions: int):
    """Every prior below ``root`` with the seat that chooses there (read from its decision key)."""
    for node, depth in _tree(root):
        if depth:
            for key, prior in node.priors.items():
                yield (key // num_actions) % num_players, prior


@pytest.mark.parametrize("deepen", [0, 2])
def test_an_opponent_model_leans_the_other_seats_priors_to_its_move(deepen):
    """``opponent``: at every choice of a seat other than the root's, the prior is ``1 - oweight`` of the one it was
    made with plus ``oweight`` on the model's move (read on that node's state); the root's seat keeps its own, also
    when ``deepen`` replaces a prior by the root evaluator's. With no value to tell the moves apart, the other seat
    is then expected to play the model's move."""
    game = ToyGame(sudden=False, length=4)
    asked = []

    def model(state):
        asked.append(state.current_player())
        return (len(state.moves) + 1) % 3  # the move depends on the node's state

    root_prior = [0.5, 0.3, 0.2]
    search = PUCTSearch(
        evaluator([1 / 3] * 3),
        c_puct=1.0,
        batch=1,
        rng=np.random.default_rng(0),
        opponent=model,
        oweight=0.6,
        root=evaluator(root_prior),
        deepen=deepen or 0,
    )
    visits, prior = search.run(lambda: ToyState(game), seat=0, sims=150)
    np.testing.assert_allclose(prior, root_prior, rtol=1e-6)  # the root's seat is never leaned
    assert asked and set(asked) == {1}
    seen = {0: 0, 1: 0}
    for node, depth in _tree(search.root):
        for key, p in node.priors.items() if depth else ():
            mover = (key // 3) % 2
            seen[mover] += 1
            base = np.array(root_prior if key in (node.learned or ()) else [1 / 3] * 3)
            if mover == 1:
                move = (depth + 1) % 3  # the model's move after ``depth`` moves
                base = 0.4 * base
                base[move] += 0.6
            np.testing.assert_allclose(p, base, rtol=1e-6)
    assert seen[0] > 3 and seen[1] > 3
    if deepen:
        assert any(node.learned for node, depth in _tree(search.root) if depth)
    reply = search.root.children[int(np.argmax(visits))]
    counts = {key % 3: child.n for key, child in reply.children.items()}  # a child's key ends in its action
    assert max(counts, key=counts.get) == 2  # seat 1's model move after one move
    # without the model every prior below the root is the evaluator's
    plain = PUCTSearch(evaluator([1 / 3] * 3), c_puct=1.0, batch=1, rng=np.random.default_rng(0))
    plain.run(lambda: ToyState(game), seat=0, sims=150)
    for node, depth in _tree(plain.root):
        for p in node.priors.values() if depth else ():
            np.testing.assert_allclose(p, [1 / 3] * 3, rtol=1e-6)


def test_the_agent_models_the_other_seats_by_the_games_heuristic():
    """``az:opponent=heuristic``: the search's model is the game's heuristic (every other seat's choice below the
    root leans ``oweight`` to one move), the seat's own choices keep their prior, the same seed replays the same
    moves, and the spec is checked before any game."""
    engine = manifest("board_royale").engine_class()(num_players=2)
    state = engine.new_state(4)
    rng = np.random.default_rng(3)
    for _ in range(40):
        state.apply(int(rng.choice(state.legal_order())))
    while len(state.legal_order()) < 2:
        state.apply(state.legal_order()[0])
    seat = state.current_player()
    spec = "az:sims=60,mix=1,rollout=random,cutoff=4,prior=uniform,batch=1,opponent=heuristic,oweight=0.7"
    agent = make_agent(spec, "board_royale", seed=5)
    assert repr(agent).endswith("cutoff=4, opponent=heuristic, oweight=0.7, seed=5)")
    view = view_of_state(state, seat)
    move = agent.act(view)
    assert move == make_agent(spec, "board_royale", seed=5).act(view_of_state(state, seat))
    leaned = own = 0
    for mover, p in _priors_by_mover(agent._root, 2, engine.num_actions):
        legal = p[p > 0]
        if len(legal) < 2:
            continue
        even = 1.0 / len(legal)
        if mover == seat:
            own += 1
            np.testing.assert_allclose(legal, even)
        else:
            leaned += 1
            assert sorted(legal)[-1] == pytest.approx(0.7 + 0.3 * even)
            np.testing.assert_allclose(sorted(legal)[:-1], 0.3 * even)
    assert leaned > 0 and own > 0
    with pytest.raises(AgentSpecError, match=r"^az: oweight=0.5 is the share of the other seats' prior .* opponent="):
        make_agent("az:oweight=0.5", "board_royale")
    with pytest.raises(AgentSpecError, match=r"^agent 'az': opponent takes one of none, heuristic, not 'mirror'$"):
        make_agent("az:opponent=mirror", "board_royale")


def test_excluded_root_moves_are_never_searched_and_stop_does_not_count_them():
    """``PUCTSearch.run(exclude=...)``: the root moves left out get no visit, even the one a misleading prior and
    the values favour (the toy game's immediate win), and ``stop`` settles among the others only."""
    from meeplezoo.agents.az import _decided

    game = ToyGame()
    for exclude in (frozenset(), frozenset({2}), frozenset({0, 2})):
        search = PUCTSearch(evaluator([0.2, 0.2, 0.6]), c_puct=1.5, batch=1, rng=np.random.default_rng(0))
        visits, _ = search.run(lambda: ToyState(game), seat=0, sims=40, exclude=exclude)
        assert visits.sum() == 39  # the root's own evaluation is the first simulation
        assert all(visits[a] == 0 for a in exclude) and set(search.root.children).isdisjoint(exclude)
        assert int(np.argmax(visits)) == (2 if not exclude else min(set(range(3)) - exclude))
    root = search.root
    assert _decided(root, 0, frozenset({0, 2}))  # one move left: settled at once
    assert not _decided(root, 100)  # counting every move, 100 simulations left could still change it
    # a kept tree (``reuse``) whose most visited move is now left out: its visits are not counted, nor searched on
    search = PUCTSearch(evaluator([0.2, 0.2, 0.6]), c_puct=1.5, batch=1, rng=np.random.default_rng(0))
    search.run(lambda: ToyState(game), seat=0, sims=40)
    kept = search.root
    before = {a: child.n for a, child in kept.children.items()}
    assert max(before, key=before.get) == 2
    visits, _ = search.run(lambda: ToyState(game), seat=0, sims=20, root=kept, exclude=frozenset({2}))
    assert visits[2] == 0 and kept.children[2].n == before[2]  # left alone
    assert visits[0] + visits[1] == before[0] + before[1] + 20


@pytest.mark.parametrize("repeat", [True, False])
def test_repeat_never_plays_a_move_twice_in_a_position_the_seat_cannot_tell_apart(repeat):
    """``az:repeat=1`` (as ``mcts:repeat=1``): asked again and again in one Board Royale position, the agent makes
    every legal move once before any twice; without it the same position gets the same few choices again."""
    from test_mcts import _royale_action_position  # (pytest puts this folder on the path)

    state = _royale_action_position(5)
    view = view_of_state(state, state.d.stack[-1][1])
    legal = view.legal_actions
    spec = "az:sims=30,prior=uniform,mix=1,rollout=heuristic,cutoff=5,batch=1,stop=1"
    agent = make_agent(spec + (",repeat=1" if repeat else ""), "board_royale", seed=2)
    picks = [agent.act(view) for _ in range(len(legal) + 1)]
    if repeat:  # every legal move once, then the choice is free again
        assert sorted(picks[:-1]) == sorted(legal) and picks[-1] in legal
        assert "repeat=True" in repr(agent)
    else:
        assert len(set(picks)) < len(legal) and "repeat" not in repr(agent)


def test_repeat_ends_a_futile_vote_loop_in_a_real_game():
    """In a 2-player Board Royale game against the heuristic, ``repeat=1`` never calls a democracy vote again
    in a position where its last call failed: no position of the seat's repeats a move it made there."""
    from meeplezoo.envs.board_royale.heuristic import position_key

    spec = "az:sims=20,prior=uniform,mix=1,rollout=heuristic,cutoff=5,batch=1,repeat=1"
    agent = make_agent(spec, "board_royale", seed=4)
    heuristic = make_agent("heuristic", "board_royale", seed=4)
    state = make_env("board_royale", num_players=2).unwrapped.game.new_state(7)
    made: dict = {}
    decisions = 0
    while not state.is_terminal() and decisions < 300:
        seat = state.current_player()
        if seat == 1:
            state.apply(heuristic.choose(state))
            continue
        legal = state.legal_order()
        key = position_key(state, seat)
        action = agent.act(view_of_state(state, seat))
        seen = made.setdefault(key, set())
        if len(legal) > 1 and not set(legal) <= seen:
            assert action not in seen, (state.pending(), state.describe_action(action))
        seen.add(action)
        state.apply(action)
        decisions += 1
    assert decisions == 300 or state.is_terminal()


def test_repeat_needs_the_games_position_key():
    """A game that gives no position key cannot tell positions apart for ``repeat``: one line, before any game."""
    with pytest.raises(AgentSpecError, match=r"^az: repeat=1 tells positions apart by the game's position key, which "):
        make_agent("az:repeat=1,prior=uniform,mix=1", "seastead", seed=0)
    assert make_agent("az:repeat=1", "board_royale", seed=0).repeat is True


def test_a_guide_leans_the_searched_seats_own_priors_and_its_rollouts_finish_what_it_began():
    """``guide``: at every choice of the searched seat (the root's included) where the guide would begin a sequence,
    the prior is ``1 - gweight`` of the one it was made with plus ``gweight`` on that move; where a sequence is under
    way (``begin`` False names a move), all of it goes to the guide's next move; where it names none, and at the
    other seats' choices, the prior is left alone. In rollouts the seat plays the guide's continuation where there
    is one, and the rollout policy everywhere else."""
    game = ToyGame(sudden=False, length=6)
    asked = []

    def guide(state, seat, begin):
        asked.append((state.current_player(), seat, begin))
        if not begin:
            return 1 if len(state.moves) == 2 else None  # a sequence under way continues at the third move only
        return None if len(state.moves) == 2 else (len(state.moves) + 2) % 3

    search = PUCTSearch(
        evaluator([1 / 3] * 3),
        c_puct=1.0,
        batch=1,
        rng=np.random.default_rng(0),
        estimate=lambda state: [0.0, 0.0],
        mix=0.5,
        rollout=lambda state: 0,
        cutoff=2,
        guide=guide,
        gweight=0.3,
    )
    _visits, prior = search.run(lambda: ToyState(game), seat=0, sims=200)
    np.testing.assert_allclose(prior, [0.7 / 3, 0.7 / 3, 0.7 / 3 + 0.3], rtol=1e-6)  # the root: the guide's move 2
    assert {(mover, seat) for mover, seat, _ in asked} == {(0, 0)}  # asked for the searched seat's choices only
    leaned = plain = continued = 0
    for node, depth in _tree(search.root):
        for key, p in node.priors.items() if depth else ():
            expected = np.full(3, 1 / 3)
            if (key // 3) % 2 and depth != 2:
                plain += 1
            elif depth == 2:  # the seat's third move continues a sequence: all of the prior on it
                expected = np.array([0.0, 1.0, 0.0])
                continued += 1
            else:
                expected = 0.7 * expected
                expected[(depth + 2) % 3] += 0.3
                leaned += 1
            np.testing.assert_allclose(p, expected, rtol=1e-6)
    assert leaned > 0 and plain > 0 and continued > 0
    played = []
    rollout = search.rollout
    assert rollout is not None
    for moves in ([0, 0], [0], [0, 0, 0], [0, 1, 2, 0]):
        played.append(rollout(ToyState(game, moves=list(moves))))
    assert played == [1, 0, 0, 0]  # the seat's continuation at its third move; the rollout policy elsewhere
    plain_search = PUCTSearch(evaluator([1 / 3] * 3), c_puct=1.0, batch=1, rng=np.random.default_rng(0), gweight=0.3)
    _, plain_prior = plain_search.run(lambda: ToyState(game), seat=0, sims=20)
    np.testing.assert_allclose(plain_prior, [1 / 3] * 3, rtol=1e-6)  # no guide, no lean


def test_az_guide_is_checked_against_the_game_before_any_game():
    """``az:guide=W`` needs the game's guide hook (Board Royale's trade guide); elsewhere it is refused in one line."""
    with pytest.raises(AgentSpecError, match=r"^az: guide=0.3 leans the prior to the game's guide move; seastead has"):
        make_agent("az:guide=0.3", "seastead", seed=0)
    agent = make_agent("az:sims=10,guide=0.3", "board_royale", seed=0)
    assert agent.guide == 0.3 and "guide=0.3" in repr(agent)
    with pytest.raises(AgentSpecError, match=r"guide"):
        make_agent("az:guide=1.5", "board_royale")


def test_az_gname_picks_another_of_the_games_guides_and_is_checked_before_any_game():
    """``gname=NAME`` leans ``guide=W`` to another of the game's guides (Board Royale: ``tools``); a name the game
    lacks, or ``gname`` without ``guide``, is refused in one line naming what was wrong."""
    from meeplezoo.envs.board_royale.trade_guide import suggest, suggest_tools

    agent = make_agent("az:sims=10,guide=0.3,gname=tools", "board_royale", seed=0)
    assert agent._guide("board_royale") is suggest_tools and repr(agent).endswith("guide=0.3, gname=tools, seed=0)")
    assert make_agent("az:sims=10,guide=0.3", "board_royale", seed=0)._guide("board_royale") is suggest
    unknown = r"^agent 'az' for board_royale: gname takes one of default, tools, not 'weapons'"
    with pytest.raises(AgentSpecError, match=unknown):
        make_agent("az:guide=0.3,gname=weapons", "board_royale", seed=0)
    with pytest.raises(AgentSpecError, match=r"^az: gname=tools names the guide that guide=W leans .* guide above 0"):
        make_agent("az:gname=tools", "board_royale", seed=0)
    with pytest.raises(AgentSpecError, match=r"^agent 'az' for seastead: gname takes one of default, not 'tools'"):
        make_agent("az:guide=0.3,gname=tools", "seastead", seed=0)
