"""The turn machine: the stack of pending tasks, decision handlers, automatic steps and the end.

Seed: "Oyuncular saat yönünde sırayla oynar. Sıran geldiğinde elindeki kişilik kartlarından tam olarak 1 kart
oynar"; end: "Bu tetiği yapan oyuncu Concordia kartını (7 VP) alır. Ardından diğer tüm oyuncular birer son tur
daha oynar". A seat that reaches the stall limit ends the game at the end of its turn (:mod:`.stalling`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.tasks import ArgsCheck, TaskMachine, args_problem
from . import architect, forum, mercator, personalities, prefect, steps, storehouse
from .content import ANY, COLONISTS, NUM_GOODS, SURCHARGE
from .scoring import final_scores
from .stalling import IDLE_TURNS
from .state import NO, ConcordiaData
from .steps import DECISION_TEXT, Step

Legal = Callable[[ConcordiaData, int, int, int], list[int]]
Apply = Callable[[ConcordiaData, int, int, int, int], None]


def run_refill(d: ConcordiaData, seat: int, a: int, b: int) -> None:
    forum.refill(d)


def run_end_turn(d: ConcordiaData, seat: int, a: int, b: int) -> None:
    d.turns += 1
    if d.idle[d.active] >= IDLE_TURNS:  # the stall limit (filled in): the seat loses, the game ends now
        d.final = final_scores(d)
        return
    if d.concordia != NO and d.active == (d.concordia - 1) % d.n:
        d.final = final_scores(d)
        return
    d.active = (d.active + 1) % d.n
    d.stack.append((steps.MAIN, d.active, 0, 0))


#: the most '?' goods a purchase costs (the Senator's surcharge)
_MAX_ANY = max(row.count(ANY) for row in SURCHARGE)
#: the one decision a card leaves above END_TURN (its later decisions replace it there)
_CARD_STEPS = frozenset(
    {Step.BUILD, Step.PREFECT, Step.TRADE, Step.DIPLOMAT, Step.COLONIST_CHOICE, Step.COLONIST_MORE, Step.TRIBUNE_PLACE}
)


def stack_problem(d: ConcordiaData) -> str | None:
    """What makes a saved stack impossible, or None. A stack is one of (bottom first): ``MAIN``; ``END_TURN``
    and the decisions the played card left: one of :data:`_CARD_STEPS`, ``BUILD`` with ``MOVE_PICK`` or
    ``MOVE_DEST`` (Architect), ``REFILL`` with ``BUY`` and perhaps ``PAY_ANY`` (Senator, Consul), or one
    ``OVERFLOW`` per seat over its storehouse (after production). Every task but ``OVERFLOW`` is the active
    seat's, and each step's ``a``/``b`` are in the range its handlers index with (the shape the ``TaskMachine``
    checked: known steps, seats in range)."""
    stack = d.stack
    if not stack:
        return None
    steps_ = [t[0] for t in stack]
    if steps_ == [Step.MAIN]:
        shape_ok = True
    elif steps_[0] != Step.END_TURN:
        shape_ok = False
    else:
        rest = steps_[1:]
        shape_ok = (
            (len(rest) == 1 and rest[0] in _CARD_STEPS)
            or rest in ([Step.BUILD, Step.MOVE_PICK], [Step.BUILD, Step.MOVE_DEST])
            or rest in ([Step.REFILL, Step.BUY], [Step.REFILL, Step.BUY, Step.PAY_ANY])
            or (rest and set(rest) == {Step.OVERFLOW} and len({t[1] for t in stack[1:]}) == len(rest))
        )
    if not shape_ok:
        return f"the task stack {[Step(s).name for s in steps_]} is not one a turn makes"
    for step, seat, _, _ in stack:
        if step != Step.OVERFLOW and seat != d.active:
            return f"task {Step(step).name} of seat {seat} while seat {d.active} is active"
    return args_problem(d, TASK_ARGS, lambda s: Step(s).name)


#: per step (:func:`~meeplezoo.envs.core.tasks.args_problem`), the ``a`` and ``b`` its handlers push (the steps not
#: listed take none)
TASK_ARGS: dict[int, ArgsCheck] = {
    Step.MOVE_PICK: lambda d, s, a, b: 0 <= a <= COLONISTS and b == 0,
    # b: the colonist moving (one of the seat's, on the board)
    Step.MOVE_DEST: lambda d, s, a, b: 0 <= a <= COLONISTS and 0 <= b < COLONISTS and d.col[s * COLONISTS + b] != NO,
    # a: the goods traded (a bit each), b: how many trades
    Step.TRADE: lambda d, s, a, b: 0 <= a < 1 << NUM_GOODS and b == a.bit_count() <= 2,
    # a: 1 Senator (buys up to 2), 0 Consul (1); b: cards bought
    Step.BUY: lambda d, s, a, b: a in (0, 1) and 0 <= b <= a + 1,
    # a: '?' goods still to pay
    Step.PAY_ANY: lambda d, s, a, b: 1 <= a <= _MAX_ANY and b == 0,
}


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
