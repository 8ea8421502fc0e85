"""Scenarios: the solo mode against Resafabot (seed "Solo Kurulum", "Resafabot'un Aksiyonları", "Solo Hedef
Puanları"), one test per Resafabot rule, plus determinism, the Gymnasium env and the CLI band."""

from __future__ import annotations

import dataclasses

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from resafa_scenario import P0, A, C, Step, fresh, play, start

import meeplezoo  # noqa: F401  (registers meeplezoo/ResafaSolo-v0)
from meeplezoo.envs.resafa import bot, solo
from meeplezoo.envs.resafa.game import ResafaGame
from meeplezoo.envs.resafa.geometry import network
from meeplezoo.envs.resafa.solo import BOT, SETUP_CARD, SOLO

COLS = 8
BLUE, WHITE, YELLOW, PINK = 0, 1, 2, 3


def box(row, col):
    return row * COLS + col


def solo_card(name):
    return next(i for i, c in enumerate(SOLO.cards) if c.id == name)


def node(name):
    return next(i for i, x in enumerate(C.centres) if x.id == name)


def new(seed=0):
    """A solo game whose player is to play a card (Resafabot's pending first turn, if any, not yet taken)."""
    s = fresh(1, seed)
    s.d.bot_first = 0
    return s


def bot_turn(s, read, reveal=SETUP_CARD):
    """Resafabot's next turn reveals ``reveal`` (its arrow) and reads the card ``read`` to its right."""
    d = s.d
    ids = [read, reveal]
    out = next(c for c in range(7) if c not in ids)
    d.bot_out = out
    rest = [c for c in range(8) if c not in (out, read, reveal)]
    d.bot_deck, d.bot_shown = [*rest, read, reveal], []
    start(s, Step.BOT_TURN)
    s.validate()


# --- setup ---------------------------------------------------------------------------------------------------
def test_solo_setup_uses_the_two_player_side_and_resafabots_cubes_canal_deck_and_solo_deck():
    for seed in range(6):
        s = ResafaGame(num_players=1).new_state(seed)
        d = s.d
        s.validate()
        net = network(1)
        assert (net.rows, net.cols, len(d.cubes)) == (3, 8, 8)  # the 1-2 player side, 8 water cubes
        if d.bot_first:  # Resafabot starts round 1: its first turn is taken (the canal setup card revealed)
            assert d.bot_shown == [SETUP_CARD] and len(d.bot_deck) == 6
            continue
        assert d.bot_track == [0, 0, 0, 0]  # a Resafabot cube at the start of each track
        placed = [b for b, o in enumerate(d.canal_owner) if o == BOT]
        assert len(placed) == 1 and len(d.bot_canals) == 6  # its first tile, 6 to come
        assert not any(d.canal_side[b] for b in placed)  # never the water-tank side
        assert placed[0] == SOLO.palms[SOLO.cards[d.bot_out].palm] == d.bot_last  # the random card's palm
        assert d.bot_deck[-1] == SETUP_CARD and sorted([*d.bot_deck[:-1], d.bot_out]) == list(range(7))
        assert len(d.bot_deck) == 7 and d.bot_shown == []
        assert d.coins == [4] and d.vp == [0] and d.camel_at == [0]  # the player's 2-player setup


def test_solo_uses_the_post_boxes_open_for_two_players():
    s = new()
    d = s.d
    d.camel_at[P0] = node("gerasa")
    d.coins[P0] = 5
    start(s, Step.POST_BOX, P0, 0, 1)
    assert set(s.legal_actions()) == {A.POSTBOX0, A.POSTBOX0 + 1, A.PASS}


# --- Resafabot's turn --------------------------------------------------------------------------------------
def test_the_arrow_of_the_revealed_card_picks_the_top_or_bottom_action_of_the_card_to_its_right():
    # solo-3: top workshop/yellow, bottom provisions/blue (provisions on white)
    s = new()
    bot_turn(s, solo_card("solo-3"), SETUP_CARD)  # the canal setup card's arrow points at the top action
    assert s.d.bot_shown == [SETUP_CARD] and s.d.bot_deck[-1] == solo_card("solo-3")
    assert s.d.bot_track == [0, 0, 0, 0]  # top half: yellow colour action removes a bonus card, no steps
    s = new()
    bot_turn(s, solo_card("solo-3"), solo_card("solo-2"))  # solo-2's arrow points at the bottom action
    assert s.d.bot_track == [2, 2, 0, 0]  # blue colour action: 2 steps; provisions: 2 steps on white


