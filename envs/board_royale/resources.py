"""Resource cards: drawing, paying, random discards, steals, the hand limit and reshuffles; plus what each
player knows about the other hands.

Seed: "Kaynaklar hem eşya üretmek hem de eşya kullanmak için harcanır; aynı zamanda canın (sağlığın) yerine
geçer - kaynaksız kalan oyuncu elenir." Hand limit: "Bir oyuncunun elinde en fazla 20 kaynak kartı
bulunabilir ... Sırt Çantası +4 artırarak limiti 24'e çıkarır". Reshuffle: "Kaynak Destesi veya Eşya Destesi
tükenirse, ilgili Çöp Yığını karıştırılarak yeni bir deste oluşturulur."

Knowledge (``known``) is a lower bound per viewer, holder and kind. It grows when a viewer sees a card go
into a hand (a card stolen from them, a trade, loot) and shrinks when the holder loses cards: by one of that
kind when the loss is public (paying, a random discard face up, revealing a hidden item), by one of every
kind when the viewer cannot see which card left (a steal by somebody else).
"""

from __future__ import annotations

import numpy as np

from .content import CARD_EFFECT, NUM_KINDS, NUM_RES, RULES, Effect
from .state import RoyaleData

K = NUM_KINDS


def resources_of(d: RoyaleData, seat: int) -> int:
    """Resource cards in ``seat``'s hand (hidden items are not resources)."""
    b = seat * K
    return sum(d.hand[b : b + NUM_RES])


def hand_size(d: RoyaleData, seat: int) -> int:
    """Cards in hand: resources and hidden items (the only public fact about a hand)."""
    b = seat * K
    return sum(d.hand[b : b + K])


def hand_limit(d: RoyaleData, seat: int) -> int:
    """20, or 24 with a Backpack (a second Backpack adds nothing)."""
    for card, owner in enumerate(d.item_owner):
        if owner == seat and CARD_EFFECT[card] == Effect.HAND_LIMIT:
            return RULES.hand_limit + 4
    return RULES.hand_limit


def room(d: RoyaleData, seat: int) -> int:
    return max(0, hand_limit(d, seat) - hand_size(d, seat))


def can_pay(d: RoyaleData, seat: int, cost: tuple[int, ...], keep_one: bool = False) -> bool:
    """Whether ``seat`` holds ``cost``; with ``keep_one``, at least one resource must remain (a player off
    turn may never pay themselves out of the game)."""
    h = d.hand
    b = seat * K
    if any(h[b + k] < c for k, c in enumerate(cost) if c):
        return False
    return not keep_one or resources_of(d, seat) - sum(cost) >= 1


def pay(d: RoyaleData, seat: int, cost: tuple[int, ...]) -> None:
    """Pay a cost to the Resource Discard Pile (public)."""
    for k, c in enumerate(cost):
        for _ in range(c):
            move_out(d, seat, k, public=True)
            d.res_discard[k] += 1


# --- single cards in and out of a hand, with knowledge ---------------------------------------------------
def move_out(d: RoyaleData, seat: int, kind: int, public: bool, witness: int = -1) -> None:
    """Remove one card of ``kind`` from ``seat``'s hand. ``public``: everybody sees its kind; otherwise only
    ``witness`` (and the holder) does."""
    d.hand[seat * K + kind] -= 1
    n = d.n
    known = d.known
    for v in range(n):
        if v == seat:
            continue
        base = (v * n + seat) * K
        if public or v == witness:
            if known[base + kind]:
                known[base + kind] -= 1
        else:
            for k in range(K):
                if known[base + k]:
                    known[base + k] -= 1


def move_in(d: RoyaleData, seat: int, kind: int, public: bool, witness: int = -1) -> None:
    """Add one card of ``kind`` to ``seat``'s hand; everybody (``public``) or ``witness`` learns it."""
    d.hand[seat * K + kind] += 1
    n = d.n
    if public:
        for v in range(n):
            if v != seat:
                d.known[(v * n + seat) * K + kind] += 1
    elif witness >= 0 and witness != seat:
        d.known[(witness * n + seat) * K + kind] += 1


def show_at_least(d: RoyaleData, seat: int, kind: int, count: int) -> None:
    """Everybody sees that ``seat`` holds at least ``count`` cards of ``kind`` (e.g. offered in a trade)."""
    n = d.n
    for v in range(n):
        if v != seat:
            i = (v * n + seat) * K + kind
            d.known[i] = max(d.known[i], count)


