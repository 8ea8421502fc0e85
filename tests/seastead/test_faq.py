"""The seed's FAQ ("Sık Sorulan Sorular"): each of its 7 answers checked by at least one scenario."""

from __future__ import annotations

import pytest
from seastead_scenario import (
    DEMAND,
    LOCKED,
    P0,
    P1,
    TRIGGERS,
    card,
    dive_turn,
    first_location,
    fresh,
    give_spec,
    la,
    loc,
    on_top,
    pending,
    place,
    put_ship,
    res,
    score_now,
    set_cleanup,
    set_res,
    set_spec_display,
    start,
)

from meeplezoo.envs.seastead.actions import BUILD0, DIVE, FLOT0, HALF0, PASS, RES0, SLOT0, SPEC0, USE
from meeplezoo.envs.seastead.content import DIVE_CARDS, LOCATION_COST, SETUP, Bld, Res
from meeplezoo.envs.seastead.state import NO
from meeplezoo.envs.seastead.steps import Step

GAIN_FISH = first_location("gain", resource=Res.FISH)  # Kelpwood (fish), cost 3
ALL_TYPES = [BUILD0 + t for t in Bld]


# --- FAQ 1 --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mine", [0, 1])
def test_faq1_the_diver_decides_which_half_faces_them(mine):
    """FAQ: "Kartı açan aktif (dalış yapan) oyuncu karar verir. Kartın iki yarısı farklı iki kaynak seti
    gösterir; siz hangi yarının size bakacağını seçip o setin kaynaklarını alırsınız, rakibiniz kalan seti
    alır."

    Checks that the split is the diver's decision alone (the opponent has no decision), that the two
    halves differ, and that the diver gets the chosen half and the opponent the other one.
    """
    s = fresh(P1)
    d = s.d
    two_metal = card({"metal": 2}, {"fish": 1, "artifact": 1})
    on_top(d, two_metal)
    start(s)
    s.apply(DIVE)
    assert pending(s) == (Step.DIVE_SPLIT, P1)  # the active (diving) player
    assert s.legal_actions() == [HALF0, HALF0 + 1]
    halves = DIVE_CARDS[two_metal].halves
    assert halves[0] != halves[1]
    s.apply(HALF0 + mine)
    metal2, fish_art = [0, 0, 0, 2], [1, 1, 0, 0]
    assert res(d, P1) == (metal2 if mine == 0 else fish_art)
    assert res(d, P0) == (fish_art if mine == 0 else metal2)
    assert pending(s) == (Step.MAIN, P0)
    s.validate()


# --- FAQ 2 --------------------------------------------------------------------------------------------
def test_faq2_any_type_with_buildings_left_but_always_the_leftmost_of_its_row():
    """FAQ: "Bina türünü (liman/akademi/tersane) seçmekte serbestsiniz, o türden hiç binanız kalmadıysa o
    türü seçemezsiniz. Ancak seçtiğiniz türün oyuncu tahtanızdaki satırında en soldaki müsait binayı almak
    zorundasınız; satır içinde sıra atlanamaz."

    Checks that every type with buildings left is offered and an exhausted type is not, and that a build
    takes the leftmost building of its row: a second port leaves column 1's shipyard on the board (no
    column bonus) and the shipyard built next is the one of column 1, which empties it.
    """
    s = fresh(P0)
    d = s.d
    set_res(d, P0, 10, 10, 10, 10)
    start(s)
    assert s.legal_actions() == [DIVE, *ALL_TYPES]  # free choice of type

    for p in range(4):
        place(d, P0, Bld.ACADEMY, loc(3, p))
    start(s)
    assert s.legal_actions() == [DIVE, BUILD0 + Bld.PORT, BUILD0 + Bld.SHIPYARD]  # no academy left

    place(d, P0, Bld.PORT, loc(2, 5))  # column 1: port and academy gone, its shipyard still there
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    assert d.built[0:3] == [2, 4, 0] and d.columns == [0, 0]  # the port of column 2: no column emptied
    assert pending(s) == (Step.MAIN, P1)

    start(s, Step.MAIN, P0)
    s.apply(BUILD0 + Bld.SHIPYARD)
    s.apply(la(loc(0, 0)))
    s.apply(la(loc(1, 0)))  # the new ship
    s.apply(RES0 + Res.FISH)  # the tribute (mandatory)
    assert d.built[0:3] == [2, 4, 1]
    assert pending(s) == (Step.DEMAND_A, P0) and d.columns == [1, 0]  # column 1 is now empty
    s.validate()