def test_colour_action_removes_the_leftmost_bonus_card_of_its_colour_or_steps_twice():
    s = new()
    d = s.d
    yellow = d.bonus_display[6:9]
    bot_turn(s, solo_card("solo-3"))  # top: workshop, yellow, "bonus"
    assert d.bonus_display[6:9] == [-1, *yellow[1:]]
    assert yellow[0] not in [c for deck in d.bonus_decks for c in deck]  # out of the game
    s = new()
    d = s.d
    d.bonus_display[6:9] = [-1, -1, -1]
    bot_turn(s, solo_card("solo-3"))  # no yellow bonus card left: 2 steps on the yellow track instead
    assert d.bot_track[YELLOW] == 2


def test_colour_action_first_then_the_main_action(monkeypatch):
    # a card whose colour action and provisions use the same track: colour first takes the last step (9 -> 10),
    # so provisions finds the track full; the other order would leave the colour action only a bonus card
    card = SOLO.cards[solo_card("solo-3")]
    half = dataclasses.replace(card.halves[1], colour=card.provisions)  # provisions / white / track
    patched = dataclasses.replace(card, halves=(card.halves[0], half))
    cards = list(SOLO.cards)
    cards[solo_card("solo-3")] = patched
    monkeypatch.setattr(bot, "SOLO", dataclasses.replace(SOLO, cards=tuple(cards)))
    s = new()
    d = s.d
    d.bot_track[WHITE] = 9
    white = d.bonus_display[3:6]
    bot_turn(s, solo_card("solo-3"), solo_card("solo-2"))
    assert d.bot_track[WHITE] == 10 and d.bonus_display[3:6] == white


def test_no_level_limits_and_a_card_space_removes_the_face_up_special_card_and_turns_up_the_next():
    s = new()
    d = s.d
    d.bot_track[:3] = [7, 7, 4]  # already level II on three tracks: a player could not go on
    blue3 = 0 * 3 + 2
    d.spec_up[blue3] = 0
    cards = list(d.spec_decks[blue3])
    bot.advance(d, BLUE, 2)  # 7 -> 9 passes the level III card space (8)
    assert d.bot_track[BLUE] == 9
    assert d.spec_up[blue3] == 1 and d.spec_decks[blue3] == cards  # none was face up: its top turns up
    bot.advance(d, BLUE, 5)  # stops at the end of the track
    assert d.bot_track[BLUE] == 10
    s.validate()
    # the level II card space: its face-up card leaves the game, the next one and level III's top turn up
    s = new()
    d = s.d
    d.bot_track[WHITE] = 4
    white2, white3 = 1 * 3 + 1, 1 * 3 + 2
    d.spec_up[white2] = 1
    face_up = d.spec_decks[white2][-1]
    left = len(d.spec_decks[white2])
    bot.advance(d, WHITE, 2)
    assert d.spec_owner[face_up] == BOT and len(d.spec_decks[white2]) == left - 1
    assert d.spec_up[white2] == 1 and d.spec_up[white3] == 1
    s.validate()


def test_production_and_garden_are_replaced_by_the_red_framed_action():
    s = new()
    d = s.d
    d.bot_track = [0, 0, 0, 0]
    before = [b for b, o in enumerate(d.canal_owner) if o == BOT]
    bot_turn(s, solo_card("solo-1"), solo_card("solo-2"))  # bottom: production / pink; red: canal (east)
    after = [b for b, o in enumerate(d.canal_owner) if o == BOT]
    assert len(after) == len(before) + 1 and d.bot_track[PINK] == 2
    s = new()
    d = s.d
    centre = node("gerasa")
    bot_turn(s, solo_card("solo-5"))  # top: garden / blue; red: provisions (pink)
    assert d.bot_track == [2, 0, 0, 2] and BOT not in d.post_owner[centre * 4 : centre * 4 + 4]


def test_workshop_removes_a_display_tile_which_is_refilled():
    s = new()
    d = s.d
    gone, nxt = d.ws_display[2], d.ws_decks[0][-1]
    bot_turn(s, solo_card("solo-3"))  # top: workshop, level I slot 2
    assert d.ws_display[2] == nxt and gone not in d.ws_decks[0] and gone not in d.ws_display
    # level II from round 3: solo-6 bottom (workshop / white) names level II slot 2
    s = new()
    d = s.d
    d.round_no = 3
    d.ws_display[3:6] = [d.ws_decks[1].pop() for _ in range(3)]
    gone = d.ws_display[5]
    bot_turn(s, solo_card("solo-6"), solo_card("solo-2"))
    assert gone not in d.ws_display and gone not in d.ws_decks[1]


