"""Scenarios: workshop construction, production, gardens, green bonuses and garden completion rewards."""

from __future__ import annotations

from resafa_scenario import P0, STONE, A, C, Step, cell, empty_store, fresh, give, play, start, store, workshop

from meeplezoo.envs.resafa.content import Action, Gain, Level
from meeplezoo.envs.resafa.geometry import CELLS, START_CELLS
from meeplezoo.envs.resafa.state import NO


def place_ws(s, seat, at, name, face=0, rot=0):
    i = seat * CELLS + at
    tile = workshop(name)
    d = s.d
    for deck in d.ws_decks:
        if tile in deck:
            deck.remove(tile)
    d.ws_display = [NO if x == tile else x for x in d.ws_display]
    d.ws_tile[i], d.ws_face[i], d.ws_rot[i] = tile, face, rot


# --- workshops ------------------------------------------------------------------------------------------
def test_workshop_costs_a_coin_and_a_stone_and_goes_diagonally():
    s = fresh()
    d = s.d
    coins, stone = d.coins[P0], store(s, P0)[STONE]
    start(s, Step.MAIN_ACTION, P0, Action.WORKSHOP)
    assert s.legal_actions()[:3] == [A.WS0, A.WS0 + 1, A.WS0 + 2]  # level I only in round 1
    tile = d.ws_display[1]
    play(s, A.WS0 + 1)
    assert d.coins[P0] == coins - 1 and store(s, P0)[STONE] == stone - 1
    assert d.ws_display[1] != NO and d.ws_display[1] != tile  # the display is refilled at once
    play(s, A.FACE0 + 1)  # the face is chosen before the place
    # corner to corner with the starting workshops at (1,1) and (2,2)
    expected = sorted({cell(0, 0), cell(0, 2), cell(2, 0), cell(1, 3), cell(3, 1), cell(3, 3)})
    assert s.legal_actions() == [A.CELL0 + c for c in expected]
    play(s, A.CELL0 + cell(3, 3))
    assert d.ws_tile[P0 * CELLS + cell(3, 3)] == tile and d.ws_face[P0 * CELLS + cell(3, 3)] == 1
    if s.pending_step() == Step.WS_ROT:
        play(s, A.ROT0 + 2)
        assert d.ws_rot[P0 * CELLS + cell(3, 3)] == 2


def test_workshop_needs_a_coin_and_a_stone():
    s = fresh()
    empty_store(s, P0)
    start(s, Step.MAIN_ACTION, P0, Action.WORKSHOP)
    assert s.pending_step() != Step.WS_PICK


def test_level_two_workshops_need_round_three_and_two_merchant_tokens():
    s = fresh()
    d = s.d
    d.ws_display[3:] = [d.ws_decks[1].pop() for _ in range(3)]
    give(s, P0, stone=2)
    d.round_no, d.gate[P0] = 2, 2
    start(s, Step.WS_PICK, P0)
    assert all(a < A.WS0 + 3 for a in s.legal_actions() if A.WS0 <= a < A.WS0 + 6)  # round 2: not yet
    d.stack.pop()
    d.round_no, d.gate[P0] = 3, 1
    d.tokens[0] -= 1
    d.gate[P0] = 1
    start(s, Step.WS_PICK, P0)
    assert all(a < A.WS0 + 3 for a in s.legal_actions() if A.WS0 <= a < A.WS0 + 6)  # one token: not yet
    d.stack.pop()
    d.gate[P0] = 2
    d.tokens[0] -= 1
    start(s, Step.WS_PICK, P0)
    assert {A.WS0 + 3, A.WS0 + 4, A.WS0 + 5} <= set(s.legal_actions())
    coins, stone = d.coins[P0], store(s, P0)[STONE]
    play(s, A.WS0 + 4)
    assert (d.coins[P0], store(s, P0)[STONE]) == (coins - 1, stone - 1)  # same cost as level I


def test_level_two_front_gives_its_room_at_once():
    s = fresh()
    d = s.d
    d.round_no = 3
    tile = workshop("ws-2-01")  # front room: 2 stone + 1 coin
    d.ws_decks[1].remove(tile)
    d.ws_display[3] = tile
    d.gate[P0] = 2
    d.tokens[0] -= 2
    start(s, Step.WS_PICK, P0)
    coins, stone = d.coins[P0], store(s, P0)[STONE]
    play(s, A.WS0 + 3, A.FACE0, A.CELL0 + cell(3, 3), A.ROT0)
    assert store(s, P0)[STONE] == stone - 1 + 2 and d.coins[P0] == coins - 1 + 1


def test_no_workshop_when_its_level_is_all_built():
    s = fresh()
    d = s.d
    d.ws_decks[0] = []
    d.ws_display[:3] = [NO, NO, NO]
    start(s, Step.MAIN_ACTION, P0, Action.WORKSHOP)
    assert s.pending_step() != Step.WS_PICK


