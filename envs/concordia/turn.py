"""The turn machine: the stack of pending tasks, decision handlers, automatic steps and the end.

Seed: "Oyuncular saat yönünde sırayla oynar. Sıran geldiğinde elindeki kişilik kartlarından tam olarak 1 kart
oynar"; end: "Bu tetiği yapan oyuncu Concordia kartını (7 VP) alır. Ardından diğer tüm oyuncular birer son tur
daha oynar".
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.tasks import TaskMachine
from . import architect, forum, mercator, personalities, prefect, steps, storehouse
from .scoring import final_scores
from .state import NO, ConcordiaData
from .steps import DECISION_TEXT, Step

Legal = Callable[[ConcordiaData, int, int, int], list[int]]
Apply = Callable[[ConcordiaData, int, int, int, int], None]


def run_refill(d: ConcordiaData, seat: int, a: int, b: int) -> None:
    forum.refill(d)


def run_end_turn(d: ConcordiaData, seat: int, a: int, b: int) -> None:
    d.turns += 1
    if d.concordia != NO and d.active == (d.concordia - 1) % d.n:
        d.final = final_scores(d)
        return
    d.active = (d.active + 1) % d.n
    d.stack.append((steps.MAIN, d.active, 0, 0))


DECISIONS: dict[int, tuple[Legal, Apply]] = {
    Step.MAIN: (personalities.legal_main, personalities.apply_main),
    Step.MOVE_PICK: (architect.legal_pick, architect.apply_pick),
    Step.MOVE_DEST: (architect.legal_dest, architect.apply_dest),
    Step.BUILD: (architect.legal_build, architect.apply_build),
    Step.PREFECT: (prefect.legal, prefect.apply),
    Step.TRADE: (mercator.legal, mercator.apply),
    Step.DIPLOMAT: (personalities.legal_diplomat, personalities.apply_diplomat),
    Step.BUY: (forum.legal_buy, forum.apply_buy),
    Step.PAY_ANY: (forum.legal_pay_any, forum.apply_pay_any),
    Step.COLONIST_CHOICE: (personalities.legal_colonist_choice, personalities.apply_colonist_choice),
    Step.COLONIST_MORE: (personalities.legal_colonist_more, personalities.apply_colonist_more),
    Step.TRIBUNE_PLACE: (personalities.legal_tribune_place, personalities.apply_place_or_pass),
    Step.OVERFLOW: (storehouse.legal_overflow, storehouse.apply_overflow),
}
AUTOMATIC = {Step.REFILL: run_refill, Step.END_TURN: run_end_turn}

MACHINE = TaskMachine(DECISIONS, AUTOMATIC, {int(k): v for k, v in DECISION_TEXT.items()})
assert {int(s) for s in Step} == set(DECISIONS) | set(AUTOMATIC)
advance = MACHINE.advance
apply_action = MACHINE.apply
