"""IS-MCTS: legal, reproducible for a seed, budgets in iterations or seconds, a tree with availability counts,
values per seat; and agent spec strings (parameters, one-line errors)."""

from __future__ import annotations

import dataclasses
import inspect
import sys
import types

import numpy as np
import pytest

from meeplezoo import games
from meeplezoo.agents import make_agent
from meeplezoo.agents.human import HumanAgent
from meeplezoo.agents.mcts import (
    NO_HOOKS,
    ISMCTSAgent,
    _estimate_values,
    _final_values,
    _margin_values,
    _Node,
    search_hooks,
)
from meeplezoo.agents.policy import PolicyAgent
from meeplezoo.agents.spec import AgentSpecError, defaults_of
from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.concordia.valued import ConcordiaValuedAgent
from meeplezoo.envs.core.manifest import GameManifest, SearchHooks
from meeplezoo.games import game_names, make_env

BUILT_IN = ("seastead", "concordia", "board_royale", "resafa")

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


def spy_root(agent: ISMCTSAgent) -> dict:
    """Make ``agent`` keep the root of its next search in the returned dict, under ``"root"``."""
    captured: dict = {}
    original = agent._iterate

    def spy(root, *args):
        captured["root"] = root
        return original(root, *args)

    agent._iterate = spy
    return captured


def test_root_statistics_count_every_iteration_and_availability():
    state = position("seastead", {}, 4, 10)
    view = view_of_state(state, state.current_player())
    agent = ISMCTSAgent(seed=0, iters=60)
    captured = spy_root(agent)
    agent.act(view)
    root = captured["root"]
    assert agent.last_iterations == 60
    assert sum(c.n for c in root.children.values()) == 60  # each iteration goes through one root child
    assert set(root.children) == set(view.legal_actions)  # every root action was tried
    for child in root.children.values():
        # the root's actions are legal in every determinization: available in every iteration after creation
        assert child.n <= child.avail <= 60
        assert abs(sum(child.w) - child.n) < 1e-6  # values of a 2-player game sum to 1 per iteration


def test_the_search_distribution_is_the_roots_visit_shares_and_its_move_the_most_visited():
    state = position("seastead", {}, 4, 10)
    view = view_of_state(state, state.current_player())
    agent = ISMCTSAgent(seed=0, iters=60)
    captured = spy_root(agent)
    assert agent.search_distribution() is None  # no search yet
    action = agent.act(view)
    shares = agent.search_distribution()
    visits = {a: child.n for a, child in captured["root"].children.items()}
    assert shares.shape == (view.action_mask.size,) and shares.dtype == np.float32
    assert np.isclose(shares.sum(), 1.0) and not shares[~view.action_mask.astype(bool)].any()
    assert all(np.isclose(shares[a], n / 60) for a, n in visits.items())
    assert shares[action] == shares.max()
    # the tuned search reads the same shares through mcts-ref; a forced move has none
    ref = make_agent("mcts-ref:iters=30", "seastead", seed=1)
    ref.act(view)
    assert np.isclose(ref.search_distribution().sum(), 1.0)
    while len(state.legal_actions()) > 1:
        state.apply(state.legal_actions()[0])
    ref.act(view_of_state(state, state.current_player()))
    assert ref.search_distribution() is None


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
    hooks = search_hooks("board_royale")
    est = _estimate_values(alive, hooks.estimate, hooks.scale)
    assert sum(est) == pytest.approx(1.0)
    assert all(est[s] == 0.0 for s in alive.eliminated())


def test_a_node_starts_empty():
    node = _Node(1, 3)
    assert (node.n, node.avail, node.w, node.children, node.mover) == (0, 0, [0.0] * 3, {}, 1)


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_random_and_mcts_and_a_built_in_game_its_heuristic_and_cutoff_estimate(game):
    for spec in ("random", "mcts", "mcts:seconds=0.5"):
        assert make_agent(spec, game, seed=0) is not None
    if game in BUILT_IN:
        for spec in ("heuristic", "mcts:iters=400,rollout=heuristic"):
            assert make_agent(spec, game, seed=0) is not None
        assert search_hooks(game).estimate is not None


