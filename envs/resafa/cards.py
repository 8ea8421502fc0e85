"""Action cards and the turn: play a card, orient it, main and colour action in either order, draw, the
colour action's three options, provisions, the end of the turn and of the round. The cards a player holds
(bonus, sack, special cards and the hand limit) are :mod:`.hand`.

Seed: "Sırası gelen oyuncu elindeki aksiyon kartlarından birini seçer ... Kart, oyuncunun bu tur kullanmak
istediği aksiyon/renk üstte kalacak şekilde çevrilir. Oyuncu ... ana aksiyonu ve o aksiyona bağlı renk
aksiyonunu istediği sırayla uygular. Ana aksiyonu uygulayamıyorsa yalnızca renk aksiyonunu alır."
"""

from __future__ import annotations

from . import canals, gardens, trade, workshops
from .actions import COLOUR0, COLOUR_FIRST, HALF0, LOOK, MAIN0, MAIN_FIRST, OPT0, SHOW0, SLOT0
from .content import Action
from .effects import draw_sack, push_effects
from .hand import halves
from .scoring import final_scoring
from .state import NO, YELLOW0, ResafaData, S, refill_bonus_display
from .steps import Step
from .tracks import can_step

OPT_BONUS, OPT_STEP, OPT_SACK = 0, 1, 2


# --- playing a card -------------------------------------------------------------------------------------------
def legal_play(d: ResafaData, seat: int, a: int, b: int) -> list[int]:
    out = [SLOT0 + i for i in range(len(d.hand[seat]))]
    if len(d.deck[seat]) > 1 and not d.looked:
        out.append(LOOK)
    return out


def apply_play(d: ResafaData, action: int, seat: int, a: int, b: int) -> None:
    if action == LOOK:
        # seed: a player may look at their deck at any time, but must then reshuffle it (more than 1 card)
        rng = d.chance.generator()
        deck = d.deck[seat]
        d.deck[seat] = [deck[i] for i in rng.permutation(len(deck))]
        d.looked = 1
        d.stack.append((Step.PLAY_CARD, seat, a, b))
        return
    card = d.hand[seat].pop(action - SLOT0)
    d.played[seat].append(card)
    d.card = card
    st = d.stack
    st.append((Step.END_TURN, seat, 0, 0))
    st.append((Step.HAND_LIMIT, seat, 0, 0))
    st.append((Step.DRAW, seat, 0, 0))
    st.append((Step.ORDER, seat, 0, 0))
    st.append((Step.ORIENT, seat, 0, 0))


def legal_orient(d: ResafaData, seat: int, a: int, b: int) -> list[int]:
    return [HALF0, HALF0 + 1]


def apply_orient(d: ResafaData, action: int, seat: int, a: int, b: int) -> None:
    h = halves(d.card)[action - HALF0]
    d.half = action - HALF0
    d.main = NO if h.action is None else int(h.action)
    d.colour = NO if h.colour is None else int(h.colour)
    if h.colour is None:
        d.stack.append((Step.CARD_COLOUR, seat, 0, 0))
    if h.action is None:
        d.stack.append((Step.CARD_MAIN, seat, 0, 0))


def legal_card_main(d: ResafaData, seat: int, a: int, b: int) -> list[int]:
    return [MAIN0 + m for m in range(6)]


def apply_card_main(d: ResafaData, action: int, seat: int, a: int, b: int) -> None:
    d.main = action - MAIN0


def legal_card_colour(d: ResafaData, seat: int, a: int, b: int) -> list[int]:
    return [COLOUR0 + c for c in range(4)]


def apply_card_colour(d: ResafaData, action: int, seat: int, a: int, b: int) -> None:
    d.colour = action - COLOUR0


def legal_order(d: ResafaData, seat: int, a: int, b: int) -> list[int]:
    return [MAIN_FIRST, COLOUR_FIRST] if main_possible(d, seat, d.main) else [COLOUR_FIRST]


def apply_order(d: ResafaData, action: int, seat: int, a: int, b: int) -> None:
    st = d.stack
    if action == MAIN_FIRST:
        st.append((Step.COLOUR_ACTION, seat, d.colour, 0))
        st.append((Step.MAIN_ACTION, seat, d.main, 0))
    else:
        if main_possible(d, seat, d.main):
            st.append((Step.MAIN_ACTION, seat, d.main, 2))  # b = 2: checked again after the colour action
        st.append((Step.COLOUR_ACTION, seat, d.colour, 0))


def main_possible(d: ResafaData, seat: int, action: int) -> bool:
    """Whether ``action`` can be done now (its first decision has a legal action)."""
    if action == Action.WORKSHOP:
        return workshops.pick_possible(d, seat, 0)
    if action == Action.PRODUCTION:
        return workshops.production_possible(d, seat)
    if action == Action.GARDEN:  # the first legal action of each (none: not possible)
        return next(gardens.garden_sizes(d, seat, 3, 0), None) is not None
    if action == Action.CANAL:
        return next(canals.canal_picks(d, seat, 0), None) is not None
    if action == Action.TRADE:
        return next(trade.moves(d, seat, 0), None) is not None
    return bool(legal_colour_opt(d, seat, NO, 0))


