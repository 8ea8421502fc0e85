"""The seat view is cheat-proof: no attribute path reaches the true state, and what the seat cannot see does
not change any agent's choice."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents import make_agent
from meeplezoo.agents.view import NoDeterminizeError, SeatView, public_copy, view_of_state
from meeplezoo.envs.core.engine import State
from meeplezoo.envs.core.tasks import StackState
from meeplezoo.games import game_names, make_env

GAMES = game_names()
#: configurations with hidden parts in play: 2 players, and 4 for the games that take them
CONFIGS = [
    ("seastead", {}),
    ("seastead", {"sides": "BBBB"}),  # the decree deck is hidden too
    ("seastead", {"num_players": 1}),  # solo against the Boss
    ("concordia", {}),
    ("board_royale", {"num_players": 2}),
    ("board_royale", {}),
    ("resafa", {}),
    ("resafa", {"num_players": 4}),
    ("resafa", {"advanced_setup": True}),  # the boxed special cards are public
]
#: every agent that needs no file or terminal, with a small budget where it searches
AGENT_SPECS = ["random", "heuristic", "mcts:iters=24", "mcts:iters=12,rollout=heuristic,cutoff=8"]


def positions(game: str, config: dict, seed: int, every: int, count: int):
    """``count`` states reached by random play, one every ``every`` decisions (the state is copied)."""
    state = make_env(game, **config).unwrapped.game.new_state(seed)
    rng = np.random.default_rng(seed)
    out, step = [], 0
    while not state.is_terminal() and len(out) < count:
        if step % every == every - 1:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        step += 1
    return out


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` by attributes (slots, ``__dict__``), container items and array
    bases. Classes, functions and modules are not followed: they hold no position of a game."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, type(len), type(reachable), type(np))):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, (str, bytes, int, float, bool, type(None))):
            continue
        if isinstance(obj, dict):
            todo += list(obj.keys()) + list(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo += list(obj)
        elif hasattr(obj, "items") and hasattr(obj, "keys"):  # mappingproxy
            todo += [v for _, v in obj.items()]
        if isinstance(obj, np.ndarray):
            if obj.base is not None:
                todo.append(obj.base)
            continue
        for cls in type(obj).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if hasattr(obj, slot):
                    todo.append(getattr(obj, slot))
        todo += list(getattr(obj, "__dict__", {}).values())
    return list(seen.values())


def mutable_parts(state) -> set[int]:
    """Ids of the true state, its record and every mutable object inside the record."""
    ids = {id(state), id(state.d)}
    for slot in type(state.d).__slots__:
        value = getattr(state.d, slot)
        if not isinstance(value, (int, float, str, tuple, type(None))):
            ids.add(id(value))
    return ids


@pytest.mark.parametrize(("game", "config"), CONFIGS)
def test_no_attribute_path_from_a_view_reaches_the_true_state(game, config):
    for state in positions(game, config, seed=1, every=7, count=12):
        seat = state.current_player()
        view = view_of_state(state, seat)
        forbidden = mutable_parts(state)
        found = [o for o in reachable(view) if id(o) in forbidden]
        assert not found, f"{game}: the view reaches {[type(o).__name__ for o in found]} of the true state"
        # the public copy holds neither the true chance nor anything the seat cannot see
        assert view._public.d.chance != state.d.chance


@pytest.mark.parametrize(("game", "config"), CONFIGS)
def test_every_game_puts_its_hidden_parts_in_canonical_order(game, config):
    """``resample_hidden(seat, None)`` sorts what the seat cannot see: the public copy of any determinization
    of the seat is the public copy of the true state."""
    state = positions(game, config, seed=6, every=13, count=1)[0]
    assert type(state).resample_hidden is not StackState.resample_hidden  # every game has hidden parts
    seat = state.current_player()
    want = state.public_copy(seat).to_dict()
    rng = np.random.default_rng(8)
    assert all(state.determinize(seat, rng).public_copy(seat).to_dict() == want for _ in range(3))


@pytest.mark.parametrize(("game", "config"), CONFIGS)
def test_what_the_seat_cannot_see_changes_no_agent_choice(game, config):
    """Swap the true state for another determinization of the seat: same public copy, same choices."""
    rng = np.random.default_rng(5)
    differing = 0
    for state in positions(game, config, seed=2, every=9, count=8):
        seat = state.current_player()
        other = state.determinize(seat, rng)  # a different truth the seat cannot tell apart
        differing += other.to_dict() != state.to_dict()
        view, swapped = view_of_state(state, seat), view_of_state(other, seat)
        assert view._public.to_dict() == swapped._public.to_dict()
        np.testing.assert_array_equal(view.observation, swapped.observation)
        assert view.legal_actions == swapped.legal_actions == tuple(np.flatnonzero(view.action_mask).tolist())
        for spec in AGENT_SPECS:
            a = make_agent(spec, game, seed=11).act(view)
            b = make_agent(spec, game, seed=11).act(swapped)
            assert a == b, f"{game} {spec}: {a} with the true state, {b} with the swapped one ({view.pending})"
            assert a in view.legal_actions
    assert differing >= 4, "the positions should have hidden parts that differ"


@pytest.mark.parametrize(("game", "config"), CONFIGS)
def test_a_views_determinization_is_fresh_and_consistent(game, config):
    state = positions(game, config, seed=3, every=11, count=1)[0]
    seat = state.current_player()
    view = view_of_state(state, seat)
    a, b = view.determinize(np.random.default_rng(1)), view.determinize(np.random.default_rng(1))
    assert a.to_dict() == b.to_dict() and a is not b  # seeded, and a new state each time
    assert a.d.chance != state.d.chance
    np.testing.assert_array_equal(a.observe(seat), state.observe(seat))
    assert a.legal_actions() == list(view.legal_actions) and a.pending() == view.pending
    a.apply(a.legal_actions()[0])  # the agent's to play forward: the view is unchanged
    assert view.determinize(np.random.default_rng(1)).to_dict() == b.to_dict()


@pytest.mark.parametrize(("game", "config"), CONFIGS)
def test_a_views_public_state_is_a_fresh_copy_of_what_the_seat_knows(game, config):
    state = positions(game, config, seed=3, every=11, count=1)[0]
    seat = state.current_player()
    view = view_of_state(state, seat)
    a, b = view.public_state(), view.public_state()
    assert a is not b and a.d is not view._public.d and a.to_dict() == b.to_dict() == view._public.to_dict()
    assert a.d.chance != state.d.chance  # no path to the true chance
    np.testing.assert_array_equal(a.observe(seat), state.observe(seat))
    a.apply(a.legal_actions()[0])  # the agent's own copy: the view is unchanged
    assert view.public_state().to_dict() == b.to_dict()


@pytest.mark.parametrize(("game", "config"), CONFIGS)
def test_a_disposable_view_hands_over_its_public_copy_once_without_a_clone(game, config):
    state = positions(game, config, seed=3, every=11, count=1)[0]
    seat = state.current_player()
    kept = view_of_state(state, seat)  # not disposable: copy=False still gives a clone, the view stays whole
    assert kept.public_state(copy=False) is not kept._public and kept.can_determinize
    view = view_of_state(state, seat, disposable=True)
    expected, observation = view.public_state().to_dict(), view.observation
    own = view._public
    taken = view.public_state(copy=False)
    assert taken is own and taken.to_dict() == expected == kept.public_state().to_dict()  # its own copy
    np.testing.assert_array_equal(view.observation, observation)  # read before: kept
    assert not view.can_determinize and view.render().endswith(view.pending)
    with pytest.raises(NoDeterminizeError, match="handed over"):
        view.public_state()
    with pytest.raises(NoDeterminizeError, match="handed over"):
        view.determinize(np.random.default_rng(0))
    unread = view_of_state(state, seat, disposable=True)
    unread.public_state(copy=False)
    with pytest.raises(NoDeterminizeError, match=r"encode its observation from .*handed over"):
        _ = unread.observation
    a, b = np.random.default_rng(7), np.random.default_rng(7)
    expected = kept.determinize(a)
    view = view_of_state(state, seat, disposable=True)
    own = view._public
    taken = view.determinize(b, copy=False)  # its own copy, determinized in place: the same draws
    assert taken is own and taken.to_dict() == expected.to_dict() and taken.d.legal == expected.d.legal
    assert a.bit_generator.state == b.bit_generator.state and not view.can_determinize


@pytest.mark.parametrize(
    ("game", "tables"),
    [("board_royale", ((2, 0), (2, 1), (4, 2))), ("concordia", ((2, 0), (4, 1)))],
)
def test_heuristics_that_act_on_the_public_state_read_only_what_the_seat_knows(game, tables):
    """Board Royale's and Concordia's heuristics act on ``view.public_state()`` (no resampling): at every
    decision of heuristic games, their choice there equals their choice on three determinizations."""
    checked = 0
    for n, seed in tables:
        state = make_env(game, num_players=n).unwrapped.game.new_state(seed)
        agents = [make_agent("heuristic", game, seed=seed * 10 + s) for s in range(n)]
        while not state.is_terminal() and checked < 400 * (1 + seed):
            seat = state.current_player()
            view = view_of_state(state, seat)
            action = agents[seat].act(view)
            if len(view.legal_actions) > 1:
                sampled = {agents[seat].choose(view.determinize(np.random.default_rng(k))) for k in range(3)}
                assert sampled == {action}, (game, n, seed, view.pending)
                checked += 1
            state.apply(action)
    assert checked > 300


def test_the_public_copy_of_a_game_without_a_canonical_form_is_still_a_determinization(monkeypatch):
    state = positions("seastead", {}, seed=4, every=5, count=1)[0]
    monkeypatch.setattr(type(state), "public_copy", State.public_copy)  # the engine protocol's default
    copy = public_copy(state, state.current_player())
    assert copy.d.chance != state.d.chance and copy.d is not state.d
    assert copy.to_dict() != public_copy(state, state.current_player()).to_dict()  # fresh entropy each time


def test_a_view_of_a_plain_pettingzoo_env_has_no_determinize():
    pytest.importorskip("pygame")
    from pettingzoo.classic import connect_four_v3

    from meeplezoo.agents.view import seat_view

    env = connect_four_v3.env()
    env.reset(seed=0)
    view = seat_view(env, env.agent_selection)
    assert isinstance(view, SeatView) and len(view.legal_actions) == 7 and not view.can_determinize
    with pytest.raises(NoDeterminizeError):
        view.determinize(np.random.default_rng(0))
    with pytest.raises(NoDeterminizeError, match="no public state"):
        view.public_state()


@pytest.mark.parametrize("game", ["concordia", "board_royale"])
def test_a_views_mask_made_from_its_legal_actions_is_the_states(game):
    """An engine view gets the legal actions and makes its mask only when read: the same mask, a new array."""
    for state in positions(game, {}, seed=3, every=7, count=4):
        view = view_of_state(state, state.current_player())
        mask = view.action_mask
        assert mask.dtype == np.int8 and np.array_equal(mask, state.legal_mask()) and view.action_mask is mask
        assert view.num_actions == mask.size == state.game.num_actions
    with pytest.raises(ValueError, match="its legal actions and the number of actions"):
        SeatView(seat=0, agent="player_0", observation=np.zeros(3, np.float32), action_mask=None, pending="act",
                 game_name="g", config={}, num_players=2, legal_actions=(1,))  # fmt: skip


def test_a_view_is_only_made_for_the_seat_to_act():
    state = positions("seastead", {}, seed=4, every=5, count=1)[0]
    with pytest.raises(ValueError, match="not to act"):
        view_of_state(state, 1 - state.current_player())


def test_play_game_skips_the_public_copy_only_for_agents_that_never_determinize():
    from meeplezoo.agents import RandomAgent, play_game

    seen: dict[str, set[bool]] = {"player_0": set(), "player_1": set()}

    class Probe(RandomAgent):
        def __init__(self, seed, uses: bool) -> None:
            super().__init__(seed)
            self.uses_determinize = uses

        def act(self, view):
            seen[view.agent].add(view.can_determinize)
            return super().act(view)

    env = make_env("seastead")
    play_game(env, {"player_0": Probe(0, True), "player_1": Probe(1, False)}, seed=3, max_steps=40)
    assert seen == {"player_0": {True}, "player_1": {False}}
    state = positions("seastead", {}, seed=4, every=5, count=1)[0]
    bare = view_of_state(state, state.current_player(), determinize=False)
    with pytest.raises(NoDeterminizeError, match="uses_determinize is False"):
        bare.determinize(np.random.default_rng(0))


@pytest.mark.parametrize("game", ["seastead", "concordia", "resafa", "board_royale"])
def test_the_match_loop_makes_views_disposable_only_for_agents_that_own_them(game):
    """A heuristic (``owns_its_views``) gets disposable views and takes them apart; a composite agent that hands
    its view to two heuristics gets whole views, so both see the same position and choose alike."""
    from meeplezoo.agents.match import play_game

    class Twins:
        def __init__(self) -> None:
            self.a, self.b = make_agent("heuristic", game, seed=1), make_agent("heuristic", game, seed=1)
            self.decisions = 0

        def act(self, view: SeatView) -> int:
            first, second = self.a.act(view), self.b.act(view)
            assert first == second and view.can_determinize  # the view stayed whole
            self.decisions += 1
            return first

    class Owner:
        owns_its_views = True

        def __init__(self) -> None:
            self.inner = make_agent("heuristic", game, seed=2)
            self.disposable = self.taken = 0

        def act(self, view: SeatView) -> int:
            self.disposable += view._disposable
            action = self.inner.act(view)
            self.taken += not view.can_determinize
            return action

    twins, owner = Twins(), Owner()
    env = make_env(game)
    names = env.possible_agents
    agents = {name: twins if k == 0 else owner for k, name in enumerate(names)} if len(names) > 1 else {names[0]: twins}
    play_game(env, agents, seed=3, max_steps=120)
    assert twins.decisions > 10
    if len(names) > 1:
        assert owner.disposable > 10 and owner.taken > 0
