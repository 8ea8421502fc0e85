"""The turn machine: the stack of pending tasks, the preparation round, the Resource and Action Phases,
the end of a turn and of a round.

Seed: "Başlangıç oyuncusundan itibaren her oyuncu sırayla Kaynak Destesinden 2 kart çeker ve yeterli kaynağı
varsa Üretim Alanından eşya üretebilir. Hazırlık Raundunda oyuncular çalma (steal), eşya kullanma, ticaret
yapma ve demokrasi oyu çağırma işlemlerini YAPAMAZLAR." "Her oyuncunun turu 2 ardışık fazdan oluşur: Kaynak
Fazı (Resource Phase) ve ardından Aksiyon Fazı (Action Phase). Bir oyuncu turunu bitirdiğinde, saat yönünde
sıradaki oyuncuya geçilir. Her raund (round) adadaki bir günü temsil eder."
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.tasks import TaskMachine
from . import attack, elimination, island, trade, vote
from .actions import CARD0, CRAFT0, DRAW, ITEM0, PASS, SEAT0, TRADE, VOTE
from .content import CARD_EFFECT, CARD_TYPE, NUM_RES, RULES, Effect
from .crafting import craft, craftable, refill_empty_slots
from .elimination import check_out
from .resources import K, affordable, cost_parts, draw, hand_limit, hand_size, move_out, room
from .state import STEAL, RoyaleData
from .steps import DECISION_TEXT, Step

Legal = Callable[[RoyaleData, int, int, int], list[int]]
Apply = Callable[[RoyaleData, int, int, int, int], None]
Run = Callable[[RoyaleData, int, int, int], None]

_N = tuple(t.n for t in CARD_TYPE)
_AREA = tuple(t.area for t in CARD_TYPE)
_INSTANT = tuple(t.instant for t in CARD_TYPE)
_ACTIVE_EFFECTS = (Effect.DISCARD, Effect.STEAL, Effect.DRAW, Effect.SALVAGE)
#: the item cards used on one's own turn (not instant, with an effect to trigger)
_ACTIVE_CARDS = tuple(c for c in range(len(CARD_TYPE)) if not _INSTANT[c] and CARD_EFFECT[c] in _ACTIVE_EFFECTS)
_ACTIVE = tuple(c in _ACTIVE_CARDS for c in range(len(CARD_TYPE)))
_SALVAGE = tuple(effect == Effect.SALVAGE for effect in CARD_EFFECT)
_USE_PARTS = tuple(cost_parts(t.use) for t in CARD_TYPE)
assert PASS < TRADE < VOTE < CRAFT0 < ITEM0  # legal_action lists its actions in this order, sorted


def start_turn(d: RoyaleData, seat: int) -> None:
    """Push ``seat``'s turn: in the preparation round draw 2 then craft; afterwards Resource then Action Phase
    (from the tide's day on, the rising tide strikes first: :func:`.island.open_turn`)."""
    d.active = seat
    d.turn_decisions = d.turn_over = 0
    d.stack.append((Step.END_TURN, seat, 0, 0))
    if d.round_no == 0:
        d.stack.append((Step.PREP, seat, 0, 0))
        d.stack.append((Step.DRAW, seat, RULES.draw, 0))
        d.stack.append((Step.LIMIT, seat, RULES.draw, 0))
    else:
        d.stack.append((Step.ACTION, seat, 0, 0))
        d.stack.append((Step.RESOURCE, seat, 0, 0))
    island.open_turn(d, seat)


def push_gain(d: RoyaleData, seat: int, count: int) -> None:
    """Draw ``count`` cards, discarding down to the hand limit first."""
    d.stack.append((Step.DRAW, seat, count, 0))
    d.stack.append((Step.LIMIT, seat, count, 0))


# --- preparation round ---------------------------------------------------------------------------------
def legal_prep(d: RoyaleData, seat: int, a: int, b: int) -> list[int]:
    return [PASS, *(CRAFT0 + i for i in craftable(d, seat))]


def apply_prep(d: RoyaleData, action: int, seat: int, a: int, b: int) -> None:
    if action != PASS:
        d.stack.append((Step.PREP, seat, 0, 0))
        craft(d, seat, action - CRAFT0)


# --- Resource Phase ----------------------------------------------------------------------------------------
def legal_resource(d: RoyaleData, seat: int, a: int, b: int) -> list[int]:
    return [DRAW, *(SEAT0 + s for s in range(d.n) if s != seat and d.alive[s])]


def apply_resource(d: RoyaleData, action: int, seat: int, a: int, b: int) -> None:
    if action == DRAW:
        push_gain(d, seat, RULES.draw)
    else:  # steal 1 random card: an attack
        island.note_progress(d)
        attack.push_attack(d, seat, STEAL, action - SEAT0)
        d.stack.append((Step.LIMIT, seat, 1, 0))


# --- Action Phase -------------------------------------------------------------------------------------------
def usable_items(d: RoyaleData, seat: int) -> list[int]:
    """The items ``seat`` may use on its own turn, in card order (its owned cards, found by ``list.index``)."""
    out = []
    owner, hand, base = d.item_owner, d.hand, seat * K
    c = -1
    for _ in range(owner.count(seat)):
        c = owner.index(seat, c + 1)
        if not _ACTIVE[c] or not affordable(hand, base, _USE_PARTS[c]):
            continue
        if _SALVAGE[c] and not any(d.res_discard[:NUM_RES]):
            continue
        out.append(c)
    return out


def legal_action(d: RoyaleData, seat: int, a: int, b: int) -> list[int]:
    if d.turn_over:
        return []
    if d.turn_decisions >= RULES.max_decisions_per_turn:  # engine safety bound, far above real play
        return [PASS]
    out = [PASS]  # in action order: PASS < TRADE < VOTE < crafts < items
    if trade.partners(d, seat):
        out.append(TRADE)
    if vote.can_call(d):
        out.append(VOTE)
    out += [CRAFT0 + i for i in craftable(d, seat)]
    out += [ITEM0 + c for c in usable_items(d, seat)]
    return out


def apply_action(d: RoyaleData, action: int, seat: int, a: int, b: int) -> None:
    if action == PASS:
        return
    d.stack.append((Step.ACTION, seat, 0, 0))
    if action == TRADE:
        d.stack.append((Step.TRADE_PARTNER, seat, 0, 0))
    elif action == VOTE:
        vote.call_vote(d, seat)
    elif action < ITEM0:
        island.note_progress(d)
        craft(d, seat, action - CRAFT0)
    else:
        use_item(d, seat, action - ITEM0)


def use_item(d: RoyaleData, seat: int, card: int) -> None:
    """'Harca': an attack on one target is declared first (TARGET), then paid; any other item pays its use
    cost, then acts (paying the last resource eliminates the user)."""
    effect, n = CARD_EFFECT[card], _N[card]
    if effect in (Effect.DISCARD, Effect.STEAL) and not _AREA[card]:
        d.stack.append((Step.TARGET, seat, card, 0))
        return
    attack.spend(d, seat, card)
    if check_out(d, seat, []):
        return
    if effect in (Effect.DISCARD, Effect.STEAL):
        island.note_progress(d)
        attack.push_area_attack(d, seat, card)
    elif effect == Effect.DRAW:
        push_gain(d, seat, n)
    elif effect == Effect.SALVAGE:
        d.stack.append((Step.SALVAGE_KIND, seat, card, 0))


def legal_target(d: RoyaleData, seat: int, card: int, b: int) -> list[int]:
    return [SEAT0 + s for s in range(d.n) if s != seat and d.alive[s]]


def apply_target(d: RoyaleData, action: int, seat: int, card: int, b: int) -> None:
    """Seed: "Saldırgan (attacker) kimi hedef aldığını ve hangi eşyayı kullandığını ilan eder, ardından kullanım
    maliyetini öder." The target is declared, then the use cost paid."""
    island.note_progress(d)
    attack.spend(d, seat, card)
    if check_out(d, seat, []):
        return
    attack.push_attack(d, seat, card, action - SEAT0)
    if CARD_EFFECT[card] == Effect.STEAL:
        d.stack.append((Step.LIMIT, seat, _N[card], 0))


def legal_salvage_kind(d: RoyaleData, seat: int, card: int, b: int) -> list[int]:
    return [CARD0 + k for k in range(NUM_RES) if d.res_discard[k]]


def apply_salvage_kind(d: RoyaleData, action: int, seat: int, card: int, b: int) -> None:
    n = _N[card]
    d.stack.append((Step.SALVAGE, seat, action - CARD0, n))
    d.stack.append((Step.LIMIT, seat, n, 0))


def run_salvage(d: RoyaleData, seat: int, kind: int, n: int) -> None:
    """Take up to ``n`` cards of ``kind`` from the public discard pile (everybody sees them)."""
    from .resources import move_in

    for _ in range(min(n, d.res_discard[kind], room(d, seat))):
        d.res_discard[kind] -= 1
        move_in(d, seat, kind, public=True)


# --- the hand limit -------------------------------------------------------------------------------------
def run_limit(d: RoyaleData, seat: int, count: int, b: int) -> None:
    """Seed: "El limitini aşacak kart çekmesi gereken oyuncu, çekmeden önce yeterli kaynağı Çöp Yığınına
    atarak el limitinin altına inmelidir." """
    need = hand_size(d, seat) + count - hand_limit(d, seat)
    if need > 0:
        d.stack.append((Step.HAND_DISCARD, seat, need, 0))


def legal_hand_discard(d: RoyaleData, seat: int, need: int, b: int) -> list[int]:
    base = seat * K
    return [CARD0 + k for k in range(K) if d.hand[base + k]]


def apply_hand_discard(d: RoyaleData, action: int, seat: int, need: int, b: int) -> None:
    kind = action - CARD0
    move_out(d, seat, kind, public=True)
    d.res_discard[kind] += 1
    if need > 1:
        d.stack.append((Step.HAND_DISCARD, seat, need - 1, 0))


def run_draw(d: RoyaleData, seat: int, count: int, b: int) -> None:
    draw(d, seat, min(count, room(d, seat)))


# --- end of a turn --------------------------------------------------------------------------------------
def run_end_turn(d: RoyaleData, seat: int, a: int, b: int) -> None:
    """Count an idle turn (exposure may eliminate ``seat``: :func:`.island.close_turn`), refill the field and
    start the next living player's turn; passing the start player begins a new day."""
    if island.close_turn(d, seat):
        return
    refill_empty_slots(d)
    n = d.n
    pos = (seat - d.first_player) % n
    for i in range(1, n + 1):
        nxt = (seat + i) % n
        if d.alive[nxt]:
            break
    if (nxt - d.first_player) % n <= pos:  # passed the start player: a new day
        d.round_no += 1
        d.item_used = [0] * len(d.item_used)
    start_turn(d, nxt)


def _counted(apply: Apply) -> Apply:
    """Count every decision of the turn (the engine's safety bound, :data:`RULES.max_decisions_per_turn`)."""

    def run(d: RoyaleData, action: int, seat: int, a: int, b: int) -> None:
        d.turn_decisions += 1
        apply(d, action, seat, a, b)

    return run


_DECISIONS: dict[int, tuple[Legal, Apply]] = {
    Step.PREP: (legal_prep, apply_prep),
    Step.RESOURCE: (legal_resource, apply_resource),
    Step.ACTION: (legal_action, apply_action),
    Step.HAND_DISCARD: (legal_hand_discard, apply_hand_discard),
    Step.TARGET: (legal_target, apply_target),
    Step.SALVAGE_KIND: (legal_salvage_kind, apply_salvage_kind),
    Step.JOIN: (attack.legal_join, attack.apply_join),
    Step.DEFEND: (attack.legal_defend, attack.apply_defend),
    Step.TRADE_PARTNER: (trade.legal_partner, trade.apply_partner),
    Step.TRADE_GIVE: (trade.legal_give, trade.apply_give),
    Step.TRADE_ASK: (trade.legal_ask, trade.apply_ask),
    Step.TRADE_ANSWER: (trade.legal_answer, trade.apply_answer),
    Step.VOTE: (vote.legal_vote, vote.apply_vote),
    Step.LOOT_SPLIT: (elimination.legal_loot_split, elimination.apply_loot_split),
    Step.LOOT_ROOM: (elimination.legal_loot_room, elimination.apply_loot_room),
}
DECISIONS = {step: (legal, _counted(apply)) for step, (legal, apply) in _DECISIONS.items()}
AUTOMATIC: dict[int, Run] = {
    Step.LIMIT: run_limit,
    Step.DRAW: run_draw,
    Step.SALVAGE: run_salvage,
    Step.RESOLVE: attack.run_resolve,
    Step.FIGHT: attack.run_fight,
    Step.LOOT: elimination.run_loot,
    Step.VOTE_COUNT: vote.run_count,
    Step.END_TURN: run_end_turn,
}
MACHINE = TaskMachine(
    DECISIONS,
    AUTOMATIC,
    {int(k): v for k, v in DECISION_TEXT.items()},
    seat_in_game=lambda d, seat: bool(d.alive[seat]),
    run_without_seat=frozenset({Step.END_TURN, Step.LOOT}),
)
assert {int(s) for s in Step} == set(DECISIONS) | set(AUTOMATIC)
advance = MACHINE.advance
