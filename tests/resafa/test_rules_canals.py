"""Scenarios: canal construction, water tanks, canal bonus tiles and rain scoring with the water flow."""

from __future__ import annotations

from resafa_scenario import P0, P1, A, C, Step, fresh, give, play, start

from meeplezoo.envs.resafa.content import Action, Gain
from meeplezoo.envs.resafa.geometry import network

COLS = 8  # the 1-2 player side: 3 rows x 8 columns, a water source above each column


def box(row, col):
    return row * COLS + col


def design(name):
    return next(i for i, t in enumerate(C.canal_tiles) if t.id == name)


def put(s, seat, row, col, name, side=0):
    d = s.d
    b = box(row, col)
    t = design(name)
    d.canal_owner[b], d.canal_design[b], d.canal_side[b] = seat, t, side
    d.canal_placed[seat * 7 + t] = 1
    if row == 0 and d.cubes[col] == 0:
        d.cubes[col] = 1


def box_vp(b):
    return sum(e.bundle.vp for e in network(2).boxes[b].effects if isinstance(e, Gain))


def test_canal_tile_paid_placed_anywhere_and_box_bonus_taken():
    s = fresh()
    d = s.d
    d.cbonus_at[box(1, 2)] = -1  # no bonus tile there
    start(s, Step.MAIN_ACTION, P0, Action.CANAL)
    t = design("c5")  # 1 marble
    assert A.CANAL0 + 2 * t in s.legal_actions() and A.CANAL0 + 2 * t + 1 not in s.legal_actions()
    marble = d.store[1]
    play(s, A.CANAL0 + 2 * t)
    assert d.store[1] == marble - 1
    assert len(s.legal_actions()) == 24  # every empty box of the 3 x 8 network
    vp = d.vp[P0]
    play(s, A.BOX0 + box(1, 2))
    while s.pending_step() == Step.BUILD_OFFER:
        play(s, A.PASS)
    assert d.canal_owner[box(1, 2)] == P0 and d.vp[P0] == vp + box_vp(box(1, 2))


def test_vertical_neighbours_must_connect_horizontal_ones_need_not():
    s = fresh()
    put(s, P1, 1, 3, "c6")  # N + E, no S exit
    start(s, Step.CANAL_BOX, P0, 2 * design("c0"))  # N + S
    legal = {a - A.BOX0 for a in s.legal_actions()}
    assert box(2, 3) not in legal  # its N would meet c6's missing S
    assert box(0, 3) in legal  # c0's S meets c6's N
    assert box(1, 2) in legal and box(1, 4) in legal  # sideways: no need to connect
    s.d.stack.pop()
    start(s, Step.CANAL_BOX, P0, 2 * design("c6"))
    assert box(0, 3) not in {a - A.BOX0 for a in s.legal_actions()}  # c6 has no S above a tile with N


def test_a_tile_next_to_a_source_takes_its_water_cube_even_unconnected():
    s = fresh()
    d = s.d
    start(s, Step.CANAL_BOX, P0, 2 * design("c0"))
    play(s, A.BOX0 + box(0, 5))
    assert d.cubes[5] == 1 and d.cubes.count(1) == 1


def test_water_tank_needs_two_gardens_and_a_post_and_lies_at_a_network_end():
    s = fresh()
    d = s.d
    give(s, P0, stone=2, marble=2)
    d.coins[P0] = 10
    start(s, Step.CANAL_PICK, P0)
    tanks = {A.CANAL0 + 2 * design("c0") + 1, A.CANAL0 + 2 * design("c1") + 1}
    assert not tanks & set(s.legal_actions())
    d.stack.pop()
    d.gardens_done[P0] = 2
    start(s, Step.CANAL_PICK, P0)
    assert not tanks & set(s.legal_actions())  # still no trading post
    d.stack.pop()
    d.post_owner[4] = P0
    start(s, Step.CANAL_PICK, P0)
    assert tanks <= set(s.legal_actions())
    play(s, A.CANAL0 + 2 * design("c0") + 1)
    assert {a - A.BOX0 for a in s.legal_actions()} == {box(2, c) for c in range(COLS)}