def test_spec_parameters_are_converted():
    agent = make_agent("mcts:iters=400,rollout=heuristic,c=1.2,cutoff=30", "seastead", seed=0)
    assert (agent.iters, agent.rollout, agent.c, agent.cutoff, agent.seconds) == (400, "heuristic", 1.2, 30, 0.0)
    assert make_agent("mcts:seconds=0.5", "seastead").seconds == 0.5
    assert make_agent("mcts:iters=400", "seastead").spec == "mcts:iters=400"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:depth=3", r"agent 'mcts' has no parameter 'depth'; its parameters: iters, seconds, c, rollout"),
        ("mcts:iters=many", r"^agent 'mcts': iters takes a whole number of at least 1, not 'many'$"),
        ("mcts:iters=0", r"^agent 'mcts': iters takes a whole number of at least 1, not '0'$"),
        ("mcts:rollout=smart", r"^agent 'mcts': rollout takes one of random, heuristic, fast, not 'smart'$"),
        ("mcts:forced=maybe", r"^agent 'mcts': forced takes true or false, not 'maybe'$"),
        ("mcts:c=-1", r"^agent 'mcts': c takes a number of at least 0, not '-1'$"),
        ("random:fast=1", r"agent 'random' has no parameter 'fast'; its parameters: none"),
        ("nobody", r"no agent 'nobody' for seastead; available: az, heuristic, human, mcts, mcts-ref, openspiel, ppo"),
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
# again; seat 0 wins exactly when it picked 1 both times. Its state has the engine protocol's methods only (no
# record): the search talks to a game through them.


class _ChainGame:
    name, num_players, num_actions, score_scale = "chain", 2, 2, 1.0


#: decision -> (the seat to act, its legal actions); the decisions come in this order
_CHAIN = (("first pick", 0, (0, 1)), ("forced reply", 1, (0,)), ("second pick", 0, (0, 1)))


class _ChainState:
    game = _ChainGame()

    def __init__(self) -> None:
        self.done = 0  # decisions taken
        self.picks: list[int] = []

    def is_terminal(self) -> bool:
        return self.done == len(_CHAIN)

    def current_player(self) -> int:
        return _CHAIN[self.done][1]

    def pending(self) -> str:
        return _CHAIN[self.done][0]

    def legal_order(self) -> tuple[int, ...]:
        return _CHAIN[self.done][2]

    def apply(self, action: int) -> None:
        assert action in self.legal_order()
        if self.current_player() == 0:
            self.picks.append(action)
        self.done += 1

    def ranks(self) -> list[int]:
        return [0, 1] if self.picks == [1, 1] else [1, 0]

    def eliminated(self) -> frozenset[int]:
        return frozenset()


class _ChainView:
    seat, game_name, legal_actions = 0, "chain", (0, 1)

    def determinize(self, rng) -> _ChainState:
        return _ChainState()


@pytest.mark.parametrize("forced", [False, True])
def test_forced_decisions_are_no_tree_level_when_asked(forced):
    agent = ISMCTSAgent(seed=0, iters=200, forced=forced)
    captured = spy_root(agent)
    assert agent.act(_ChainView()) == 1  # the only winning line starts with 1
    below = list(captured["root"].children[1].children.values())
    if forced:  # seat 1's forced move is skipped: the children are seat 0's second pick (both actions)
        assert [child.mover for child in below] == [0, 0]
    else:  # one child: the forced move of seat 1
        assert [child.mover for child in below] == [1]
        assert [child.mover for child in below[0].children.values()] == [0, 0]


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
    captured = spy_root(agent)
    action = agent.act(view)
    root = captured["root"]
    assert root.hint in view.legal_actions
    assert action == root.hint and root.children[action].n == 16  # expanded first, then always selected


