"""Resafa content: the loaded box matches the seed's counts and the design rules, and malformed data fails
with a one-line ContentError naming what is wrong."""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from meeplezoo.envs.resafa.content import (
    EFFECT_KINDS,
    Action,
    Bundle,
    Choice,
    Colour,
    ContentError,
    Gain,
    Level,
    Score,
    Trigger,
    content,
    load,
    read_documents,
)

C = content()
RAW = read_documents()


def _broken(mutate) -> str:
    doc = copy.deepcopy(RAW)
    mutate(doc)
    with pytest.raises(ContentError) as err:
        load(doc)
    msg = str(err.value)
    assert "\n" not in msg
    return msg


def _all_effects():
    """Every effect printed anywhere, nested ones (choice options, trigger results) included."""
    out = []

    def walk(effects):
        for e in effects:
            out.append(e)
            if isinstance(e, Choice):
                for option in e.options:
                    walk(option)
            if isinstance(e, Trigger):
                walk(e.then)

    for card in C.action_cards:
        for h in card.halves:
            walk(h.extra)
    for t in C.workshops:
        for face in (t.front, t.back):
            for room in face.rooms:
                walk(room.effects)
            for green in face.greens:
                walk(green.effects)
    for t in C.canal_bonus_tiles:
        walk(t.effects)
    for side in C.board_sides:
        for box in side.network.boxes:
            walk(box.effects)
    for centre in C.centres:
        for p in centre.posts:
            walk(p.effects)
    for tile in C.trading_tiles:
        for deal in tile.sides:
            walk(deal.gold)
    for card in (*C.specials, *C.bonus_cards, *C.sack_cards):
        walk(card.effects)
        for h in getattr(card, "halves", None) or ():
            walk(h.extra)
    for rewards in C.camel_rewards:
        walk(rewards)
    for track in C.tracks:
        for space in track.spaces:
            walk(space)
    return out


# ------------------------------------------------------------------------------------------- seed counts


def test_supply_counts_are_the_seeds():
    s = C.supply
    assert (s.stone, s.marble, s.spice, s.amphora) == (22, 20, 18, 18)
    assert s.triples_per_kind * 4 == 28
    assert (s.coins_1, s.coins_5) == (30, 14)
    assert (s.garden_large, s.garden_small) == (17, 22)
    assert (s.square_tokens, s.scarab_tokens) == (21, 20)


def test_workshop_tiles_8_12_14_with_the_seeds_faces():
    by_level = Counter(t.level for t in C.workshops)
    assert by_level == {Level.START: 8, Level.I: 12, Level.II: 14}
    for t in C.workshops:
        assert t.back.extra_production == 1 and len(t.back.rooms) == 1
        want = 3 if t.level == Level.II else 2
        assert t.back.rooms[0].effects == (Gain(Bundle(vp=want)),)
        assert len(t.front.rooms) == (1 if t.level == Level.II else 2)
        assert t.front.immediate == (t.level == Level.II)
        for face in (t.front, t.back):
            assert all(0 <= g.side < 4 and 0 <= g.slot < 3 for g in face.greens)


def test_every_production_room_differs_from_its_neighbour_and_tiles_are_varied():
    fronts = [tuple(r.effects for r in t.front.rooms) for t in C.workshops if t.level != Level.START]
    assert len(set(fronts)) == len(fronts)  # no two level I/II tiles with the same production
    for t in C.workshops:
        if len(t.front.rooms) == 2:
            assert t.front.rooms[0] != t.front.rooms[1]


def test_canal_pieces():
    assert len(C.canal_tiles) == 7
    tanks = [t for t in C.canal_tiles if t.back is not None]
    assert len(tanks) == 2 and all(t.back.tank and t.back.exits == {0} for t in tanks)
    assert all(not t.front.tank and 0 in t.front.exits and t.front.cost for t in C.canal_tiles)
    assert len(C.canal_bonus_tiles) == 9 and len({t.kind for t in C.canal_bonus_tiles}) == 7
    assert len(C.canal_setup_cards) == 3
    assert sorted(p for k in C.canal_setup_cards for p in k.players) == [1, 2, 3, 4]


