"""Attacks: declared target and item, the cost paid, other players joining, the defender's answer, damage.

Seed: "Saldırgan (attacker) kimi hedef aldığını ve hangi eşyayı kullandığını ilan eder, ardından kullanım
maliyetini öder." "Bir oyuncunun kaynağını atmaya zorlayan herhangi bir eylem Saldırı (Attack) olarak kabul
edilir. Çalma (Steal) eylemi de bir saldırıdır." Defence: "saldırıyı tamamen 'önleyebilir' (avoid) ... saldırganın
harcadığı kaynaklar yine de Çöp Yığınına gider. - Saldırıyı saldırgana yansıtabilir (reflect/counter). - Hatta
savunan oyuncu, saldırganı anlık eşyalarıyla eleyebilir ve ganimetini alabilir." Collaborative attack: "son
darbeyi mevcut aktif oyuncu (sırası gelen oyuncu) vurmalıdır. Başka bir oyuncunun turunda rakip elenemez."

Order of an attack on one target: the active player declares and pays; every other living player who owns a
single-target weapon is asked, clockwise, whether to join (paying its use cost, never their last resource);
the target answers (always asked, so an answer never shows whether they hold a hidden item); then the
joiners' blows land (never taking the target's last resource), and the active player's blow last, which may
eliminate. A weapon that hits every opponent is answered by each opponent in turn; nobody joins it.
"""

from __future__ import annotations

from .content import CARD_EFFECT, CARD_TYPE, HIDDEN_EFFECT, HIDDEN_TYPES, NUM_RES, Effect
from .elimination import check_out
from .resources import K, can_pay, discard_random, move_out, pay, room, steal_random
from .state import (
    ANSWER_AMBUSH,
    ANSWER_AVOID,
    ANSWER_NONE,
    ANSWER_REFLECT,
    NO,
    STEAL,
    RoyaleData,
)
from .steps import Step

_USE = tuple(t.use for t in CARD_TYPE)
_N = tuple(t.n for t in CARD_TYPE)
_AREA = tuple(t.area for t in CARD_TYPE)
_EXPLOSIVE = tuple(t.explosive for t in CARD_TYPE)
_INSTANT = tuple(t.instant for t in CARD_TYPE)
_CONSUMABLE = tuple(t.consumable for t in CARD_TYPE)
#: single-target weapons (can join a collaborative attack)
SINGLE_WEAPON = tuple(
    CARD_EFFECT[c] in (Effect.DISCARD, Effect.STEAL) and not _AREA[c] and not _INSTANT[c] for c in range(len(CARD_TYPE))
)
_ANSWER = {Effect.AVOID: ANSWER_AVOID, Effect.REFLECT: ANSWER_REFLECT, Effect.AMBUSH: ANSWER_AMBUSH}


def item_effect(item: int) -> tuple[int, int]:
    """``(effect, n)`` of an attacking item (``STEAL``: the Resource Phase steal of 1 card)."""
    if item == STEAL:
        return Effect.STEAL, 1
    return CARD_EFFECT[item], _N[item]


def spend(d: RoyaleData, seat: int, card: int) -> None:
    """'Harca': use an owned item: pay its use cost, count the use; a green item is discarded."""
    pay(d, seat, _USE[card])
    d.item_used[card] += 1
    if _CONSUMABLE[card]:
        d.item_owner[card] = NO
        d.item_used[card] = 0
        d.item_discard.append(card)


def usable(d: RoyaleData, seat: int, card: int, keep_one: bool) -> bool:
    """An owned item may be used as often as its use cost can be paid (seed FAQ: "Yeterli kaynağın olduğu
    sürece ... birden fazla eşya kullanabilir ... Herhangi bir aksiyon sayısı sınırı yoktur")."""
    return can_pay(d, seat, _USE[card], keep_one)


# --- declaring ---------------------------------------------------------------------------------------------
def push_attack(d: RoyaleData, attacker: int, item: int, target: int) -> None:
    """Push the resolution of an attack on one target: joins (clockwise), the defence, the resolution."""
    d.stack.append((Step.RESOLVE, attacker, item, target))
    d.stack.append((Step.DEFEND, target, item, attacker))
    if item == STEAL or not _AREA[item]:
        n = d.n
        joiners = []
        for i in range(1, n):
            p = (attacker + i) % n
            if (
                p != target
                and d.alive[p]
                and any(owner == p and SINGLE_WEAPON[c] for c, owner in enumerate(d.item_owner))
            ):
                joiners.append(p)
        for p in reversed(joiners):
            d.stack.append((Step.JOIN, p, item, target))


