"""A Board Royale heuristic: survive first, escape when the field allows, strike when a blow can eliminate.

It reads only what its seat may know: its own hand, hand sizes, face-up items and the public discard pile;
so it acts on the view's public state, with no resampling (a test checks that a determinization's hidden
parts never change its choice).
Resources are health, so it keeps a buffer of cards before spending; it crafts escape items and useful
tools, attacks the weakest opponent, answers every attack it can, never starts trades, accepts only
offers that give it more cards than it pays, and votes to replace the field only when nothing there is
worth crafting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import value as win_model
from .actions import CARD0, CRAFT0, DRAW, ITEM0, PASS, SEAT0, YES
from .content import (
    CARD_EFFECT,
    CARD_TYPE,
    CARD_TYPE_INDEX,
    ESCAPE_SETS,
    HIDDEN_EFFECT,
    NUM_KINDS,
    NUM_RES,
    Effect,
)
from .escape import escape_points
from .game import BoardRoyaleState
from .resources import hand_size, resources_of, room
from .state import NO, RoyaleData
from .steps import Step
from .value import target_key, targeted

if TYPE_CHECKING:
    from ...agents.view import SeatView

BUFFER = 10  # resources kept after paying (how it was tuned: docs/lab-notes/heuristics.md)
CRAFT_VALUE = {
    "escape": 5.0,
    "weapon": 3.0,
    "trap": 3.5,
    "tool": 3.0,
    "medicine": 2.5,
}
_DEFENCE_RANK = {Effect.AMBUSH: 3, Effect.REFLECT: 2, Effect.AVOID: 1}


def _hand(d: RoyaleData, seat: int) -> list[int]:
    return d.hand[seat * NUM_KINDS : seat * NUM_KINDS + NUM_KINDS]


def owned_names(owner: list[int], seat: int) -> set[str]:
    """The names of the face-up items ``seat`` owns (its cards found by ``list.index``: few are owned)."""
    names, card = set(), -1
    for _ in range(owner.count(seat)):
        card = owner.index(seat, card + 1)
        names.add(CARD_TYPE[card].name)
    return names


#: the name of each decision's handler method
_HANDLER = {int(step): f"_{step.name.lower()}" for step in Step}
_CRAFT_TOTAL = tuple(t.craft_total for t in CARD_TYPE)
_USE_TOTAL = tuple(t.use_total for t in CARD_TYPE)


class BoardRoyaleHeuristicAgent:
    name = "heuristic"
    owns_its_views = True  # its act takes its view apart (copy=False) and hands it to no one

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # unused: the choice is deterministic (kept for the agent factory's signature)

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        return self.choose(view.public_state(copy=False))  # it reads only what the seat knows: no resampling

    def choose(self, state: BoardRoyaleState) -> int:
        """The action for the seat to move in ``state`` (the view's public state or a determinization; only what
        the seat knows is read). Also the rollout policy of IS-MCTS."""
        d = state.d
        legal = list(d.legal)
        step, me, a, b = d.stack[-1]
        handler = getattr(self, _HANDLER[step], None)
        action = handler(d, me, legal, a, b) if handler else None
        return action if action in legal else (PASS if PASS in legal else legal[0])

    # --- helpers -----------------------------------------------------------------------------------------
    @staticmethod
    def _opponents(d: RoyaleData, me: int) -> list[int]:
        return [s for s in range(d.n) if s != me and d.alive[s]]

    def _weakest(self, d: RoyaleData, me: int) -> int:
        """The opponent closest to elimination (smallest hand), escape threats first."""
        opp = self._opponents(d, me)
        if len(opp) == 1:  # the usual case at two players: nothing to compare
            return opp[0]
        return min(opp, key=lambda s: target_key(escape_points(d, s), hand_size(d, s), s))

    # --- decisions ----------------------------------------------------------------------------------------
    def _prep(self, d, me, legal, a, b):
        return self._best_craft(d, me, legal, buffer=3)

    def _resource(self, d, me, legal, a, b):
        target = self._weakest(d, me)
        if hand_size(d, target) <= 1 and SEAT0 + target in legal:
            return SEAT0 + target  # a steal from a one-card hand can eliminate
        return DRAW

    def _action(self, d, me, legal, a, b):
        res = resources_of(d, me)
        weakest = self._weakest(d, me)
        smallest = -1  # the smallest opponent hand, found when first needed
        # a blow that can finish someone off
        for act in legal:
            if ITEM0 <= act < CARD0:
                card = act - ITEM0
                t = CARD_TYPE[card]
                if not (t.attack and CARD_EFFECT[card] == Effect.DISCARD):  # the tests below read, never change
                    continue
                if smallest < 0:
                    smallest = min(hand_size(d, s) for s in self._opponents(d, me))
                lethal = t.area or hand_size(d, weakest) <= t.n
                affordable = res - _USE_TOTAL[card] >= 2
                if affordable and lethal and smallest <= t.n:
                    return act
        craft = self._best_craft(d, me, legal, buffer=BUFFER)
        if craft != PASS:
            return craft
        for act in legal:  # refill: draw and salvage tools, while they gain cards (items have no use cap)
            if ITEM0 <= act < CARD0:
                card = act - ITEM0
                t = CARD_TYPE[card]
                gain = min(t.n, room(d, me)) - _USE_TOTAL[card]
                refill = CARD_EFFECT[card] == Effect.DRAW or (
                    CARD_EFFECT[card] == Effect.SALVAGE and max(d.res_discard[:NUM_RES]) >= t.n
                )
                if refill and gain > 0 and res - _USE_TOTAL[card] >= 3:
                    return act
        for act in legal:  # wear the others down while rich
            if ITEM0 <= act < CARD0:
                card = act - ITEM0
                t = CARD_TYPE[card]
                if t.attack and res - _USE_TOTAL[card] >= BUFFER + 2:
                    return act
        return PASS

    def _best_craft(self, d, me, legal, buffer):
        res = resources_of(d, me)
        points = escape_points(d, me)
        owned: set[str] | None = None  # the names of my items, found when first needed
        best, best_value = PASS, 0.0
        for act in legal:
            if not CRAFT0 <= act < ITEM0:
                continue
            card = d.field[act - CRAFT0]
            t = CARD_TYPE[card]
            left = res - _CRAFT_TOTAL[card]
            wins = t.escape_points and points + t.escape_points >= 10
            if left < (1 if wins else buffer):
                continue
            value = CRAFT_VALUE[t.category] + t.escape_points - 0.3 * _CRAFT_TOTAL[card]
            if wins:
                value += 100.0
            if owned is None:
                owned = owned_names(d.item_owner, me)
            if t.name in owned and t.category != "escape":
                value -= 3.0
            if value > best_value:
                best, best_value = act, value
        return best

    def _target(self, d, me, legal, card, b):
        return SEAT0 + self._weakest(d, me)

    def _salvage_kind(self, d, me, legal, card, b):
        return max(legal, key=lambda act: d.res_discard[act - CARD0])

    def _hand_discard(self, d, me, legal, need, b):
        hand = _hand(d, me)
        resources = [act for act in legal if act - CARD0 < NUM_RES]
        return max(resources or legal, key=lambda act: hand[act - CARD0])

    def _loot_split(self, d, me, legal, a, b):
        return SEAT0 + me  # keep the loot

    def _loot_room(self, d, me, legal, kind, b):
        hand = _hand(d, me)
        resources = [act for act in legal if act - CARD0 < NUM_RES]
        return max(resources, key=lambda act: hand[act - CARD0]) if resources else CARD0 + kind

    def _join(self, d, me, legal, item, target):
        if escape_points(d, target) >= 7 and resources_of(d, me) > BUFFER:
            for act in legal:
                if act != PASS:
                    return act
        return PASS

    def _defend(self, d, me, legal, item, attacker):
        best, rank = PASS, 0
        for act in legal:
            if act == PASS:
                continue
            effect = HIDDEN_EFFECT[act - CARD0 - NUM_RES] if act >= CARD0 else CARD_EFFECT[act - ITEM0]
            r = _DEFENCE_RANK.get(effect, 0) + (0.5 if act >= CARD0 else 0.0)
            if r > rank:
                best, rank = act, r
        return best

    def _trade_partner(self, d, me, legal, a, b):
        return legal[0]

    def _trade_give(self, d, me, legal, a, b):
        return PASS

    def _trade_ask(self, d, me, legal, a, b):
        return PASS

    def _trade_answer(self, d, me, legal, proposer, b):
        if YES not in legal or d.offer_ask_items or any(d.offer_ask[NUM_RES:]):
            return PASS  # never gives items away, nor reveals a hidden item
        gain = sum(d.offer_give[:NUM_RES]) - sum(d.offer_ask) + 2 * len(d.offer_give_items)
        return YES if gain > 0 else PASS

    def _vote(self, d, me, legal, caller, b):
        res = resources_of(d, me)
        worth = any(c != NO and _CRAFT_TOTAL[c] <= res - 2 for c in d.field)
        return PASS if worth else YES


#: a typical margin between seats in ``estimate_scores`` units (IS-MCTS's cut-off softmax temperature)
ESTIMATE_SCALE = 3.0


def estimate_scores(state: BoardRoyaleState) -> list[float]:
    """Survival and escape, for IS-MCTS cut-offs: cards in hand (health) and escape points (the way out)."""
    d = state.d
    return [hand_size(d, s) + 2.0 * escape_points(d, s) for s in range(d.n)]


#: what owning a face-up item is worth in cards of hand (``estimate_scores_items``): a consumable about what it
#: gives once, a permanent item less than its craft cost (it pays off only over the turns it is used), an
#: escape item nothing here (its points count apart)
ITEM_VALUE = {
    "draw": 3.0,  # Axe, Fishing Rod: every use turns 1 resource into 2 cards
    "salvage": 1.5,
    "hand_limit": 1.0,
    "avoid": 2.5,
    "reflect": 2.0,
    "ambush": 2.0,
    "discard": 2.0,
    "steal": 2.0,
    "escape": 0.0,
}
_CARD_VALUE = tuple(
    (0.8 * t.n if t.consumable and t.effect in ("draw", "salvage") else ITEM_VALUE.get(t.effect, 0.0))
    for t in CARD_TYPE
)
_SET_CARDS = tuple(frozenset(c for c in range(len(CARD_TYPE)) if CARD_TYPE_INDEX[c] in s.types) for s in ESCAPE_SETS)
#: one escape point in cards of hand (its craft cost is 1-3 cards; it is also the only lasting progress)
POINT_VALUE = 3.0
#: owning two of an Escape Set's three items (the third wins at once)
SET_BONUS = 4.0
#: cards a seat is expected to lose for each living opponent whose natural target it is (the weakest seat:
#: an escape threat of 7+ points first, then the smallest hand), since blows fall on the weakest
THREAT = 2.0
#: the softmax temperature of ``estimate_scores_items`` (its margins are wider than ``estimate_scores``')
ESTIMATE_ITEMS_SCALE = 4.0


def estimate_scores_items(state: BoardRoyaleState) -> list[float]:
    """A richer cut-off estimate (IS-MCTS ``estimate=items``): cards in hand, escape points at ``POINT_VALUE``
    cards each, two items of an Escape Set, the face-up items each seat owns (``ITEM_VALUE``), less
    ``THREAT`` for each opponent whose weakest rival the seat is (the one blows fall on). Only public facts
    enter (hand sizes, face-up items)."""
    d = state.d
    owner = d.item_owner
    alive = [s for s in range(d.n) if d.alive[s]]
    sizes = [hand_size(d, s) for s in range(d.n)]
    points = [escape_points(d, s) for s in range(d.n)]
    out = []
    for s in range(d.n):
        value = sizes[s] + POINT_VALUE * points[s]
        value += sum(v for c, v in enumerate(_CARD_VALUE) if owner[c] == s)
        for cards in _SET_CARDS:
            if len({CARD_TYPE_INDEX[c] for c in cards if owner[c] == s}) == 2:
                value += SET_BONUS
        out.append(value)
    for s, count in enumerate(targeted(alive, sizes, points)):  # blows fall on each living seat's natural target
        out[s] -= THREAT * count
    return out


#: named alternatives to ``estimate_scores`` (IS-MCTS ``estimate=NAME``): function and softmax scale; ``fitted``
#: is the conditional logit of :mod:`.value`, whose utilities are log-odds of winning, and ``fitted2p`` the same with
#: two living seats read by its fit on 2-player games
ESTIMATE_VARIANTS = {
    "items": (estimate_scores_items, ESTIMATE_ITEMS_SCALE),
    "fitted": (win_model.win_logits, win_model.ESTIMATE_SCALE),
    "fitted2p": (win_model.win_logits_2p, win_model.ESTIMATE_SCALE),
}


def position_key(state: BoardRoyaleState, seat: int) -> tuple:
    """What ``seat`` knows of the position, without the turn's decision counters (IS-MCTS ``repeat=1``): equal
    keys mean a sequence of decisions changed nothing the seat can see (an offer made and withdrawn, a failed
    vote). Only public facts and the seat's own hand enter, so every determinization gives the same key."""
    d = state.d
    k = NUM_KINDS
    return (
        tuple(d.stack),
        tuple(d.hand[seat * k : seat * k + k]),
        tuple(hand_size(d, s) for s in range(d.n)),
        tuple(d.item_owner),
        tuple(d.item_used),
        tuple(d.field),
        tuple(d.res_discard),
        len(d.res_deck),
        len(d.item_deck),
        len(d.item_discard),
        tuple(d.alive),
        tuple(d.offer_give),
        tuple(d.offer_ask),
        tuple(d.offer_give_items),
        tuple(d.offer_ask_items),
        tuple(d.joiners),
        tuple(d.loot_items),
        tuple(d.loot_hidden),
        (d.active, d.round_no, d.field_round, d.vote_yes, d.vote_no, d.turn_over, d.loot_takers),
        (d.blow_on, d.blow_kind, d.blow_n, d.answers, d.trade_with, d.winner),
    )