@pytest.mark.parametrize(("players", "cubes"), [(1, 8), (2, 8), (3, 9), (4, 9)])
def test_board_side_and_water_sources(players, cubes):
    side = C.side_for(players)
    assert side.water_cubes == cubes == len(side.network.sources)
    net = side.network
    assert len(net.boxes) == net.rows * net.cols
    assert all(src.row == 0 and src.side == 0 for src in net.sources)  # above the top row
    card = next(k for k in C.canal_setup_cards if players in k.players)
    assert all(r < net.rows and col < net.cols for r, col in card.cells)
    assert any(box.effects for box in net.boxes)
    assert any(isinstance(e, Gain) and e.bundle.vp for box in net.boxes for e in box.effects)


def test_trade_map():
    colours = Counter(x.colour for x in C.centres)
    assert colours == {"city": 1, "blue": 4, "red": 5}
    ids = {x.id for x in C.centres}
    assert all(r.a in ids and r.b in ids for r in C.roads)
    spur = [r for r in C.roads if r.resafa_spur]
    assert len(spur) == 1 and "resafa" in (spur[0].a, spur[0].b)
    assert Counter(t.colour for t in C.trading_tiles) == {"blue": 4, "red": 5}
    for tile in C.trading_tiles:
        for deal in tile.sides:
            assert deal.better in ("buy", "sell") and deal.buy >= 1
            assert deal.sell.items == (0, 0, 0, 0) and deal.sell
        assert tile.sides[0] != tile.sides[1]
    for centre in C.centres:
        if centre.colour != "city":
            assert sorted(p.min_players for p in centre.posts) == [1, 2, 3, 4]
    tokens = Counter(p.token for x in C.centres for p in x.posts)
    assert tokens["square"] <= 21 and tokens["scarab"] <= 20
    rewards = {type(e).__name__ for x in C.centres for p in x.posts for e in p.effects}
    assert {"Gain", "Sack", "Track"} <= rewards  # VP, a sack card, a track step


def test_scoring_tables_are_the_seeds():
    sc = C.scoring
    assert sc.scarab_scale == (2, 4, 7, 11, 16)
    assert sc.canal_strip == {3: 5, 5: 8, 7: 15}
    assert sc.garden_rewards == ((1, 0), (1, 2), (2, 3), (2, 4), (0, 5))
    assert sc.multiplier_rows == {"garden": (1, 2, 3), "workshop": (1, 2, 3), "canal": (1, 2, 3)}
    assert C.setup.pink_early_bonus[0] == Bundle(coins=2, vp=3) and C.setup.pink_early_bonus[4] == Bundle()
    assert C.setup.fourth_player == Bundle(stone=1, vp=2)


def test_tracks_and_camel():
    for track in C.tracks:
        assert [track.levels[s] for s in track.cards] == [1, 2, 3]
        assert len(track.spaces) == len(track.levels)
    assert C.camel_track[0] >= 1 and list(C.camel_track) == sorted(set(C.camel_track))


# ------------------------------------------------------------------------------------------- action cards


def test_action_sets_every_action_twice_colours_three_times():
    for name in ("alpha", "beta", "gamma", "delta"):
        cards = C.action_set(name)
        assert len(cards) == 6
        halves = [h for card in cards for h in card.halves]
        assert Counter(h.action for h in halves) == dict.fromkeys(Action, 2)
        assert Counter(h.colour for h in halves) == dict.fromkeys(Colour, 3)


def test_action_colour_pairings_differ_between_sets():
    pairings = {
        name: frozenset(Counter((h.action, h.colour) for card in C.action_set(name) for h in card.halves).items())
        for name in ("alpha", "beta", "gamma", "delta")
    }
    assert len(set(pairings.values())) == 4
    sets = ("alpha", "beta", "gamma", "delta")
    cards = {n: Counter(tuple((h.action, h.colour) for h in card.halves) for card in C.action_set(n)) for n in sets}
    for i, a in enumerate(sets):
        for b in sets[i + 1 :]:
            assert sum((cards[a] & cards[b]).values()) <= 2, f"{a} and {b} share more than 2 cards"


# ------------------------------------------------------------------------------------------- cards


def test_special_decks_hold_more_than_the_four_used():
    for colour in Colour:
        for level in (Level.I, Level.II, Level.III):
            deck = C.special_deck(colour, level)
            assert len(deck) > 4
            assert len({c.name for c in deck}) == len(deck)


