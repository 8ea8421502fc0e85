"""Printed effects that grant a main action or a part of one: an extra build (workshop, garden, canal), an
extra trade, a trading post, an extra main action. Each is offered as a decision (take it now or decline),
offered only when the main action it opens has a legal first step; the other effects are :mod:`.effects`.
"""

from __future__ import annotations

from . import canals, gardens, trade, workshops
from .actions import MAIN0, PASS, USE
from .cards import main_possible
from .content import Action, Build, Trade
from .effects import EFFECTS
from .state import ResafaData
from .steps import Step


def legal_build_offer(d: ResafaData, seat: int, eid: int, b: int) -> list[int]:
    e = EFFECTS[eid]
    if isinstance(e, Build):
        t = e.target
        ok = (
            workshops.pick_possible(d, seat, eid + 1)
            if t == "workshop"
            else next(canals.canal_picks(d, seat, eid + 1), None) is not None
            if t == "canal"
            else next(gardens.garden_sizes(d, seat, gardens.SIZES_OF[t], eid + 1), None) is not None
        )
    elif isinstance(e, Trade):
        ok = next(trade.moves(d, seat, e.road_discount), None) is not None
    else:
        ok = bool(trade.legal_post_box(d, seat, eid + 1, 0))
    return [USE, PASS] if ok else []


def apply_build_offer(d: ResafaData, action: int, seat: int, eid: int, b: int) -> None:
    if action != USE:
        return
    e = EFFECTS[eid]
    st = d.stack
    if isinstance(e, Build):
        if e.target == "workshop":
            st.append((Step.WS_PICK, seat, 0, eid + 1))
        elif e.target == "canal":
            st.append((Step.CANAL_PICK, seat, 0, eid + 1))
        else:
            st.append((Step.GARDEN_SIZE, seat, gardens.SIZES_OF[e.target], eid + 1))
    elif isinstance(e, Trade):
        trade.start_trade(d, seat, e.road_discount)
    else:
        st.append((Step.POST_BOX, seat, eid + 1, 0))


def legal_extra_action(d: ResafaData, seat: int, eid: int, b: int) -> list[int]:
    e = EFFECTS[eid]
    options = [int(e.action)] if e.action is not None else list(Action)
    out = [MAIN0 + a for a in options if main_possible(d, seat, a)]
    return [*out, PASS] if out else []


def apply_extra_action(d: ResafaData, action: int, seat: int, eid: int, b: int) -> None:
    if action != PASS:
        d.stack.append((Step.MAIN_ACTION, seat, action - MAIN0, 1))
