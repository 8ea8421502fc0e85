"""The seed's FAQ ("Sık Sorulan Sorular"): each of its 10 answers checked by a scenario."""

from __future__ import annotations

from royale_scenario import (
    P0,
    P1,
    P2,
    action_phase,
    begin_turn,
    card_a,
    craft_a,
    deck_top,
    fresh,
    give_item,
    hand,
    item_a,
    pending,
    resources,
    seat_a,
    set_field,
    set_hand,
)

from meeplezoo.envs.board_royale.actions import DRAW, PASS, VOTE, YES
from meeplezoo.envs.board_royale.content import RULES
from meeplezoo.envs.board_royale.escape import escape_points
from meeplezoo.envs.board_royale.observation import LAYOUT
from meeplezoo.envs.board_royale.state import WIN_ESCAPE_POINTS
from meeplezoo.envs.board_royale.steps import Step


def test_faq_zero_resources_eliminates_at_once():
    """ "Elindeki kaynak kartları 0'a düşerse, oyundan anında elenirsiniz. Kaynak kartların hem eşya
    üretmek/kullanmak için hem de 'can puanın' olarak görev yapar. Bu yüzden kaynakları agresif bir şekilde
    harcamak risklidir." Spending the last card on a craft eliminates the crafter on the spot."""
    s = fresh(3)
    d = s.d
    set_hand(d, P0, stone=1, iron=3)
    set_hand(d, P1, food=3)
    set_hand(d, P2, food=3)
    set_field(d, "Knife")
    action_phase(s, P0)
    s.apply(craft_a(0))
    assert d.alive == [0, 1, 1] and d.elim_rank[P0] == 2
    assert s.eliminated() == frozenset({P0})
    assert d.item_owner.count(P0) == 0  # the crafted Knife is discarded: nobody eliminated P0
    assert pending(s) == (Step.RESOURCE, P1)  # the turn passed on
    s.validate()


def test_faq_steal_is_an_attack_the_target_may_answer():
    """ "Evet. Kaynak Fazında çalma seçeneğini kullanmak bir Saldırı (Attack) olarak kabul edilir. Bu, hedef
    oyuncunun gizli eşyalarla (hidden items) karşılık verebileceği anlamına gelir. Ayrıca, bir oyuncunun
    elinden kaynak atmayı gerektiren herhangi bir eylem saldırı sayılır." """
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=3)
    set_hand(d, P1, wood=4, decoy=1)
    begin_turn(s, P0)
    s.apply(seat_a(P1))  # steal
    assert pending(s) == (Step.DEFEND, P1)
    assert card_a("decoy") in s.legal_actions()
    s.apply(card_a("decoy"))
    assert hand(d, P0)[:5] == [3, 0, 0, 0, 0] and hand(d, P1) == [0, 4, 0, 0, 0, 0, 0, 0]
    assert d.res_discard[5] == 1  # the revealed Decoy
    # a forced discard (Knife) is an attack too: the target is asked to answer
    knife = give_item(d, P0, "Knife")
    s.refresh()
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    assert pending(s) == (Step.DEFEND, P1)


def test_faq_any_number_of_actions_in_any_order():
    """ "Aksiyon Fazında istediğin sayıda aksiyonu, istediğin sırayla yapabilirsiniz. Yeterli kaynağın olduğu
    sürece birden fazla eşya üretebilir, birden fazla eşya kullanabilir, ticaret yapabilir ve oylama
    başlatabilirsiniz. Herhangi bir aksiyon sayısı sınırı yoktur." Crafts, repeated uses of one tool and
    votes in any order, with no per-round or per-turn cap (only an engine safety bound far above play)."""
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=6, wood=10, stone=2)
    set_hand(d, P1, food=5)
    paddle, club = set_field(d, "Paddle", "Club")
    rod = give_item(d, P0, "Fishing Rod")
    deck_top(d, *["iron"] * 6)
    action_phase(s, P0)
    s.apply(craft_a(0))  # Paddle (3 wood)
    s.apply(item_a(rod))  # pay 1 wood, draw 2
    s.apply(craft_a(1))  # Club (4 wood)
    s.apply(item_a(rod))  # the same tool again
    assert d.item_owner[paddle] == d.item_owner[club] == P0 and hand(d, P0)[:5] == [6, 1, 2, 4, 0]
    s.apply(VOTE)
    assert pending(s) == (Step.VOTE, P0)
    s.apply(PASS)
    s.apply(PASS)
    s.apply(item_a(rod))  # and again after a vote
    assert pending(s) == (Step.ACTION, P0) and hand(d, P0)[:5] == [6, 0, 2, 6, 0] and d.turn_decisions == 8


