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

from functools import cache
from math import comb
from operator import sub

import numpy as np

from ..core.chance import arrange
from .content import CARD_EFFECT, KIND_COUNTS, NUM_KINDS, NUM_RES, RULES, Effect
from .state import RoyaleData

K = NUM_KINDS
_BACKPACKS = tuple(card for card, effect in enumerate(CARD_EFFECT) if effect == Effect.HAND_LIMIT)


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
    owner = d.item_owner
    for card in _BACKPACKS:
        if owner[card] == seat:
            return RULES.hand_limit + 4
    return RULES.hand_limit


def room(d: RoyaleData, seat: int) -> int:
    return max(0, hand_limit(d, seat) - hand_size(d, seat))


def can_pay(d: RoyaleData, seat: int, cost: tuple[int, ...], keep_one: bool = False) -> bool:
    """Whether ``seat`` holds ``cost``; with ``keep_one``, at least one resource must remain (a player off
    turn may never pay themselves out of the game)."""
    if not affordable(d.hand, seat * K, _parts(cost)):
        return False
    return not keep_one or resources_of(d, seat) - sum(cost) >= 1


def affordable(hand: list[int], base: int, parts: tuple[tuple[int, int], ...]) -> bool:
    """Whether the hand at ``hand[base:]`` holds every ``(kind, count)`` of ``parts`` (:func:`cost_parts`)."""
    for k, c in parts:  # noqa: SIM110 (a plain loop: several times faster than all() over a generator)
        if hand[base + k] < c:
            return False
    return True