def push_area_attack(d: RoyaleData, attacker: int, item: int) -> None:
    """A weapon that hits every opponent: each living opponent, clockwise, answers and takes the blow."""
    n = d.n
    targets = [(attacker + i) % n for i in range(1, n) if d.alive[(attacker + i) % n]]
    for t in reversed(targets):
        d.stack.append((Step.RESOLVE, attacker, item, t))
        d.stack.append((Step.DEFEND, t, item, attacker))


# --- joining -------------------------------------------------------------------------------------------------
def legal_join(d: RoyaleData, seat: int, item: int, target: int) -> list[int]:
    from .actions import ITEM0, PASS

    if not d.alive[target] or not d.alive[d.active]:
        return []
    out = [PASS]
    for c, owner in enumerate(d.item_owner):
        if owner == seat and SINGLE_WEAPON[c] and usable(d, seat, c, keep_one=True):
            if CARD_EFFECT[c] == Effect.STEAL and room(d, seat) < _N[c]:
                continue
            out.append(ITEM0 + c)
    return out


def apply_join(d: RoyaleData, action: int, seat: int, item: int, target: int) -> None:
    from .actions import ITEM0, PASS

    if action == PASS:
        return
    card = action - ITEM0
    spend(d, seat, card)
    d.joiners += [seat, card]


# --- defending -------------------------------------------------------------------------------------------
def legal_defend(d: RoyaleData, seat: int, item: int, attacker: int) -> list[int]:
    """Instant face-up items the defender can pay for (never with their last resource) and hidden items in
    hand; an explosive attack cannot be avoided, only reflected. Pass is always possible."""
    from .actions import CARD0, ITEM0, PASS

    if not d.alive[attacker] or not d.alive[seat]:
        return []
    explosive = item != STEAL and _EXPLOSIVE[item]
    out = [PASS]
    for c, owner in enumerate(d.item_owner):
        if owner == seat and _INSTANT[c] and usable(d, seat, c, keep_one=True):
            if explosive and CARD_EFFECT[c] != Effect.REFLECT:
                continue
            out.append(ITEM0 + c)
    b = seat * K
    for h in range(len(HIDDEN_TYPES)):
        if d.hand[b + NUM_RES + h] and not (explosive and HIDDEN_EFFECT[h] != Effect.REFLECT):
            out.append(CARD0 + NUM_RES + h)
    return out


def apply_defend(d: RoyaleData, action: int, seat: int, item: int, attacker: int) -> None:
    from .actions import CARD0, ITEM0, PASS

    if action == PASS:
        d.answer, d.answer_n = ANSWER_NONE, 0
        return
    if action >= CARD0:  # reveal a hidden item: it goes to the Resource Discard Pile
        kind = action - CARD0
        move_out(d, seat, kind, public=True)
        d.res_discard[kind] += 1
        effect, n = HIDDEN_EFFECT[kind - NUM_RES], HIDDEN_TYPES[kind - NUM_RES].n
    else:
        card = action - ITEM0
        effect, n = CARD_EFFECT[card], _N[card]
        spend(d, seat, card)
    d.answer, d.answer_n = _ANSWER[effect], n


# --- resolving -------------------------------------------------------------------------------------------
def blow(d: RoyaleData, item: int, source: int, victim: int, final: bool) -> None:
    """One attacker's effect from ``source`` on ``victim``. Only a ``final`` blow (the active player's, or
    one that lands on the active player) may take the last resource card."""
    effect, n = item_effect(item)
    if effect == Effect.STEAL:
        steal_random(d, source, victim, n, spare_last=not final)
    else:
        discard_random(d, victim, n, spare_last=not final)


def run_resolve(d: RoyaleData, attacker: int, item: int, target: int) -> None:
    joiners = d.joiners
    d.joiners = []
    answer, n = d.answer, d.answer_n
    d.answer, d.answer_n = ANSWER_NONE, 0
    if not d.alive[attacker] or not d.alive[target] or d.winner >= 0:
        return
    pairs = [(joiners[i], joiners[i + 1]) for i in range(0, len(joiners), 2)]
    if answer == ANSWER_AVOID:
        return
    if answer == ANSWER_AMBUSH:
        discard_random(d, attacker, n, spare_last=False)
        check_out(d, attacker, [target])
        return
    if answer == ANSWER_REFLECT:
        for p, card in pairs:
            blow(d, card, target, p, final=False)
        blow(d, item, target, attacker, final=True)
        check_out(d, attacker, [target])
        return
    for p, card in pairs:
        blow(d, card, p, target, final=False)
    blow(d, item, attacker, target, final=True)
    check_out(d, target, [attacker, *(p for p, _ in pairs)])