def test_faq_democracy_vote_replaces_the_field_once_a_round():
    """ "Herhangi bir oyuncu kendi turunda Üretim Alanındaki (Crafting Field) 4 eşya kartının değiştirilmesi
    için oylama başlatabilir. Oyuncuların çoğunluğu kabul ederse, mevcut 4 kart Eşya Çöp Yığınına atılır ve
    yerine 4 yeni kart konur. Üretim Alanı her rauntta en fazla 1 kez değiştirilebilir." """
    s = fresh(3)
    d = s.d
    for seat in (P0, P1, P2):
        set_hand(d, seat, food=3)
    old = list(d.field)
    nxt = d.item_deck[-4:][::-1]
    action_phase(s, P0)
    s.apply(VOTE)
    for _ in range(3):
        s.apply(YES)
    assert sorted(d.item_discard) == sorted(old)
    assert d.field == nxt
    assert VOTE not in s.legal_actions()  # already replaced this round
    s.apply(PASS)  # P1's turn, same round: still no vote
    s.apply(DRAW)
    assert pending(s) == (Step.ACTION, P1) and VOTE not in s.legal_actions()


def test_faq_hidden_items_are_held_with_resources_and_revealed_when_attacked():
    """ "Gizli Eşyalar, kaynak kartı olarak gizlenmiş savunma veya karşı saldırı eşyalarıdır. Elde kaynak
    kartlarıyla birlikte tutulurlar ve sadece saldırıya uğradığında ortaya çıkarılırlar. Saldırıyı önleyebilir
    (avoid), yansıtabilir (reflect) veya saldırgana karşı kullanılabilirler." """
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=4)
    set_hand(d, P1, food=4)
    deck_top(d, "ricochet", "wood")
    begin_turn(s, P1)
    s.apply(DRAW)  # a hidden item comes with the resource cards
    assert hand(d, P1) == [4, 1, 0, 0, 0, 0, 1, 0]
    assert not any(a >= card_a("decoy") for a in s.legal_actions())  # not usable on one's own turn
    other = s.observe(P0)
    sizes = LAYOUT["scalars"].start
    assert other[sizes + 1] == 6 / 24  # P0 sees only P1's hand size (P1 is one seat away)
    s.apply(PASS)
    knife = give_item(d, P0, "Knife")
    s.apply(DRAW)
    s.refresh()
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    assert card_a("ricochet") in s.legal_actions()
    s.apply(card_a("ricochet"))  # reflected: P0 may answer, has nothing, and discards 2 instead
    assert pending(s) == (Step.DEFEND, P0) and s.legal_actions() == [PASS]
    s.apply(PASS)
    assert resources(d, P1) == 5 and resources(d, P0) == 6 - 1 - 2


def test_faq_loot_goes_to_the_eliminator_and_the_turn_ends():
    """ "Elenen oyuncunun tüm eşya kartları, onu eleyen oyuncu tarafından ganimet (loot) olarak alınır. Ortak
    saldırı durumunda ganimet saldıranlar arasında paylaştırılır. Önemli: Bir oyuncuyu eleyip ganimetini alan
    oyuncunun turu hemen biter." """
    s = fresh(3)
    d = s.d
    set_hand(d, P0, food=5)
    set_hand(d, P1, iron=2)
    set_hand(d, P2, food=5)
    knife = give_item(d, P0, "Knife")
    shield = give_item(d, P1, "Backpack")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    s.apply(PASS)  # P1 has nothing to answer with
    assert d.alive == [1, 0, 1]
    assert d.item_owner[shield] == P0
    assert pending(s) == (Step.RESOURCE, P2)  # P0's turn ended at once


