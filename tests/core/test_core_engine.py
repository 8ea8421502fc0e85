"""The engine protocol, chance, persistence, determinization and reward modes, through Tiny Duel."""

from __future__ import annotations

import doctest
import json
import random
from dataclasses import fields

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiny_duel import PASS, PLAY_STRIKE, Card, TinyDuel

from meeplezoo.envs.core import (
    TERMINAL,
    Chance,
    CorruptStateError,
    IllegalActionError,
    State,
    chance,
    seat_return,
)


def random_walk(state: State, rng: np.random.Generator, steps: int | None = None) -> list[int]:
    """Apply up to ``steps`` random legal actions (all of them to the end if None); return them."""
    actions = []
    while not state.is_terminal() and (steps is None or len(actions) < steps):
        action = int(rng.choice(state.legal_actions()))
        state.apply(action)
        actions.append(action)
    return actions


def midgame_states(n: int, count: int):
    """``count`` states of ``n`` players at assorted points of random games (seeds 0..count-1)."""
    game = TinyDuel(num_players=n)
    for seed in range(count):
        rng = np.random.default_rng(seed)
        state = game.new_state(seed)
        random_walk(state, rng, steps=int(rng.integers(0, 60)))
        yield state


# --- chance ---------------------------------------------------------------------------------------------


def test_chance_doctest():
    assert doctest.testmod(chance).failed == 0


def test_chance_events_are_independent_and_reproducible():
    a = Chance(3)
    b = a.copy()
    first = a.generator().permutation(20)
    assert (a.seed, a.events, b.events) == (3, 1, 0)
    assert np.array_equal(first, b.generator().permutation(20))
    assert not np.array_equal(a.generator().permutation(20), first)  # next event, new draw
    assert not np.array_equal(Chance(4).generator().permutation(20), first)


@pytest.mark.parametrize("seed", range(40))
def test_arrange_draws_what_a_permutation_draws(seed):
    """arrange shuffles a copy in place: the order and the generator's state after are a permutation's."""
    from meeplezoo.envs.core.chance import arrange

    for n in (0, 1, 2, 3, 7, 30, 61):
        xs = [int(x) for x in np.random.default_rng(seed + 99).integers(0, 50, n)]
        before = list(xs)
        ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        assert arrange(xs, ours) == [xs[i] for i in theirs.permutation(n)]
        assert ours.bit_generator.state == theirs.bit_generator.state
        assert xs == before  # the argument is left as it was
    assert arrange([3, 1, 2], None) == [1, 2, 3]


@pytest.mark.parametrize("seed", range(20))
def test_arrange_bands_arranges_each_band_among_its_places(seed):
    """Band by band, in the order given, as the plain loop over each band's places does (a stacked deck takes
    the slice path, a mixed one the places path); other bands' cards stay put."""
    from meeplezoo.envs.core.chance import arrange, arrange_bands

    band_of = [card % 4 for card in range(40)]
    stacked = sorted(range(40), key=lambda card: (-band_of[card], card))
    mixed = [int(card) for card in np.random.default_rng(seed).permutation(40)]
    for deck in (stacked, mixed):
        ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        want = list(deck)
        for band in (2, 0, 1):
            pos = [i for i, card in enumerate(want) if band_of[card] == band]
            for i, card in zip(pos, arrange([want[i] for i in pos], theirs), strict=True):
                want[i] = card
        got = list(deck)
        arrange_bands(got, band_of, (2, 0, 1), ours)
        assert got == want and ours.bit_generator.state == theirs.bit_generator.state
        assert [got[i] for i, card in enumerate(deck) if band_of[card] == 3] == [c for c in deck if band_of[c] == 3]
        assert got != deck  # something moved
    canonical = list(mixed)
    arrange_bands(canonical, band_of, range(4), None)
    assert [band_of[c] for c in canonical] == [band_of[c] for c in mixed]
    assert all(
        sorted(c for c in mixed if band_of[c] == b) == [c for c in canonical if band_of[c] == b] for b in range(4)
    )


def test_chance_below_is_one_reproducible_uniform_event():
    a = Chance(3)
    b = a.copy()
    draws = [a.below(6) for _ in range(6000)]
    assert a.events == 6000 and draws == [b.below(6) for _ in range(6000)]  # same seed and events, same draws
    counts = np.bincount(draws, minlength=6)
    assert counts.min() > 850 and counts.max() < 1150  # about 1000 each (6 sigma ~ 170)
    other = Chance(4)
    assert [other.below(6) for _ in range(20)] != draws[:20]  # another seed, other draws
    assert {Chance(s).below(1) for s in range(50)} == {0}
    seeds = [Chance(s).below(2**40) for s in range(200)]
    assert len(set(seeds)) == 200  # neighbouring seeds do not collide


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"seed": 1},
        {"seed": -1, "events": 0},
        {"seed": 1, "events": "2"},
        {"seed": 1, "events": 0, "x": 1},
    ],
)
def test_chance_from_dict_rejects_bad_data(data):
    with pytest.raises(CorruptStateError, match="chance"):
        Chance.from_dict(data)


