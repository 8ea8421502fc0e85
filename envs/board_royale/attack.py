"""Attacks: declared target and item, the cost paid, other players joining, alternating answers, damage.

Seed: "Saldırgan (attacker) kimi hedef aldığını ve hangi eşyayı kullandığını ilan eder, ardından kullanım
maliyetini öder." "Bir oyuncunun kaynağını atmaya zorlayan herhangi bir eylem Saldırı (Attack) olarak kabul
edilir. Çalma (Steal) eylemi de bir saldırıdır." Defence: "saldırıyı tamamen 'önleyebilir' (avoid) ... saldırganın
harcadığı kaynaklar yine de Çöp Yığınına gider. - Saldırıyı saldırgana yansıtabilir (reflect/counter). - Hatta
savunan oyuncu, saldırganı anlık eşyalarıyla eleyebilir ve ganimetini alabilir." Collaborative attack: "son
darbeyi mevcut aktif oyuncu (sırası gelen oyuncu) vurmalıdır. Başka bir oyuncunun turunda rakip elenemez."

Order of an attack on one target: the active player declares and pays; every other living player who owns a
single-target weapon is asked, clockwise, whether to join (paying its use cost, never their last resource);
then the answers alternate ("Saldırı sırasında oyun tur tabanlı çözümlemeye geçer"): the side a blow is
aimed at (first the target) answers with an instant or hidden item, or passes (always asked, so an answer
never shows whether they hold a hidden item). An avoid ends the fight; a reflect turns the blows back on the
other side, an ambush replaces them with its counter-blow on the other side, and that side answers in turn,
and so on until a side passes or avoids. Every answer spends an item use paid with a resource card (never
the last) or a hidden item, so the exchange always ends. Then the blows land: on the target, the joiners'
first (never taking the target's last resource) and the active player's last, which may eliminate; turned
back, each on its own attacker (a joiner keeps their last card, the active player does not). A weapon that
hits every opponent is answered by each opponent in turn; nobody joins it. The attacking side answers
through the active player (joiners never answer).
"""

from __future__ import annotations

from .content import CARD_EFFECT, CARD_TYPE, HIDDEN_EFFECT, HIDDEN_TYPES, NUM_RES, Effect
from .elimination import check_out
from .resources import K, can_pay, discard_random, move_out, pay, room, steal_random
from .state import BLOW_ATTACK, BLOW_COUNTER, BLOW_NONE, NO, STEAL, RoyaleData
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
_SINGLE_WEAPONS = tuple(c for c, weapon in enumerate(SINGLE_WEAPON) if weapon)
_INSTANT_CARDS = tuple(c for c, instant in enumerate(_INSTANT) if instant)


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
    d.stack.append((Step.FIGHT, attacker, item, target))
    if item == STEAL or not _AREA[item]:
        n = d.n
        joiners = []
        for i in range(1, n):
            p = (attacker + i) % n
            if p != target and d.alive[p] and any(d.item_owner[c] == p for c in _SINGLE_WEAPONS):
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
        d.stack.append((Step.FIGHT, attacker, item, t))


# --- joining -------------------------------------------------------------------------------------------------
def legal_join(d: RoyaleData, seat: int, item: int, target: int) -> list[int]:
    from .actions import ITEM0, PASS

    if not d.alive[target] or not d.alive[d.active]:
        return []
    out = [PASS]
    for c in _SINGLE_WEAPONS:
        if d.item_owner[c] == seat and usable(d, seat, c, keep_one=True):
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


# --- answering -------------------------------------------------------------------------------------------
def run_fight(d: RoyaleData, attacker: int, item: int, target: int) -> None:
    """The attack's blows are aimed at the target, who answers first."""
    d.blow_on, d.blow_kind, d.blow_n, d.answers = target, BLOW_ATTACK, 0, 0


def legal_defend(d: RoyaleData, seat: int, item: int, other: int) -> list[int]:
    """Instant face-up items ``seat`` can pay for (never with their last resource) and hidden items in hand;
    the attack of an explosive item cannot be avoided, only reflected. Pass is always possible."""
    from .actions import CARD0, ITEM0, PASS

    if not d.alive[other] or not d.alive[seat] or d.blow_kind == BLOW_NONE:
        return []
    explosive = d.blow_kind == BLOW_ATTACK and item != STEAL and _EXPLOSIVE[item]
    out = [PASS]
    for c in _INSTANT_CARDS:
        if d.item_owner[c] == seat and usable(d, seat, c, keep_one=True):
            if explosive and CARD_EFFECT[c] != Effect.REFLECT:
                continue
            out.append(ITEM0 + c)
    b = seat * K
    for h in range(len(HIDDEN_TYPES)):
        if d.hand[b + NUM_RES + h] and not (explosive and HIDDEN_EFFECT[h] != Effect.REFLECT):
            out.append(CARD0 + NUM_RES + h)
    return out


def apply_defend(d: RoyaleData, action: int, seat: int, item: int, other: int) -> None:
    """Pass (the blow lands), avoid it (the fight ends), reflect it or ambush: then ``other`` answers."""
    from .actions import CARD0, ITEM0, PASS

    if action == PASS:
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
    d.answers += 1
    if effect == Effect.AVOID:
        d.blow_kind = BLOW_NONE
        return
    if effect == Effect.AMBUSH:
        d.blow_kind, d.blow_n = BLOW_COUNTER, n
    d.blow_on = other
    d.stack.append((Step.DEFEND, other, item, seat))


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
    """Land the blow where the answers left it."""
    joiners = d.joiners
    on, kind, n = d.blow_on, d.blow_kind, d.blow_n
    d.joiners = []
    d.blow_on, d.blow_kind, d.blow_n, d.answers = NO, BLOW_NONE, 0, 0
    if not d.alive[attacker] or not d.alive[target] or d.winner >= 0 or kind == BLOW_NONE:
        return
    pairs = [(joiners[i], joiners[i + 1]) for i in range(0, len(joiners), 2)]
    if kind == BLOW_COUNTER:  # an ambush's counter-blow, from the other side
        source = target if on == attacker else attacker
        discard_random(d, on, n, spare_last=False)
        check_out(d, on, [source])
        return
    if on == attacker:  # turned back: each blow on its own attacker
        for p, card in pairs:
            blow(d, card, target, p, final=False)
        blow(d, item, target, attacker, final=True)
        check_out(d, attacker, [target])
        return
    for p, card in pairs:
        blow(d, card, p, target, final=False)
    blow(d, item, attacker, target, final=True)
    check_out(d, target, [attacker, *(p for p, _ in pairs)])