def test_provisions_is_two_steps_on_the_cards_track():
    s = new()
    d = s.d
    bot_turn(s, solo_card("solo-6"))  # top: provisions / pink / bonus; provisions on yellow
    assert d.bot_track == [0, 0, 2, 0]


def test_canal_tile_goes_in_the_cards_direction_from_the_last_tile():
    s = new()
    d = s.d
    for b, o in enumerate(d.canal_owner):
        if o == BOT:
            d.canal_owner[b], d.canal_design[b] = -1, -1
    d.canal_owner[box(0, 3)], d.canal_design[box(0, 3)] = BOT, 0
    d.bot_canals = [1, 2, 3, 4, 6, 5]  # the top tile: c5 (N + S)
    d.bot_last = box(0, 3)
    bot_turn(s, solo_card("solo-2"))  # top: canal / white, direction south
    assert d.canal_owner[box(1, 3)] == BOT and d.canal_design[box(1, 3)] == 5 and d.bot_last == box(1, 3)
    # blocked: the next box along the direction
    s2 = new()
    d = s2.d
    for b, o in enumerate(d.canal_owner):
        if o == BOT:
            d.canal_owner[b], d.canal_design[b] = -1, -1
    d.canal_owner[box(0, 3)], d.canal_design[box(0, 3)] = BOT, 0
    d.bot_canals = [t for t in range(7) if t not in (0, 5)] + [5]
    d.bot_last = box(0, 3)
    d.canal_owner[box(1, 3)], d.canal_design[box(1, 3)], d.canal_placed[1] = P0, 1, 1  # player's c1 below
    assert bot.canal_box(d, 5, 2) == box(2, 3)


def test_canal_tile_takes_the_water_cube_and_the_bonus_tile_but_no_box_bonus():
    s = new()
    d = s.d
    tile = d.cbonus_at[box(0, 1)]
    assert tile != -1  # the 1-2 setup card puts a bonus tile on (0, 1)
    bot.place_canal(d, box(0, 1), d.bot_canals.pop())
    assert d.cubes[1] == 1 and d.cbonus_owner[tile] == BOT and d.cbonus_used[tile] == 1
    assert d.vp == [0]
    s.validate()


def test_trade_builds_a_post_on_the_first_listed_centre_and_flips_its_tile():
    s = new()
    d = s.d
    gerasa, dura = node("gerasa"), node("dura")
    side = d.trade_side[gerasa]
    bot_turn(s, solo_card("solo-5"), solo_card("solo-2"))  # bottom: trade; centres gerasa, dura, petra
    assert d.post_owner[gerasa * 4] == BOT and d.trade_side[gerasa] == 1 - side
    side = d.trade_side[dura]
    bot_turn(s, solo_card("solo-5"), solo_card("solo-2"))  # gerasa has its post: the next listed centre
    assert d.post_owner[dura * 4] == BOT and d.trade_side[dura] == 1 - side
    # the player's post on a box: Resafabot takes the next box open for 2 players
    s = new()
    d = s.d
    d.post_owner[gerasa * 4] = P0
    bot_turn(s, solo_card("solo-5"), solo_card("solo-2"))
    assert d.post_owner[gerasa * 4 + 1] == BOT


def test_deck_rebuilt_after_six_cards_with_the_canal_setup_card_on_top():
    s = new()
    d = s.d
    out = d.bot_out
    for k in range(6):
        start(s, Step.BOT_TURN)
        assert len(d.bot_shown) == (k + 1) % 6
    assert d.bot_deck[-1] == SETUP_CARD and len(d.bot_deck) == 7 and out not in d.bot_deck
    s.validate()


def test_player_and_resafabot_alternate_three_turns_each_and_the_start_player_alternates():
    g = ResafaGame(num_players=1)
    for seed in range(4):
        s = g.new_state(seed)
        rng = np.random.default_rng(seed)
        firsts, turns = [], 0
        last_round = last_turn = 0
        while not s.is_terminal():
            d = s.d
            if d.round_no != last_round:
                last_round, last_turn = d.round_no, -1
                firsts.append(d.bot_first)
            if s.pending_step() == Step.PLAY_CARD and d.turns != last_turn:
                last_turn = d.turns
                turns += 1
                bot_turns = (len(d.bot_shown) - 3 * (d.round_no - 1)) % 6  # Resafabot's turns this round
                # Resafabot first: B P B P B P; the player first: P B P B P B
                assert bot_turns == d.turns + d.bot_first
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        assert turns == 18
        assert firsts == [firsts[0], 1 - firsts[0]] * 3  # the start player alternates every round
        assert len(s.d.bot_deck) == 7 and s.d.bot_shown == []  # 18 cards = 3 full cycles