def test_at_most_two_water_tanks():
    s = fresh()
    d = s.d
    d.gardens_done[P0] = 3
    d.post_owner[4] = P0
    put(s, P0, 2, 0, "c0", side=1)
    put(s, P0, 2, 1, "c1", side=1)
    from meeplezoo.envs.resafa.canals import tank_allowed

    assert not tank_allowed(d, P0)


def test_canal_bonus_tile_is_kept_and_used_later():
    s = fresh()
    d = s.d
    b = next(i for i, t in enumerate(d.cbonus_at) if t != -1)
    tile = d.cbonus_at[b]
    start(s, Step.CANAL_BOX, P0, 2 * design("c0"))
    play(s, A.BOX0 + b)
    assert d.cbonus_owner[tile] == P0 and d.cbonus_at[b] == -1 and not d.cbonus_used[tile]
    while s.pending_step() != Step.PLAY_CARD:
        play(s, A.PASS if A.PASS in s.legal_actions() else s.legal_actions()[0])
    assert A.USE_CB0 + tile in s.legal_actions()
    play(s, A.USE_CB0 + tile)
    assert d.cbonus_used[tile] == 1


def rain_board():
    """P0 c4 (all four exits, blue 2) at (0,3); P1 c0 (N,S) at (1,3) and c3 (N,S,W, blue 1) at (0,4)."""
    s = fresh()
    put(s, P0, 0, 3, "c4")
    put(s, P1, 1, 3, "c0")
    put(s, P1, 0, 4, "c3")
    s.d.vp = [0, 0]
    return s


def test_rain_canal_points_then_the_flow_chooser_decides_branches():
    s = rain_board()
    d = s.d
    start(s, Step.RAIN, P0)
    # canal points: P0 1 + 2; P1 (1 + 0) + (1 + 1); the cube under (0,3) gives P0 its tile's 1 + 2
    assert s.pending_step() == Step.FLOW and s.current_player() == P0  # the placer of the tile under the cube
    # from (0,3): E into c3 (it has W) or S into c0 (it has N); never W into a printed N-S box, never up
    assert s.legal_actions() == [A.DIR0 + 1, A.DIR0 + 2]
    play(s, A.DIR0 + 2)  # south: P1's c0 scores 1, then the printed box (2,3), then out of the network
    assert s.pending_step() == Step.FLOW and s.current_player() == P1  # the second cube, under P1's c3
    assert s.legal_actions() == [A.DIR0 + 2, A.DIR0 + 3]  # S, or W back into c4 (not visited by this cube)
    play(s, A.DIR0 + 2)
    assert d.vp == [3 + 3, 3 + 1 + 2]
    assert d.cubes[3] == 2 and d.cubes[4] == 2 and d.cubes_taken == [1, 1]  # the choosers keep the cubes


def test_water_never_enters_a_box_twice():
    s = rain_board()
    d = s.d
    start(s, Step.RAIN, P0)
    play(s, A.DIR0 + 1)  # P0 sends the water east into c3: S is the only way on (W is visited)
    # P1: canal points 3, the second cube's own tile c3 (1 + 1), and this cube passing c3 (1 + 1)
    assert d.vp[P0] == 3 + 3 and d.vp[P1] == 3 + 2 + 2
    assert s.current_player() == P1  # the second cube (c3's own) waits for P1


def test_rain_after_rounds_two_four_and_six_only():
    s = fresh()
    d = s.d
    put(s, P0, 1, 1, "c0")
    d.turns = 5
    start(s, Step.END_TURN, P1)
    assert d.vp[P0] == 0 and d.round_no == 2  # no rain after round 1
    d.turns = 5
    start(s, Step.END_TURN, P1)
    assert d.vp[P0] == 1 and d.round_no == 3  # rain after round 2: 1 VP for the canal tile