# --- production ---------------------------------------------------------------------------------------------
def test_production_two_activations_on_different_workshops():
    s = fresh()
    d = s.d
    a, b = START_CELLS
    start(s, Step.MAIN_ACTION, P0, Action.PRODUCTION)
    rooms_a = [A.ROOM0 + 2 * a + r for r in range(2)]
    assert set(rooms_a) <= set(s.legal_actions())
    play(s, rooms_a[0])
    assert not set(rooms_a) & set(s.legal_actions())  # that workshop is used
    play(s, A.ROOM0 + 2 * b)
    assert s.pending_step() != Step.PRODUCE  # two activations, no back-side workshop: done
    assert d.stack[-1][0] == Step.PLAY_CARD


def test_back_side_workshop_gives_one_more_activation_and_its_vp_room():
    s = fresh()
    d = s.d
    place_ws(s, P0, cell(3, 3), "ws-1-03", face=1)  # back: 2 VP room + a production icon
    start(s, Step.MAIN_ACTION, P0, Action.PRODUCTION)
    assert s.d.stack[-1][2] // 64 == 3
    vp = d.vp[P0]
    play(s, A.ROOM0 + 2 * cell(3, 3))
    assert d.vp[P0] == vp + 2


def test_production_goes_to_the_storehouse():
    s = fresh()
    start_ws = C.workshops[s.d.ws_tile[P0 * CELLS + START_CELLS[0]]]
    room = start_ws.front.rooms[0].effects[0]
    assert isinstance(room, Gain)
    before = store(s, P0)
    start(s, Step.MAIN_ACTION, P0, Action.PRODUCTION)
    play(s, A.ROOM0 + 2 * START_CELLS[0])
    assert store(s, P0) == [x + y for x, y in zip(before, room.bundle.items, strict=True)]


def test_extra_activations_may_reuse_a_used_room():
    s = fresh()
    a, b = START_CELLS
    start(s, Step.MAIN_ACTION, P0, Action.PRODUCTION)
    play(s, A.ROOM0 + 2 * a)
    from meeplezoo.envs.resafa.effects import add_production

    add_production(s.d, P0, 1)  # e.g. a bonus card's extra production during the action
    s.refresh()
    assert A.ROOM0 + 2 * a in s.legal_actions()
    play(s, A.ROOM0 + 2 * a)  # the free activation on the used workshop
    assert A.ROOM0 + 2 * a not in s.legal_actions() and A.ROOM0 + 2 * b in s.legal_actions()


def test_extra_production_outside_the_action_is_a_production_of_its_own():
    s = fresh()
    from meeplezoo.envs.resafa.effects import add_production

    add_production(s.d, P0, 2)
    s.refresh()
    a, _ = START_CELLS
    assert s.pending_step() == Step.PRODUCE
    play(s, A.ROOM0 + 2 * a, A.ROOM0 + 2 * a)  # any room, twice
    assert s.pending_step() == Step.PLAY_CARD


# --- gardens ------------------------------------------------------------------------------------------------
def test_garden_costs_small_one_stone_large_a_coin_and_a_stone():
    s = fresh()
    d = s.d
    start(s, Step.MAIN_ACTION, P0, Action.GARDEN)
    assert s.legal_actions()[:2] == [A.SIZE0, A.SIZE0 + 1]
    coins, stone = d.coins[P0], store(s, P0)[STONE]
    play(s, A.SIZE0 + 1)
    assert (d.coins[P0], store(s, P0)[STONE]) == (coins - 1, stone - 1)
    s2 = fresh()
    start(s2, Step.MAIN_ACTION, P0, Action.GARDEN)
    coins, stone = s2.d.coins[P0], store(s2, P0)[STONE]
    play(s2, A.SIZE0)
    assert (s2.d.coins[P0], store(s2, P0)[STONE]) == (coins, stone - 1)


def test_first_garden_tile_must_touch_a_workshop_and_lie_along_an_edge():
    s = fresh()
    start(s, Step.GARDEN_SQUARE, P0, 0)  # small tile
    squares = [a - A.CELL0 for a in s.legal_actions() if A.CELL0 <= a < A.CELL0 + 25]
    # squares next to (1,1) or (2,2); the far corner squares touch no workshop
    assert cell(1, 2) in squares and cell(0, 1) in squares and cell(4, 3) not in squares and cell(0, 3) not in squares
    play(s, A.CELL0 + cell(1, 2))
    # (1,2): workshop W at (1,1) and S at (2,2); horizontal tiles touch E/W thirds, top/bottom
    legal = s.legal_actions()
    assert legal == [A.GPOS0 + 0, A.GPOS0 + 2, A.GPOS0 + 3, A.GPOS0 + 5]  # never the middle strip first


