"""Every item of the deck (data/items.json): one scenario each with its exact effect, plus the seed's own
examples (Knife, Shotgun, Backpack) and the escape sets."""

from __future__ import annotations

import pytest
from royale_scenario import (
    P0,
    P1,
    P2,
    action_phase,
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

from meeplezoo.envs.board_royale.actions import PASS
from meeplezoo.envs.board_royale.content import (
    CARD_TYPE,
    ESCAPE_SETS,
    ITEM_TYPES,
    ITEM_TYPES_ALL,
    TYPE_BY_NAME,
)
from meeplezoo.envs.board_royale.escape import completed_set, escape_points
from meeplezoo.envs.board_royale.resources import hand_limit
from meeplezoo.envs.board_royale.state import NO, WIN_ESCAPE_SET
from meeplezoo.envs.board_royale.steps import Step

EXPENSIVE = ("Radio", "Dynamite", "Shotgun")  # field fillers nobody in these scenarios can afford


def duel(p0: dict, p1: dict, n: int = 2, p2: dict | None = None):
    s = fresh(n)
    set_hand(s.d, P0, **p0)
    set_hand(s.d, P1, **p1)
    if n > 2:
        set_hand(s.d, P2, **(p2 or {"food": 5}))
    return s, s.d


def use_on(s, card: int, target: int) -> None:
    s.apply(item_a(card))
    s.apply(seat_a(target))


# --- the seed's examples ------------------------------------------------------------------------------------
def test_knife_costs_and_damage_are_the_seeds():
    """ "Bıçak (Knife) üretmek için 1 Taş (Stone) + 3 Demir (Iron) öde." "Bıçak (Knife) - 1 Yiyecek (Food)
    kullanım maliyeti öde, hedef rakip elinden 2 kaynak atar." """
    knife = TYPE_BY_NAME["Knife"]
    assert knife.craft == (0, 0, 1, 3, 0) and knife.use == (1, 0, 0, 0, 0) and knife.n == 2
    s, d = duel({"food": 2, "stone": 1, "iron": 3}, {"wood": 6})
    card = set_field(d, "Knife", *EXPENSIVE)[0]
    action_phase(s, P0)
    s.apply(craft_a(0))
    assert d.item_owner[card] == P0 and hand(d, P0)[:5] == [2, 0, 0, 0, 0]
    assert d.res_discard[:5] == [0, 0, 1, 3, 0]
    use_on(s, card, P1)
    s.apply(PASS)
    assert hand(d, P0)[:5] == [1, 0, 0, 0, 0] and hand(d, P1)[:5] == [0, 4, 0, 0, 0]
    assert d.res_discard[:5] == [1, 2, 1, 3, 0]


def test_shotgun_every_opponent_discards_and_each_may_answer():
    """ "Bazı eşyalar (örn. Av Tüfeği / Shotgun) TÜM rakiplerin kaynak atmasına neden olabilir." """
    s, d = duel({"iron": 2, "gold": 2}, {"wood": 5}, n=3, p2={"food": 5, "decoy": 1})
    gun = give_item(d, P0, "Shotgun")
    action_phase(s, P0)
    s.apply(item_a(gun))
    assert pending(s) == (Step.DEFEND, P1)
    s.apply(PASS)
    assert pending(s) == (Step.DEFEND, P2)
    s.apply(card_a("decoy"))
    assert resources(d, P1) == 3 and resources(d, P2) == 5 and hand(d, P0)[:5] == [0, 0, 0, 1, 1]


def test_backpack_raises_the_hand_limit_to_24():
    """ "Sırt Çantası (Backpack) gibi eşyalar el limitini artırabilir (örn. Sırt Çantası +4 artırarak limiti
    24'e çıkarır)." A second Backpack adds nothing."""
    _, d = duel({"food": 3}, {"food": 3})
    assert hand_limit(d, P0) == 20
    give_item(d, P0, "Backpack")
    assert hand_limit(d, P0) == 24
    give_item(d, P0, "Backpack")
    assert hand_limit(d, P0) == 24


# --- weapons --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "pay", "lost"),
    [("Spear", {"wood": 1}, 2), ("Club", {"wood": 1}, 1), ("Dynamite", {"food": 1}, 5)],
)
def test_single_target_discard_weapons(name, pay, lost):
    s, d = duel({"stone": 3, **{k: v + 0 for k, v in pay.items()}}, {"gold": 8})
    card = give_item(d, P0, name)
    action_phase(s, P0)
    use_on(s, card, P1)
    s.apply(PASS)
    assert resources(d, P1) == 8 - lost
    assert hand(d, P0)[:5] == [0, 0, 3, 0, 0]
    assert (d.item_owner[card] == NO) == (CARD_TYPE[card].colour == "green")


