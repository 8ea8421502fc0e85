"""Scenarios: the trade action (move, load in Resafa, buy or sell one kind, gold bonus, flipped tile, trading
post, merchant tokens)."""

from __future__ import annotations

from resafa_scenario import MARBLE, P0, P1, SPICE, STONE, A, C, Step, fresh, give, node, play, start, store

from meeplezoo.envs.resafa.content import Action
from meeplezoo.envs.resafa.state import CITY, NO

GERASA, PALMYRA = node("gerasa"), node("palmyra")


def tile(name):
    return next(i for i, t in enumerate(C.trading_tiles) if t.id == name)


def at_gerasa(s, side=0):
    """tt-blue-1 at Gerasa: side 0 stone (buy 1, sell 2 coins; gold on buy: a sack card); side 1 marble (buy 3,
    sell 3 coins + 1 VP; gold on sell: 2 VP)."""
    s.d.trade_tile[GERASA], s.d.trade_side[GERASA] = tile("tt-blue-1"), side


def test_move_is_mandatory_and_costs_a_coin_per_road_segment():
    s = fresh()
    d = s.d
    d.coins[P0] = 2
    start(s, Step.MAIN_ACTION, P0, Action.TRADE)
    legal = s.legal_actions()
    assert A.PASS not in legal
    assert A.MOVE0 + 2 * PALMYRA + 1 in legal  # Resafa -> Gerasa -> Palmyra: 2 segments, 2 coins
    assert all(a - A.MOVE0 < 2 * len(C.centres) for a in legal if a >= A.MOVE0)
    far = node("petra")
    assert A.MOVE0 + 2 * far + 1 not in legal  # too expensive
    play(s, A.MOVE0 + 2 * PALMYRA + 1)
    assert d.coins[P0] == 0 and d.camel_at[P0] == PALMYRA


def test_round_trip_through_resafa_pays_the_spur_once():
    s = fresh()
    d = s.d
    d.camel_at[P0] = GERASA
    d.coins[P0] = 1
    start(s, Step.TRADE_MOVE, P0)
    assert A.MOVE0 + 2 * GERASA + 1 in s.legal_actions()  # Gerasa -> Resafa -> Gerasa for 1 coin
    assert A.MOVE0 + 2 * GERASA not in s.legal_actions()  # without Resafa: to another centre only
    play(s, A.MOVE0 + 2 * GERASA + 1)
    assert d.coins[P0] == 0 and d.camel_at[P0] == GERASA


def test_loading_in_resafa_one_kind_up_to_the_camel_capacity():
    s = fresh()
    d = s.d
    give(s, P0, stone=3, spice=2)
    at_gerasa(s)
    start(s, Step.TRADE_MOVE, P0)
    play(s, A.MOVE0 + 2 * GERASA + 1)
    assert s.pending_step() == Step.LOAD_ITEM
    play(s, A.ITEM0 + STONE)
    assert s.legal_actions() == [A.COUNT0, A.COUNT0 + 1]  # capacity 2 on the first camel step
    stone = store(s, P0)[STONE]
    play(s, A.COUNT0 + 1)
    assert (d.camel_item[P0], d.camel_load[P0]) == (STONE, 2) and store(s, P0)[STONE] == stone - 2


def test_sell_from_the_camel_flips_the_tile_and_the_gold_bonus_comes_once():
    s = fresh()
    d = s.d
    give(s, P0, marble=2)
    d.store[P0 * 4 + MARBLE] = 2
    at_gerasa(s, side=1)  # marble: sell 3 coins + 1 VP each, gold on sell: 2 VP
    d.camel_item[P0], d.camel_load[P0] = MARBLE, 2
    d.store[P0 * 4 + MARBLE] -= 2
    d.camel_at[P0] = PALMYRA
    d.coins[P0] = 1
    start(s, Step.TRADE_MOVE, P0)
    play(s, A.MOVE0 + 2 * GERASA)  # Palmyra -> Gerasa: 1 coin
    assert s.legal_actions() == [A.PASS, A.SELL]  # buying marble here would need 3 coins
    vp = d.vp[P0]
    play(s, A.SELL)
    assert s.legal_actions() == [A.COUNT0, A.COUNT0 + 1, A.USE]  # the gold bonus now, or after the deal
    play(s, A.COUNT0 + 1)  # sell 2; the gold bonus follows the deal
    assert d.coins[P0] == 0 + 2 * 3 and d.vp[P0] == vp + 2 + 2 * 1  # the gold bonus: once, whatever the count
    assert d.camel_item[P0] == NO and d.camel_load[P0] == 0
    assert d.trade_side[GERASA] == 0  # flipped after the deal


