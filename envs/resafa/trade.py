"""Trade: the mandatory camel move (loading in Resafa), one buy or sell of one kind up to the camel's
capacity, the gold bonus, the trading tile flipped, the optional trading post and its merchant token.

Seed: "Ticaret aksiyonu üç bölümden oluşur: hareket (zorunlu), alım-satım (isteğe bağlı) ve ticaret üssü kurma
(isteğe bağlı)." "Deve kervanı aynı anda yalnızca TEK türde mal veya kaynak taşıyabilir." "İlk iki jeton oyuncu
tahtasının solundaki geçit alanına konmak zorundadır ... sonrakiler ... 3 satırdan birinin en soldaki boş
kutusuna konur."
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import BUY, COUNT0, ITEM0, MOVE0, PASS, POSTBOX0, ROW0, SELL, USE
from .content import Bundle, content
from .economy import build_cost, camel_capacity, can_pay, discount, gain, pay, triggered
from .effects import discount_of, push_effects
from .geometry import move_cost
from .hand import use_actions
from .state import CENTRE_NODES, CITY, NO, NUM_ITEMS, POSTS_PER_CENTRE, ResafaData, S
from .steps import Step

C = content()
SQUARE, SCARAB = 0, 1
ROW_SIZE = len(C.scoring.multiplier_rows["garden"])
ROW_NAMES = ("garden", "workshop", "canal")


def start_trade(d: ResafaData, seat: int, road_discount: int) -> None:
    d.stack.append((Step.TRADE_MOVE, seat, road_discount, 0))


def road_cost(d: ResafaData, seat: int, dest: int, via: bool, road_discount: int) -> int:
    here = d.camel_at[seat]
    off = road_discount + discount(d, seat, "road").coins
    return max(0, move_cost(here, dest, via) - off)


#: per node the camel is at: ``(centre, direct cost, cost through Resafa)`` of each centre (:func:`move_cost`)
MOVE_COSTS = tuple(
    tuple((n, move_cost(here, n, False), move_cost(here, n, True)) for n in CENTRE_NODES)
    for here in range(len(C.centres))
)


def moves(d: ResafaData, seat: int, road_discount: int) -> Iterator[int]:
    """Every centre the camel can pay to reach: directly (another centre) or through Resafa (any centre,
    the one it stands at included). Leaving Resafa itself always passes through it."""
    here = d.camel_at[seat]
    coins = d.coins[seat]
    off = road_discount + discount(d, seat, "road").coins  # road_cost's discount, read once
    for n, direct, via in MOVE_COSTS[here]:
        if here != CITY and n != here and max(0, direct - off) <= coins:
            yield MOVE0 + 2 * n
        if max(0, via - off) <= coins:
            yield MOVE0 + 2 * n + 1


def legal_move(d: ResafaData, seat: int, road_discount: int, b: int) -> list[int]:
    return list(moves(d, seat, road_discount))


def apply_move(d: ResafaData, action: int, seat: int, road_discount: int, b: int) -> None:
    dest, via = divmod(action - MOVE0, 2)
    d.coins[seat] -= road_cost(d, seat, dest, bool(via), road_discount)
    d.camel_at[seat] = dest
    d.stack.append((Step.DEAL, seat, dest, 0))
    if via:
        # through Resafa: the cargo goes to the storehouse, then the camel is loaded with one kind
        if d.camel_item[seat] != NO:
            d.store[seat * NUM_ITEMS + d.camel_item[seat]] += d.camel_load[seat]
            d.camel_item[seat], d.camel_load[seat] = NO, 0
        d.stack.append((Step.LOAD_ITEM, seat, 0, 0))


def _holds_cards(d: ResafaData, seat: int) -> bool:
    """Whether ``seat`` holds a card it could use now (it may gain what loading or dealing needs)."""
    return bool(use_actions(d, seat))


def legal_load_item(d: ResafaData, seat: int, a: int, b: int) -> list[int]:
    out = [ITEM0 + k for k in range(NUM_ITEMS) if d.store[seat * NUM_ITEMS + k]]
    return [*out, PASS] if out or _holds_cards(d, seat) else []


def apply_load_item(d: ResafaData, action: int, seat: int, a: int, b: int) -> None:
    if action != PASS:
        d.stack.append((Step.LOAD_COUNT, seat, action - ITEM0, 0))


def legal_load_count(d: ResafaData, seat: int, item: int, b: int) -> list[int]:
    top = min(camel_capacity(d, seat), d.store[seat * NUM_ITEMS + item])
    return [COUNT0 + n - 1 for n in range(1, top + 1)]


def apply_load_count(d: ResafaData, action: int, seat: int, item: int, b: int) -> None:
    n = action - COUNT0 + 1
    if d.camel_item[seat] != NO:  # a card used at this decision loaded the camel meanwhile: it unloads first
        d.store[seat * NUM_ITEMS + d.camel_item[seat]] += d.camel_load[seat]
    d.store[seat * NUM_ITEMS + item] -= n
    d.camel_item[seat], d.camel_load[seat] = item, n


def deal_at(d: ResafaData, node: int):
    return C.trading_tiles[d.trade_tile[node]].sides[d.trade_side[node]]


def _buy_max(d: ResafaData, seat: int, node: int) -> int:
    deal = deal_at(d, node)
    if d.camel_item[seat] not in (NO, deal.item):
        return 0
    room = camel_capacity(d, seat) - d.camel_load[seat]
    afford = d.coins[seat] // deal.buy if deal.buy else room
    return max(0, min(room, afford, d.supply[deal.item]))


def _sell_max(d: ResafaData, seat: int, node: int) -> int:
    deal = deal_at(d, node)
    return d.camel_load[seat] if d.camel_item[seat] == deal.item else 0


def legal_deal(d: ResafaData, seat: int, node: int, b: int) -> list[int]:
    out = []
    if _buy_max(d, seat, node):
        out.append(BUY)
    if _sell_max(d, seat, node):
        out.append(SELL)
    return [*out, PASS] if out or _holds_cards(d, seat) else []


def apply_deal(d: ResafaData, action: int, seat: int, node: int, b: int) -> None:
    if action == PASS:
        return
    kind = 0 if action == BUY else 1
    gold = deal_at(d, node).gold_on == ("buy", "sell")[kind]
    d.stack.append((Step.DEAL_COUNT, seat, kind, node + GOLD_PENDING * gold))


#: DEAL_COUNT's ``b`` = node + GOLD_PENDING while the deal's one-off gold bonus is still to be taken
GOLD_PENDING = 64


def legal_deal_count(d: ResafaData, seat: int, kind: int, b: int) -> list[int]:
    """The counts; while the gold bonus is pending also USE: take it now, before the deal. Seed: the gold
    bonus "ticaretten önce ya da sonra kullanılabilir" - choosing a count first takes it after the deal."""
    node = b % GOLD_PENDING
    top = _buy_max(d, seat, node) if kind == 0 else _sell_max(d, seat, node)
    out = [COUNT0 + n - 1 for n in range(1, top + 1)]
    return [*out, USE] if b >= GOLD_PENDING and out else out


def apply_deal_count(d: ResafaData, action: int, seat: int, kind: int, b: int) -> None:
    node, gold = b % GOLD_PENDING, b >= GOLD_PENDING
    deal = deal_at(d, node)
    if action == USE:  # the gold bonus before the deal; the count decision comes back without it
        d.stack.append((Step.DEAL_COUNT, seat, kind, node))
        push_effects(d, seat, deal.gold)
        return
    n = action - COUNT0 + 1
    if kind == 0:
        d.coins[seat] -= n * deal.buy
        d.supply[deal.item] -= n
        d.camel_item[seat] = deal.item
        d.camel_load[seat] += n
    else:
        d.camel_load[seat] -= n
        d.supply[deal.item] += n
        if not d.camel_load[seat]:
            d.camel_item[seat] = NO
        s = deal.sell
        gain(d, seat, Bundle(coins=n * s.coins, vp=n * s.vp))
    d.trade_side[node] ^= 1  # the tile is flipped after a deal
    d.stack.append((Step.POST_BOX, seat, 0, 0))
    for then in triggered(d, seat, ("buy", "sell")[kind]):
        push_effects(d, seat, then)
    if gold:  # not taken before: the gold bonus right after the deal, before the trading post
        push_effects(d, seat, deal.gold)


# --- trading posts and merchant tokens ------------------------------------------------------------------------
def post_cost(d: ResafaData, seat: int, code: int) -> Bundle:
    return build_cost(d, seat, S.post_cost, "post", discount_of(code))


def legal_post_box(d: ResafaData, seat: int, code: int, b: int) -> list[int]:
    node = d.camel_at[seat]
    if node == CITY:
        return []
    owners = d.post_owner[node * POSTS_PER_CENTRE : (node + 1) * POSTS_PER_CENTRE]
    if seat in owners or not can_pay(d, seat, post_cost(d, seat, code)):
        return []
    boxes = C.centres[node].posts
    out = [POSTBOX0 + i for i, box in enumerate(boxes) if box.min_players <= max(d.players, 2) and owners[i] == NO]
    return [*out, PASS] if out else []


def apply_post_box(d: ResafaData, action: int, seat: int, code: int, b: int) -> None:
    if action == PASS:
        return
    node, i = d.camel_at[seat], action - POSTBOX0
    pay(d, seat, post_cost(d, seat, code))
    d.post_owner[node * POSTS_PER_CENTRE + i] = seat
    box = C.centres[node].posts[i]
    for then in triggered(d, seat, "post"):
        push_effects(d, seat, then)
    kind = SCARAB if box.token == "scarab" else SQUARE
    if d.tokens[kind]:
        if d.gate[seat] < S.gate_size:
            d.tokens[kind] -= 1
            d.gate[seat] += 1
            d.scarabs[seat] += kind
        elif legal_row(d, seat, kind, 0):
            d.stack.append((Step.MERCHANT_ROW, seat, kind, 0))
    push_effects(d, seat, box.effects)


def legal_row(d: ResafaData, seat: int, kind: int, b: int) -> list[int]:
    return [ROW0 + r for r in range(3) if d.rows[seat * 3 + r] < ROW_SIZE]


def apply_row(d: ResafaData, action: int, seat: int, kind: int, b: int) -> None:
    d.tokens[kind] -= 1
    d.rows[seat * 3 + action - ROW0] += 1
    d.scarabs[seat] += kind


__all__ = ["can_pay"]