def test_special_card_colours_follow_the_seed():
    for card in C.specials:
        if card.colour == Colour.PINK:
            assert card.timing == "endgame" and all(isinstance(e, Score) for e in card.effects)
        elif card.colour == Colour.YELLOW:
            assert card.halves is not None and all(h.colour is None for h in card.halves)
            free = all(h.action is None for h in card.halves)
            assert free == (card.level > Level.I)
        elif card.colour == Colour.BLUE and card.level > Level.I:
            assert card.timing == "instant"
    assert any(e.counter == "water_cubes" for card in C.specials for e in card.effects if isinstance(e, Score))
    pairs = {frozenset(h.action for h in card.halves) for card in C.action_set("alpha")}
    for card in C.specials:
        if card.colour == Colour.YELLOW:
            assert frozenset(card.replaces) in pairs


def test_bonus_cards_36_plus_36_nine_per_colour():
    for level in (1, 2):
        deck = [b for b in C.bonus_cards if b.level == level]
        assert len(deck) == 36
        assert Counter(b.colour for b in deck) == dict.fromkeys(Colour, 9)
        # varied, not filler: no two cards of a colour and level share an effect list
        for colour in Colour:
            same = Counter(b.effects for b in deck if b.colour == colour)
            assert max(same.values()) <= 1


def test_sack_cards_give_resources_or_convert_stone_and_coins():
    assert len(C.sack_cards) >= 12
    kinds = {type(e).__name__ for card in C.sack_cards for e in card.effects}
    assert kinds <= {"Gain", "Convert", "Choice"} and "Convert" in kinds


def test_every_effect_is_of_a_known_kind_and_frozen():
    effects = _all_effects()
    assert len(effects) > 300
    known = set(EFFECT_KINDS.values())
    assert {type(e) for e in effects} <= known
    used = {type(e) for e in effects}
    assert used == known, f"vocabulary kinds never used: {known - used}"
    for e in effects[:50]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(e, dataclasses.fields(e)[0].name, None)


def test_ids_are_unique_and_indexed():
    assert len(C.by_id) == (
        len(C.action_cards)
        + len(C.workshops)
        + len(C.canal_tiles)
        + len(C.canal_bonus_tiles)
        + len(C.canal_setup_cards)
        + len(C.centres)
        + len(C.trading_tiles)
        + len(C.specials)
        + len(C.bonus_cards)
        + len(C.sack_cards)
    )


def test_every_piece_is_listed_in_the_content_doc():
    doc = (Path(__file__).parents[2] / "docs" / "rules" / "resafa_content.md").read_text(encoding="utf-8")
    missing = [i for i in C.by_id if i not in doc and not i.startswith(("sack-", "alpha", "beta", "gamma", "delta"))]
    assert not missing, f"not in docs/rules/resafa_content.md: {missing[:5]}"
    assert all(x.name in doc for x in C.specials)


def test_score_points():
    assert Score("canals", vp=2, cap=3).points(5) == 6
    assert Score("goods_left", vp=1, each=2).points(5) == 2
    assert Score("water_cubes", table=(0, 2, 5)).points(9) == 5


# ------------------------------------------------------------------------------------------- malformed data


def test_the_shipped_document_loads():
    assert load(copy.deepcopy(RAW)) == C


def test_unknown_effect_kind():
    msg = _broken(lambda d: d["bonus_cards"][0]["effects"].append({"kind": "teleport"}))
    assert "bonus_cards[0].effects[1]" in msg and "teleport" in msg


def test_unknown_effect_parameter():
    msg = _broken(lambda d: d["sack_cards"][0]["effects"][0].update(colour="blue"))
    assert "sack_cards[0]" in msg and "colour" in msg


def test_bad_bundle_key():
    msg = _broken(lambda d: d["bonus_cards"][3]["effects"][0]["bundle"].update(gold=1))
    assert "gold" in msg


def test_action_three_times_in_a_set():
    def mutate(d):
        d["action_cards"][0]["halves"][1]["action"] = "workshop"  # alpha-1 becomes workshop/workshop

    assert "alpha" in _broken(mutate)


def test_identical_pairings_rejected():
    def mutate(d):
        alpha = [c for c in d["action_cards"] if c["set"] == "alpha"]
        beta = [c for c in d["action_cards"] if c["set"] == "beta"]
        for a, b in zip(alpha, beta, strict=True):
            b["halves"] = copy.deepcopy(a["halves"])

    assert "pairings must differ" in _broken(mutate)


