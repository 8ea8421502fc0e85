"""The effect vocabulary executed generically (content.py's table), as tasks on the turn machine.

Every effect list printed in the box gets a stable integer id (:data:`LISTS`), and every single effect that
needs a decision (choice, convert, build, trade, post, extra action) an id in :data:`EFFECTS`, so tasks
carry only ints. ``push_effects`` schedules a list; the ``EFFECTS`` automatic step runs it one effect at a
time, each effect either applied at once (gain, sack, camel) or pushed as a small decision. The decisions
of choice and convert are here; those of an extra build, trade, post or main action ask the main actions
whether they are possible, so they sit above them, in :mod:`.extras`.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from .actions import OPT0, PASS, USE
from .content import (
    BonusCard,
    Build,
    Camel,
    Choice,
    ColourAction,
    Convert,
    ExtraAction,
    Gain,
    Post,
    Produce,
    Sack,
    Track,
    Trade,
    content,
)
from .economy import can_pay, gain, pay
from .state import NO, ResafaData
from .steps import Step

C = content()
_EFFECT_TYPES = (
    Gain,
    Choice,
    Track,
    Sack,
    BonusCard,
    ColourAction,
    Produce,
    Build,
    Trade,
    Post,
    Camel,
    ExtraAction,
    Convert,
)

LISTS: list[tuple] = []
LIST_ID: dict[tuple, int] = {}
EFFECTS: list = []
EFFECT_ID: dict = {}


def _register_list(t: tuple) -> None:
    if t not in LIST_ID:
        LIST_ID[t] = len(LISTS)
        LISTS.append(t)
    for e in t:
        if e not in EFFECT_ID:
            EFFECT_ID[e] = len(EFFECTS)
            EFFECTS.append(e)


def _walk(obj: object) -> None:
    if isinstance(obj, tuple):
        if obj and all(
            is_dataclass(x)
            and type(x).__module__.endswith("content")
            and hasattr(x, "__slots__")
            and type(x).__name__ in _EFFECT_NAMES
            for x in obj
        ):
            _register_list(obj)
        for x in obj:
            _walk(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            _walk(x)
    elif is_dataclass(obj) and not isinstance(obj, type):
        for f in fields(obj):
            _walk(getattr(obj, f.name))


_EFFECT_NAMES = {
    "Gain", "Choice", "Track", "Sack", "BonusCard", "ColourAction", "Produce", "Build", "Trade", "Post",
    "Camel", "ExtraAction", "Convert", "Discount", "Trigger", "HandLimit", "Score",
}  # fmt: skip
_walk(C)


def list_id(effects: tuple) -> int:
    return LIST_ID[effects]


def push_effects(d: ResafaData, seat: int, effects: tuple) -> None:
    """Schedule ``effects`` (a printed effect list) for ``seat``, first effect first."""
    if effects:
        d.stack.append((Step.EFFECTS, seat, LIST_ID[effects], 0))


def run_effects(d: ResafaData, seat: int, lid: int, i: int) -> None:
    effects = LISTS[lid]
    if i + 1 < len(effects):
        d.stack.append((Step.EFFECTS, seat, lid, i + 1))
    apply_effect(d, seat, effects[i])


def apply_effect(d: ResafaData, seat: int, e: object) -> None:
    """Apply one effect now or push the decision it needs."""
    st = d.stack
    if isinstance(e, Gain):
        gain(d, seat, e.bundle)
    elif isinstance(e, Choice):
        st.append((Step.CHOICE, seat, EFFECT_ID[e], 0))
    elif isinstance(e, Track):
        for _ in range(e.n):
            st.append((Step.STEP, seat, int(e.colour), 0) if e.colour is not None else (Step.TRACK_PICK, seat, 0, 0))
    elif isinstance(e, Sack):
        for _ in range(e.n):
            draw_sack(d, seat)
    elif isinstance(e, BonusCard):
        col = NO if e.colour is None else int(e.colour)
        for _ in range(e.n):
            st.append((Step.BONUS_PICK, seat, col, 0))
    elif isinstance(e, ColourAction):
        st.append((Step.COLOUR_OPT, seat, NO if e.colour is None else int(e.colour), 0))
    elif isinstance(e, Produce):
        add_production(d, seat, e.n)
    elif isinstance(e, Build | Trade | Post):
        st.append((Step.BUILD_OFFER, seat, EFFECT_ID[e], 0))
    elif isinstance(e, Camel):
        camel_up(d, seat, e.n)
    elif isinstance(e, ExtraAction):
        st.append((Step.EXTRA_ACTION, seat, EFFECT_ID[e], 0))
    elif isinstance(e, Convert):
        st.append((Step.CONVERT, seat, EFFECT_ID[e], e.n))
    # discount, trigger, hand_limit (permanent) and score (end game) do nothing when resolved


def draw_sack(d: ResafaData, seat: int) -> None:
    """Draw a sack card; an empty deck is refilled by shuffling the discards (filled in)."""
    if not d.sack_deck and d.sack_discard:
        rng = d.chance.generator()
        pile = d.sack_discard
        d.sack_deck = [pile[i] for i in rng.permutation(len(pile))]
        d.sack_discard = []
    if d.sack_deck:
        d.sack_hand[seat].append(d.sack_deck.pop())
        d.sack_hand[seat].sort()


def add_production(d: ResafaData, seat: int, n: int) -> None:
    """Extra activations: added to the running production of ``seat``, else a production of their own."""
    st = d.stack
    for i in range(len(st) - 1, -1, -1):
        step, s, a, b = st[i]
        if step == Step.PRODUCE and s == seat:
            st[i] = (step, s, a + n, b)
            return
    st.append((Step.PRODUCE, seat, n, 0))


def camel_up(d: ResafaData, seat: int, n: int) -> None:
    """Move up the camel capacity track (capped at its end), taking each printed step reward."""
    for _ in range(n):
        if d.camel_step[seat] + 1 >= len(C.camel_track):
            return
        d.camel_step[seat] += 1
        push_effects(d, seat, C.camel_rewards[d.camel_step[seat]])


# --- decisions of effects (choice, convert) -------------------------------------------------------------------
def legal_choice(d: ResafaData, seat: int, eid: int, b: int) -> list[int]:
    return [OPT0 + k for k in range(len(EFFECTS[eid].options))]


def apply_choice(d: ResafaData, action: int, seat: int, eid: int, b: int) -> None:
    push_effects(d, seat, EFFECTS[eid].options[action - OPT0])


def legal_convert(d: ResafaData, seat: int, eid: int, left: int) -> list[int]:
    e = EFFECTS[eid]
    return [USE, PASS] if left > 0 and can_pay(d, seat, e.pay) else []


def apply_convert(d: ResafaData, action: int, seat: int, eid: int, left: int) -> None:
    if action == USE:
        e = EFFECTS[eid]
        pay(d, seat, e.pay)
        gain(d, seat, e.get)
        if left > 1:
            d.stack.append((Step.CONVERT, seat, eid, left - 1))


def discount_of(code: int) -> object | None:
    """The Build/Post effect behind a task's discount code (0 = none, else effect id + 1)."""
    return EFFECTS[code - 1] if code > 0 else None
