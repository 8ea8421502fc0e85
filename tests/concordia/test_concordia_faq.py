"""One test per answer of the seed's "Sık Sorulan Sorular" (each docstring quotes the Turkish answer)."""

from __future__ import annotations

import numpy as np
from concordia_scenario import (
    ARCHITECT,
    DIPLOMAT,
    MERCATOR,
    P0,
    P1,
    PREFECT,
    PREFECT2,
    SENATOR,
    TRIBUNE,
    W,
    add_house,
    card_id,
    city,
    discard,
    fresh,
    give_card,
    goods,
    play,
    province,
    put_colonist,
    set_city_good,
    set_goods,
    start,
)

from meeplezoo.envs.concordia import ConcordiaGame
from meeplezoo.envs.concordia.actions import CASH, CITY0, PASS, PROVINCE0, SEAT0, SLOT0, place_action
from meeplezoo.envs.concordia.content import CARDS, Act
from meeplezoo.envs.concordia.observation import SEAT_ONES, SEAT_SCALARS, layout
from meeplezoo.envs.concordia.state import NO, board_of
from meeplezoo.envs.concordia.steps import Step


def test_faq1_tribune_five_cards_back_pay_two_and_an_optional_colonist_in_roma():
    """ "Para bonusu: geri aldığın kart sayısı 3'ü aşarsa 3'ten sonraki her kart için 1 Sesterce kazanırsın
    (Tribun'un kendisi de sayılır; örneğin 5 kart geri alırsan 2 Sesterce). Ayrıca istersen 1 Yiyecek + 1 Alet
    ödeyerek Roma'ya 1 yeni kolonist ekleyebilirsin.\""""
    s = fresh()
    for c in (ARCHITECT, PREFECT, PREFECT2, MERCATOR):
        discard(s, P0, c)
    start(s, P0)
    play(s, TRIBUNE)
    assert s.d.money[P0] == 7 and len(s.d.hand[P0]) == 7
    roma = board_of(s.d).roma
    assert PASS in s.legal_actions()  # optional
    s.apply(place_action(0, roma))
    assert goods(s, P0) == [1, 1, 0, 1, 1] and s.d.col[1] == roma


def test_faq2_no_running_score_but_cards_and_board_are_public():
    """ "Concordia'da oyun sırasında puan tutulmaz; puanlar yalnızca oyun sonunda hesaplanır (yeni oyunculara
    önerilen isteğe bağlı ara puanlama hariç). ... Kartların ve tahta konumun herkesçe görülebildiği için
    puanlama gizli değildir\""""
    s = fresh(2, seed=8)
    discard(s, P1, MERCATOR)
    L = layout(2, 0)
    view = s.observe(P0)
    opp = L.cards0 + SEAT_ONES  # the opponent's block (seat P1 is second from P0's seat)
    assert view[opp + MERCATOR] == 0.0 and view[opp + 37 + MERCATOR] == 1.0 and view[opp + 74 + MERCATOR] == 1.0
    assert view[opp + SENATOR] == 1.0  # a card in the opponent's hand is visible
    assert view[L.scal0 + SEAT_SCALARS - 1] == 0.0 and view[L.scal0 + 2 * SEAT_SCALARS - 1] == 0.0
    det = s.determinize(P0, np.random.default_rng(1))
    assert det.d.hand == s.d.hand and det.d.discard == s.d.discard  # nothing hidden there


def test_faq3_prefect_production_or_cash():
    """ "ÜRETİM: bonus jetonu hâlâ mal yüzünde olan bir eyalet seçersin; jetonu para yüzüne çevirir, jetondaki
    maldan 1 birimi kendin alır (Praefectus Magnus'la 2 birim) ve o eyaletteki tüm evler üretir (her ev sahibi
    kendi malını alır). NAKİT: ... tahtadaki bonus jetonlarının para yüzünde görünen her para için 1 Sesterce
    alırsın ... ve ardından TÜM jetonlar yeniden mal yüzüne dönerek eyaletler sıfırlanır.\""""
    s = fresh()
    p = province(s, "Campania")
    set_city_good(s, "Casinvm", W)
    add_house(s, P1, "Casinvm")
    set_goods(s, P0)
    set_goods(s, P1)
    s.d.pm = P1
    start(s, P0)
    play(s, PREFECT)
    s.apply(PROVINCE0 + p)
    bonus = s.d.province_good[p]
    expected = [0] * 5
    expected[bonus] = 1
    assert goods(s, P0) == expected and goods(s, P1)[W] == 1 and s.d.marker[p] == 0
    start(s, P1)
    play(s, PREFECT)
    from meeplezoo.envs.concordia.content import BONUS_COINS

    s.apply(CASH)
    assert s.d.money[P1] == 6 + BONUS_COINS[bonus] and all(s.d.marker)


