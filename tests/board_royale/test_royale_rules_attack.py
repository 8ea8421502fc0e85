"""Attacks, answers, collaborative attacks, elimination timing and loot."""

from __future__ import annotations

from royale_scenario import (
    P0,
    P1,
    P2,
    action_phase,
    begin_turn,
    card_a,
    fresh,
    give_item,
    hand,
    item_a,
    pending,
    resources,
    seat_a,
    set_hand,
)

from meeplezoo.envs.board_royale.actions import DRAW, ITEM0, PASS
from meeplezoo.envs.board_royale.state import NO, WIN_LAST_STANDING
from meeplezoo.envs.board_royale.steps import Step


def table(n: int, **hands: dict):
    s = fresh(n)
    for i in range(n):
        set_hand(s.d, i, **hands.get(f"p{i}", {"food": 5}))
    return s, s.d


def test_the_attacker_declares_target_and_item_then_pays():
    """ "Saldırgan (attacker) kimi hedef aldığını ve hangi eşyayı kullandığını ilan eder, ardından kullanım
    maliyetini öder." Nothing is paid when the item is chosen; the cost goes when the target is declared
    (before the fix the cost was paid before the target was chosen)."""
    s, d = table(2, p0={"food": 3}, p1={"wood": 4})
    knife = give_item(d, P0, "Knife")
    action_phase(s, P0)
    s.apply(item_a(knife))
    assert pending(s) == (Step.TARGET, P0) and resources(d, P0) == 3 and d.res_discard[0] == 0
    s.apply(seat_a(P1))
    assert pending(s) == (Step.DEFEND, P1) and resources(d, P0) == 2 and d.res_discard[0] == 1


def test_the_defender_is_always_asked_even_without_answers():
    """Whether a hand hides an item must not show: the defender is asked even with nothing to reveal."""
    s, d = table(2, p0={"food": 3}, p1={"wood": 4})
    action_phase(s, P0)
    d.stack = [(Step.END_TURN, P0, 0, 0), (Step.ACTION, P0, 0, 0), (Step.RESOURCE, P0, 0, 0)]
    s.refresh()
    s.apply(seat_a(P1))
    assert pending(s) == (Step.DEFEND, P1) and s.legal_actions() == [PASS]


def test_a_defender_never_pays_their_last_resource():
    s, d = table(2, p0={"food": 3}, p1={"wood": 1})
    knife = give_item(d, P0, "Knife")
    give_item(d, P1, "Shield")  # costs 1 wood: would leave P1 without resources
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    assert s.legal_actions() == [PASS]


def test_collaborative_attack_final_blow_and_shared_loot():
    """ "Birden fazla oyuncu bir hedefe karşı iş birliği yapabilir. Ancak son darbeyi mevcut aktif oyuncu
    (sırası gelen oyuncu) vurmalıdır. ... Ortak saldırı ile bir oyuncu elenirse, saldıran oyuncular ganimeti
    aralarında paylaşabilir." """
    s, d = table(4, p0={"food": 3}, p1={"wood": 5}, p2={"iron": 3}, p3={"gold": 3})
    knife = give_item(d, P0, "Knife")
    spear = give_item(d, P1, "Spear")
    loot = [give_item(d, P2, name) for name in ("Backpack", "Axe", "Compass")]
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P2))
    assert pending(s) == (Step.JOIN, P1) and s.legal_actions() == [PASS, item_a(spear)]
    s.apply(item_a(spear))
    assert pending(s) == (Step.DEFEND, P2)  # P3 owns no weapon: not asked to join
    s.apply(PASS)
    # P1's blow: 2 cards; P0's final blow: 2 cards -> P2 is out
    assert d.alive == [1, 1, 0, 1] and d.elim_rank[P2] == 3
    # the active player shares the loot out, card by card (before the fix: dealt round-robin)
    for card in sorted(loot):  # card order: Axe, Backpack, Compass
        assert pending(s) == (Step.LOOT_SPLIT, P0) and s.legal_actions() == [seat_a(P0), seat_a(P1)]
        assert d.loot_items[0] == card
        s.apply(seat_a(P1) if card != max(loot) else seat_a(P0))
    axe, backpack, compass = sorted(loot)
    assert [d.item_owner[c] for c in (axe, backpack, compass)] == [P1, P1, P0]
    assert d.loot_items == [] and d.loot_takers == 0
    assert pending(s) == (Step.RESOURCE, P1)  # P0 eliminated someone: the turn ended


def test_a_joiner_never_deals_the_last_blow():
    """ "Başka bir oyuncunun turunda rakip elenemez." A joiner's blow stops at the target's last card; only
    the active player's blow may take it (here P0's Lasso steals the very card P1's Spear could not hit)."""
    s, d = table(3, p0={"food": 3}, p1={"wood": 5}, p2={"iron": 1})
    lasso = give_item(d, P0, "Lasso")
    spear = give_item(d, P1, "Spear")
    action_phase(s, P0)
    s.apply(item_a(lasso))
    s.apply(seat_a(P2))
    s.apply(item_a(spear))
    s.apply(PASS)
    assert hand(d, P0)[:5] == [2, 0, 0, 1, 0]  # the iron went to P0, not to the discard pile
    assert d.res_discard[:5] == [1, 1, 0, 0, 0]  # Lasso's food, Spear's wood; nothing of P2's
    assert d.alive == [1, 1, 0]