@pytest.mark.parametrize("n", [2, 3, 6])
def test_same_seed_and_actions_give_identical_games_bit_for_bit(n):
    game = TinyDuel(num_players=n)
    for seed in range(5):
        a, b = game.new_state(seed), game.new_state(seed)
        rng_a, rng_b = np.random.default_rng(seed), np.random.default_rng(seed)
        assert a.to_json() == b.to_json()
        while not a.is_terminal():
            a.apply(int(rng_a.choice(a.legal_actions())))
            b.apply(int(rng_b.choice(b.legal_actions())))
            assert a.to_json() == b.to_json()
            assert a.state_vector().tobytes() == b.state_vector().tobytes()
            for seat in range(n):
                assert a.observe(seat).tobytes() == b.observe(seat).tobytes()
        assert b.is_terminal()


def test_randomness_comes_only_from_the_state():
    game = TinyDuel(num_players=4)
    runs = []
    for global_seed in (1, 2):
        np.random.seed(global_seed)
        random.seed(global_seed)
        state = game.new_state(9)
        random_walk(state, np.random.default_rng(9))
        runs.append(state.to_json())
    assert runs[0] == runs[1]
    deals = {json.dumps(game.new_state(seed).to_dict()["hands"]) for seed in range(10)}
    assert len(deals) > 1  # the seed does matter


def test_reshuffles_draw_from_chance():
    """The deck is refilled from the discard pile exactly when a chance event is drawn."""
    game = TinyDuel(num_players=3, max_turns=300)
    reshuffles = 0
    for seed in range(5):
        state = game.new_state(seed)
        assert state.chance.events == 1  # the opening shuffle
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            deck, events, discard = len(state.deck), state.chance.events, sum(state.discard)
            state.apply(int(rng.choice(state.legal_actions())))
            refilled = len(state.deck) > deck
            assert state.chance.events == events + refilled
            if refilled:  # only an empty deck is refilled, with the whole discard pile
                reshuffles += 1
                assert deck == 0 and discard > 0 and state.discard == [0, 0, 0]
        state.validate()
    assert reshuffles > 0


# --- clone and persistence ------------------------------------------------------------------------------


def assert_independent(a, b, path="state"):
    """``a == b`` and no mutable part is shared (the game itself is immutable and shared)."""
    assert a == b, path
    if isinstance(a, (list, dict, np.ndarray, Chance)):
        assert a is not b, f"{path} is shared between the clone and the original"
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_independent(x, y, f"{path}[{i}]")


@pytest.mark.parametrize("n", [2, 4, 6])
def test_clone_is_exact_and_independent_field_by_field(n):
    for state in midgame_states(n, 15):
        copy = state.clone()
        assert type(copy) is type(state)
        assert copy == state
        for f in fields(state):
            if f.name == "game":
                assert copy.game is state.game
            else:
                assert_independent(getattr(state, f.name), getattr(copy, f.name), f.name)
        before = state.to_json()
        random_walk(copy, np.random.default_rng(0))
        copy.hands[0][0] += 1
        copy.deck.append(0)
        copy.discard[1] += 1
        copy.hp[0] = 99
        copy.out.append(0)
        copy.chance.generator()
        assert state.to_json() == before
        assert state != copy


@pytest.mark.parametrize("n", [2, 3, 6])
def test_clone_and_json_round_trip_continue_identically(n):
    game = TinyDuel(num_players=n)
    for state in midgame_states(n, 10):
        text = state.to_json()
        loaded = game.state_from_json(text)
        assert loaded == state and loaded.to_json() == text
        copy = state.clone()
        rng = np.random.default_rng(1)
        while not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            for s in (state, copy, loaded):
                s.apply(action)
            assert copy.to_json() == state.to_json() == loaded.to_json()
        assert copy.is_terminal() and loaded.is_terminal()
        assert loaded.ranks() == state.ranks() and loaded.scores() == state.scores()


def test_to_dict_is_plain_data_and_not_aliased():
    state = next(midgame_states(3, 1))
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data
    data["hands"][0][0] += 5
    data["hp"][0] = 0
    data["chance"]["events"] += 1
    assert state.to_dict() != data
    state.validate()


