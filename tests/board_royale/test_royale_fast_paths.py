"""Fast paths beside their slow references, compared on many positions reached by legal play: the canonical
deal of a public copy (:func:`canonical_hands` against ``sample_hands(d, viewer, None)``), the one-pass public
copy (against the generic ``StackState.public_copy``), the observation
(:func:`observe` against the first encoder, kept in royale_reference.py), the fitted win chances
(``fast_logits`` against ``reference_logits``), the Action Phase's legal actions and the heuristic's choices
(against their first, plain versions)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest
from royale_reference import observe_reference, reference_chances, reference_logits
from royale_scenario import P0, P1, P2, action_phase, card_a, fresh, give_item, item_a, seat_a, set_hand

from meeplezoo.envs.board_royale import BoardRoyaleGame, attack, trade, turn, vote
from meeplezoo.envs.board_royale import value as value
from meeplezoo.envs.board_royale.actions import CARD0, CRAFT0, ITEM0, PASS, TRADE, VOTE, YES
from meeplezoo.envs.board_royale.content import CARD_EFFECT, CARD_TYPE, NUM_RES, RULES, Effect
from meeplezoo.envs.board_royale.escape import escape_points
from meeplezoo.envs.board_royale.game import BoardRoyaleState
from meeplezoo.envs.board_royale.heuristic import BUFFER, CRAFT_VALUE, BoardRoyaleHeuristicAgent
from meeplezoo.envs.board_royale.observation import OBS_SIZE, observe
from meeplezoo.envs.board_royale.resources import can_pay, canonical_hands, hand_size, resources_of, room, sample_hands
from meeplezoo.envs.board_royale.state import CODEC, NO
from meeplezoo.envs.board_royale.steps import Step
from meeplezoo.envs.core.chance import Chance

PLAYERS = (2, 3, 4, 6)


def positions(n: int, games: int = 3, every: int = 3) -> Iterator[BoardRoyaleState]:
    """Every ``every``-th position of ``games`` seeded games at ``n`` players, each move the heuristic's or (one
    in three) a random legal one: the heuristic eliminates and loots, random play trades and votes."""
    game = BoardRoyaleGame(num_players=n)
    heuristic = BoardRoyaleHeuristicAgent()
    for g in range(games):
        rng = np.random.default_rng(100 * n + g)
        state = game.new_state(g)
        step = 0
        while not state.is_terminal() and step < 1500:
            if step % every == 0:
                yield state
            if rng.random() < 1 / 3:
                state.apply(int(rng.choice(state.legal_actions())))
            else:
                state.apply(heuristic.choose(state))
            step += 1
        yield state


def _fields(d) -> dict:
    return {name: getattr(d, name) for name in CODEC.saved}


@pytest.mark.parametrize("n", PLAYERS)
def test_canonical_hands_equals_the_reference_canonical_deal(n):
    for state in positions(n):
        for viewer in range(n):
            ref, fast = state.clone(), state.clone()
            sample_hands(ref.d, viewer, None)
            canonical_hands(fast.d, viewer)
            assert _fields(fast.d) == _fields(ref.d)


@pytest.mark.parametrize("n", PLAYERS)
def test_public_copy_equals_the_generic_public_copy(n):
    """The public copy (the legal actions kept when :meth:`keeps_legal`) against the generic one (a clone,
    ``resample_hidden(viewer, None)``, chance zeroed, the legal actions recomputed), for every viewer, the one to
    act and the others."""
    kept = recomputed = 0
    answers = 0
    for state in itertools.chain(positions(n, games=2), _random_positions(n)):
        answers += state.pending_step() == Step.TRADE_ANSWER
        for viewer in range(n):
            fast, ref = state.public_copy(viewer), _generic_public_copy(state, viewer)
            assert _fields(fast.d) == _fields(ref.d)
            assert fast.d.legal == ref.d.legal
            assert all(getattr(fast.d, name) is not getattr(state.d, name) for name in CODEC.list_fields)
            if state.d.stack and state.current_player() == viewer and state.pending_step() != Step.TRADE_ANSWER:
                kept += 1
            else:
                recomputed += 1
    assert kept > 100 and recomputed > 100 and answers > 0


def _generic_public_copy(state: BoardRoyaleState, viewer: int) -> BoardRoyaleState:
    s = state.clone()
    s.resample_hidden(viewer, None)
    s.d.chance = Chance(0, 0)
    s.machine.relegal(s.d)
    return s


def _random_positions(n: int, games: int = 1) -> Iterator[BoardRoyaleState]:
    """Every position of ``games`` games of random legal moves (they reach trade answers, which the heuristic's
    games rarely do)."""
    game = BoardRoyaleGame(num_players=n)
    for g in range(games):
        rng = np.random.default_rng(1000 + g)
        state = game.new_state(g)
        for _ in range(1000):
            if state.is_terminal():
                break
            yield state
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("n", PLAYERS)
def test_fast_win_logits_and_chances_equal_their_references(n):
    for state in positions(n, every=2):
        assert value.fast_logits(state.d) == reference_logits(state.d)
        assert value.win_logits_2p(state) == reference_logits(state.d, "fitted2p")
        assert value.win_chances(state) == reference_chances(state)


@pytest.mark.parametrize("n", PLAYERS)
def test_observe_equals_the_reference_observation(n):
    dirty = np.full(OBS_SIZE, 7.0, np.float32)  # a reused buffer is cleared first
    for state in positions(n, every=2):
        for me in range(n):
            ref = observe_reference(state.d, me)
            assert ref.tobytes() == observe(state.d, me).tobytes()
            assert ref.tobytes() == observe(state.d, me, dirty).tobytes()


def _loot_positions() -> Iterator[BoardRoyaleState]:
    """A shared loot with face-up and hidden items (LOOT_SPLIT), then a looter at the hand limit (LOOT_ROOM)."""
    s = fresh(4)
    for seat, counts in enumerate(({"food": 3}, {"wood": 5}, {"iron": 3, "decoy": 1}, {"gold": 3})):
        set_hand(s.d, seat, **counts)
    knife, spear = give_item(s.d, P0, "Knife"), give_item(s.d, P1, "Spear")
    for name in ("Backpack", "Axe"):
        give_item(s.d, P2, name)
    action_phase(s, P0)
    for action in (item_a(knife), seat_a(P2), item_a(spear), PASS, seat_a(P1), seat_a(P0), seat_a(P1)):
        yield s
        s.apply(action)
    yield s
    s = fresh(3)
    for seat, counts in enumerate(({"food": 18, "wood": 2}, {"iron": 1, "decoy": 1, "deadfall": 1}, {"gold": 3})):
        set_hand(s.d, seat, **counts)
    knife = give_item(s.d, P0, "Knife")
    action_phase(s, P0)
    for action in (item_a(knife), seat_a(P1), PASS, card_a("wood")):
        yield s
        s.apply(action)
    yield s


def test_fast_paths_equal_their_references_while_looting():
    steps = set()
    for state in _loot_positions():
        d = state.d
        steps.add(state.pending_step())
        assert value.fast_logits(d) == reference_logits(d)
        for me in range(d.n):
            assert observe(d, me).tobytes() == observe_reference(d, me).tobytes()
            ref, fast = state.clone(), state.clone()
            sample_hands(ref.d, me, None)
            canonical_hands(fast.d, me)
            assert _fields(fast.d) == _fields(ref.d)
    assert {Step.LOOT_SPLIT, Step.LOOT_ROOM} <= steps


def _reference_legal_action(d, seat: int) -> list[int]:
    """``legal_action`` as first written: every active card checked, the list sorted at the end."""
    if d.turn_over:
        return []
    if d.turn_decisions >= RULES.max_decisions_per_turn:
        return [PASS]
    crafts = [i for i, card in enumerate(d.field) if card != NO and can_pay(d, seat, CARD_TYPE[card].craft)]
    items = []
    for c in turn._ACTIVE_CARDS:
        owned = d.item_owner[c] == seat and attack.usable(d, seat, c, keep_one=False)
        if owned and (CARD_EFFECT[c] != Effect.SALVAGE or any(d.res_discard[:NUM_RES])):
            items.append(c)
    out = [PASS, *(CRAFT0 + i for i in crafts), *(ITEM0 + c for c in items)]
    if trade.partners(d, seat):
        out.append(TRADE)
    if vote.can_call(d):
        out.append(VOTE)
    return sorted(out)


@pytest.mark.parametrize("n", PLAYERS)
def test_legal_action_equals_the_reference(n):
    for state in positions(n, every=2):
        d = state.d
        for seat in range(n):
            assert turn.legal_action(d, seat, 0, 0) == _reference_legal_action(d, seat)


class _ReferenceHeuristic(BoardRoyaleHeuristicAgent):
    """The heuristic's decisions as first written (names looked up per call, every test evaluated, item
    totals summed per call): the reference of the faster ones."""

    def choose(self, state: BoardRoyaleState) -> int:
        d = state.d
        legal = list(d.legal)
        step, me, a, b = d.stack[-1]
        handler = getattr(self, f"_{Step(step).name.lower()}", None)
        action = handler(d, me, legal, a, b) if handler else None
        return action if action in legal else (PASS if PASS in legal else legal[0])

    def _weakest(self, d, me):
        opp = self._opponents(d, me)
        return min(opp, key=lambda s: (escape_points(d, s) < 7, hand_size(d, s), s))

    def _action(self, d, me, legal, a, b):
        res = resources_of(d, me)
        weakest = self._weakest(d, me)
        for act in legal:
            if ITEM0 <= act < CARD0:
                card = act - ITEM0
                t = CARD_TYPE[card]
                lethal = t.area or hand_size(d, weakest) <= t.n
                affordable = res - t.use_total >= 2
                weak = min(hand_size(d, s) for s in self._opponents(d, me)) <= t.n
                if t.attack and CARD_EFFECT[card] == Effect.DISCARD and affordable and lethal and weak:
                    return act
        craft = self._best_craft(d, me, legal, buffer=BUFFER)
        if craft != PASS:
            return craft
        for act in legal:
            if ITEM0 <= act < CARD0:
                card = act - ITEM0
                t = CARD_TYPE[card]
                gain = min(t.n, room(d, me)) - t.use_total
                refill = CARD_EFFECT[card] == Effect.DRAW or (
                    CARD_EFFECT[card] == Effect.SALVAGE and max(d.res_discard[:NUM_RES]) >= t.n
                )
                if refill and gain > 0 and res - t.use_total >= 3:
                    return act
        for act in legal:
            if ITEM0 <= act < CARD0:
                t = CARD_TYPE[act - ITEM0]
                if t.attack and res - t.use_total >= BUFFER + 2:
                    return act
        return PASS

    def _best_craft(self, d, me, legal, buffer):
        res = resources_of(d, me)
        points = sum(CARD_TYPE[c].escape_points for c, o in enumerate(d.item_owner) if o == me)
        owned = {CARD_TYPE[c].name for c, o in enumerate(d.item_owner) if o == me}
        best, best_value = PASS, 0.0
        for act in legal:
            if not CRAFT0 <= act < ITEM0:
                continue
            t = CARD_TYPE[d.field[act - CRAFT0]]
            wins = t.escape_points and points + t.escape_points >= 10
            if res - t.craft_total < (1 if wins else buffer):
                continue
            value = CRAFT_VALUE[t.category] + t.escape_points - 0.3 * t.craft_total
            if wins:
                value += 100.0
            if t.name in owned and t.category != "escape":
                value -= 3.0
            if value > best_value:
                best, best_value = act, value
        return best

    def _vote(self, d, me, legal, caller, b):
        res = resources_of(d, me)
        return PASS if any(c != NO and CARD_TYPE[c].craft_total <= res - 2 for c in d.field) else YES


@pytest.mark.parametrize("n", PLAYERS)
def test_heuristic_choices_equal_the_reference_heuristic(n):
    fast, ref = BoardRoyaleHeuristicAgent(), _ReferenceHeuristic()
    for state in positions(n, every=1):
        if state.d.stack:
            view = state.public_copy(state.current_player())
            assert fast.choose(view) == ref.choose(view)


def test_legal_mask_equals_the_plain_mask_and_is_the_callers_own():
    for state in positions(3, every=5):
        mask = state.legal_mask()
        plain = np.zeros(state.num_actions, np.int8)
        plain[list(state.d.legal)] = 1
        assert mask.dtype == plain.dtype and mask.tobytes() == plain.tobytes()
        mask[:] = 1  # the caller may write to its mask: the next one is unchanged
        assert state.legal_mask().tobytes() == plain.tobytes()
