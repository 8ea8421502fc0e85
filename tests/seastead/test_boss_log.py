"""Seastead solo: the Boss's answers to each dive are game-log lines (``automa_turns``) over whole random games,
naming every delivery and Boss building and nothing a player cannot see."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.seastead.content import RESOURCE_NAMES
from meeplezoo.envs.seastead.game import SeasteadGame
from meeplezoo.envs.seastead.render import loc_name
from meeplezoo.envs.seastead.state import BOSS_BUILDING, NUM_RES


def test_each_decisions_boss_lines_name_its_moves_and_read_alike_from_what_the_player_knows():
    lines_seen = 0
    for seed in range(3):
        s = SeasteadGame(num_players=1).new_state(seed)
        rng = np.random.default_rng(seed)
        assert s.automa_turns(None) == []
        while not s.is_terminal():
            before = s.clone()
            s.apply(int(rng.choice(s.legal_actions())))
            lines = s.automa_turns(before)
            gained = {
                loc: [s.d.boss_res[loc * NUM_RES + k] - before.d.boss_res[loc * NUM_RES + k] for k in range(NUM_RES)]
                for loc in range(len(s.d.loc_bld))
            }
            expected = [
                f"Boss: a second delivery to {loc_name(loc)} puts a Boss building there"
                if s.d.loc_bld[loc] == BOSS_BUILDING != before.d.loc_bld[loc]
                else f"Boss: delivers {' + '.join(f'{n} {RESOURCE_NAMES[k]}' for k, n in enumerate(got) if n > 0)}"
                f" to {loc_name(loc)}"
                for loc, got in gained.items()
                if s.d.loc_bld[loc] == BOSS_BUILDING != before.d.loc_bld[loc] or max(got) > 0
            ]
            assert lines == expected
            assert all(x.startswith("Boss: ") for x in lines)
            if not s.is_terminal():  # what the player knows (hidden parts in canonical order) reads the same
                assert s.public_copy(0).automa_turns(before.public_copy(0)) == lines
            lines_seen += len(lines)
    assert lines_seen > 20