def test_concordias_fast_rollout_keeps_the_rule_choices_and_plays_legal_games():
    from meeplezoo.envs.concordia.heuristic import rule_choice
    from meeplezoo.envs.concordia.steps import Step

    fast = search_hooks("concordia").rollout
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
    hooks = search_hooks("resafa")
    estimate, scale = hooks.estimate, hooks.scale
    now = estimate(state)[0]
    assert _solo_values(state, estimate, scale, now) == [pytest.approx(0.5)]
    assert _solo_values(state, estimate, scale, now - scale)[0] > 0.7
    assert _solo_values(state, estimate, scale, now + scale)[0] < 0.3
    view = view_of_state(state, state.current_player())
    agent = ISMCTSAgent(seed=0, iters=80, cutoff=6)
    captured = spy_root(agent)
    assert agent.act(view) in view.legal_actions
    means = {round(c.w[0] / c.n, 6) for c in captured["root"].children.values() if c.n}
    assert len(means) > 1


@pytest.fixture
def install_game(monkeypatch):
    """``install_game(name, hooks, like=None)`` registers a game ``name`` whose manifest (a bare one, or a copy of
    game ``like``'s) names ``hooks`` as its search hooks, from a module of its own (None: it names none)."""

    def install(name: str, hooks: SearchHooks | None, like: str | None = None) -> GameManifest:
        module = types.ModuleType(f"fake_search_{name}")
        module.SEARCH = hooks
        monkeypatch.setitem(sys.modules, module.__name__, module)
        base = games.manifest(like) if like else GameManifest(name=name, title=name, package=module.__name__, env="-")
        fake = dataclasses.replace(base, name=name, search=f"{module.__name__}:SEARCH" if hooks else None)
        real = games.manifest
        monkeypatch.setattr(games, "manifest", lambda game: fake if game == name else real(game))
        return fake

    return install


class _PatternGame:
    name, num_players, num_actions, score_scale = "pattern", 2, 2, 4.0


class _PatternState:
    """A game that never ends: two choices at every decision, the seats to move given by a pattern (engine protocol
    methods only); each seat's score is the number of 1s it picked."""

    game = _PatternGame()

    def __init__(self, movers_of) -> None:
        self.movers_of = movers_of  # decision index -> the seat that takes it
        self.movers: list[int] = []  # the seats of the decisions taken so far
        self.picked = [0, 0]
        self.scored = 0  # calls of scores()

    def is_terminal(self) -> bool:
        return False

    def current_player(self) -> int:
        return self.movers_of(len(self.movers))

    def pending(self) -> str:
        return "pick"

    def legal_order(self) -> tuple[int, ...]:
        return (0, 1)

    def apply(self, action: int) -> None:
        seat = self.current_player()
        self.picked[seat] += action
        self.movers.append(seat)

    def scores(self) -> list[float]:
        self.scored += 1
        return [float(p) for p in self.picked]

    def eliminated(self) -> frozenset[int]:
        return frozenset()


class _PatternView:
    seat, game_name, legal_actions = 0, "pattern", (0, 1)

    def __init__(self, movers) -> None:
        self.movers = movers
        self.states: list[_PatternState] = []

    def determinize(self, rng) -> _PatternState:
        self.states.append(_PatternState(self.movers))
        return self.states[-1]


@pytest.mark.parametrize(
    ("movers", "horizon", "valued_after"),
    [
        (lambda i: 1 if i % 3 == 2 else 0, "all", [0, 0, 1, 0, 0]),  # the root's expansion and 4 rollout steps
        (lambda i: 1 if i % 3 == 2 else 0, "others", [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]),  # 4 of seat 1's
        (lambda i: 0, "others", [0] * 17),  # seat 1 never moves: the cap, 4 x cutoff rollout steps
    ],
)
def test_the_cutoff_horizon_counts_every_decision_or_the_other_seats_only(install_game, movers, horizon, valued_after):
    seen = []

    def estimate(state):
        seen.append(list(state.movers))
        return [0.0, 0.0]

    install_game("pattern", SearchHooks(estimate=estimate, scale=1.0))
    agent = ISMCTSAgent(seed=0, iters=2, cutoff=4, horizon=horizon)
    agent.act(_PatternView(movers))  # two iterations: each expands a root child, then rolls out
    assert seen == [valued_after, valued_after]