def run_main_action(d: ResafaData, seat: int, action: int, b: int) -> None:
    if b == 2 and not main_possible(d, seat, action):
        return
    st = d.stack
    if b != 1 and d.card != NO:  # a yellow card's extra effects come with its main action
        push_effects(d, seat, halves(d.card)[d.half].extra)
    if action == Action.WORKSHOP:
        st.append((Step.WS_PICK, seat, 0, 0))
    elif action == Action.PRODUCTION:
        workshops.start_production(d, seat)
    elif action == Action.GARDEN:
        st.append((Step.GARDEN_SIZE, seat, 3, 0))
    elif action == Action.CANAL:
        st.append((Step.CANAL_PICK, seat, 0, 0))
    elif action == Action.TRADE:
        trade.start_trade(d, seat, 0)
    else:
        st.append((Step.COLOUR_OPT, seat, NO, 0))  # provisions = a colour action of any colour


def run_colour_action(d: ResafaData, seat: int, colour: int, b: int) -> None:
    d.stack.append((Step.COLOUR_OPT, seat, colour, 0))


# --- the colour action (and provisions) ----------------------------------------------------------------------
def legal_colour_opt(d: ResafaData, seat: int, colour: int, b: int) -> list[int]:
    out = []
    shown = _display_of(d, colour)
    if shown.count(NO) < len(shown):
        out.append(OPT0 + OPT_BONUS)
    if any(can_step(d, seat, c) for c in ((colour,) if colour != NO else range(4))):
        out.append(OPT0 + OPT_STEP)
    if d.sack_deck or d.sack_discard:
        out.append(OPT0 + OPT_SACK)
    return out


def _display_of(d: ResafaData, colour: int) -> list[int]:
    return d.bonus_display if colour == NO else d.bonus_display[colour * 3 : colour * 3 + 3]


def apply_colour_opt(d: ResafaData, action: int, seat: int, colour: int, b: int) -> None:
    opt = action - OPT0
    if opt == OPT_BONUS:
        d.stack.append((Step.BONUS_PICK, seat, colour, 0))
    elif opt == OPT_STEP:
        d.stack.append((Step.STEP, seat, colour, 0) if colour != NO else (Step.TRACK_PICK, seat, 0, 0))
    else:
        draw_sack(d, seat)


def legal_bonus_pick(d: ResafaData, seat: int, colour: int, b: int) -> list[int]:
    return [SHOW0 + i for i, x in enumerate(d.bonus_display) if x != NO and (colour == NO or i // 3 == colour)]


def apply_bonus_pick(d: ResafaData, action: int, seat: int, colour: int, b: int) -> None:
    i = action - SHOW0
    d.bonus_hand[seat].append(d.bonus_display[i])
    d.bonus_hand[seat].sort()
    d.bonus_display[i] = NO


# --- draw, end of turn, end of round --------------------------------------------------------------------------
def run_draw(d: ResafaData, seat: int, a: int, b: int) -> None:
    """Seed: after the card, draw 1 card from your deck if possible (only rounds 1, 3, 5 have cards to draw)."""
    if d.deck[seat]:
        d.hand[seat].append(d.deck[seat].pop())


def run_end_turn(d: ResafaData, seat: int, a: int, b: int) -> None:
    d.card = d.half = d.main = d.colour = NO
    d.looked = 0
    d.turns += 1
    n = d.players
    if d.turns == n * S.cards_per_round:
        d.stack.append((Step.END_ROUND, seat, 0, 0))
        if d.round_no % 2 == 0:
            d.stack.append((Step.RAIN, seat, 0, 0))
        if n == 1 and not d.bot_first:  # solo, the player first: Resafabot's 3rd turn closes the round
            d.stack.append((Step.BOT_TURN, 0, 0, 0))
        return
    d.active = (d.active + 1) % n
    d.stack.append((Step.PLAY_CARD, d.active, 0, 0))
    if n == 1:  # solo: the player and Resafabot alternate
        d.stack.append((Step.BOT_TURN, 0, 0, 0))


def run_end_round(d: ResafaData, seat: int, a: int, b: int) -> None:
    """Seed "Tur Sonu": reshuffle after rounds 2 and 4 (yellow cards to hand first), bonus display refreshed,
    round marker on, start player passes left. After round 6 the game ends (final scoring)."""
    if d.round_no == S.rounds:
        d.round_no += 1
        d.sheet = final_scoring(d)
        return
    if d.round_no % 2 == 0:
        rng = d.chance.generator()
        for s in range(d.players):
            cards = d.hand[s] + d.deck[s] + d.played[s]
            yellow = sorted(c for c in cards if c >= YELLOW0)
            rest = sorted(c for c in cards if c < YELLOW0)
            rest = [rest[i] for i in rng.permutation(len(rest))]
            hand = yellow[: S.hand_size]
            rest = yellow[S.hand_size :] + rest
            while len(hand) < S.hand_size and rest:
                hand.append(rest.pop())
            d.hand[s] = sorted(hand)
            d.deck[s] = rest
            d.played[s] = []
    d.round_no += 1
    if d.round_no == S.level2_round:
        for i in range(S.workshop_display[1]):
            if d.ws_decks[1]:
                d.ws_display[S.workshop_display[0] + i] = d.ws_decks[1].pop()
    refill_bonus_display(d)
    d.first = (d.first + 1) % d.players
    d.active = d.first
    d.turns = 0
    d.stack.append((Step.PLAY_CARD, d.first, 0, 0))
    if d.players == 1:  # solo: the start player alternates between the player and Resafabot
        d.bot_first ^= 1
        if d.bot_first:
            d.stack.append((Step.BOT_TURN, 0, 0, 0))