def test_square_completed_by_large_plus_small_gives_the_first_reward():
    s = fresh()
    d = s.d
    g = cell(1, 2)
    start(s, Step.GARDEN_POS, P0, 1, g)  # large tile
    play(s, A.GPOS0 + 0)  # horizontal, strips 0-1
    start(s, Step.GARDEN_POS, P0, 0, g)  # small tile
    assert s.legal_actions() == [A.GPOS0 + 2]  # only the bottom strip is left, horizontal
    vp = d.vp[P0]
    play(s, A.GPOS0 + 2)
    assert d.gardens_done[P0] == 1 and d.vp[P0] == vp  # 1st garden: one track step, no VP
    while s.pending_step() != Step.TRACK_PICK:
        play(s, s.legal_actions()[0])
    play(s, A.COLOUR0 + 3)
    assert d.track[P0 * 4 + 3] == 1


def test_square_completed_by_three_small_tiles_and_the_rewards_table():
    s = fresh()
    d = s.d
    d.gardens_done[P0] = 2  # this will be the 3rd: 2 steps + 3 VP
    g = cell(1, 2)
    for pos in (0, 2, 1):
        start(s, Step.GARDEN_POS, P0, 0, g)
        play(s, A.GPOS0 + pos)
    assert d.g_strips[P0 * CELLS + g] == 0b111 and d.gardens_done[P0] == 3
    picks = 0
    while s.pending_step() != Step.PLAY_CARD:
        if s.pending_step() == Step.TRACK_PICK:
            picks += 1
        play(s, s.legal_actions()[0])
    assert picks == 2


def test_fifth_and_later_gardens_give_five_vp():
    s = fresh()
    d = s.d
    d.gardens_done[P0] = 6
    g = cell(1, 2)
    start(s, Step.GARDEN_POS, P0, 1, g)
    play(s, A.GPOS0 + 0)
    vp = d.vp[P0]
    start(s, Step.GARDEN_POS, P0, 0, g)
    play(s, A.GPOS0 + 2)
    while s.pending_step() != Step.PLAY_CARD:
        play(s, s.legal_actions()[0])
    assert d.vp[P0] >= vp + 5 and d.gardens_done[P0] == 7


def test_green_bonus_collected_when_a_garden_tile_covers_its_third():
    s = fresh()
    d = s.d
    # starting workshop at (1,1) front: green bonus at E side, slot 1 (middle third): +1 coin
    tile = C.workshops[d.ws_tile[P0 * CELLS + cell(1, 1)]]
    green = tile.front.greens[0]
    assert (green.side, green.slot) == (1, 1) and isinstance(green.effects[0], Gain)
    coins = d.coins[P0]
    # square (1,2) east of it: a horizontal top strip touches only the top third of its W side
    start(s, Step.GARDEN_POS, P0, 0, cell(1, 2))
    play(s, A.GPOS0 + 0)
    assert d.coins[P0] == coins
    # the middle strip covers the middle third: the green bonus is collected
    start(s, Step.GARDEN_POS, P0, 0, cell(1, 2))
    play(s, A.GPOS0 + 1)
    assert d.coins[P0] == coins + green.effects[0].bundle.coins


def test_green_bonuses_trigger_again_with_each_tile_of_the_square():
    s = fresh()
    d = s.d
    green = C.workshops[d.ws_tile[P0 * CELLS + cell(1, 1)]].front.greens[0]
    gain = green.effects[0].bundle.coins
    coins = d.coins[P0]
    start(s, Step.GARDEN_POS, P0, 0, cell(1, 2))
    play(s, A.GPOS0 + 3)  # vertical, left strip: the whole W side, the green bonus
    assert d.coins[P0] == coins + gain
    start(s, Step.GARDEN_POS, P0, 0, cell(1, 2))
    play(s, A.GPOS0 + 4)  # a second tile in the square: every connected green bonus again
    assert d.coins[P0] == coins + 2 * gain


def test_rotation_moves_the_green_bonus():
    s = fresh()
    d = s.d
    i = P0 * CELLS + cell(1, 1)
    d.ws_rot[i] = 1  # the E-side green bonus now faces S: square (2,1)
    coins = d.coins[P0]
    start(s, Step.GARDEN_POS, P0, 0, cell(1, 2))
    play(s, A.GPOS0 + 3)
    assert d.coins[P0] == coins
    start(s, Step.GARDEN_POS, P0, 0, cell(2, 1))
    play(s, A.GPOS0 + 0)  # horizontal top strip of (2,1): the whole N side
    assert d.coins[P0] > coins


def test_level_of_starting_tiles():
    assert [t.level for t in C.workshops[:8]] == [Level.START] * 8