def test_items_are_used_as_long_as_resources_last():
    """Seed FAQ: "Yeterli kaynağın olduğu sürece birden fazla eşya üretebilir, birden fazla eşya kullanabilir
    ... Herhangi bir aksiyon sayısı sınırı yoktur." No per-round cap: the Spear hits three times while its
    Wood lasts (it failed before the fix: the Spear was capped at twice a round, the Club at once)."""
    s, d = duel({"wood": 4, "food": 1}, {"gold": 12})
    spear = give_item(d, P0, "Spear")
    club = give_item(d, P0, "Club")
    action_phase(s, P0)
    for _ in range(3):
        use_on(s, spear, P1)
        s.apply(PASS)
    use_on(s, club, P1)
    s.apply(PASS)
    assert resources(d, P1) == 12 - 3 * 2 - 1 and d.item_used[spear] == 3
    assert hand(d, P0)[:5] == [1, 0, 0, 0, 0]
    assert item_a(spear) not in s.legal_actions() and item_a(club) not in s.legal_actions()  # no Wood left


def test_lasso_steals_one_random_card():
    s, d = duel({"food": 2}, {"gold": 3})
    lasso = give_item(d, P0, "Lasso")
    action_phase(s, P0)
    use_on(s, lasso, P1)
    s.apply(PASS)
    assert hand(d, P0)[:5] == [1, 0, 0, 0, 1] and hand(d, P1)[:5] == [0, 0, 0, 0, 2]


def test_grenade_is_explosive_hits_everyone_and_is_discarded():
    s, d = duel({"food": 2}, {"wood": 5}, n=3, p2={"food": 5, "decoy": 1})
    grenade = give_item(d, P0, "Grenade")
    shield = give_item(d, P1, "Shield")
    action_phase(s, P0)
    s.apply(item_a(grenade))
    assert pending(s) == (Step.DEFEND, P1) and s.legal_actions() == [PASS]  # no Shield against explosives
    s.apply(PASS)
    assert s.legal_actions() == [PASS]  # nor a Decoy
    s.apply(PASS)
    assert resources(d, P1) == 2 and resources(d, P2) == 2
    assert d.item_owner[grenade] == NO and grenade in d.item_discard and d.item_owner[shield] == P1


def test_dynamite_can_only_be_reflected():
    s, d = duel({"food": 7}, {"wood": 5, "decoy": 1, "ricochet": 1})
    dyn = give_item(d, P0, "Dynamite")
    action_phase(s, P0)
    use_on(s, dyn, P1)
    assert s.legal_actions() == [PASS, card_a("ricochet")]
    s.apply(card_a("ricochet"))
    assert pending(s) == (Step.DEFEND, P0)  # the attacker may answer in turn
    s.apply(PASS)
    assert resources(d, P0) == 1 and resources(d, P1) == 5


# --- tools and medicine ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "cost", "drawn"), [("Axe", "food", 2), ("Fishing Rod", "wood", 2), ("Bandage", "", 3), ("Medkit", "", 5)]
)
def test_draw_items(name, cost, drawn):
    s, d = duel({"food": 4, "wood": 1}, {"food": 4})
    card = give_item(d, P0, name)
    deck_top(d, *["iron"] * 10)
    action_phase(s, P0)
    s.apply(item_a(card))
    expected = [4, 1, 0, drawn, 0]
    if cost:
        expected[0 if cost == "food" else 1] -= 1
    assert hand(d, P0)[:5] == expected
    consumable = name in ("Bandage", "Medkit")
    assert (d.item_owner[card] == NO) == consumable
    # a permanent tool is used again while its cost can be paid (no per-round cap)
    assert (item_a(card) in s.legal_actions()) == (not consumable and name == "Axe")


@pytest.mark.parametrize(("name", "pay", "taken"), [("Pickaxe", {"wood": 1}, 1), ("Herbal Remedy", {}, 3)])
def test_salvage_items_take_a_named_kind_from_the_discard_pile(name, pay, taken):
    s, d = duel({"food": 2, **pay}, {"food": 4})
    card = give_item(d, P0, name)
    d.res_deck.remove(4)
    d.res_deck.remove(4)
    d.res_deck.remove(4)
    d.res_deck.remove(4)
    d.res_discard[4] = 4  # four Gold in the discard pile
    action_phase(s, P0)
    s.apply(item_a(card))
    assert pending(s) == (Step.SALVAGE_KIND, P0)
    s.apply(card_a("gold"))
    assert hand(d, P0)[:5] == [2, 0, 0, 0, taken] and d.res_discard[4] == 4 - taken
    assert (d.item_owner[card] == NO) == (name == "Herbal Remedy")


# --- traps and hidden items -------------------------------------------------------------------------------------
def attacked_with_knife(defender: dict, attacker: dict | None = None):
    s, d = duel(attacker or {"food": 5}, defender)
    knife = give_item(d, P0, "Knife")
    return s, d, knife