# --- FAQ 3 --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("take", [True, False])
def test_faq3_building_on_the_opponents_ship(take):
    """FAQ: "Rakibiniz 1 kaynak indirimi kazanır (gemi indirimi herkese uygulanır). İnşa tamamlandıktan
    sonra siz, geminizin sahibi olarak gemiyi normal yerleştirme kurallarına göre başka bir konuma taşımak
    zorundasınız; ayrıca gemi sahibinin bonusu olarak ortak arzdan dilediğiniz 1 kaynağı ücretsiz
    alabilirsiniz."

    Checks that when P1 builds on P0's ship, P1 pays 1 less, then P0 (the ship's owner) may take one free
    resource of any kind from the supply (or decline it), and must move the ship (no PASS) to a location
    allowed by normal placement (the cheapest empty location of a flotilla).
    """
    s = fresh(P1)
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, GAIN_FISH.index)
    set_res(d, P1, fish=GAIN_FISH.cost - 1)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    assert la(GAIN_FISH) in s.legal_actions()
    s.apply(la(GAIN_FISH))
    assert res(d, P1) == [0, 0, 0, 0]  # 3 - 1
    s.apply(SLOT0)
    s.apply(PASS)  # the location's gain
    assert pending(s) == (Step.OWNER_BONUS, P0)
    assert s.legal_actions() == [*(RES0 + k for k in Res), PASS]
    s.apply(RES0 + Res.ARTIFACT if take else PASS)
    assert res(d, P0) == ([0, 1, 0, 0] if take else [0, 0, 0, 0])
    assert pending(s) == (Step.SHIP_PLACE, P0)
    assert PASS not in s.legal_actions()
    assert s.legal_actions() == [la(loc(0, 0)), la(loc(1, 0)), la(loc(2, 0)), la(loc(2, 1)), la(loc(3, 0))]
    s.apply(la(loc(2, 0)))
    assert d.ship[GAIN_FISH.index] == NO and d.ship[loc(2, 0)] == P0
    assert pending(s) == (Step.MAIN, P0)
    s.validate()


def test_faq3_the_ship_discount_applies_to_its_owner_as_well():
    """FAQ: "(gemi indirimi herkese uygulanır)".

    Checks that the ship's owner also pays 1 less on their own ship (and gets no owner's bonus).
    """
    s = fresh(P0)
    d = s.d
    place(d, P0, Bld.SHIPYARD, loc(3, 5))
    put_ship(d, P0, GAIN_FISH.index)
    set_res(d, P0, fish=GAIN_FISH.cost - 1)
    start(s)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    s.apply(SLOT0)
    s.apply(PASS)
    assert res(d, P0) == [0, 0, 0, 0]
    assert pending(s) == (Step.SHIP_PLACE, P0)
    s.validate()


# --- FAQ 4 --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("order", [("Scavenger", "Patron"), ("Patron", "Scavenger")])
def test_faq4_face_up_specialists_in_any_order_on_your_turn(order):
    """FAQ: "Oyuncu alanınızdaki yüzü açık herhangi bir uzman kartını, sıranız geldiğinde dilediğiniz
    sırada 'harcayarak' (kartı kapalı çevirerek) kullanabilirsiniz; yeni aldığınız bir kartı bile aynı
    anda kullanabilirsiniz. Yatırımcı ve Ajan kartları istisnadır: bunlar rakibinizin aksiyonuyla
    tetiklendiği için sıra sizde değilken de kullanılabilir."

    (The next two tests check the second and third sentences.)

    Checks that two face-up specialists can be played one after the other in either order on one's own
    turn, each turned face down when used, and that they are not offered on the opponent's turn.
    """
    s = fresh(P0)
    d = s.d
    ids = [give_spec(d, P0, name) for name in order]
    start(s)
    assert s.legal_actions() == [DIVE, *sorted(SPEC0 + i for i in ids)]
    s.apply(SPEC0 + ids[0])
    s.apply(SPEC0 + ids[1])
    assert d.spec_spent[ids[0]] == d.spec_spent[ids[1]] == 1
    assert res(d, P0) == [1, 1, 1, 1] and d.cleanup == [2, 0]
    assert s.legal_actions() == [DIVE]

    s = fresh(P1)
    for name in order:
        give_spec(s.d, P0, name)
    start(s)
    assert s.legal_actions() == [DIVE]  # P1's turn: P0's cards wait
    s.validate()


