"""The fast paths of Seastead's engine, observation and heuristic against plain reference versions.

Each reference below is the straightforward form of a function that is now written for speed (precomputed
tables, one pass for both seats, ``rng.shuffle`` instead of ``arrange``). They are compared on every position
of seeded games in each variant (base game, B sides with decrees, a mixed setup, solo), played with legal
moves by the heuristic mixed with random moves, so late-game boards (docks, ships, full flotillas) are covered.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.core.chance import arrange
from meeplezoo.envs.seastead import SeasteadGame
from meeplezoo.envs.seastead.actions import LOC0
from meeplezoo.envs.seastead.build import affordable, build_cost, build_costs, can_build, pay_kind
from meeplezoo.envs.seastead.content import (
    DIVE_CARDS,
    DOCKS,
    LOCS_PER_FLOTILLA,
    NUM_FLOTILLAS,
    NUM_LOCS,
    NUM_RES,
    SETUP,
    SIDE_COST,
    SPECIALISTS,
    Deck,
)
from meeplezoo.envs.seastead.ending import current_triggers
from meeplezoo.envs.seastead.game import DIVE_BAND, SeasteadState
from meeplezoo.envs.seastead.heuristic import (
    _DOCK_TARGETS,
    RESOURCE_VALUE,
    SHIP_VALUE,
    SeasteadHeuristicAgent,
    _board,
    dive_value,
    evaluate,
    points,
)
from meeplezoo.envs.seastead.observation import (
    _BAND,
    _DOCK_TABLE,
    _PER_FLOTILLA,
    _SIDE_COST,
    _SIDE_EFFECTS,
    DECREES,
    LAYOUT,
    NUM_SPECS,
    OBS_SIZE,
    _task,
    observe,
)
from meeplezoo.envs.seastead.specialists import ENGINEER, FOUNDER, face_up
from meeplezoo.envs.seastead.state import (
    BOSS_BUILDING,
    NO,
    TRIGGER_CLEANUP_EXHAUSTED,
    TRIGGER_DEPTHS_VISIBLE,
    TRIGGER_FLOTILLA_FULL,
    TRIGGER_ONE_BUILDING_LEFT,
    SeasteadData,
)
from meeplezoo.envs.seastead.tokens import buildable_locations, loc_cost, ship_placements

CONFIGS = [{}, {"sides": "BBBB"}, {"sides": "ABBA", "decree": "open_moorings"}, {"num_players": 1}]


@cache
def positions(config_index: int) -> tuple[SeasteadState, ...]:
    """Every position of 3 seeded games: the heuristic plays, one move in four is random instead."""
    game = SeasteadGame(**CONFIGS[config_index])
    out = []
    for seed in range(3):
        state = game.new_state(seed)
        agents = [SeasteadHeuristicAgent(seed=seed), SeasteadHeuristicAgent(seed=seed + 1)]
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            out.append(state.clone())
            seat = state.current_player()
            action = agents[seat].act(view_of_state(state, seat))
            if rng.random() < 0.25:
                action = int(rng.choice(state.legal_actions()))
            state.apply(action)
        out.append(state)
    return tuple(out)


# --- references ----------------------------------------------------------------------------------------
def reference_observe(d: SeasteadData, me: int) -> np.ndarray:
    o = np.zeros(OBS_SIZE, np.float32)
    at = {name: sl.start for name, sl in LAYOUT.items()}
    opp = 1 - me
    ones: list[int] = []
    if d.stack:
        step, seat, a, b = d.stack[-1]
        ones.append(at["pending"] + step)
        if seat == me:
            ones.append(at["to_act"])
        _task(ones, step, a, b)
    if d.active == me:
        ones.append(at["my_turn"])
    if d.first_player == me:
        ones.append(at["i_started"])
    if d.end_round != NO:
        ones.append(at["end_round_set"])
        if d.round_no == d.end_round:
            ones.append(at["final_round"])
    ones += [at["triggers"] + i for i in range(4) if (d.triggers >> i) & 1]
    scal = [min(d.round_no / 20.0, 1.0), d.cleanup_supply / 20.0, *(x / 10.0 for x in d.supply)]
    for seat in (me, opp):
        scal += [
            *(x / 10.0 for x in d.res[seat * NUM_RES : seat * NUM_RES + NUM_RES]),
            min(d.cleanup[seat] / 20.0, 1.0),
            min(d.shortfall[seat] / 20.0, 1.0),
            *(x / 4.0 for x in d.built[seat * 3 : seat * 3 + 3]),
            d.columns[seat] / 4.0,
            d.ship.count(seat) / 4.0,
            d.ships_boxed[seat] / 4.0,
        ]
    band = [_BAND[c] for c in d.dive_deck]
    scal += [band.count(0) / 4.0, band.count(1) / 12.0, band.count(2) / 4.0]
    scal += [len(d.dock_deck) / 12.0, len(d.spec_deck) / 16.0]
    o[LAYOUT["scalars"]] = scal
    for sid, owner in enumerate(d.spec_owner):
        if owner != NO:
            ones.append(at["spec_me" if owner == me else "spec_opp"] + 2 * sid + d.spec_spent[sid])
    for loc, owner in enumerate(d.loc_owner):
        if d.loc_bld[loc] == BOSS_BUILDING:
            ones.append(at["boss_bld"] + loc)
        elif owner != NO:
            ones.append(at["bld_me" if owner == me else "bld_opp"] + 3 * loc + d.loc_bld[loc])
    for loc, owner in enumerate(d.ship):
        if owner != NO:
            ones.append(at["ship_me" if owner == me else "ship_opp"] + loc)
    ones += [at["demand"] + NUM_RES * f + k for f, k in enumerate(d.demand)]
    ones.append(at["locked"] + d.locked)
    ones += [at["spec_display"] + NUM_SPECS * i + x for i, x in enumerate(d.spec_display) if x != NO]
    if d.revealed != NO:
        ones.append(at["revealed"] + d.revealed)
    ones += [at["dive_discard"] + c for c in d.dive_discard]
    if d.mine_half != NO:
        ones.append(at["active_half"] + d.mine_half)
    mods = at["modifiers"]
    ones += [mods] if d.trawler else []
    ones += [mods + 1] if d.engineer else []
    ones += [mods + 2 + d.prospector] if d.prospector != NO else []
    ones += [mods + 2 + NUM_RES + d.founder] if d.founder != NO else []
    ones += [mods + 2 + 2 * NUM_RES + d.build_type] if d.build_type != NO else []
    ones += [at["built_loc"] + d.built_loc] if d.built_loc != NO else []
    ones += [at["sides"] + f for f, side in enumerate(d.sides) if side]
    ones += [at["decree"] + d.decree] if d.decree != NO else []
    ones += [at["decree_drawn"] + x for x in d.decree_drawn] + [at["decree_out"] + x for x in d.decree_out]
    if d.solo:
        ones.append(at["solo"])
        ones += [at["boss_visits"] + i for i, v in enumerate(d.boss_visits) if v]
        o[LAYOUT["boss_res"]] = [x / 10.0 for x in d.boss_res]
    o[at["decree_deck"]] = len(d.decree_deck) / len(DECREES)
    o[ones] = 1.0
    for f, side in enumerate(d.sides):
        part = slice(f * _PER_FLOTILLA, (f + 1) * _PER_FLOTILLA)
        o[LAYOUT["cost"]][part] = _SIDE_COST[side][part]
        o[LAYOUT["effects"]].reshape(NUM_LOCS, -1)[part] = _SIDE_EFFECTS[side][part]
    o[LAYOUT["docks"]] = _DOCK_TABLE[d.dock_at].ravel()
    o[LAYOUT["dock_display"]] = _DOCK_TABLE[d.dock_display].ravel()
    if d.sheet:
        o[LAYOUT["sheet"]] = [x / 100.0 for x in d.sheet[me * 6 : me * 6 + 6] + d.sheet[opp * 6 : opp * 6 + 6]]
    return o


def reference_board(d: SeasteadData, seat: int) -> tuple[int, list[int]]:
    board = 0
    left = d.res[seat * NUM_RES : seat * NUM_RES + NUM_RES]
    for loc in range(NUM_LOCS):
        owner = d.loc_owner[loc]
        if owner == seat:
            board += loc_cost(d, loc)
        dock = d.dock_at[loc]
        if dock != NO:
            if owner == seat:
                kind = DOCKS[dock].resource
                used = min(SETUP.dock_resource_cap, left[kind])
                left[kind] -= used
                board += used
            for q, btype in _DOCK_TARGETS[dock][loc]:
                if d.loc_owner[q] == seat and d.loc_bld[q] == btype:
                    board += DOCKS[dock].points
    return board, left


def reference_points(d: SeasteadData, seat: int) -> float:
    board, left = reference_board(d, seat)
    total = float(board)
    for sid, owner in enumerate(d.spec_owner):
        if owner == seat and not d.spec_spent[sid]:
            total += SPECIALISTS[sid].vp + 0.3
    fuel = 0.0 if d.end_round != NO and d.round_no >= d.end_round else RESOURCE_VALUE * sum(left)
    total += d.cleanup[seat] + fuel + SHIP_VALUE * d.ship.count(seat)
    return total


def reference_dive_value(d: SeasteadData) -> float:
    if not d.dive_deck:
        return 0.0
    band = DIVE_CARDS[d.dive_deck[-1]].deck
    seen = set(d.dive_discard)
    cards = [c for c in DIVE_CARDS if c.deck == band and c.id not in seen and c.id != d.revealed]
    if not cards:
        return 0.0
    total = 0.0
    for card in cards:
        a, b = sum(card.halves[0]), sum(card.halves[1])
        total += RESOURCE_VALUE * (max(a, b) - min(a, b)) + RESOURCE_VALUE * 0.5 * max(a, b)
    return total / len(cards)


def reference_resample(d: SeasteadData, rng: np.random.Generator | None) -> None:
    deck = d.dive_deck
    bands = (Deck.SHALLOWS, Deck.SHELF, Deck.DEPTHS)
    if d.dive_reshuffled:
        d.dive_deck = deck = arrange(deck, rng)
        bands = ()
    for band in bands:
        pos = [i for i, c in enumerate(deck) if DIVE_BAND[c] == band]
        for i, card in zip(pos, arrange([deck[i] for i in pos], rng), strict=True):
            deck[i] = card
    d.dock_deck = arrange(d.dock_deck, rng)
    d.spec_deck = arrange(d.spec_deck, rng)
    k = d.decree_known
    d.decree_deck = d.decree_deck[:k] + arrange(d.decree_deck[k:], rng)


def reference_affordable(d: SeasteadData, seat: int, engineer: bool, any_kind: bool) -> list[int]:
    held = d.res[seat * NUM_RES : seat * NUM_RES + NUM_RES]
    if any_kind:
        held = [max(held)] * NUM_RES
    budget = [held[pay_kind(d, f * LOCS_PER_FLOTILLA)] for f in range(NUM_FLOTILLAS)]
    return [loc for loc in buildable_locations(d) if build_cost(d, loc, engineer) <= budget[loc // LOCS_PER_FLOTILLA]]


def reference_triggers(d: SeasteadData) -> int:
    t = 0
    bld = d.loc_bld
    if any(NO not in bld[f * LOCS_PER_FLOTILLA : (f + 1) * LOCS_PER_FLOTILLA] for f in range(NUM_FLOTILLAS)):
        t |= TRIGGER_FLOTILLA_FULL
    if max(sum(d.built[0:3]), sum(d.built[3:6])) >= 3 * SETUP.buildings_per_type - 1:
        t |= TRIGGER_ONE_BUILDING_LEFT
    if d.dive_deck and DIVE_CARDS[d.dive_deck[-1]].deck == Deck.DEPTHS:
        t |= TRIGGER_DEPTHS_VISIBLE
    if d.cleanup_supply == 0:
        t |= TRIGGER_CLEANUP_EXHAUSTED
    return t


def reference_ship_placements(d: SeasteadData) -> list[int]:
    out: list[int] = []
    for f in range(NUM_FLOTILLAS):
        base = f * LOCS_PER_FLOTILLA
        cost = SIDE_COST[d.sides[f]]
        cands = [i for i in range(base, base + LOCS_PER_FLOTILLA) if d.loc_bld[i] == NO and d.ship[i] == NO]
        if cands:
            low = min(cost[i] for i in cands)
            out += [LOC0 + i for i in cands if cost[i] == low]
    return out


# --- comparisons ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=lambda i: str(CONFIGS[i]))
def test_observation_equals_the_reference_encoding(config_index: int) -> None:
    out = np.full(OBS_SIZE, 7.0, np.float32)  # a reused buffer holding stale values
    for s in positions(config_index):
        for seat in range(s.game.num_players):
            want = reference_observe(s.d, seat)
            np.testing.assert_array_equal(observe(s.d, seat), want)
            np.testing.assert_array_equal(observe(s.d, seat, out), want)
        assert observe(s.d, 0).dtype == np.float32


@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=lambda i: str(CONFIGS[i]))
def test_evaluation_equals_the_reference_per_seat_sums(config_index: int) -> None:
    for s in positions(config_index):
        d = s.d
        for seat in (0, 1):
            assert _board(d, seat) == reference_board(d, seat)
            assert points(d, seat) == reference_points(d, seat)  # the same float operations in the same order
        if not d.solo:
            assert evaluate(d, 0) == reference_points(d, 0) - reference_points(d, 1)
        assert dive_value(d) == reference_dive_value(d)


@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=lambda i: str(CONFIGS[i]))
def test_engine_queries_equal_the_reference_versions(config_index: int) -> None:
    for s in positions(config_index):
        d = s.d
        assert current_triggers(d) == reference_triggers(d)
        for seat in (0, 1):
            engineer = bool(d.engineer) or face_up(d, seat, ENGINEER)
            any_kind = d.founder == NO and face_up(d, seat, FOUNDER)
            assert can_build(d, seat) == bool(reference_affordable(d, seat, engineer, any_kind))
        assert ship_placements(d) == reference_ship_placements(d)
        for engineer in (False, True):
            assert build_costs(d, engineer) == [build_cost(d, loc, engineer) for loc in range(NUM_LOCS)]
            for seat in (0, 1):
                for any_kind in (False, True):
                    assert affordable(d, seat, engineer, any_kind) == reference_affordable(d, seat, engineer, any_kind)


@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=lambda i: str(CONFIGS[i]))
def test_resampling_draws_the_same_numbers_as_arrange(config_index: int) -> None:
    """``resample_hidden`` shuffles with ``rng.shuffle``: the same orders and generator state as ``arrange``."""
    for i, s in enumerate(positions(config_index)):
        for rng_seed in (i, None):
            fast, slow = s.clone(), s.clone()
            if rng_seed is not None and i % 5 == 0:
                fast.d.dive_reshuffled = slow.d.dive_reshuffled = 1  # the whole deck is shuffled as one
            rng_fast = None if rng_seed is None else np.random.default_rng(rng_seed)
            rng_slow = None if rng_seed is None else np.random.default_rng(rng_seed)
            fast.resample_hidden(0, rng_fast)
            reference_resample(slow.d, rng_slow)
            assert fast.to_dict() == slow.to_dict()
            if rng_seed is not None:
                assert rng_fast.bit_generator.state == rng_slow.bit_generator.state