def cost_parts(cost: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The ``(kind, count)`` pairs of a cost that are not zero."""
    return tuple((k, c) for k, c in enumerate(cost) if c)


_parts = cache(cost_parts)


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
    known, hid = d.known, d.hid_max
    size = hand_size(d, seat)
    hidden = kind >= NUM_RES
    for v in range(n):
        if v == seat:
            continue
        base = (v * n + seat) * K
        h = v * n + seat
        if public or v == witness:
            if known[base + kind]:
                known[base + kind] -= 1
            if hidden:
                hid[h] -= 1
        else:
            for k in range(K):
                if known[base + k]:
                    known[base + k] -= 1
        if hid[h] > size:
            hid[h] = size


def move_in(d: RoyaleData, seat: int, kind: int, public: bool, witness: int = -1, maybe_hidden=True) -> None:
    """Add one card of ``kind`` to ``seat``'s hand; everybody (``public``) or ``witness`` learns it. For the
    others, ``maybe_hidden`` (a bool, or one per viewer) says whether the card could be a hidden item."""
    d.hand[seat * K + kind] += 1
    n = d.n
    hidden = kind >= NUM_RES
    for v in range(n):
        if v == seat:
            continue
        if public or v == witness:
            d.known[(v * n + seat) * K + kind] += 1
            d.hid_max[v * n + seat] += hidden
        elif maybe_hidden if isinstance(maybe_hidden, bool) else maybe_hidden[v]:
            d.hid_max[v * n + seat] += 1


def show_at_least(d: RoyaleData, seat: int, kind: int, count: int) -> None:
    """Everybody sees that ``seat`` holds at least ``count`` cards of ``kind`` (e.g. offered in a trade)."""
    n = d.n
    for v in range(n):
        if v != seat:
            i = (v * n + seat) * K + kind
            d.known[i] = max(d.known[i], count)


# --- decks -------------------------------------------------------------------------------------------------
def deck_hidden_bounds(d: RoyaleData) -> tuple[int, int]:
    """Public bounds on the hidden items in the Resource Deck: it held ``deck_hidden`` of them when it was
    built (setup, or a reshuffle of the public discard pile), and only draws took cards from it since."""
    drawn = d.deck_built - len(d.res_deck)
    return max(0, d.deck_hidden - drawn), min(d.deck_hidden, len(d.res_deck))


def draw_card(d: RoyaleData) -> tuple[int, bool]:
    """Top card of the Resource Deck (the discard pile is reshuffled into it when it runs out; -1 if both are
    empty), and whether, for someone who cannot see it, it could be a hidden item."""
    if not d.res_deck:
        pile = d.res_discard
        if not any(pile):
            return -1, False
        cards = [k for k in range(K) for _ in range(pile[k])]
        rng = d.chance.generator()
        d.res_deck = [cards[i] for i in rng.permutation(len(cards))]
        d.res_discard = [0] * K
        d.deck_hidden = sum(pile[NUM_RES:])
        d.deck_built = len(d.res_deck)
    maybe = deck_hidden_bounds(d)[1] > 0
    return d.res_deck.pop(), maybe


def draw(d: RoyaleData, seat: int, count: int) -> int:
    """``seat`` draws ``count`` cards (unseen by the others); returns how many it got."""
    got = 0
    for _ in range(count):
        card, maybe = draw_card(d)
        if card < 0:
            break
        move_in(d, seat, card, public=False, maybe_hidden=maybe)
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
    r = d.chance.below(total)
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
        n = d.n
        maybe = [d.hid_max[v * n + victim] > 0 for v in range(n)]  # could the card be hidden, as v sees it
        move_out(d, victim, kind, public=False, witness=thief)
        move_in(d, thief, kind, public=False, witness=victim, maybe_hidden=maybe)
        done += 1
    return done


def sample_hands(d: RoyaleData, viewer: int, rng: np.random.Generator | None) -> None:
    """Deal every hand but ``viewer``'s and the Resource Deck again from the cards ``viewer`` cannot see,
    consistently with all ``viewer`` saw: hand sizes; ``viewer``'s knowledge (lower bounds by kind); at most
    ``hid_max`` hidden items in each hand (a hidden item only enters a hand by a draw from a deck that may
    hold one, a steal from a hand that may hold one, or openly); the public bounds on hidden items in the
    Resource Deck (:func:`deck_hidden_bounds`); a resource in every living hand. Among such deals the number
    of hidden items in each place is drawn with weight ``C(free slots, hidden)``, i.e. uniformly over card
    arrangements. Other players' knowledge rows are reset to "nothing known" (``viewer`` does not know them).
    With ``rng`` None the deal is canonical (a public copy's): the hidden items as late as they fit (Resource
    Deck first, then the last seats), the cards of each place sorted.
    """
    n = d.n
    others = [s for s in range(n) if s != viewer]
    pool_res: list[int] = []
    pool_hid: list[int] = [k for k in d.res_deck if k >= NUM_RES]
    pool_res += [k for k in d.res_deck if k < NUM_RES]
    fixed, free, cap = {}, [], []
    for s in others:
        b = s * K
        kb = (viewer * n + s) * K
        row = d.known[kb : kb + K]
        fixed[s] = row
        for k in range(K):
            extra = d.hand[b + k] - row[k]
            (pool_hid if k >= NUM_RES else pool_res).extend([k] * extra)
        slots = hand_size(d, s) - sum(row)
        room_h = d.hid_max[viewer * n + s] - sum(row[NUM_RES:])
        if d.alive[s] and sum(row[:NUM_RES]) == 0:
            room_h = min(room_h, slots - 1)
        free.append(slots)
        cap.append(max(0, min(room_h, slots)))
    lo, hi = deck_hidden_bounds(d)
    free.append(len(d.res_deck))
    cap.append(hi)
    lows = [0] * len(others) + [lo]
    counts = _split_hidden(len(pool_hid), free, lows, cap, rng)
    hid = arrange(pool_hid, rng)
    res = arrange(pool_res, rng)
    for i, s in enumerate(others):
        h = list(fixed[s])
        for k in hid[: counts[i]]:
            h[k] += 1
        hid = hid[counts[i] :]
        for k in res[: free[i] - counts[i]]:
            h[k] += 1
        res = res[free[i] - counts[i] :]
        d.hand[s * K : s * K + K] = h
    d.res_deck = arrange(hid + res, rng)
    for w in others:  # the others' knowledge: reset to what an empty history allows
        d.known[w * n * K : (w + 1) * n * K] = [0] * (n * K)
        for s in range(n):
            d.hid_max[w * n + s] = hand_size(d, s) if s != w else 0


def canonical_hands(d: RoyaleData, viewer: int) -> None:
    """:func:`sample_hands` with ``rng`` None (a public copy's canonical deal), on card counts by kind instead
    of sorted card lists: each place takes the lowest kinds left, hidden items and resources apart. The cards
    ``viewer`` cannot see are counted as every card but the discard pile, ``viewer``'s hand and what ``viewer``
    knows of the other hands (each card is in the Resource Deck, the discard pile or a hand: ``validate``)."""
    n = d.n
    hand, known, hid_max, alive = d.hand, d.known, d.hid_max, d.alive
    vb = viewer * K
    pool = list(map(sub, map(sub, KIND_COUNTS, d.res_discard), hand[vb : vb + K]))
    others = _OTHERS[n][viewer]
    sizes = [0] * n
    sizes[viewer] = sum(hand[vb : vb + K])
    rows, free, cap = [], [], []
    for s in others:
        kb = (viewer * n + s) * K
        row = known[kb : kb + K]
        sizes[s] = slots = sum(hand[s * K : s * K + K])
        room_h = hid_max[viewer * n + s]
        known_res = 0
        if any(row):
            pool = list(map(sub, pool, row))
            known_hid = sum(row[NUM_RES:])
            known_res = sum(row) - known_hid
            slots -= known_res + known_hid
            room_h -= known_hid
        if known_res == 0 and alive[s] and room_h >= slots:  # a living hand keeps a resource
            room_h = slots - 1
        rows.append(row)
        free.append(slots)
        cap.append(max(0, min(room_h, slots)))
    lo, hi = deck_hidden_bounds(d)
    free.append(len(d.res_deck))
    cap.append(hi)
    counts = _canonical_split(sum(pool[NUM_RES:]), free, lo, cap)
    for s, h, slots, hidden in zip(others, rows, free[:-1], counts[:-1], strict=True):  # the deck: the rest
        _take(pool, h, _HIDDEN_KINDS, hidden)
        _take(pool, h, _RES_KINDS, slots - hidden)
        hand[s * K : s * K + K] = h
    rest: list[int] = []
    for k in _KINDS:
        if pool[k]:
            rest += [k] * pool[k]
    d.res_deck = rest
    zeros = [0] * (n * K)
    for w in others:  # the others' knowledge: reset to what an empty history allows
        known[w * n * K : (w + 1) * n * K] = zeros
        hid_max[w * n : w * n + n] = sizes
        hid_max[w * n + w] = 0


_KINDS = tuple(range(K))
_RES_KINDS, _HIDDEN_KINDS = _KINDS[:NUM_RES], _KINDS[NUM_RES:]
#: the seats other than the viewer, by table size and viewer
_OTHERS = {n: tuple(tuple(s for s in range(n) if s != v) for v in range(n)) for n in range(1, 7)}


def _canonical_split(total: int, free: list[int], low_last: int, cap: list[int]) -> list[int]:
    """``_split_hidden(total, free, [0, ..., 0, low_last], cap, None)``: the same counts, the same error."""
    top = list(map(min, cap, free))
    most = sum(top)
    if low_last > top[-1] or min(top) < 0 or not low_last <= total <= most:
        raise AssertionError("board_royale: no deal of the hidden items fits what the viewer saw")
    out, r = [], total
    for t in top:
        most -= t  # what the later places can hold
        x = r - most if r > most else 0
        out.append(x)
        r -= x
    if out[-1] < low_last:  # the Resource Deck (the last place) holds at least low_last
        out[-1] = low_last
    return out


def _take(pool: list[int], h: list[int], kinds: tuple[int, ...], count: int) -> None:
    """Move ``count`` cards (or all there are) of the lowest of ``kinds`` from ``pool`` to ``h``."""
    for k in kinds:
        if count <= 0:
            return
        t = pool[k]
        if t:
            if t > count:
                t = count
            h[k] += t
            pool[k] -= t
            count -= t


def _split_hidden(
    total: int, free: list[int], low: list[int], cap: list[int], rng: np.random.Generator | None
) -> list[int]:
    """Counts ``x[i]`` in ``[low[i], cap[i]]`` summing to ``total``, drawn with weight ``prod C(free[i], x[i])``
    (``rng`` None: each count the smallest that lets the later places hold the rest)."""
    m = len(free)
    top = [min(cap[i], free[i]) for i in range(m)]  # C(free, x) is 0 above free: place i holds low..top
    later_low, later_top = [0] * (m + 1), [0] * (m + 1)  # the least and the most places i.. can hold
    for i in range(m - 1, -1, -1):
        later_low[i], later_top[i] = later_low[i + 1] + low[i], later_top[i + 1] + top[i]
    if any(low[i] > top[i] for i in range(m)) or not later_low[0] <= total <= later_top[0]:
        raise AssertionError("board_royale: no deal of the hidden items fits what the viewer saw")
    if rng is None:  # each place's range is an interval, so the smallest count that fits is a bound
        out, r = [], total
        for i in range(m):
            x = max(low[i], r - later_top[i + 1])
            out.append(x)
            r -= x
        return out
    ways = [[0] * (total + 1) for _ in range(m + 1)]  # ways[i][r]: places i.. hold r hidden items
    ways[m][0] = 1
    combs = [[comb(free[i], x) for x in range(cap[i] + 1)] for i in range(m)]
    for i in range(m - 1, 0, -1):  # ways[0] is not needed: the first place takes what fits of the total
        c, nxt, row = combs[i], ways[i + 1], ways[i]
        for r in range(later_low[i], min(later_top[i], total) + 1):  # 0 elsewhere
            lo_x, hi_x = max(low[i], r - later_top[i + 1]), min(top[i], r - later_low[i + 1])
            row[r] = sum(c[x] * nxt[r - x] for x in range(lo_x, hi_x + 1))
    out, r = [], total
    for i in range(m):
        c, nxt = combs[i], ways[i + 1]
        options = [(x, c[x] * nxt[r - x]) for x in range(low[i], min(cap[i], r) + 1)]
        total_w = sum(w for _, w in options)  # exact big ints; the draw uses their ratios
        pick = rng.random() * total_w
        chosen = options[-1][0]
        for x, w in options:
            if pick < w:
                chosen = x
                break
            pick -= w
        out.append(chosen)
        r -= chosen
    return out