def corrupt(text: str, edit) -> str:
    doc = json.loads(text)
    edit(doc)
    return json.dumps(doc)


def set_state(key, value):
    return lambda doc: doc["state"].__setitem__(key, value)


GOOD = TinyDuel(num_players=3).position(hp=[3, 2, 3], hands=[[1, 0, 1], [0, 1, 0], [0, 0, 0]], active=1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("", "not valid JSON"),
        (None, "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (corrupt(GOOD.to_json(), lambda d: d.__setitem__("game", "seastead")), "of game 'seastead'"),
        (corrupt(GOOD.to_json(), lambda d: d.__setitem__("format", 99)), "format 99"),
        (corrupt(GOOD.to_json(), lambda d: d.pop("config")), "lacks the key 'config'"),
        (corrupt(GOOD.to_json(), lambda d: d.pop("state")), "lacks the key 'state'"),
        (corrupt(GOOD.to_json(), lambda d: d.pop("game")), "lacks the key 'game'"),
        (corrupt(GOOD.to_json(), lambda d: d["config"].__setitem__("num_players", 2)), "config"),
        (corrupt(GOOD.to_json(), lambda d: d["config"].__setitem__("max_hp", 5)), "config"),
        (corrupt(GOOD.to_json(), lambda d: d.__setitem__("state", [])), "'state' must be a JSON object"),
        (corrupt(GOOD.to_json(), lambda d: d["state"].pop("hp")), "state keys"),
        (corrupt(GOOD.to_json(), set_state("extra", 1)), "state keys"),
        (corrupt(GOOD.to_json(), set_state("hp", [3, 2, 4])), "hit points"),
        (corrupt(GOOD.to_json(), set_state("hp", [3, 2])), "seats"),
        (corrupt(GOOD.to_json(), set_state("hp", [3, "2", 3])), "hp must be an int"),
        (corrupt(GOOD.to_json(), set_state("hp", [3, 0, 3])), "eliminated"),
        (corrupt(GOOD.to_json(), set_state("hands", "lots")), "hands must be a list"),
        (
            corrupt(GOOD.to_json(), set_state("hands", [[1, 0, 1], [0, 1, 0], [True, 0, 0]])),
            "hand must be an int",
        ),
        (corrupt(GOOD.to_json(), set_state("hands", [[1, 0, 1], [0, 1, 0], [1, 0, 0]])), "strike cards"),
        (corrupt(GOOD.to_json(), set_state("hands", [[1, 0, 1], [0, 1, 0], [2, 2, 0]])), "hand_limit"),
        (corrupt(GOOD.to_json(), set_state("discard", [0, 0, 1])), "heal cards"),
        (corrupt(GOOD.to_json(), lambda d: d["state"]["deck"].append(7)), "bad deck"),
        (corrupt(GOOD.to_json(), set_state("decision", "dance")), "unknown decision"),
        (corrupt(GOOD.to_json(), set_state("decision", "game over")), "game over"),
        (corrupt(GOOD.to_json(), set_state("decision", "react")), "bad target"),
        (corrupt(GOOD.to_json(), set_state("target", 0)), "target 0 outside a reaction"),
        (corrupt(GOOD.to_json(), set_state("active", 3)), "active seat 3"),
        (corrupt(GOOD.to_json(), set_state("turn", -1)), "turn"),
        (corrupt(GOOD.to_json(), set_state("out", [1])), "eliminated"),
        (corrupt(GOOD.to_json(), set_state("chance", {"seed": 1})), "chance"),
    ],
)
def test_corrupt_saved_state_raises(text, message):
    with pytest.raises(CorruptStateError, match=message):
        TinyDuel(num_players=3).state_from_json(text)


def test_good_save_loads():
    assert TinyDuel(num_players=3).state_from_json(GOOD.to_json()) == GOOD


def test_a_save_is_validated_once_per_load(monkeypatch):
    """``state_from_dict`` validates (every game's does); ``state_from_json`` does not validate a second time."""
    calls = []
    check = type(GOOD).validate
    monkeypatch.setattr(type(GOOD), "validate", lambda self: calls.append(1) or check(self))
    TinyDuel(num_players=3).state_from_json(GOOD.to_json())
    assert len(calls) == 1