def test_shield_avoids_each_attack_it_pays_for():
    """No per-round cap (seed FAQ): the Shield avoids every attack while its owner can pay 1 Wood (keeping a
    resource card); before the fix it worked once a round."""
    s, d, knife = attacked_with_knife({"wood": 3})
    shield = give_item(d, P1, "Shield")
    spear = give_item(d, P0, "Spear")
    set_hand(d, P0, food=5, wood=2)
    action_phase(s, P0)
    use_on(s, knife, P1)
    s.apply(item_a(shield))
    assert resources(d, P1) == 2 and d.item_owner[shield] == P1
    use_on(s, spear, P1)
    assert item_a(shield) in s.legal_actions()
    s.apply(item_a(shield))
    assert resources(d, P1) == 1
    use_on(s, spear, P1)
    assert s.legal_actions() == [PASS]  # the last Wood is P1's last resource: not paid off turn
    s.apply(PASS)
    assert d.alive[P1] == 0 and d.winner == P0  # the active player's blow may take the last card


def test_bear_trap_avoids_and_hurts_the_attacker():
    s, d, knife = attacked_with_knife({"wood": 5})
    trap = give_item(d, P1, "Bear Trap")
    action_phase(s, P0)
    use_on(s, knife, P1)
    s.apply(item_a(trap))
    assert pending(s) == (Step.DEFEND, P0)  # the attacker may answer in turn
    s.apply(PASS)
    assert resources(d, P1) == 5 and resources(d, P0) == 5 - 1 - 2 and d.item_owner[trap] == NO


def test_spike_wall_reflects():
    s, d, knife = attacked_with_knife({"stone": 5})
    wall = give_item(d, P1, "Spike Wall")
    action_phase(s, P0)
    use_on(s, knife, P1)
    s.apply(item_a(wall))
    assert pending(s) == (Step.DEFEND, P0)  # the attacker may answer in turn
    s.apply(PASS)
    assert resources(d, P1) == 4 and resources(d, P0) == 5 - 1 - 2 and d.item_owner[wall] == P1


def test_decoy_avoids():
    s, d, knife = attacked_with_knife({"wood": 5, "decoy": 1})
    action_phase(s, P0)
    use_on(s, knife, P1)
    s.apply(card_a("decoy"))
    assert hand(d, P1) == [0, 5, 0, 0, 0, 0, 0, 0] and resources(d, P0) == 4


def test_ricochet_reflects():
    s, d, knife = attacked_with_knife({"wood": 5, "ricochet": 1})
    action_phase(s, P0)
    use_on(s, knife, P1)
    s.apply(card_a("ricochet"))
    assert pending(s) == (Step.DEFEND, P0)  # the attacker may answer in turn
    s.apply(PASS)
    assert hand(d, P1) == [0, 5, 0, 0, 0, 0, 0, 0] and resources(d, P0) == 2


def test_deadfall_eliminates_a_weak_attacker_and_loots_him():
    """ "Hatta savunan oyuncu, saldırganı anlık eşyalarıyla eleyebilir ve ganimetini alabilir." """
    s, d, knife = attacked_with_knife({"wood": 5, "deadfall": 1}, attacker={"food": 5})
    action_phase(s, P0)
    use_on(s, knife, P1)
    s.apply(card_a("deadfall"))
    assert pending(s) == (Step.DEFEND, P0)  # the attacker may answer in turn
    s.apply(PASS)
    assert d.alive == [0, 1] and d.item_owner[knife] == P1
    assert d.winner == P1 and s.is_terminal()


# --- escape items and sets ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [t.name for t in ITEM_TYPES if t.category == "escape"])
def test_escape_item_points(name):
    s, d = duel({"food": 9, "wood": 9, "stone": 9, "iron": 9, "gold": 9}, {"food": 3})
    set_field(d, name)
    action_phase(s, P0)
    s.apply(craft_a(0))
    assert escape_points(d, P0) == TYPE_BY_NAME[name].escape_points


@pytest.mark.parametrize("index", range(len(ESCAPE_SETS)))
def test_a_completed_escape_set_wins_at_once(index):
    names = [ITEM_TYPES[t].name for t in ESCAPE_SETS[index].types]
    s, d = duel({"food": 9, "wood": 9, "stone": 9, "iron": 9, "gold": 9}, {"food": 3})
    for name in names[:-1]:
        give_item(d, P0, name)
    set_field(d, names[-1])
    action_phase(s, P0)
    assert completed_set(d, P0) == -1
    s.apply(craft_a(0))
    assert d.winner == P0 and d.win_kind == WIN_ESCAPE_SET and s.is_terminal()
    assert escape_points(d, P0) < 10


def test_every_item_type_has_a_scenario_here():
    """The deck has 27 item types; the tests above name each (a new type must get a scenario)."""
    covered = {
        "Knife", "Spear", "Club", "Lasso", "Shotgun", "Grenade", "Dynamite", "Axe", "Fishing Rod", "Pickaxe",
        "Backpack", "Bandage", "Medkit", "Herbal Remedy", "Shield", "Bear Trap", "Spike Wall", "Decoy",
        "Ricochet", "Deadfall", "Raft", "Sail", "Paddle", "Radio", "Flare Gun", "Signal Fire", "Compass",
    }  # fmt: skip
    assert {t.name for t in ITEM_TYPES_ALL} == covered
