"""Trades (structured offers, accept / decline, limits) and the Democracy Vote."""

from __future__ import annotations

from royale_scenario import (
    P0,
    P1,
    P2,
    action_phase,
    card_a,
    fresh,
    give_item,
    hand,
    item_a,
    pending,
    seat_a,
    set_hand,
    trade_table,
)

from meeplezoo.envs.board_royale.actions import DRAW, PASS, TRADE, VOTE, YES
from meeplezoo.envs.board_royale.content import RULES
from meeplezoo.envs.board_royale.state import NO
from meeplezoo.envs.board_royale.steps import Step


def table(n: int = 3):
    return trade_table(n)


def offer(s, partner: int, give: list[int], ask: list[int]) -> None:
    s.apply(TRADE)
    s.apply(seat_a(partner))
    for a in give:
        s.apply(a)
    s.apply(YES)
    for a in ask:
        s.apply(a)
    s.apply(YES)


def test_an_accepted_offer_swaps_cards_and_items():
    """ "kaynak karşılığı kaynak, eşya karşılığı kaynak" """
    s, d = table()
    rod = give_item(d, P0, "Fishing Rod")
    axe = give_item(d, P1, "Axe")
    action_phase(s, P0)
    offer(s, P1, [card_a("food"), card_a("food"), item_a(rod)], [card_a("iron"), item_a(axe)])
    assert pending(s) == (Step.TRADE_ANSWER, P1) and s.legal_actions() == [PASS, YES, TRADE]
    s.apply(YES)
    assert hand(d, P0)[:5] == [2, 2, 0, 1, 0] and hand(d, P1)[:5] == [2, 0, 0, 2, 1]
    assert d.item_owner[rod] == P1 and d.item_owner[axe] == P0
    assert pending(s) == (Step.ACTION, P0)
    # every player saw the terms: P2 now knows P0 holds an Iron and P1 two Food
    n, k = d.n, 8
    assert d.known[(P2 * n + P0) * k + 3] == 1 and d.known[(P2 * n + P1) * k + 0] == 2


def test_a_refused_offer_changes_nothing_and_the_partner_may_be_asked_again():
    s, d = table()
    action_phase(s, P0)
    offer(s, P1, [card_a("food")], [card_a("gold")])
    s.apply(PASS)
    assert hand(d, P0)[:5] == [4, 2, 0, 0, 0] and hand(d, P1)[:5] == [0, 0, 0, 3, 1]
    assert pending(s) == (Step.ACTION, P0) and d.trade_with == NO
    s.apply(TRADE)
    assert s.legal_actions() == [seat_a(P1), seat_a(P2)]  # no per-partner cap


def test_offers_are_built_card_by_card_with_any_number_of_cards_and_items_hidden_ones_too():
    """ "Oyun kuralları dahilinde kalmak kaydıyla her türlü anlaşma geçerlidir": 5 resources, a hidden item
    and two face-up items for 4 cards and two items (before the fix: at most 3 resources and 1 item a side,
    and no hidden items)."""
    s = fresh(3)
    d = s.d
    set_hand(d, P0, food=5, wood=2, decoy=1)
    set_hand(d, P1, iron=4, gold=1, ricochet=1)
    set_hand(d, P2, stone=3)
    rod, bag = give_item(d, P0, "Fishing Rod"), give_item(d, P0, "Backpack")
    axe, knife = give_item(d, P1, "Axe"), give_item(d, P1, "Knife")
    action_phase(s, P0)
    give = [card_a("food")] * 5 + [card_a("decoy"), item_a(rod), item_a(bag)]
    ask = [card_a("iron")] * 3 + [card_a("ricochet"), item_a(axe), item_a(knife)]
    offer(s, P1, give, ask)
    assert pending(s) == (Step.TRADE_ANSWER, P1) and s.legal_actions() == [PASS, YES, TRADE]
    n, k = d.n, 8
    assert d.known[(P2 * n + P0) * k + 5] == 1  # the offered Decoy is shown to the table
    s.apply(YES)
    assert hand(d, P0) == [0, 2, 0, 3, 0, 0, 1, 0] and hand(d, P1) == [5, 0, 0, 1, 1, 1, 0, 0]
    assert [d.item_owner[c] for c in (rod, bag, axe, knife)] == [P1, P1, P0, P0]
    assert d.known[(P2 * n + P0) * k + 6] == 1 and d.known[(P2 * n + P1) * k + 5] == 1
    s.validate()


def test_counter_offers_go_back_and_forth():
    """The partner counters; the active player counters that; the partner accepts the last offer."""
    s, d = table()
    action_phase(s, P0)
    offer(s, P1, [card_a("food")], [card_a("gold")])
    s.apply(TRADE)  # P1 counters: it proposes now
    assert pending(s) == (Step.TRADE_GIVE, P1) and d.counters == 1 and d.offer_give == [0] * 8
    for a in (card_a("iron"), YES, card_a("food"), card_a("food"), card_a("food"), YES):
        s.apply(a)
    assert pending(s) == (Step.TRADE_ANSWER, P0) and TRADE in s.legal_actions()
    s.apply(TRADE)  # P0 counters back
    assert pending(s) == (Step.TRADE_GIVE, P0) and d.counters == 2
    for a in (card_a("food"), card_a("food"), YES, card_a("iron"), YES):
        s.apply(a)
    assert pending(s) == (Step.TRADE_ANSWER, P1)
    s.apply(YES)
    assert hand(d, P0)[:5] == [2, 2, 0, 1, 0] and hand(d, P1)[:5] == [2, 0, 0, 2, 1]
    assert pending(s) == (Step.ACTION, P0) and d.trade_with == NO and d.counters == 0