def test_a_games_manifest_gives_the_search_its_estimate_and_rollout(install_game):
    """A game registered with hooks (as a plugin ships them) gets its estimate at every cut-off and its rollout
    policy with ``rollout=fast``; the engine's scores are never asked."""
    calls = {"estimate": 0, "rollout": 0}

    def estimate(state):
        calls["estimate"] += 1
        return [1.0, 0.0]

    def rollout(state, py):
        calls["rollout"] += 1
        return 1

    install_game("pattern", SearchHooks(estimate=estimate, scale=2.0, rollout=rollout))
    view = _PatternView(lambda i: i % 2)
    agent = ISMCTSAgent(seed=0, iters=5, cutoff=3, rollout="fast")
    assert agent.act(view) in (0, 1)
    assert calls == {"estimate": 5, "rollout": 5 * 3}  # one cut-off per iteration, each after 3 rollout steps
    assert all(state.scored == 0 for state in view.states)


def test_a_game_without_hooks_is_valued_by_the_engines_scores(install_game):
    install_game("pattern", None)
    assert search_hooks("pattern") is NO_HOOKS
    view = _PatternView(lambda i: i % 2)
    agent = ISMCTSAgent(seed=0, iters=6, cutoff=2)
    agent.act(view)
    assert [state.scored for state in view.states] == [1] * 6  # one cut-off per iteration, valued by scores()
    assert agent._estimate("pattern", NO_HOOKS, view.states[0])[1] == pytest.approx(0.25 * 4.0)  # scale_score / 4
    assert search_hooks("no-such-game") is NO_HOOKS  # a game the registry does not know has none either


def test_a_manifests_search_must_name_search_hooks(install_game):
    install_game("pattern", {"estimate": None})  # not a SearchHooks
    with pytest.raises(TypeError, match=r"^pattern: the manifest's search fake_search_pattern:SEARCH is a dict"):
        search_hooks("pattern")


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
    from meeplezoo.envs.board_royale.actions import PASS, SEAT0, TRADE
    from meeplezoo.envs.board_royale.heuristic import position_key

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
    from meeplezoo.envs.board_royale.content import CARD_TYPE, NUM_KINDS, NUM_RES
    from meeplezoo.envs.board_royale.heuristic import THREAT, estimate_scores, estimate_scores_items

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


def test_the_estimate_option_values_cutoffs_with_the_games_variant(install_game):
    calls = {"default": 0, "items": 0}

    def counting(name, fn):
        def estimate(state):
            calls[name] += 1
            return fn(state)

        return estimate

    real = search_hooks("board_royale")
    items_fn, items_scale = real.variants["items"]
    counted = SearchHooks(
        estimate=counting("default", real.estimate),
        scale=real.scale,
        variants={"items": (counting("items", items_fn), items_scale)},
    )
    state = _royale_action_position(4)
    view = view_of_state(state, state.d.stack[-1][1])
    install_game("board_royale", counted, like="board_royale")
    make_agent("mcts:iters=20,cutoff=3,estimate=items", "board_royale", seed=1).act(view)
    assert calls["items"] > 0 and calls["default"] == 0
    make_agent("mcts:iters=20,cutoff=3", "board_royale", seed=1).act(view)
    assert calls["default"] > 0


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("mcts:estimate=items", "seastead", r"^agent 'mcts' for seastead: estimate takes one of default, not 'items'$"),
        (
            "mcts:estimate=itemz",
            "board_royale",
            r"^agent 'mcts' for board_royale: estimate takes one of default, items, fitted, fitted2p, not 'itemz'$",
        ),
    ],
)
def test_an_estimate_the_game_has_not_is_a_one_line_error_naming_its_variants(spec, game, message):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, game, seed=0)  # when the agent is made, not at its first act


def test_any_estimate_name_is_checked_against_the_games_own_variants(install_game):
    """No list of names in the agent: a game's hooks may name any variant, and a spec may ask for it."""
    install_game("board_royale", SearchHooks(variants={"hunch": (lambda state: [0.0] * 4, 1.0)}), like="board_royale")
    assert make_agent("mcts:estimate=hunch", "board_royale", seed=0).estimate == "hunch"
    with pytest.raises(AgentSpecError, match=r"estimate takes one of default, hunch, not 'items'$"):
        make_agent("mcts:estimate=items", "board_royale", seed=0)