# --- determinize ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 6])
def test_determinize_keeps_the_players_view_and_resamples_the_rest(n):
    rng = np.random.default_rng(0)
    hands_changed = deck_changed = 0
    for state in midgame_states(n, 20):
        before = state.to_json()
        for player in range(n):
            world = state.determinize(player, rng)
            world.validate()  # card totals conserved, hand limits kept
            assert world is not state and state.to_json() == before
            assert world.observe(player).tobytes() == state.observe(player).tobytes()
            if state.current_player() == player:
                assert world.legal_mask().tolist() == state.legal_mask().tolist()
            assert world.hands[player] == state.hands[player]
            assert [sum(h) for h in world.hands] == [sum(h) for h in state.hands]
            assert (world.hp, world.discard, world.out, world.turn) == (
                state.hp,
                state.discard,
                state.out,
                state.turn,
            )
            assert (world.active, world.decision, world.target) == (
                state.active,
                state.decision,
                state.target,
            )
            assert len(world.deck) == len(state.deck)
            assert world.chance != state.chance  # the future is hidden too
            others = [s for s in range(n) if s != player]
            hands_changed += any(world.hands[s] != state.hands[s] for s in others)
            deck_changed += world.deck != state.deck
    assert hands_changed > 0 and deck_changed > 0


def test_observation_hides_other_hands_and_deck_order():
    game = TinyDuel(num_players=3)
    a = game.position(hands=[[1, 1, 0], [2, 0, 0], [0, 1, 1]])
    b = game.position(hands=[[1, 1, 0], [0, 1, 1], [2, 0, 0]])  # same sizes, swapped contents
    assert a.observe(0).tobytes() == b.observe(0).tobytes()
    assert a.observe(1).tobytes() != b.observe(1).tobytes()
    assert a.state_vector().tobytes() != b.state_vector().tobytes()
    b.hands = [h[:] for h in a.hands]
    b.deck.reverse()
    assert all(a.observe(s).tobytes() == b.observe(s).tobytes() for s in range(3))
    assert a.state_vector().tobytes() != b.state_vector().tobytes()


# --- the protocol on random playouts --------------------------------------------------------------------


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    n=st.integers(2, 6),
    seed=st.integers(0, 2**63 - 1),
    choices=st.lists(st.integers(0, 10**6), min_size=0, max_size=400),
)
def test_random_playouts_keep_the_protocol(n, seed, choices):
    game = TinyDuel(num_players=n)
    state = game.new_state(seed)
    final_ranks: dict[int, int] = {}
    choices = iter(choices)
    while not state.is_terminal():
        state.validate()
        player = state.current_player()
        assert 0 <= player < n and player not in state.eliminated()
        mask = state.legal_mask()
        assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
        assert set(np.flatnonzero(mask)) == set(state.legal_actions()) != set()
        for seat in range(n):
            obs = state.observe(seat)
            assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0 and obs.any()
            assert obs[3 * n + 3 + 4] == (seat == player)  # "my decision"
            buffer = np.full(game.observation_size, 7.0, np.float32)
            assert state.observe(seat, out=buffer) is buffer and np.array_equal(buffer, obs)
        vector = state.state_vector()
        assert vector.shape == (game.state_size,) and vector.min() >= 0 and vector.max() <= 1
        for action in range(game.num_actions):
            assert state.describe_action(action)
        legal = state.legal_actions()
        illegal = sorted(set(range(game.num_actions)) - set(legal))
        if illegal:
            before = state.to_json()
            with pytest.raises(IllegalActionError):
                state.apply(illegal[0])
            assert state.to_json() == before
        state.apply(legal[next(choices, 0) % len(legal)])
        ranks = state.ranks()
        for seat in state.eliminated():
            final_ranks.setdefault(seat, ranks[seat])
        assert state.clone() == state
    state.validate()
    assert state.current_player() == TERMINAL and state.pending() == "game over"
    assert state.legal_actions() == []
    ranks = state.ranks()
    assert all(ranks[seat] == rank for seat, rank in final_ranks.items())  # final when eliminated
    alive = [s for s in range(n) if s not in state.eliminated()]
    assert max(ranks[s] for s in alive) < min((ranks[s] for s in state.eliminated()), default=n)
    assert min(ranks) == 0
    assert "game over" in state.render()