def test_faq4_several_players_share_a_city_never_two_own_houses_never_roma_money_times_houses():
    """ "Evet, bir şehirde birden fazla oyuncunun evi olabilir. Ancak sen aynı şehre 2 ev kuramazsın ... Ayrıca
    Roma'ya hiçbir zaman ev kurulmaz. Bir şehirde zaten ev varsa, yeni ev inşasının Sesterce maliyeti, inşadan
    sonra şehirdeki toplam ev sayısıyla çarpılır (mal maliyeti sabit kalır).\""""
    s = fresh(3)
    set_city_good(s, "Casinvm", W)
    add_house(s, P1, "Casinvm")
    add_house(s, 2, "Casinvm")
    put_colonist(s, P0, 0, on=("Casinvm", "ROMA"))
    set_goods(s, P0, brick=2, wine=2)
    s.d.money[P0] = 20
    start(s, P0, Step.BUILD)
    assert set(s.legal_actions()) == {CITY0 + city(s, "Casinvm"), PASS}  # not Roma
    s.apply(CITY0 + city(s, "Casinvm"))
    assert s.d.money[P0] == 20 - 4 * 3 and goods(s, P0) == [1, 0, 0, 1, 0]
    assert s.d.city_houses[city(s, "Casinvm")] == 3
    start(s, P0, Step.BUILD)
    assert s.pending_step() != Step.BUILD  # a second own house in Casinvm is never offered


def test_faq5_diplomat_copies_the_visible_top_card_including_bought_cards_not_diplomat_or_after_tribune():
    """ "Diplomat kartıyla, herhangi bir rakibin atık yığınının EN ÜSTÜNDE açık duran ... kartının aksiyonunu kendin
    oynamış gibi yaparsın. Ancak en son Diplomat oynamış ya da Tribun ile kartlarını eline toplamış bir oyuncunun
    aksiyonu kopyalanamaz ... (satın alınmış özel kartlar dâhil)\""""
    s = fresh(3)
    farmer = card_id(Act.SPECIALIST, 1, good=1)
    give_card(s, P1, farmer)
    discard(s, P1, farmer)
    add_house(s, P0, "Casinvm")
    set_city_good(s, "Casinvm", 1)
    discard(s, 2, DIPLOMAT)
    start(s, P0)
    play(s, DIPLOMAT)
    assert s.legal_actions() == [SEAT0 + P1]  # P2's top card is a Diplomat
    food = goods(s, P0)[1]
    s.apply(SEAT0 + P1)
    assert goods(s, P0)[1] == food + 1  # the Farmer for P0's own food house
    # after a Tribune the pile is empty: nothing to copy
    s2 = fresh()
    discard(s2, P1, MERCATOR)
    start(s2, P1)
    play(s2, TRIBUNE)
    if s2.current_player() == P1:
        s2.apply(PASS)
    assert s2.d.discard[P1] == []
    play(s2, DIPLOMAT)
    assert s2.current_player() == P1  # P0's Diplomat did nothing: P1's turn


def test_faq6_one_concordia_card_for_whoever_triggers_first():
    """ "Concordia kartı, oyun sonunu tetikleyen oyuncuya verilir: yani ya Pazar (Forum) sergi alanındaki son
    kartı satın alıp sergiyi boşaltan, ya da 15. (son) evini kuran oyuncu. Sabit 7 zafer puanı değerindedir.
    Kart yalnızca 1 tanedir ve tek bir oyuncu kazanabilir.\""""
    s = fresh(2)
    m = board_of(s.d)
    s.d.concordia = P1  # P1 triggered already
    free = [c for c in range(m.num_cities) if c != m.roma and m.cities[c] not in ("Casinvm", "Neapolis")]
    for c in free[:14]:
        add_house(s, P0, m.cities[c])
    put_colonist(s, P0, 0, on=("Casinvm", "Neapolis"))
    set_goods(s, P0, 3, 3, 3, 3, 3)
    s.d.money[P0] = 30
    start(s, P0, Step.BUILD)
    s.apply(s.legal_actions()[0])
    assert len(s.d.houses[P0]) == 15 and s.d.concordia == P1
    assert s.god_sheet(P1)[6] == 7 and s.god_sheet(P0)[6] == 0


def test_faq6_the_last_forum_card_takes_concordia():
    """ "... ya Pazar (Forum) sergi alanındaki son kartı satın alıp sergiyi boşaltan ...\""""
    s = fresh(2)
    d = s.d
    keep = d.forum[0]
    d.hand[P1] = sorted(d.hand[P1] + d.deck + d.forum[1:])
    d.deck = []
    d.forum = [keep] + [NO] * 6
    set_goods(s, P0, 3, 3, 3, 3, 3)
    start(s, P0)
    play(s, SENATOR)
    s.apply(SLOT0)
    assert d.concordia == P0 and d.forum == [NO] * 7


def test_faq7_two_players_use_italia_and_only_decks_one_and_two_and_no_ghost_player():
    """ "2 oyuncu Italia haritasında (2-4 oyuncu tarafında) oynar. ... 2 oyuncuda yalnızca I ve II numaralı
    satılık kartlar oyunda kalır (III, IV, V çıkarılır). ... temel oyunda yapay/'hayalet' bir oyuncu yoktur.\""""
    s = fresh(2)
    cards = s.d.deck + s.d.forum
    assert sorted(CARDS[c].deck for c in cards) == [1] * 8 + [2] * 7
    assert s.game.num_players == 2 and s.d.n == 2 and len(s.d.money) == 2
    assert ConcordiaGame(num_players=2).config["map"] == "italia"