def test_reflected_blows_spare_a_joiners_last_card_but_not_the_active_players():
    s, d = table(3, p0={"food": 3}, p1={"wood": 2}, p2={"iron": 3, "ricochet": 1})
    knife = give_item(d, P0, "Knife")
    spear = give_item(d, P1, "Spear")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P2))
    s.apply(item_a(spear))  # P1 pays 1 wood: 1 left
    s.apply(card_a("ricochet"))
    assert pending(s) == (Step.DEFEND, P0)  # the active player answers for the attacking side
    s.apply(PASS)
    assert resources(d, P1) == 1 and d.alive[P1] == 1  # not eliminated on P0's turn
    assert resources(d, P0) == 0 and d.alive[P0] == 0  # the active player is, by the defender
    assert d.item_owner[knife] == P2 and resources(d, P2) == 3
    assert pending(s) == (Step.RESOURCE, P1)


def test_steal_from_the_last_card_eliminates_and_ends_the_turn():
    s, d = table(3, p0={"food": 3}, p1={"wood": 1}, p2={"iron": 3})
    axe = give_item(d, P1, "Axe")
    begin_turn(s, P0)
    s.apply(seat_a(P1))
    s.apply(PASS)
    assert d.alive == [1, 0, 1] and hand(d, P0)[:5] == [3, 1, 0, 0, 0] and d.item_owner[axe] == P0
    assert pending(s) == (Step.RESOURCE, P2)


def test_last_player_standing_wins_and_ranks_follow_elimination_order():
    """ "Oyunda yalnızca 1 oyuncu kaldığında (diğer tüm oyuncular elendiğinde) o oyuncu kazanır." """
    s, d = table(3, p0={"food": 6}, p1={"wood": 1}, p2={"iron": 1})
    knife = give_item(d, P0, "Knife")
    dynamite = give_item(d, P0, "Dynamite")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    s.apply(PASS)
    assert d.alive == [1, 0, 1] and s.ranks() == [0, 2, 0]
    s.apply(DRAW)  # P2's turn
    s.apply(PASS)
    s.apply(DRAW)  # P0 again
    s.apply(item_a(dynamite))
    s.apply(seat_a(P2))
    s.apply(PASS)
    assert d.winner == P0 and d.win_kind == WIN_LAST_STANDING and s.is_terminal()
    assert s.ranks() == [0, 2, 1] and s.scores() == [2.0, -2.0, 0.0]  # zero-sum survival points


def test_an_area_attack_that_eliminates_resolves_for_every_opponent_then_ends_the_turn():
    s, d = table(3, p0={"iron": 3, "gold": 3}, p1={"wood": 1}, p2={"food": 5})
    gun = give_item(d, P0, "Shotgun")
    action_phase(s, P0)
    s.apply(item_a(gun))
    s.apply(PASS)  # P1 answers nothing: out
    assert d.alive == [1, 0, 1] and pending(s) == (Step.DEFEND, P2)
    s.apply(PASS)
    assert resources(d, P2) == 3 and pending(s) == (Step.RESOURCE, P2)


def test_joining_needs_an_owned_single_target_weapon_and_the_cost():
    s, d = table(3, p0={"food": 3}, p1={"food": 1}, p2={"iron": 4})
    knife = give_item(d, P0, "Knife")
    k2 = give_item(d, P1, "Knife")  # costs 1 food: P1 would be left without resources
    give_item(d, P1, "Shotgun")  # area weapons cannot join
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P2))
    assert pending(s) == (Step.JOIN, P1) and s.legal_actions() == [PASS]
    assert item_a(k2) == ITEM0 + k2
    s.apply(PASS)
    s.apply(PASS)
    assert resources(d, P2) == 2 and d.item_owner[k2] == P1 and d.joiners == [] and d.stack[-1][0] != NO


def test_answers_alternate_until_a_side_passes():
    """ "Saldırı sırasında oyun tur tabanlı çözümlemeye geçer." P1 reflects P0's Knife with a Spike Wall; P0
    answers with their own Spike Wall; P1 reflects again with a Ricochet; P0 passes and takes the Knife's 2
    cards. Each answer was paid (1 Stone) or revealed (before the fix the first answer was final)."""
    s, d = table(2, p0={"food": 3, "stone": 3}, p1={"stone": 4, "ricochet": 1})
    knife = give_item(d, P0, "Knife")
    wall0 = give_item(d, P0, "Spike Wall")
    wall1 = give_item(d, P1, "Spike Wall")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    s.apply(item_a(wall1))
    assert pending(s) == (Step.DEFEND, P0) and item_a(wall0) in s.legal_actions()
    s.apply(item_a(wall0))
    assert pending(s) == (Step.DEFEND, P1) and d.answers == 2
    assert s.legal_actions() == [PASS, item_a(wall1), card_a("ricochet")]  # no per-round cap either
    s.apply(card_a("ricochet"))
    assert pending(s) == (Step.DEFEND, P0)
    s.apply(PASS)
    assert resources(d, P0) == 6 - 1 - 1 - 2 and resources(d, P1) == 3 and hand(d, P1)[6] == 0
    assert pending(s) == (Step.ACTION, P0)