# --- reward modes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([0, 1], [1.0, -1.0]),
        ([1, 0], [-1.0, 1.0]),
        ([0, 0], [0.0, 0.0]),
        ([0, 1, 2], [1.0, -0.5, -0.5]),
        ([0, 0, 2], [0.25, 0.25, -0.5]),
        ([0, 0, 0], [0.0, 0.0, 0.0]),
        ([0, 0, 0, 3], [1 / 9, 1 / 9, 1 / 9, -1 / 3]),
        ([2, 0, 1, 3, 4, 5], [-0.2, 1.0, -0.2, -0.2, -0.2, -0.2]),
    ],
)
def test_seat_return_win(ranks, expected):
    got = [seat_return("win", seat, ranks, [0.0] * len(ranks), 1.0) for seat in range(len(ranks))]
    assert got == pytest.approx(expected)
    assert sum(got) == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([0, 1], [1.0, -1.0]),
        ([0, 0], [1.0, 1.0]),
        ([0, 1, 2], [1.0, 0.0, -1.0]),
        ([0, 1, 1, 3], [1.0, 1 / 3, 1 / 3, -1.0]),
    ],
)
def test_seat_return_rank(ranks, expected):
    got = [seat_return("rank", seat, ranks, [0.0] * len(ranks), 1.0) for seat in range(len(ranks))]
    assert got == pytest.approx(expected)


def test_seat_return_score_margin():
    scores, ranks = [3.0, 1.0, 2.0], [0, 2, 1]
    got = [seat_return("score_margin", seat, ranks, scores, 2.0) for seat in range(3)]
    assert got == pytest.approx([0.75, -0.75, 0.0])
    assert seat_return("score_margin", 0, [0, 1], [10.0, 4.0], 3.0) == pytest.approx(2.0)


@pytest.mark.parametrize("mode", ["win", "rank", "score_margin"])
def test_seat_return_single_seat(mode):
    assert seat_return(mode, 0, [0], [5.0], 1.0) == 1.0
    assert seat_return(mode, 0, [1], [5.0], 1.0) == -1.0


def test_seat_return_unknown_mode():
    with pytest.raises(ValueError, match="'points'"):
        seat_return("points", 0, [0, 1], [1.0, 0.0], 1.0)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=6))
def test_win_mode_is_zero_sum_and_rank_mode_bounded(scores):
    ranks = [sum(1 for other in scores if other > mine) for mine in scores]
    win = [seat_return("win", s, ranks, scores, 1.0) for s in range(len(scores))]
    assert sum(win) == pytest.approx(0.0, abs=1e-12)
    rank = [seat_return("rank", s, ranks, scores, 1.0) for s in range(len(scores))]
    assert all(-1.0 <= r <= 1.0 for r in rank) and max(rank) == 1.0


# --- tiny duel rules (the scenarios the core tests rely on) ---------------------------------------------


def test_deal_and_setup():
    game = TinyDuel(num_players=6)
    state = game.new_state(0)
    assert state.hp == [3] * 6 and [sum(h) for h in state.hands] == [2] * 6
    assert len(state.deck) == 20 - 12 and state.discard == [0, 0, 0]
    assert (state.current_player(), state.pending()) == (0, "play")


def test_hand_limit_stops_drawing_and_heal_needs_a_wound():
    game = TinyDuel(num_players=2)
    state = game.position(hands=[[0, 1, 2], [0, 0, 0]])
    assert state.legal_actions() == [PASS]  # unhurt: no heal; no strike
    state.apply(PASS)
    assert state.hands[0] == [0, 1, 2]  # at the hand limit: no draw
    state.apply(PASS)
    assert state.hands[1] == [1, 0, 0]


def test_strike_target_offsets_skip_no_one_and_exclude_the_dead():
    game = TinyDuel(num_players=4)
    state = game.position(hp=[3, 0, 2, 1], hands=[[1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], active=0)
    state.apply(PLAY_STRIKE)
    assert state.legal_actions() == [game.target(2), game.target(3)]
    assert state.describe_action(game.target(3)) == "strike player_3 (3 seat(s) on)"
    state.apply(game.target(3))
    assert (state.current_player(), state.pending()) == (3, "react")
    state.apply(game.take_hit)
    assert state.eliminated() == {1, 3} and state.out == [1, 3]
    assert state.ranks() == [0, 3, 1, 2]
    assert state.current_player() == 2
    assert state.hands[0] == [Card.STRIKE == 0, 0, 0]  # drew the top card (a strike) after the turn


def test_arrange_draws_one_permutation_or_sorts():
    from meeplezoo.envs.core.chance import arrange

    xs = [5, 3, 9, 1, 7]
    a, b = np.random.default_rng(4), np.random.default_rng(4)
    assert arrange(xs, a) == [xs[i] for i in b.permutation(len(xs))]  # the same draw as a shuffle by hand
    assert a.random() == b.random()  # and nothing more consumed
    assert arrange(xs, None) == [1, 3, 5, 7, 9] and xs == [5, 3, 9, 1, 7]