def test_a_search_that_plays_the_heuristic_needs_the_games_heuristic_agent(install_game):
    install_game("seastead", SearchHooks(heuristic="oracle"), like="seastead")
    for spec, uses in [
        ("mcts:rollout=heuristic", "rollout=heuristic"),
        ("mcts:bias=1,rollout=fast", "rollout=fast and bias"),
    ]:
        with pytest.raises(
            AgentSpecError, match=rf"^agent 'mcts' for seastead: {uses} needs the game's 'oracle' agent"
        ):
            make_agent(spec, "seastead", seed=0)
    assert make_agent("mcts:rollout=random", "seastead", seed=0).rollout == "random"  # plays no heuristic
    with pytest.raises(AgentSpecError, match=r"^agent 'az' for seastead: rollout=heuristic needs the game's 'oracle'"):
        make_agent("az:mix=1,rollout=heuristic", "seastead", seed=0)  # az's leaf rollouts: the same check
    assert make_agent("az:mix=1,rollout=random", "seastead", seed=0).rollout == "random"
    with pytest.raises(AgentSpecError, match=r"^agent 'az' for seastead: opponent=heuristic needs the game's 'oracle'"):
        make_agent("az:opponent=heuristic", "seastead", seed=0)  # az's opponent model: the same check
    with pytest.raises(
        AgentSpecError, match=r"^agent 'az' for seastead: rollout=heuristic and opponent=heuristic needs the game's"
    ):
        make_agent("az:mix=1,rollout=heuristic,opponent=heuristic", "seastead", seed=0)


def test_forced_takes_every_spelling_of_a_bool():
    for text in ("y", "yes", "1", "on", "true", "TRUE"):
        assert make_agent(f"mcts:forced={text}", "seastead").forced is True
    for text in ("n", "no", "0", "off", "false"):
        assert make_agent(f"mcts:forced={text}", "seastead").forced is False
    assert make_agent("mcts(iters=50, forced=y)", "seastead").forced is True  # OpenSpiel's spelling


@pytest.mark.parametrize("cls", [ISMCTSAgent, PolicyAgent, HumanAgent, ConcordiaValuedAgent])
def test_an_agents_defaults_are_declared_once_in_its_params(cls):
    agent = cls()
    assert {key: getattr(agent, key) for key in defaults_of(cls.PARAMS)} == defaults_of(cls.PARAMS)
    declared = [p for p in inspect.signature(cls.__init__).parameters.values() if p.name in defaults_of(cls.PARAMS)]
    assert declared == []  # no parameter of PARAMS repeated (with its default) in __init__'s signature
    first = cls.PARAMS[0]
    with pytest.raises(AgentSpecError, match=rf"^agent '{cls.name}' has no parameter 'nope'; its parameters: "):
        cls(nope=1)
    assert getattr(cls(**{first.name: first.default}), first.name) == first.default


def test_an_agent_made_in_python_checks_its_values_like_a_spec():
    assert ISMCTSAgent(c=1).c == 1.0 and isinstance(ISMCTSAgent(c=1).c, float)
    with pytest.raises(AgentSpecError, match=r"^agent 'mcts': iters takes a whole number of at least 1, not 0$"):
        ISMCTSAgent(iters=0)
    with pytest.raises(AgentSpecError, match=r"^agent 'mcts': forced takes true or false, not 'y'$"):
        ISMCTSAgent(forced="y")  # Python values are typed: text is read from specs only


@pytest.mark.parametrize("name", ["mcts", "mcts-ref"])
def test_repeat_needs_the_games_position_key(name):
    """``repeat=1`` in a game without a position key is refused in one line before any game, as ``az`` refuses it
    (it used to be ignored there, silently)."""
    from meeplezoo.agents.spec import AgentSpecError

    with pytest.raises(AgentSpecError, match=r"repeat=1 tells positions apart by the game's position key, which "):
        make_agent(f"{name}:repeat=1", "seastead", seed=0)
    assert make_agent(f"{name}:repeat=1", "board_royale", seed=0) is not None  # Board Royale gives the key
    assert make_agent("mcts:repeat=1", "board_royale", seed=0).repeat is True
