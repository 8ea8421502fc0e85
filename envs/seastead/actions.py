"""Seastead's flat action space: one ``Discrete(NUM_ACTIONS)`` whose ranges are read by the pending decision.

====== ======== ===========================================================
ids    name     meaning (depends on the pending decision)
====== ======== ===========================================================
0      DIVE     dive this turn
1-3    BUILD    build a port / academy / shipyard this turn
4-27   LOC      a location: flotilla ``(a-4)//6``, position ``(a-4)%6``
28-29  HALF     take half 0 / half 1 of the revealed dive card
30-33  RES      a resource kind: fish, artifact, kelp, metal
34-37  FLOT     a flotilla (demand token swaps)
38-40  SLOT     a display slot (dock tile or specialist)
41-56  SPEC     a specialist: play it, or choose it (refresh)
57     PASS     decline / done / end the turn
58     USE      accept an optional effect or reaction
====== ======== ===========================================================

>>> LOC0 + 2 * 6 + 4
20
>>> loc_action(2, 4)
20
"""

from __future__ import annotations

from .content import NUM_FLOTILLAS, NUM_LOCS, NUM_RES

DIVE = 0
BUILD0 = 1
LOC0 = 4
HALF0 = LOC0 + NUM_LOCS  # 28
RES0 = HALF0 + 2  # 30
FLOT0 = RES0 + NUM_RES  # 34
SLOT0 = FLOT0 + NUM_FLOTILLAS  # 38
SPEC0 = SLOT0 + 3  # 41
PASS = SPEC0 + 16  # 57
USE = PASS + 1  # 58
NUM_ACTIONS = USE + 1  # 59


def loc_action(flotilla: int, position: int) -> int:
    return LOC0 + flotilla * 6 + position


def action_range(action: int) -> tuple[str, int]:
    """``(range name, index within the range)`` of an action id."""
    if action == DIVE:
        return "dive", 0
    if action < LOC0:
        return "build", action - BUILD0
    if action < HALF0:
        return "loc", action - LOC0
    if action < RES0:
        return "half", action - HALF0
    if action < FLOT0:
        return "res", action - RES0
    if action < SLOT0:
        return "flot", action - FLOT0
    if action < SPEC0:
        return "slot", action - SLOT0
    if action < PASS:
        return "spec", action - SPEC0
    if action == PASS:
        return "pass", 0
    if action == USE:
        return "use", 0
    raise ValueError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")