def test_resafabot_water_flows_down_and_scores_nothing_but_player_tiles_it_passes_score():
    s = new()
    d = s.d
    for b, o in enumerate(d.canal_owner):
        if o == BOT:
            d.canal_owner[b], d.canal_design[b] = -1, -1
    d.cubes = [0] * 8
    d.bot_canals = [t for t in range(7) if t != 4]
    bot.place_canal(d, box(0, 2), 4)  # c4: N E S W, takes the cube of column 2
    d.canal_owner[box(1, 2)], d.canal_design[box(1, 2)], d.canal_placed[0] = P0, 0, 1  # the player's c0 (N S)
    d.vp[P0] = 0
    start(s, Step.RAIN)
    # the player: 1 VP for the tile (rain) + 1 VP for the water passing it; Resafabot nothing, its cube taken
    assert d.vp[P0] == 2 and d.bot_cubes == 1 and d.cubes[2] == 2 and d.cubes_taken == [0]


# --- score, determinism, envs ------------------------------------------------------------------------------
def test_bands_of_the_designers_scale():
    assert [solo.band(v) for v in (149, 150, 179, 180, 199, 200, 219, 220, 260)] == [
        "below fair (under 150)",
        "fair",
        "fair",
        "good",
        "good",
        "very good",
        "very good",
        "excellent",
        "excellent",
    ]


def test_solo_games_replay_bit_for_bit_from_the_seed():
    def run(seed):
        s = ResafaGame(num_players=1).new_state(seed)
        rng = np.random.default_rng(99)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        return s.to_json()

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_determinize_reshuffles_only_the_hidden_solo_cards_and_canal_tiles():
    s = ResafaGame(num_players=1).new_state(3)
    d = s.d
    seen = set()
    for k in range(12):
        c = s.determinize(P0, np.random.default_rng(k)).d
        assert c.bot_deck[-1] == d.bot_deck[-1] and sorted(c.bot_deck) == sorted(d.bot_deck)
        assert sorted(c.bot_canals) == sorted(d.bot_canals)
        assert np.array_equal(s.observe(P0), s.determinize(P0, np.random.default_rng(k)).observe(P0))
        seen.add((tuple(c.bot_deck), tuple(c.bot_canals)))
    assert len(seen) > 1


def test_observation_shows_resafabots_public_pieces():
    from meeplezoo.envs.resafa.observation import LAYOUT

    s = new()
    d = s.d
    at = LAYOUT["solo"].start
    d.bot_track[PINK] = 3
    obs = s.observe(P0)
    assert obs[at + 11 * PINK + 3] == 1.0 and obs[at + 11 * PINK] == 0.0
    last = at + sum(size for name, size in solo.OBS_SECTIONS[:7])
    assert obs[last + d.bot_last] == 1.0


def test_gymnasium_solo_env_returns_the_final_vp_and_passes_check_env():
    env = gymnasium.make("meeplezoo/ResafaSolo-v0")
    check_env(env.unwrapped, skip_render_check=True)
    for reward, expect in (("score", lambda vp: vp), ("score_margin", lambda vp: (vp - 150) / 30.0)):
        env = gymnasium.make("meeplezoo/ResafaSolo-v0", reward=reward).unwrapped
        env.reset(seed=4)
        rng = np.random.default_rng(0)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any()
            _, r, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += r
            done = term or trunc
        assert term and total == pytest.approx(expect(env.state.scores()[0]))


def test_cli_play_names_the_band_the_score_reached(capsys):
    from meeplezoo.cli import main

    assert main(["play", "resafa", "--set", "num_players=1", "--quiet", "--seed", "4"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("Solo score ") and "below fair (under 150)" in out[-1]
    assert "150 fair, 180 good, 200 very good, 220+ excellent" in out[-1]


def test_heuristic_agent_plays_solo_far_above_random():
    from meeplezoo.bench.solo import run

    heuristic = run("heuristic", 2, seed=10, quiet=True, game="resafa")["mean"]
    random_play = run("random", 6, seed=10, quiet=True, game="resafa")["mean"]
    assert heuristic > random_play + 30


def test_play_card_after_bot_turn_is_legal_for_the_player():
    s = ResafaGame(num_players=1).new_state(1)
    while s.pending_step() != Step.PLAY_CARD:
        play(s, s.legal_actions()[0])
    assert s.current_player() == P0
