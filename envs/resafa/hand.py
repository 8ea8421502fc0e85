"""The cards a player holds: what an action card's halves are, the bonus, sack, canal bonus and instant special
cards usable at any time, and the hand limit at the end of a turn.

Seed: "Oyuncu elindeki bonus ve çuval kartlarını istediği sayıda, aksiyonların ortasında bile oynayabilir."
Playing an action card and the turn it starts are :mod:`.cards`; this module sits below the main actions,
which ask it whether a held card could still change a decision (trade keeps loading open for one).
"""

from __future__ import annotations

from .actions import DROP_BONUS0, DROP_SACK0, PASS, USE_BONUS0, USE_CB0, USE_SACK0, USE_SPEC0
from .content import content
from .economy import hand_count, hand_limit
from .effects import push_effects
from .state import YELLOW0, ResafaData, S
from .steps import Step

C = content()
_INSTANT_IDS = tuple(i for i, card in enumerate(C.specials) if card.timing == "instant")


def halves(card: int) -> tuple:
    """The two halves (ActionHalf) of an action card id."""
    if card < YELLOW0:
        return C.action_cards[card].halves
    return C.specials[card - YELLOW0].halves


def card_pair(card: int) -> frozenset:
    """The action pair a card slot stands for (a yellow card keeps the pair of the card it replaced)."""
    if card < YELLOW0:
        return frozenset(h.action for h in C.action_cards[card].halves)
    return frozenset(C.specials[card - YELLOW0].replaces)


def use_actions(d: ResafaData, seat: int) -> list[int]:
    """Bonus, sack, canal bonus and instant special cards ``seat`` may use now; unused sack cards to discard."""
    out = [USE_BONUS0 + c for c in d.bonus_hand[seat]]
    sacks = d.sack_hand[seat]
    if sacks:
        out += [USE_SACK0 + c for c in sacks]
    if seat in d.cbonus_owner:
        out += [USE_CB0 + t for t, o in enumerate(d.cbonus_owner) if o == seat and not d.cbonus_used[t]]
    owner, used = d.spec_owner, d.spec_used
    if seat in owner:
        out += [USE_SPEC0 + i for i in _INSTANT_IDS if owner[i] == seat and not used[i]]
    if sacks:
        out += [DROP_SACK0 + c for c in sacks]
    return out


def apply_use(d: ResafaData, seat: int, action: int) -> None:
    """Use (or, for a sack card, discard for 1 VP) a held card; its effects go on the stack."""
    if action >= DROP_SACK0:
        c = action - DROP_SACK0
        d.sack_hand[seat].remove(c)
        d.sack_discard.append(c)
        d.vp[seat] += S.sack_discard_vp
    elif action >= DROP_BONUS0:
        d.bonus_hand[seat].remove(action - DROP_BONUS0)
    elif action >= USE_SPEC0:
        i = action - USE_SPEC0
        d.spec_used[i] = 1
        push_effects(d, seat, C.specials[i].effects)
    elif action >= USE_CB0:
        t = action - USE_CB0
        d.cbonus_used[t] = 1
        push_effects(d, seat, C.canal_bonus_tiles[t].effects)
    elif action >= USE_SACK0:
        c = action - USE_SACK0
        d.sack_hand[seat].remove(c)
        d.sack_discard.append(c)
        push_effects(d, seat, C.sack_cards[c].effects)
    else:
        c = action - USE_BONUS0
        d.bonus_hand[seat].remove(c)
        push_effects(d, seat, C.bonus_cards[c].effects)


def legal_hand_limit(d: ResafaData, seat: int, a: int, b: int) -> list[int]:
    uses = use_actions(d, seat)
    if hand_count(d, seat) > hand_limit(d, seat):
        return uses + [DROP_BONUS0 + c for c in d.bonus_hand[seat]]
    return [*uses, PASS] if uses else []


def apply_hand_limit(d: ResafaData, action: int, seat: int, a: int, b: int) -> None:
    if action != PASS:
        d.stack.append((Step.HAND_LIMIT, seat, a, b))
        apply_use(d, seat, action)