def test_faq4_a_specialist_just_taken_can_be_used_the_same_turn():
    """FAQ: "yeni aldığınız bir kartı bile aynı anda kullanabilirsiniz".

    Checks that a specialist taken with an academy is offered at the end of that same turn and works.
    """
    s = fresh(P0)
    d = s.d
    set_spec_display(d, ["Foreman", "Scout", "Trawler"])
    cleanup1 = first_location("cleanup", n=1)
    set_res(d, P0, fish=cleanup1.cost)
    start(s)
    s.apply(BUILD0 + Bld.ACADEMY)
    s.apply(la(cleanup1))
    s.apply(SLOT0)  # takes the Foreman
    s.apply(USE)
    assert d.cleanup == [1, 0]
    assert pending(s) == (Step.AFTER, P0) and SPEC0 + d.spec_owner.index(P0) in s.legal_actions()
    s.apply(SPEC0 + d.spec_owner.index(P0))
    s.apply(USE)  # the location effect once more
    assert d.cleanup == [2, 0] and pending(s) == (Step.MAIN, P1)
    s.validate()


def test_faq4_investor_and_agent_are_used_when_it_is_not_your_turn():
    """FAQ: "Yatırımcı ve Ajan kartları istisnadır: bunlar rakibinizin aksiyonuyla tetiklendiği için sıra
    sizde değilken de kullanılabilir."

    Checks that P1's Agent is offered to P1 during P0's dive (swapping the halves) and P1's Investor
    during P0's build (2 of the kind P0 paid), and that neither is ever offered on P1's own turn.
    """
    s = fresh(P0)
    d = s.d
    agent = give_spec(d, P1, "Agent")
    investor = give_spec(d, P1, "Investor")
    fish2 = card({"fish": 2}, {"artifact": 1, "kelp": 1})
    on_top(d, fish2)
    start(s)
    s.apply(DIVE)
    s.apply(HALF0)
    assert pending(s) == (Step.AGENT, P1) and d.active == P0
    s.apply(USE)
    assert res(d, P0) == [0, 1, 1, 0] and res(d, P1) == [2, 0, 0, 0] and d.spec_spent[agent] == 1
    assert pending(s) == (Step.MAIN, P1)
    assert all(a < SPEC0 for a in s.legal_actions())  # P1's own turn: no reaction card to play

    d.stack = [(Step.MAIN, P0, 0, 0)]
    d.active = P0
    set_res(d, P0, fish=GAIN_FISH.cost)
    set_res(d, P1)
    s.refresh()
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(GAIN_FISH))
    assert pending(s) == (Step.INVESTOR, P1) and d.active == P0
    s.apply(USE)
    assert res(d, P1) == [2, 0, 0, 0] and d.spec_spent[investor] == 1
    s.validate()


# --- FAQ 5 --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("make", "bit"), TRIGGERS, ids=lambda x: getattr(x, "__name__", str(x)))
def test_faq5_any_end_condition_finishes_the_round_then_one_more_round_then_scoring(make, bit):
    """FAQ: "Dört bitiş koşulundan biri (bir flotillanın tüm konumlarının dolması, bir oyuncunun tahtasında
    1 bina kalması, Derinlik kartlarının görünür hale gelmesi ya da temizlik jetonlarının tükenmesi)
    tetiklendiğinde mevcut tur tamamlanır, sonra 1 tur daha oynanır ve ardından final puanlaması yapılır."

    Checks, for each of the four conditions alone, set off by the first player of round 2: the second
    player still plays round 2, both play round 3, and then the game is over with a final score sheet.
    """
    s = fresh(P0)
    d = s.d
    d.round_no = 2
    make(s, P0)
    assert d.triggers == bit and not s.is_terminal()
    played = []
    while not s.is_terminal():
        played.append((d.round_no, d.active))
        dive_turn(s)
    assert played == [(2, P1), (3, P0), (3, P1)]
    assert len(d.sheet) == 12 and s.legal_actions() == []
    s.validate()