def test_counter_offers_stop_only_at_the_engine_safety_bound():
    s, d = table()
    action_phase(s, P0)
    offer(s, P1, [card_a("food")], [])
    d.counters = RULES.max_counter_offers
    s.refresh()
    assert s.legal_actions() == [PASS, YES]  # no more counters: accept or refuse
    assert RULES.max_counter_offers >= 20


def test_a_partner_cannot_accept_what_they_do_not_hold():
    s, _ = table()
    action_phase(s, P0)
    offer(s, P1, [card_a("food")], [card_a("wood")])
    assert s.legal_actions() == [PASS, TRADE]  # refuse or counter


def test_a_trade_never_empties_a_hand_of_resources():
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=1)
    set_hand(d, P1, iron=3)
    action_phase(s, P0)
    s.apply(TRADE)
    s.apply(seat_a(P1))
    assert card_a("food") not in s.legal_actions()  # P0's last resource cannot be offered
    s.apply(YES)
    for _ in range(3):
        s.apply(card_a("iron"))
    s.apply(YES)
    assert s.legal_actions() == [PASS, TRADE]  # P1 would be left with nothing: cannot accept


def test_a_gift_pays_for_an_unenforceable_promise():
    """ "koruma sözü karşılığı kaynak" - the promise itself is not part of the game; the gift is."""
    s, d = table()
    action_phase(s, P0)
    offer(s, P1, [card_a("food")], [])
    s.apply(YES)
    assert hand(d, P0)[:5] == [3, 2, 0, 0, 0] and hand(d, P1)[:5] == [1, 0, 0, 3, 1]


def test_vote_needs_a_majority_of_the_living_and_everyone_votes():
    s, d = table(4)
    set_hand(d, 3, food=2)
    field = list(d.field)
    action_phase(s, P0)
    s.apply(VOTE)
    seats = []
    for vote in (YES, YES, PASS, PASS):  # 2 of 4: no majority
        seats.append(pending(s)[1])
        s.apply(vote)
    assert seats == [P0, P1, P2, 3]
    assert d.field == field and pending(s) == (Step.ACTION, P0)
    s.apply(PASS)
    s.apply(DRAW)  # P1 draws
    s.apply(VOTE)
    for vote in (YES, YES, YES, PASS):
        s.apply(vote)
    assert d.field != field and d.field_round == 1


def test_a_failed_vote_may_be_called_again_in_the_same_turn():
    """The seed limits only the replacement of the field to once a round ("Üretim Alanı her rauntta en fazla 1
    kez değiştirilebilir"), not the calls: after a failed vote the same player calls another, which passes
    (before the fix a player could call one vote per turn)."""
    s, d = table(3)
    field = list(d.field)
    action_phase(s, P0)
    s.apply(VOTE)
    for vote in (YES, PASS, PASS):
        s.apply(vote)
    assert d.field == field and pending(s) == (Step.ACTION, P0) and VOTE in s.legal_actions()
    s.apply(VOTE)
    for vote in (YES, YES, PASS):
        s.apply(vote)
    assert d.field != field and d.field_round == 1 and VOTE not in s.legal_actions()


def test_after_a_replacement_no_vote_until_the_next_round():
    """ "Üretim Alanı her rauntta en fazla 1 kez değiştirilebilir." """
    s, d = table(2)
    action_phase(s, P0)
    s.apply(VOTE)
    s.apply(YES)
    s.apply(YES)
    assert d.field_round == 1
    s.apply(PASS)
    s.apply(DRAW)
    assert pending(s) == (Step.ACTION, P1) and VOTE not in s.legal_actions()
    s.apply(PASS)
    s.apply(DRAW)
    assert d.round_no == 2 and pending(s) == (Step.ACTION, P0) and VOTE in s.legal_actions()


def test_hand_limits_after_a_trade_count_the_backpack_moving():
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=22)
    set_hand(d, P1, iron=3)
    bag = give_item(d, P0, "Backpack")
    action_phase(s, P0)
    offer(s, P1, [item_a(bag)], [])
    assert s.legal_actions() == [PASS, TRADE]  # P0 would keep 22 cards with a limit of 20
    s.apply(PASS)
    set_hand(d, P1, iron=20)
    s.refresh()
    offer(s, P1, [card_a("food"), card_a("food"), item_a(bag)], [])
    assert s.legal_actions() == [PASS, YES, TRADE]  # P1 takes the Backpack: 22 cards fit its new limit of 24
    s.apply(YES)
    assert sum(hand(d, P1)) == 22 and sum(hand(d, P0)) == 20 and d.item_owner[bag] == P1
