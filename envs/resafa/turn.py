"""Resafa's turn machine: the decision and automatic step tables on the shared TaskMachine.

Seed: "Oyuncu elindeki bonus ve çuval kartlarını istediği sayıda, aksiyonların ortasında bile oynayabilir."
So every decision of the own turn where a card can change something (:data:`CARD_WINDOWS`) also offers the
player's held bonus, sack, canal bonus and instant special cards: using one puts the decision back and its
effects on top.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.tasks import TaskMachine
from . import bot, canals, cards, effects, extras, gardens, hand, tracks, trade, workshops
from .actions import CARD_USE_FIRST, COLOUR_FIRST
from .steps import DECISION_TEXT, Step

_PLAIN = {
    Step.PLAY_CARD: (cards.legal_play, cards.apply_play),
    Step.ORIENT: (cards.legal_orient, cards.apply_orient),
    Step.CARD_MAIN: (cards.legal_card_main, cards.apply_card_main),
    Step.CARD_COLOUR: (cards.legal_card_colour, cards.apply_card_colour),
    Step.ORDER: (cards.legal_order, cards.apply_order),
    Step.COLOUR_OPT: (cards.legal_colour_opt, cards.apply_colour_opt),
    Step.BONUS_PICK: (cards.legal_bonus_pick, cards.apply_bonus_pick),
    Step.TRACK_PICK: (tracks.legal_track_pick, tracks.apply_track_pick),
    Step.SPECIAL: (tracks.legal_special, tracks.apply_special),
    Step.SEARCH_PICK: (tracks.legal_search_pick, tracks.apply_search_pick),
    Step.WS_PICK: (workshops.legal_ws_pick, workshops.apply_ws_pick),
    Step.WS_FACE: (workshops.legal_ws_face, workshops.apply_ws_face),
    Step.WS_CELL: (workshops.legal_ws_cell, workshops.apply_ws_cell),
    Step.WS_ROT: (workshops.legal_ws_rot, workshops.apply_ws_rot),
    Step.PRODUCE: (workshops.legal_produce, workshops.apply_produce),
    Step.GARDEN_SIZE: (gardens.legal_garden_size, gardens.apply_garden_size),
    Step.GARDEN_SQUARE: (gardens.legal_garden_square, gardens.apply_garden_square),
    Step.GARDEN_POS: (gardens.legal_garden_pos, gardens.apply_garden_pos),
    Step.CANAL_PICK: (canals.legal_canal_pick, canals.apply_canal_pick),
    Step.CANAL_BOX: (canals.legal_canal_box, canals.apply_canal_box),
    Step.TRADE_MOVE: (trade.legal_move, trade.apply_move),
    Step.LOAD_ITEM: (trade.legal_load_item, trade.apply_load_item),
    Step.LOAD_COUNT: (trade.legal_load_count, trade.apply_load_count),
    Step.DEAL: (trade.legal_deal, trade.apply_deal),
    Step.DEAL_COUNT: (trade.legal_deal_count, trade.apply_deal_count),
    Step.POST_BOX: (trade.legal_post_box, trade.apply_post_box),
    Step.MERCHANT_ROW: (trade.legal_row, trade.apply_row),
    Step.CHOICE: (effects.legal_choice, effects.apply_choice),
    Step.CONVERT: (effects.legal_convert, effects.apply_convert),
    Step.BUILD_OFFER: (extras.legal_build_offer, extras.apply_build_offer),
    Step.EXTRA_ACTION: (extras.legal_extra_action, extras.apply_extra_action),
    Step.HAND_LIMIT: (hand.legal_hand_limit, hand.apply_hand_limit),
    Step.FLOW: (canals.legal_flow, canals.apply_flow),
}
#: decisions that also offer the held cards ("at any time, even in the middle of actions"): every decision
#: of the own turn where using a card first can change the choice or what it allows: the card and its
#: orientation (ORIENT, CARD_MAIN, CARD_COLOUR, ORDER: a card may make a main action possible), the colour
#: action and a free track step (a step may change the level limits), each production activation (extra
#: activations), the first choice of every main action (resources, coins, discounts), loading in Resafa
#: (goods produced now can be loaded), the deal and its count (coins, camel capacity), the trading post,
#: and the decisions of printed effects (choice, convert, build offer, extra action: resources decide them).
#: Not offered: the placement of a tile already paid for (workshop face/cell/rotation, garden square and
#: position, canal box), taking or searching a special card, a merchant row, the bonus-card slot: there a
#: card used first changes nothing that using it right after (the next window) would not; and rain (not
#: a turn). The hand-limit decision offers the cards itself.
CARD_WINDOWS = frozenset(
    {
        Step.PLAY_CARD,
        Step.ORIENT,
        Step.CARD_MAIN,
        Step.CARD_COLOUR,
        Step.ORDER,
        Step.COLOUR_OPT,
        Step.TRACK_PICK,
        Step.PRODUCE,
        Step.WS_PICK,
        Step.GARDEN_SIZE,
        Step.CANAL_PICK,
        Step.TRADE_MOVE,
        Step.LOAD_ITEM,
        Step.LOAD_COUNT,
        Step.DEAL,
        Step.DEAL_COUNT,
        Step.POST_BOX,
        Step.CHOICE,
        Step.CONVERT,
        Step.BUILD_OFFER,
        Step.EXTRA_ACTION,
    }
)


def _with_cards(step: Step, legal, apply):
    def legal_w(d, seat, a, b):
        out = legal(d, seat, a, b)
        return out + hand.use_actions(d, seat) if out else out

    def apply_w(d, action, seat, a, b):
        if action >= CARD_USE_FIRST:
            d.stack.append((int(step), seat, a, b))
            hand.apply_use(d, seat, action)
        else:
            apply(d, action, seat, a, b)

    return legal_w, apply_w


def _first(actions: Iterator[int]) -> list[int]:
    first = next(actions, None)
    return [] if first is None else [first]


def _first_use(d, seat: int, a: int, b: int) -> list[int]:
    """The first of the hand-limit decision's actions: it has some exactly when a held card is usable (a bonus
    card to drop is also one to use), so the hand limit itself need not be read."""
    return hand.use_actions(d, seat)[:1]


#: where the lookahead needs only whether a decision has a legal action (it stops there and never reads the
#: list): one legal action, or none, without listing the rest (ORDER always offers the colour action)
FIRST_LEGAL = {
    Step.ORDER: lambda d, seat, a, b: [COLOUR_FIRST],
    Step.HAND_LIMIT: _first_use,
    Step.CANAL_PICK: lambda d, seat, a, code: _first(canals.canal_picks(d, seat, code)),
    Step.GARDEN_SIZE: lambda d, seat, sizes, code: _first(gardens.garden_sizes(d, seat, sizes, code)),
    Step.TRADE_MOVE: lambda d, seat, road_discount, b: _first(trade.moves(d, seat, road_discount)),
    Step.PRODUCE: workshops.first_room,
}
DECISIONS = {step: (_with_cards(step, *fns) if step in CARD_WINDOWS else fns) for step, fns in _PLAIN.items()}
#: the same decisions for a lookahead that only reads the position after an action (the heuristic's): a card
#: window lists its own actions without the held cards (which only follow when it has one, so the same
#: decisions are skipped and the same stack results), some list only their first action (:data:`FIRST_LEGAL`),
#: and a card use is still applied
LOOKAHEAD_DECISIONS = {step: (FIRST_LEGAL.get(step, fns[0]), DECISIONS[step][1]) for step, fns in _PLAIN.items()}
AUTOMATIC = {
    Step.EFFECTS: effects.run_effects,
    Step.MAIN_ACTION: cards.run_main_action,
    Step.COLOUR_ACTION: cards.run_colour_action,
    Step.STEP: tracks.run_step,
    Step.DRAW: cards.run_draw,
    Step.END_TURN: cards.run_end_turn,
    Step.RAIN: canals.run_rain,
    Step.END_ROUND: cards.run_end_round,
    Step.FLOW_RUN: canals.run_flow,
    Step.BOT_TURN: bot.run_bot_turn,
}
MACHINE = TaskMachine(DECISIONS, AUTOMATIC, {int(k): v for k, v in DECISION_TEXT.items()})
#: :data:`MACHINE` for lookaheads: the same positions, but the cached legal actions of the decision it stops
#: at leave out the held cards (``tests/resafa/test_heuristic_fast.py`` compares the two)
LOOKAHEAD = TaskMachine(LOOKAHEAD_DECISIONS, AUTOMATIC, MACHINE.names)
assert {int(s) for s in Step} == set(DECISIONS) | set(AUTOMATIC)