# --- FAQ 6 --------------------------------------------------------------------------------------------
def test_faq6_tiebreaks_buildings_left_then_cleanup_tokens_then_shared():
    """FAQ: "Önce oyuncu tahtasında daha fazla bina kalan (yani daha az bina inşa etmiş olan) oyuncu
    kazanır. Bu da eşitse daha fazla temizlik jetonu olan oyuncu kazanır. O da eşitse galibiyet
    paylaşılır."

    Checks three games tied on points: the player with fewer buildings built wins even with fewer cleanup
    tokens; with equal buildings the one with more cleanup tokens wins; with both equal both rank first.
    """
    assert LOCATION_COST[loc(0, 5)] == 6 and LOCATION_COST[loc(0, 0)] == LOCATION_COST[loc(1, 0)] == 2

    s = fresh(P0)
    place(s.d, P0, Bld.PORT, loc(0, 5))  # 6 points, 1 built, 0 cleanup
    place(s.d, P1, Bld.PORT, loc(0, 0))
    place(s.d, P1, Bld.PORT, loc(1, 0))
    set_cleanup(s.d, P1, 2)  # 2 + 2 + 2 = 6 points, 2 built, 2 cleanup
    score_now(s)
    assert s.scores() == [6.0, 6.0] and s.ranks() == [0, 1]

    s = fresh(P0)
    place(s.d, P0, Bld.PORT, loc(0, 5))  # 6 points, 1 built
    place(s.d, P1, Bld.PORT, loc(0, 0))
    set_cleanup(s.d, P1, 4)  # 2 + 4 = 6 points, 1 built, more cleanup
    score_now(s)
    assert s.scores() == [6.0, 6.0] and s.ranks() == [1, 0]

    s = fresh(P0)
    place(s.d, P0, Bld.PORT, loc(0, 0))
    place(s.d, P1, Bld.PORT, loc(1, 0))
    set_cleanup(s.d, P0, 1)
    set_cleanup(s.d, P1, 1)
    score_now(s)
    assert s.scores() == [3.0, 3.0] and s.ranks() == [0, 0]
    s.validate()


# --- FAQ 7 --------------------------------------------------------------------------------------------
def column_bonus_pending(s) -> bool:
    """A column bonus (purpose 1), not the swap_demand location effect (purpose 0)."""
    return s.pending_step() == Step.DEMAND_A and s.d.stack[-1][2] == 1


def test_faq7_column_bonus_swap_two_unlocked_tokens_lock_one_free_the_old_one_at_most_four_times():
    """FAQ: "Oyuncu tahtanızdaki bir kolonun (1 liman + 1 akademi + 1 tersane) üçünü de inşa edip o kolonu
    tamamen boşalttığınızda tetiklenir; her oyuncu en fazla 4 kez (tahtadaki kolon sayısı kadar)
    tetikleyebilir. Ödül olarak kilitli olmayan 2 talep jetonunun yerini değiştirebilir, ardından bunlardan
    birini kilitli konuma geçirip önceden kilitli olanı serbest bırakabilirsiniz."

    Checks that P0 builds its 12 buildings column by column; each emptied column (and only those) gives
    a bonus: 4 in all. The first one swaps two unlocked tokens and locks one of them, freeing the
    previously locked one, which is offered again in the next bonus while the newly locked one is not.
    """
    s = fresh(P0)
    d = s.d
    set_spec_display(d, ["Scout", "Trawler", "Prospector"])
    free_spots = iter(range(24))
    bonuses = 0
    for column in range(SETUP.buildings_per_type):
        for t in (Bld.PORT, Bld.ACADEMY, Bld.SHIPYARD):
            d.triggers = 0
            d.round_no = d.turns_in_round = 0
            d.end_round = NO
            spot = next(i for i in free_spots if d.loc_bld[i] == NO and d.ship[i] == NO)
            set_res(d, P1)
            set_res(d, P0, 10, 10, 10, 10)
            start(s, Step.MAIN, P0)
            s.apply(BUILD0 + t)
            s.apply(la(spot))
            while s.pending_step() != Step.MAIN and not column_bonus_pending(s):
                legal = s.legal_actions()
                s.apply(PASS if PASS in legal else legal[0])
            if column_bonus_pending(s):
                assert t == Bld.SHIPYARD, "only the last building of a column empties it"
                bonuses += 1
                assert d.columns[P0] == column + 1
                if column == 0:
                    assert s.legal_actions() == [FLOT0 + f for f in range(4) if f != LOCKED] + [PASS]
                    s.apply(FLOT0 + 0)
                    s.apply(FLOT0 + 1)
                    assert d.demand[:2] == [DEMAND[1], DEMAND[0]]
                    assert s.legal_actions() == [FLOT0 + 0, FLOT0 + 1]
                    s.apply(FLOT0 + 1)
                    assert d.locked == 1
                elif column == 1:
                    # (a "both" specialist taken with an academy may also be offered here: issue 7 item 11)
                    own_choices = [a for a in s.legal_actions() if not SPEC0 <= a < PASS]
                    assert own_choices == [FLOT0 + 0, FLOT0 + 2, FLOT0 + LOCKED, PASS]
                    s.apply(PASS)
                else:
                    s.apply(PASS)
            else:
                assert t != Bld.SHIPYARD
    assert bonuses == 4 and d.columns == [4, 0]
    assert d.built[0:3] == [4, 4, 4]
    s.validate()