def test_missing_workshop():
    assert "8/12/14" in _broken(lambda d: d["workshops"].pop())


def test_workshop_back_must_be_a_vp_room():
    def mutate(d):
        d["workshops"][10]["back"]["rooms"][0] = [{"kind": "gain", "bundle": {"coins": 2}}]

    assert "workshops[10].back" in _broken(mutate)


def test_dangling_road():
    msg = _broken(lambda d: d["roads"].append({"a": "resafa", "b": "babylon", "cost": 1}))
    assert "babylon" in msg


def test_unreachable_centre():
    def mutate(d):
        d["roads"] = [r for r in d["roads"] if "petra" not in (r["a"], r["b"])]

    assert "petra" in _broken(mutate)


def test_water_cube_count_must_match_sources():
    msg = _broken(lambda d: d["board_sides"][0].update(water_cubes=9))
    assert "water cubes" in msg or "8 water" in msg


def test_tank_needs_single_north_exit():
    msg = _broken(lambda d: d["canal_tiles"][0]["back"].update(exits=["n", "s"]))
    assert "canal_tiles[0].back" in msg


def test_third_tank_rejected():
    def mutate(d):
        d["canal_tiles"][2]["back"] = {"cost": {"coins": 1}, "blue_vp": 2, "exits": ["n"]}

    assert "water-tank" in _broken(mutate)


def test_setup_card_cell_off_grid():
    assert "off grid" in _broken(lambda d: d["canal_setup_cards"][0]["cells"].append([7, 0]))


def test_yellow_level_one_must_keep_its_actions():
    def mutate(d):
        card = next(c for c in d["specials"] if c["colour"] == "yellow" and c["level"] == "I")
        card["halves"][0]["action"] = "canal"

    assert "keeps the main actions" in _broken(mutate)


def test_pink_card_must_score():
    def mutate(d):
        card = next(c for c in d["specials"] if c["colour"] == "pink")
        card["effects"] = [{"kind": "gain", "bundle": {"vp": 3}}]

    assert "end-game condition" in _broken(mutate)


def test_sack_card_cannot_give_goods():
    msg = _broken(lambda d: d["sack_cards"][0].update(effects=[{"kind": "gain", "bundle": {"spice": 1}}]))
    assert "sack card sack-01" in msg


def test_duplicate_id():
    msg = _broken(lambda d: d["bonus_cards"][1].update(id=d["bonus_cards"][0]["id"]))
    assert "used twice" in msg


def test_bonus_colour_count():
    assert "not 9" in _broken(lambda d: d["bonus_cards"][0].update(colour="pink"))


def test_wrong_seed_count():
    assert "22 stone" in _broken(lambda d: d["supply"].update(stone=21))


def test_missing_section_and_unknown_section():
    assert "missing section 'roads'" in _broken(lambda d: d.pop("roads"))
    assert "unknown section" in _broken(lambda d: d.update(dragons=[]))


def test_not_an_effect_object():
    assert "needs a 'kind'" in _broken(lambda d: d["bonus_cards"][0]["effects"].append(3))


def test_pink_deck_too_small():
    def mutate(d):
        d["specials"] = [c for c in d["specials"] if not (c["colour"] == "pink" and c["level"] == "III")][:]
        d["specials"] += [c for c in RAW["specials"] if c["colour"] == "pink" and c["level"] == "III"][:4]

    assert "need more than 4" in _broken(mutate)


def test_a_section_in_two_files_is_rejected(monkeypatch):
    from meeplezoo.envs.resafa import content as module

    monkeypatch.setattr(module, "DATA_FILES", ("rules.json", "cards.json", "rules.json"))
    with pytest.raises(ContentError, match="defined twice"):
        module.read_documents()


def test_choice_needs_two_options_and_gain_something():
    assert "at least two options" in _broken(
        lambda d: d["bonus_cards"][0].update(effects=[{"kind": "choice", "options": [[{"kind": "sack"}]]}])
    )
    assert "gain of nothing" in _broken(lambda d: d["bonus_cards"][0].update(effects=[{"kind": "gain", "bundle": {}}]))


def test_every_canal_box_prints_vp():
    for side in C.board_sides:
        assert all(any(isinstance(e, Gain) and e.bundle.vp for e in b.effects) for b in side.network.boxes)
    assert "prints no VP" in _broken(lambda d: d["board_sides"][1]["network"]["boxes"][4].update(effects=[]))
