"""IS-MCTS: legal, reproducible for a seed, budgets in iterations or seconds, a tree with availability counts,
values per seat; and agent spec strings (parameters, one-line errors)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents import make_agent
from meeplezoo.agents.mcts import (
    ESTIMATES,
    ROLLOUTS,
    ISMCTSAgent,
    _estimate_values,
    _final_values,
    _margin_values,
    _Node,
)
from meeplezoo.agents.spec import AgentSpecError
from meeplezoo.agents.view import view_of_state
from meeplezoo.games import game_names, make_env

CONFIGS = [("seastead", {}), ("concordia", {"num_players": 3}), ("board_royale", {"num_players": 4})]


def position(game: str, config: dict, seed: int, decisions: int):
    """A state after ``decisions`` random decisions, at a decision with more than one legal action."""
    state = make_env(game, **config).unwrapped.game.new_state(seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not state.is_terminal() and (step < decisions or len(state.legal_actions()) < 2):
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        step += 1
    return state


@pytest.mark.parametrize(("game", "config"), CONFIGS)
def test_mcts_picks_a_legal_action_and_replays_for_the_same_seed(game, config):
    for seed in (1, 2):
        state = position(game, config, seed, 20 * seed)
        view = view_of_state(state, state.current_player())
        for spec in (
            "mcts:iters=40",
            "mcts:iters=20,cutoff=10",
            "mcts:iters=8,rollout=heuristic,cutoff=6",
            "mcts:iters=12,rollout=fast,cutoff=8,forced=1,value=margin",
            "mcts:iters=10,cutoff=4,bias=1",
        ):
            a = make_agent(spec, game, seed=3).act(view)
            assert a in view.legal_actions
            assert make_agent(spec, game, seed=3).act(view) == a, spec


def test_root_statistics_count_every_iteration_and_availability():
    state = position("seastead", {}, 4, 10)
    view = view_of_state(state, state.current_player())
    agent = ISMCTSAgent(seed=0, iters=60)
    captured = {}
    original = agent._iterate

    def spy(root, *args):
        captured["root"] = root
        return original(root, *args)

    agent._iterate = spy
    agent.act(view)
    root = captured["root"]
    assert agent.last_iterations == 60
    assert sum(c.n for c in root.children.values()) == 60  # each iteration goes through one root child
    assert set(root.children) == set(view.legal_actions)  # every root action was tried
    for child in root.children.values():
        # the root's actions are legal in every determinization: available in every iteration after creation
        assert child.n <= child.avail <= 60
        assert abs(sum(child.w) - child.n) < 1e-6  # values of a 2-player game sum to 1 per iteration


def test_a_time_budget_stops_the_search():
    state = position("concordia", {"num_players": 2}, 5, 30)
    agent = ISMCTSAgent(seed=0, seconds=0.05, cutoff=5)
    action = agent.act(view_of_state(state, state.current_player()))
    assert action in state.legal_actions() and agent.last_iterations >= 1


def test_values_share_the_win_and_estimates_skip_eliminated_seats():
    state = position("board_royale", {"num_players": 4}, 6, 10_000)  # random play to the end
    values = _final_values(state, 4)
    assert sum(values) == pytest.approx(1.0) and values[state.ranks().index(0)] > 0
    alive = position("board_royale", {"num_players": 3}, 7, 40)
    estimate, scale = ESTIMATES["board_royale"]
    est = _estimate_values(alive, estimate, scale)
    assert sum(est) == pytest.approx(1.0)
    assert all(est[s] == 0.0 for s in alive.eliminated())


def test_a_node_starts_empty():
    node = _Node(1, 3)
    assert (node.n, node.avail, node.w, node.children, node.mover) == (0, 0, [0.0] * 3, {}, 1)


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_random_heuristic_mcts_and_a_cutoff_estimate(game):
    for spec in ("random", "heuristic", "mcts", "mcts:iters=400,rollout=heuristic", "mcts:seconds=0.5"):
        assert make_agent(spec, game, seed=0) is not None
    assert game in ESTIMATES


def test_spec_parameters_are_converted():
    agent = make_agent("mcts:iters=400,rollout=heuristic,c=1.2,cutoff=30", "seastead", seed=0)
    assert (agent.iters, agent.rollout, agent.c, agent.cutoff, agent.seconds) == (400, "heuristic", 1.2, 30, 0.0)
    assert make_agent("mcts:seconds=0.5", "seastead").seconds == 0.5
    assert make_agent("mcts:iters=400", "seastead").spec == "mcts:iters=400"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:depth=3", r"agent 'mcts' has no parameter 'depth'; its parameters: iters, seconds, c, rollout"),
        ("mcts:iters=many", r"parameter 'iters': expected int, got 'many'"),
        ("mcts:iters=0", r"parameter 'iters': must be at least 1"),
        ("mcts:rollout=smart", r"expected one of random, heuristic, fast, got 'smart'"),
        ("random:fast=1", r"agent 'random' has no parameter 'fast'; its parameters: none"),
        ("nobody", r"no agent 'nobody' for seastead; available: heuristic, human, mcts, ppo, random"),
        ("ppo:/no/such/model.zip", r"no model file '/no/such/model.zip'"),
        ("mcts:iters=1,iters=2", r"empty or repeated parameter"),
        ("", r"non-empty string"),
    ],
)
def test_a_bad_spec_is_a_one_line_error_naming_what_exists(spec, message):
    with pytest.raises(AgentSpecError, match=message) as info:
        make_agent(spec, "seastead", seed=0)
    assert "\n" not in str(info.value)


# --- a tiny two-seat game for the tree's shape: seat 0 picks 0/1, seat 1 has one forced move, seat 0 picks
# again; seat 0 wins exactly when it picked 1 both times


class _ChainData:
    def __init__(self) -> None:
        self.stack = [(0, 0, 0, 0)]
        self.legal = (0, 1)
        self.picks: list[int] = []


class _ChainGame:
    name, num_players, num_actions, score_scale = "chain", 2, 2, 1.0


#: step -> (the next task, its legal actions)
_CHAIN_NEXT = {0: ((1, 1, 0, 0), (0,)), 1: ((2, 0, 0, 0), (0, 1))}


class _ChainState:
    game = _ChainGame()

    def __init__(self) -> None:
        self.d = _ChainData()

    def apply(self, action: int) -> None:
        d = self.d
        assert action in d.legal
        step = d.stack.pop()[0]
        if step != 1:
            d.picks.append(action)
        if step in _CHAIN_NEXT:
            task, legal = _CHAIN_NEXT[step]
            d.stack.append(task)
            d.legal = legal
        else:
            d.legal = ()

    def ranks(self) -> list[int]:
        return [0, 1] if self.d.picks == [1, 1] else [1, 0]

    def eliminated(self) -> frozenset[int]:
        return frozenset()


class _ChainView:
    seat, game_name, legal_actions = 0, "chain", (0, 1)

    def determinize(self, rng) -> _ChainState:
        return _ChainState()


@pytest.mark.parametrize("forced", [False, True])
def test_forced_decisions_are_no_tree_level_when_asked(forced):
    agent = ISMCTSAgent(seed=0, iters=200, forced=forced)
    captured = {}
    original = agent._iterate

    def spy(root, *args):
        captured["root"] = root
        return original(root, *args)

    agent._iterate = spy
    assert agent.act(_ChainView()) == 1  # the only winning line starts with 1
    below = captured["root"].children[1].children
    step_of = {key: key // 2 // 2 for key in below}  # keys are (step * players + mover) * actions + action
    if forced:  # seat 1's forced move is skipped: the children are seat 0's second pick (step 2, both actions)
        assert sorted(below) == [(2 * 2 + 0) * 2 + 0, (2 * 2 + 0) * 2 + 1]
    else:  # one child: the forced move of seat 1 (step 1)
        assert list(step_of.values()) == [1] and len(below) == 1


def test_margin_values_judge_each_seat_against_its_best_rival():
    state = position("concordia", {"num_players": 3}, 8, 60)
    fixed = [10.0, 4.0, 1.0]
    values = _margin_values(state, lambda s: fixed, 2.0)
    assert values[0] == pytest.approx(1 / (1 + np.exp(-3.0)))  # 10 vs the best rival's 4
    assert values[1] == pytest.approx(1 / (1 + np.exp(3.0)))  # 4 vs 10
    assert values[2] == pytest.approx(1 / (1 + np.exp(4.5)))  # 1 vs 10
    two = position("concordia", {"num_players": 2}, 8, 60)
    est = lambda s: [7.0, 3.0]  # noqa: E731
    assert _margin_values(two, est, 2.0) == pytest.approx(_estimate_values(two, est, 2.0))  # 2 seats: the softmax


def test_a_heavy_progressive_bias_plays_the_heuristics_choice():
    state = position("concordia", {"num_players": 2}, 9, 40)
    view = view_of_state(state, state.current_player())
    k = len(view.legal_actions)
    agent = ISMCTSAgent(seed=1, iters=k + 15, cutoff=3, bias=100.0)
    captured = {}
    original = agent._iterate

    def spy(root, *args):
        captured["root"] = root
        return original(root, *args)

    agent._iterate = spy
    action = agent.act(view)
    root = captured["root"]
    assert root.hint in view.legal_actions
    assert action == root.hint and root.children[action].n == 16  # expanded first, then always selected


def test_concordias_fast_rollout_keeps_the_rule_choices_and_plays_legal_games():
    from meeplezoo.agents.concordia_heuristic import rule_choice
    from meeplezoo.envs.concordia.steps import Step

    fast = ROLLOUTS["concordia"]
    state = make_env("concordia", num_players=3).unwrapped.game.new_state(3)
    py = __import__("random").Random(0)
    decisions = 0
    while not state.is_terminal():
        d = state.d
        step, seat, a, b = d.stack[-1]
        action = fast(state, py)
        assert action in d.legal
        if len(d.legal) > 1 and step not in (Step.MAIN, Step.DIPLOMAT):
            assert action == rule_choice(d, step, seat, a, b, d.legal)
        state.apply(action)
        decisions += 1
    assert 100 < decisions < 5000


def test_a_solo_search_values_score_gains_over_the_root():
    """One seat: no rival, so values are a sigmoid of the estimated gain over the root's estimate; the root's
    children end up with different means (a fixed win/loss target or a one-seat softmax would give all 1 or 0)."""
    from meeplezoo.agents.mcts import _solo_values

    state = position("resafa", {"num_players": 1}, 3, 30)
    estimate, scale = ESTIMATES["resafa"]
    now = estimate(state)[0]
    assert _solo_values(state, estimate, scale, now) == [pytest.approx(0.5)]
    assert _solo_values(state, estimate, scale, now - scale)[0] > 0.7
    assert _solo_values(state, estimate, scale, now + scale)[0] < 0.3
    view = view_of_state(state, state.current_player())
    agent = ISMCTSAgent(seed=0, iters=80, cutoff=6)
    captured = {}
    original = agent._iterate

    def spy(root, *args):
        captured["root"] = root
        return original(root, *args)

    agent._iterate = spy
    assert agent.act(view) in view.legal_actions
    means = {round(c.w[0] / c.n, 6) for c in captured["root"].children.values() if c.n}
    assert len(means) > 1


def test_the_benchmark_reports_the_wilson_interval():
    from meeplezoo.agents.mcts_benchmark import Result, wilson

    low, high = wilson(15, 23)  # the textbook figures: 0.449 to 0.812
    assert (round(low, 3), round(high, 3)) == (0.449, 0.812)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 3) == 0.278
    assert wilson(10, 10)[1] == 1.0 and round(wilson(10, 10)[0], 3) == 0.722
    r = Result("board_royale", 4, "mcts", "heuristic", games=40, wins=28.0)
    assert "won 28/40 =  70.0% (95% 55-82%)" in r.line()


def test_a_resumed_benchmark_plays_the_same_games_with_the_same_seats(capsys):
    from meeplezoo.agents.mcts_benchmark import measure

    full = measure("seastead", {}, "random", "random", games=3, seed=5, verbose=True)
    lines = capsys.readouterr().out.splitlines()
    resumed = measure("seastead", {}, "random", "random", games=3, seed=5, verbose=True, start=2)
    tail = capsys.readouterr().out.splitlines()
    assert (full.games, resumed.games) == (3, 1)
    assert tail[0].startswith("  game 2 seed 7 seat 0: ")  # game g: seed + g, seat g % players, as in the full run
    assert tail[0].split(";")[0] == lines[2].split(";")[0]  # the same winners and scores


class _PatternGame:
    name, num_players, num_actions, score_scale = "pattern", 2, 2, 1.0


class _PatternData:
    def __init__(self, movers) -> None:
        self.movers_of = movers  # decision index -> the seat that takes it
        self.movers: list[int] = []  # the seats of the decisions taken so far
        self.stack = [(0, movers(0), 0, 0)]
        self.legal = (0, 1)


class _PatternState:
    """A game that never ends: two choices at every decision, the seats to move given by a pattern."""

    game = _PatternGame()

    def __init__(self, movers) -> None:
        self.d = _PatternData(movers)

    def apply(self, action: int) -> None:
        d = self.d
        d.movers.append(d.stack.pop()[1])
        d.stack.append((0, d.movers_of(len(d.movers)), 0, 0))

    def eliminated(self) -> frozenset[int]:
        return frozenset()


class _PatternView:
    seat, game_name, legal_actions = 0, "pattern", (0, 1)

    def __init__(self, movers) -> None:
        self.movers = movers

    def determinize(self, rng) -> _PatternState:
        return _PatternState(self.movers)


@pytest.mark.parametrize(
    ("movers", "horizon", "valued_after"),
    [
        (lambda i: 1 if i % 3 == 2 else 0, "all", [0, 0, 1, 0, 0]),  # the root's expansion and 4 rollout steps
        (lambda i: 1 if i % 3 == 2 else 0, "others", [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]),  # 4 of seat 1's
        (lambda i: 0, "others", [0] * 17),  # seat 1 never moves: the cap, 4 x cutoff rollout steps
    ],
)
def test_the_cutoff_horizon_counts_every_decision_or_the_other_seats_only(monkeypatch, movers, horizon, valued_after):
    seen = []

    def estimate(state):
        seen.append(list(state.d.movers))
        return [0.0, 0.0]

    monkeypatch.setitem(ESTIMATES, "pattern", (estimate, 1.0))
    agent = ISMCTSAgent(seed=0, iters=2, cutoff=4, horizon=horizon)
    agent.act(_PatternView(movers))  # two iterations: each expands a root child, then rolls out
    assert seen == [valued_after, valued_after]


def _royale_action_position(seed: int):
    """A 4-player Board Royale position at an action phase (round 1 or later) with a trade offer legal."""
    from meeplezoo.envs.board_royale.actions import TRADE
    from meeplezoo.envs.board_royale.steps import Step

    heuristic = make_agent("heuristic", "board_royale", seed=seed)
    state = make_env("board_royale", num_players=4).unwrapped.game.new_state(seed)
    while not (state.d.stack[-1][0] == Step.ACTION and state.d.round_no >= 1 and TRADE in state.d.legal):
        state.apply(heuristic.choose(state))
    return state


def test_a_royale_position_key_is_the_seats_knowledge_and_ignores_a_withdrawn_offer():
    from meeplezoo.agents.board_royale_heuristic import position_key
    from meeplezoo.envs.board_royale.actions import PASS, SEAT0, TRADE

    state = _royale_action_position(3)
    seat = state.d.stack[-1][1]
    key = position_key(state, seat)
    view = view_of_state(state, seat)
    assert {position_key(view.determinize(np.random.default_rng(i)), seat) for i in range(3)} == {key}
    other = (seat + 1) % 4
    state.apply(TRADE)
    state.apply(SEAT0 + other)
    assert position_key(state, seat) != key  # a trade is under way
    state.apply(PASS)  # withdrawn: nothing changed that the seat can see, only the turn's decision counter
    assert position_key(state, seat) == key


@pytest.mark.parametrize("repeat", [True, False])
def test_repeat_never_plays_an_action_twice_in_a_position_the_seat_cannot_tell_apart(repeat):
    state = _royale_action_position(5)
    view = view_of_state(state, state.d.stack[-1][1])
    legal = view.legal_actions
    agent = ISMCTSAgent(seed=2, iters=30, cutoff=5, rollout="heuristic", bias=5.0, repeat=repeat)
    picks = [agent.act(view) for _ in range(len(legal) + 1)]
    if repeat:  # every legal action once, then the choice is free again
        assert sorted(picks[:-1]) == sorted(legal) and picks[-1] in legal
    else:  # without the rule the same position gets the same choices again
        assert len(set(picks)) < len(legal)


def test_the_royale_items_estimate_values_items_escape_points_sets_and_threat():
    from meeplezoo.agents.board_royale_heuristic import THREAT, estimate_scores, estimate_scores_items
    from meeplezoo.envs.board_royale.content import CARD_TYPE, NUM_KINDS, NUM_RES

    state = position("board_royale", {"num_players": 4}, 8, 0)
    d = state.d
    d.item_owner = [-1] * len(d.item_owner)
    hands = {0: 9, 1: 9, 2: 9, 3: 8}  # seat 3 is the weakest: every other seat's natural target
    for s, n in hands.items():  # resources only, no hidden item
        d.hand[s * NUM_KINDS : (s + 1) * NUM_KINDS] = [n - 6, 2, 2, 2, 0] + [0] * (NUM_KINDS - NUM_RES)
    first = {t: next(c for c, ct in enumerate(CARD_TYPE) if ct.name == t) for t in ("Axe", "Raft", "Sail", "Paddle")}
    est, plain = estimate_scores_items(state), estimate_scores(state)
    assert est[3] == pytest.approx(8 - 3 * THREAT) and est[0] == pytest.approx(9 - THREAT)  # seat 3 is 0's target
    assert est[1] == est[2] == 9  # seats 1 and 2 are nobody's target (seat 0 is seat 3's)
    d.item_owner[first["Axe"]] = 1  # a draw tool
    est, plain = estimate_scores_items(state), estimate_scores(state)
    assert est[1] > est[2] and plain[1] == plain[2]  # an owned tool counts; the default estimate ignores it
    d.item_owner[first["Raft"]] = 1
    d.item_owner[first["Paddle"]] = 2
    d.item_owner[first["Sail"]] = 2  # Sail + Paddle: 3 points like the Raft, and two items of the Sea Escape set
    est, plain = estimate_scores_items(state), estimate_scores(state)
    assert plain[2] == plain[1] and est[2] - est[1] > 0  # two items of a set count beyond their points (less the Axe)
    d.hand[3 * NUM_KINDS : 3 * NUM_KINDS + NUM_RES] = [6, 6, 2, 2, 0]  # seat 3 now the largest hand
    est2 = estimate_scores_items(state)
    assert est2[3] - est[3] == pytest.approx(16 - 8 + 3 * THREAT)  # and no longer anybody's target
    assert est2[0] == pytest.approx(est[0] - 2 * THREAT)  # seat 0 is now the target of seats 1, 2 and 3


def test_the_estimate_option_values_cutoffs_with_the_games_variant(monkeypatch):
    from meeplezoo.agents import mcts

    calls = {"default": 0, "items": 0}

    def counting(name, fn):
        def estimate(state):
            calls[name] += 1
            return fn(state)

        return estimate

    default_fn, scale = ESTIMATES["board_royale"]
    items_fn, items_scale = mcts.ESTIMATE_VARIANTS["board_royale"]["items"]
    monkeypatch.setitem(ESTIMATES, "board_royale", (counting("default", default_fn), scale))
    monkeypatch.setitem(mcts.ESTIMATE_VARIANTS, "board_royale", {"items": (counting("items", items_fn), items_scale)})
    state = _royale_action_position(4)
    view = view_of_state(state, state.d.stack[-1][1])
    make_agent("mcts:iters=20,cutoff=3,estimate=items", "board_royale", seed=1).act(view)
    assert calls["items"] > 0 and calls["default"] == 0
    make_agent("mcts:iters=20,cutoff=3", "board_royale", seed=1).act(view)
    assert calls["default"] > 0
    with pytest.raises(AgentSpecError, match=r"seastead has no cut-off estimate 'items'; it has: default"):
        make_agent("mcts:iters=2,estimate=items", "seastead", seed=0)  # when the agent is made, not at its first act
    with pytest.raises(AgentSpecError, match="estimate"):  # a misspelt name: a spec error, before any game
        make_agent("mcts:estimate=itemz", "board_royale", seed=0)


def test_the_estimate_names_are_the_games_variants():
    from meeplezoo.agents import mcts

    variants = {name for names in mcts.ESTIMATE_VARIANTS.values() for name in names}
    assert set(mcts.ESTIMATE_NAMES) == {"default"} | variants
    assert set(mcts.ESTIMATE_VARIANTS["board_royale"]) == {"items", "fitted"}