def test_the_attacker_answers_an_ambush_with_a_hidden_item():
    """P1's Bear Trap avoids P0's Knife and hits back for 2; P0 reveals a Decoy (a hidden item answers a
    blow aimed at its holder, even on their own turn): nothing lands; P0 paid only the Knife's Food."""
    s, d = table(2, p0={"food": 3, "decoy": 1}, p1={"wood": 4})
    knife = give_item(d, P0, "Knife")
    trap = give_item(d, P1, "Bear Trap")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    s.apply(item_a(trap))
    assert pending(s) == (Step.DEFEND, P0) and s.legal_actions() == [PASS, card_a("decoy")]
    s.apply(card_a("decoy"))
    assert hand(d, P0) == [2, 0, 0, 0, 0, 0, 0, 0] and hand(d, P1) == [0, 4, 0, 0, 0, 0, 0, 0]
    assert d.item_owner[trap] == NO and pending(s) == (Step.ACTION, P0)


def test_a_reflected_ambush_lands_on_the_defender():
    """P1's Deadfall hits back for 6; P0 reflects that counter-blow with a Ricochet: P1 discards 6 on P0's
    turn (a blow of the active player) and is eliminated; P0 loots P1."""
    s, d = table(2, p0={"food": 3, "ricochet": 1}, p1={"wood": 4, "deadfall": 1})
    knife = give_item(d, P0, "Knife")
    axe = give_item(d, P1, "Axe")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    s.apply(card_a("deadfall"))
    s.apply(card_a("ricochet"))
    assert pending(s) == (Step.DEFEND, P1) and s.legal_actions() == [PASS]
    s.apply(PASS)
    assert d.alive == [1, 0] and d.winner == P0 and d.item_owner[axe] == P0


def test_the_active_player_gives_looted_hidden_items_to_either_attacker():
    """A joint attack's loot includes the target's hidden items (revealed); P0 gives the Decoy to P1."""
    s, d = table(3, p0={"food": 3}, p1={"wood": 5}, p2={"iron": 2, "decoy": 1})
    knife = give_item(d, P0, "Knife")
    spear = give_item(d, P1, "Spear")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P2))
    s.apply(item_a(spear))
    s.apply(PASS)  # P2 keeps the Decoy hidden and is knocked out
    assert d.alive == [1, 1, 0] and pending(s) == (Step.LOOT_SPLIT, P0) and d.loot_hidden == [1, 0, 0]
    s.apply(seat_a(P1))
    assert hand(d, P1)[5] == 1 and d.res_discard[5] == 0
    n, k = d.n, 8
    assert d.known[(P0 * n + P1) * k + 5] == 1  # everyone saw the Decoy go to P1
    s.validate()


def test_a_looter_at_the_hand_limit_discards_down_to_it():
    """The hand limit holds after looting ("en fazla 20 kaynak kartı"): P0, with 20 cards, loots two hidden
    items; for each it discards a card of its choice or leaves the looted one. The position validates and
    saves (before the fix P0 held 22 cards and the save was refused)."""
    s, d = table(3, p0={"food": 18, "wood": 2}, p1={"iron": 1, "decoy": 1, "deadfall": 1}, p2={"gold": 3})
    knife = give_item(d, P0, "Knife")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    s.apply(PASS)  # P1 keeps its hidden items and is out
    assert d.alive == [1, 0, 1]  # P0 paid 1 Food: 19 cards, so the Decoy fits
    assert hand(d, P0)[5] == 1 and sum(hand(d, P0)) == 20
    assert pending(s) == (Step.LOOT_ROOM, P0)  # the Deadfall does not fit
    assert s.legal_actions() == [card_a("food"), card_a("wood"), card_a("decoy"), card_a("deadfall")]
    s.apply(card_a("wood"))
    assert hand(d, P0) == [17, 1, 0, 0, 0, 1, 0, 1] and sum(hand(d, P0)) == 20
    assert pending(s) == (Step.RESOURCE, P2)
    s.validate()
    assert s.game.state_from_json(s.to_json()).to_json() == s.to_json()


def test_a_looter_may_leave_a_looted_hidden_item():
    """Leaving the looted card on the discard pile is the same as taking it and discarding it."""
    s, d = table(3, p0={"food": 20}, p1={"iron": 1, "decoy": 1, "ricochet": 1}, p2={"gold": 3})
    knife = give_item(d, P0, "Knife")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    s.apply(PASS)
    assert pending(s) == (Step.LOOT_ROOM, P0) and sum(hand(d, P0)) == 20
    s.apply(card_a("ricochet"))
    assert hand(d, P0) == [19, 0, 0, 0, 0, 1, 0, 0] and d.res_discard[6] == 1 and d.loot_hidden == [0, 0, 0]
    assert pending(s) == (Step.RESOURCE, P2)
    s.validate()