def test_faq_escape_items_are_crafted_and_public():
    """ "Toplam 10 Kaçış Puanı (Escape Points) değerinde eşya kartı toplayın veya bir Kaçış Seti (Escape Set)
    tamamla. Kaçış eşyaları Üretim Alanından diğer eşyalar gibi üretilir. Ancak bu eşyalar yüzü açık
    tutulduğundan, rakiplerin senin kaçış planını görebilir ve seni saldırarak engelleyebilir." """
    s = fresh(2)
    d = s.d
    set_hand(d, P0, iron=4, gold=3, stone=2, wood=3, food=2)
    set_hand(d, P1, food=3)
    give_item(d, P0, "Radio")  # 4 points
    give_item(d, P0, "Compass")  # 2 points
    set_field(d, "Flare Gun", "Paddle", "Dynamite", "Shotgun")
    action_phase(s, P0)
    seen = LAYOUT["scalars"].start + 6 + 1  # in P1's view P0 is relative seat 1
    assert s.observe(P1)[seen] == 6 / 10  # P1 sees P0's 6 escape points
    s.apply(craft_a(0))  # Flare Gun: 3 more -> 9
    assert escape_points(d, P0) == 9 and not s.is_terminal()
    assert s.observe(P1)[seen] == 9 / 10
    s.apply(craft_a(1))  # Paddle: 10 points, P0 escapes at once
    assert d.winner == P0 and d.win_kind == WIN_ESCAPE_POINTS and s.is_terminal()
    assert s.ranks() == [0, 1]


def test_faq_avoided_attack_still_costs_the_attacker():
    """ "Savunan oyuncu saldırıyı savuşturma yeteneğine sahip bir anlık kart kullanırsa hasar almaz. Ancak
    saldırganın ödediği kullanım maliyeti (resource cost) yine de harcanmış sayılır ve Çöp Yığınına gider.
    Yani başarısız bir saldırı, saldırgana kaynak kaybettirir." """
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=3)
    set_hand(d, P1, wood=5)
    knife = give_item(d, P0, "Knife")
    shield = give_item(d, P1, "Shield")
    action_phase(s, P0)
    s.apply(item_a(knife))
    s.apply(seat_a(P1))
    s.apply(item_a(shield))  # Shield: pay 1 wood, avoid
    assert hand(d, P0)[:5] == [2, 0, 0, 0, 0]
    assert hand(d, P1)[:5] == [0, 4, 0, 0, 0]
    assert d.res_discard[:5] == [1, 1, 0, 0, 0]  # the Knife's Food and the Shield's Wood


def test_faq_hand_limit_discard_before_drawing():
    """ "Bir oyuncunun elinde en fazla 20 kaynak kartı bulunabilir (Sırt Çantası gibi eşyalar bu limiti
    artırabilir). El limitini aşacak şekilde kart çekmen gerekiyorsa, çekmeden önce yeterli kaynağı Çöp
    Yığınına atarak limitin altına inmelisiniz." """
    s = fresh(2)
    d = s.d
    set_hand(d, P0, food=10, wood=9)
    set_hand(d, P1, food=3)
    deck_top(d, "gold", "gold")
    begin_turn(s, P0)
    s.apply(DRAW)
    assert pending(s) == (Step.HAND_DISCARD, P0) and d.stack[-1][2] == 1
    s.apply(card_a("food"))
    assert hand(d, P0)[:5] == [9, 9, 0, 0, 2] and sum(hand(d, P0)) == RULES.hand_limit
    # with a Backpack the same hand draws without discarding
    s2 = fresh(2)
    set_hand(s2.d, P0, food=10, wood=9)
    set_hand(s2.d, P1, food=3)
    give_item(s2.d, P0, "Backpack")
    begin_turn(s2, P0)
    s2.apply(DRAW)
    assert pending(s2) == (Step.ACTION, P0) and sum(hand(s2.d, P0)) == 21


def test_faq_preparation_round_draw_and_craft_only():
    """ "Hazırlık Raundunda her oyuncu sırayla: (1) Kaynak Destesinden 2 kart çeker ve (2) yeterli kaynağı
    varsa Üretim Alanından eşya üretebilir. Ancak bu rauntta çalma (steal), eşya kullanma, ticaret yapma ve
    demokrasi oylaması başlatma YASAKLANMIŞTIR." """
    s = fresh(2)
    d = s.d
    set_hand(d, P0, wood=5)
    set_hand(d, P1, food=5)
    give_item(d, P0, "Fishing Rod")
    set_field(d, "Paddle", "Radio", "Dynamite", "Shotgun")
    deck_top(d, "food", "food")
    begin_turn(s, P0, round_no=0)
    assert pending(s) == (Step.PREP, P0)
    assert hand(d, P0)[:5] == [2, 5, 0, 0, 0]  # drew 2 without choosing
    assert s.legal_actions() == [PASS, craft_a(0)]  # no steal, item use, trade or vote
    s.apply(craft_a(0))
    s.apply(PASS)
    assert pending(s) == (Step.PREP, P1) and hand(d, P1)[:5] != [5, 0, 0, 0, 0]
    s.apply(PASS)
    assert d.round_no == 1 and pending(s) == (Step.RESOURCE, P0)