def test_buy_loads_the_camel_and_never_both_buy_and_sell():
    s = fresh()
    d = s.d
    at_gerasa(s, side=0)  # stone: buy 1 coin each, gold on buy: a sack card
    d.coins[P0] = 10
    start(s, Step.TRADE_MOVE, P0)
    play(s, A.MOVE0 + 2 * GERASA + 1)
    play(s, A.PASS)  # load nothing
    assert s.legal_actions() == [A.PASS, A.BUY]
    play(s, A.BUY)
    play(s, A.USE)  # the gold bonus before the deal
    assert len(d.sack_hand[P0]) == 1  # the gold bonus
    assert s.legal_actions()[:2] == [A.COUNT0, A.COUNT0 + 1]  # up to the camel capacity
    assert A.USE not in s.legal_actions()  # once
    stone = store(s, P0)[STONE]
    play(s, A.COUNT0 + 1)
    assert (d.camel_item[P0], d.camel_load[P0]) == (STONE, 2) and store(s, P0)[STONE] == stone
    assert d.coins[P0] == 10 - 1 - 2
    assert s.pending_step() == Step.POST_BOX  # after the deal: only the trading post may follow


def test_camel_carries_one_kind_only():
    s = fresh()
    d = s.d
    at_gerasa(s, side=0)  # stone
    d.camel_item[P0], d.camel_load[P0] = SPICE, 1
    d.supply[SPICE] -= 1
    d.camel_at[P0] = PALMYRA
    start(s, Step.TRADE_MOVE, P0)
    play(s, A.MOVE0 + 2 * GERASA)
    assert s.pending_step() != Step.DEAL  # cannot buy stone with spice aboard, nothing to sell


def test_trading_post_costs_a_stone_and_a_coin_one_per_centre_and_tokens_go_to_the_gate_first():
    s = fresh()
    d = s.d
    d.camel_at[P0] = GERASA
    coins, stone = d.coins[P0], store(s, P0)[STONE]
    start(s, Step.POST_BOX, P0)
    boxes = C.centres[GERASA].posts
    open_boxes = [i for i, b in enumerate(boxes) if b.min_players <= 2]
    assert s.legal_actions() == [A.PASS] + [A.POSTBOX0 + i for i in open_boxes]
    play(s, A.POSTBOX0 + 0)
    assert d.post_owner[GERASA * 4] == P0 and (d.coins[P0], store(s, P0)[STONE]) == (coins - 1, stone - 1)
    assert d.gate[P0] == 1 and sum(d.rows[0:3]) == 0
    start(s, Step.POST_BOX, P0)
    assert s.pending_step() != Step.POST_BOX  # one post per centre per player


def test_third_merchant_token_goes_to_a_row_of_choice():
    s = fresh()
    d = s.d
    d.gate[P0] = 2
    d.tokens[0] -= 2
    d.camel_at[P0] = GERASA
    start(s, Step.POST_BOX, P0)
    play(s, A.POSTBOX0 + 1)  # a scarab box
    while s.pending_step() != Step.MERCHANT_ROW:
        play(s, s.legal_actions()[0])
    assert s.legal_actions() == [A.ROW0, A.ROW0 + 1, A.ROW0 + 2]
    play(s, A.ROW0 + 2)
    assert d.rows[0:3] == [0, 0, 1] and d.scarabs[P0] == (1 if C.centres[GERASA].posts[1].token == "scarab" else 0)


def test_post_boxes_open_by_player_count():
    s = fresh(players=2)
    d = s.d
    d.camel_at[P1] = GERASA
    start(s, Step.POST_BOX, P1)
    opened = [a - A.POSTBOX0 for a in s.legal_actions() if a != A.PASS]
    assert [C.centres[GERASA].posts[i].min_players for i in opened] == [1, 2]


def test_no_post_in_resafa():
    s = fresh()
    assert s.d.camel_at[P0] == CITY
    start(s, Step.POST_BOX, P0)
    assert s.pending_step() != Step.POST_BOX


def test_gold_bonus_before_or_after_the_deal():
    """Seed: the gold bonus "ticaretten önce ya da sonra kullanılabilir". tt-blue-3 side 0: spice, buy 2 coins,
    gold on buy: +1 camel capacity. Taken before, the camel carries one more; taken after, it does not."""

    def buy_spice(gold_first: bool) -> list[int]:
        s = fresh()
        d = s.d
        d.trade_tile[GERASA], d.trade_side[GERASA] = tile("tt-blue-3"), 0
        d.coins[P0] = 20
        d.camel_at[P0] = PALMYRA
        cap = d.camel_step[P0]
        start(s, Step.TRADE_MOVE, P0)
        play(s, A.MOVE0 + 2 * GERASA, A.BUY)
        assert s.pending_step() == Step.DEAL_COUNT and A.USE in s.legal_actions()
        if gold_first:
            play(s, A.USE)
            assert d.camel_step[P0] == cap + 1 and A.USE not in s.legal_actions()
        counts = [a for a in s.legal_actions() if a != A.USE]
        play(s, counts[-1])  # as many as the camel carries
        assert d.camel_step[P0] == cap + 1  # the bonus comes once, before or after
        return [d.camel_load[P0], s.pending_step()]

    before, after = buy_spice(True), buy_spice(False)
    assert before[0] == after[0] + 1
    assert before[1] == after[1] == Step.POST_BOX  # the trading post follows either way