# --- decks -------------------------------------------------------------------------------------------------
def draw_card(d: RoyaleData) -> int:
    """Top card of the Resource Deck (the discard pile is reshuffled into it when it runs out); -1 if both
    are empty."""
    if not d.res_deck:
        pile = d.res_discard
        if not any(pile):
            return -1
        cards = [k for k in range(K) for _ in range(pile[k])]
        rng = d.chance.generator()
        d.res_deck = [cards[i] for i in rng.permutation(len(cards))]
        d.res_discard = [0] * K
    return d.res_deck.pop()


def draw(d: RoyaleData, seat: int, count: int) -> int:
    """``seat`` draws ``count`` cards (unseen by the others); returns how many it got."""
    got = 0
    for _ in range(count):
        card = draw_card(d)
        if card < 0:
            break
        move_in(d, seat, card, public=False)
        got += 1
    return got


def random_card(d: RoyaleData, seat: int, resources_only: bool, spare_last: bool) -> int:
    """A random card kind of ``seat``'s hand (-1 if none). ``spare_last``: never the last resource card."""
    b = seat * K
    top = NUM_RES if resources_only else K
    counts = d.hand[b : b + top]
    if spare_last and sum(counts[:NUM_RES]) <= 1:
        counts = [0] * NUM_RES + counts[NUM_RES:]
    total = sum(counts)
    if total == 0:
        return -1
    r = int(d.chance.generator().integers(total))
    for k, c in enumerate(counts):
        if r < c:
            return k
        r -= c
    raise AssertionError("unreachable")


def discard_random(d: RoyaleData, seat: int, count: int, spare_last: bool) -> int:
    """``seat`` discards ``count`` random resource cards face up (an attack's damage); returns how many."""
    done = 0
    for _ in range(count):
        kind = random_card(d, seat, resources_only=True, spare_last=spare_last)
        if kind < 0:
            break
        move_out(d, seat, kind, public=True)
        d.res_discard[kind] += 1
        done += 1
    return done


def steal_random(d: RoyaleData, thief: int, victim: int, count: int, spare_last: bool) -> int:
    """``thief`` takes ``count`` random cards from ``victim``'s hand (at most the thief's room). Only the two
    of them learn which cards (seed: "rakibin elinden rastgele bir kart seçersin")."""
    done = 0
    for _ in range(min(count, room(d, thief))):
        kind = random_card(d, victim, resources_only=False, spare_last=spare_last)
        if kind < 0:
            break
        move_out(d, victim, kind, public=False, witness=thief)
        move_in(d, thief, kind, public=False, witness=victim)
        done += 1
    return done


def sample_hands(d: RoyaleData, viewer: int, rng: np.random.Generator) -> None:
    """Resample every hand but ``viewer``'s and the Resource Deck's order from the cards ``viewer`` cannot
    see, keeping hand sizes, ``viewer``'s knowledge (lower bounds) and the public fact that every living
    player holds a resource. Other players' knowledge rows are cleared (``viewer`` does not know them)."""
    n = d.n
    others = [s for s in range(n) if s != viewer]
    pool = list(d.res_deck)
    sizes = {}
    fixed = {}
    for s in others:
        b = s * K
        for k in range(K):
            pool += [k] * d.hand[b + k]
        sizes[s] = sum(d.hand[b : b + K])
        kb = (viewer * n + s) * K
        fixed[s] = d.known[kb : kb + K]
    for s in others:
        for k in range(K):
            for _ in range(fixed[s][k]):
                pool.remove(k)
    for attempt in range(50):
        order = [pool[i] for i in rng.permutation(len(pool))]
        hands = {}
        pos = 0
        for s in others:
            need = sizes[s] - sum(fixed[s])
            h = list(fixed[s])
            for k in order[pos : pos + need]:
                h[k] += 1
            pos += need
            hands[s] = h
        if all(not d.alive[s] or sum(hands[s][:NUM_RES]) >= 1 for s in others) or attempt == 49:
            break
    deck = order[pos:]
    for s in others:  # repair (rare): swap a hidden item with a resource from the deck
        h = hands[s]
        if d.alive[s] and sum(h[:NUM_RES]) == 0:
            i = next(i for i, k in enumerate(deck) if k < NUM_RES)
            j = next(k for k in range(NUM_RES, K) if h[k] > fixed[s][k])
            h[deck[i]] += 1
            h[j] -= 1
            deck[i] = j
        d.hand[s * K : s * K + K] = h
    d.res_deck = deck
    for w in others:
        d.known[w * n * K : (w + 1) * n * K] = [0] * (n * K)
