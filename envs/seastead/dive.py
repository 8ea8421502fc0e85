"""Dive: reveal the top card, "I cut, you choose", the active player takes first, then the opponent.

Seed: "1. Dalış destesinin üst kartını açarsınız. 2. ... hangi yarının kime bakacağına siz karar verirsiniz.
3. Kartın size bakan yarısında gösterilen kaynakları arzdan alırsınız. 4. Rakibiniz ... diğer yarıyı alır.
5. Açılan kartı ... atma yığınına yüzü açık koyarsınız."
"""

from __future__ import annotations

from .actions import HALF0, PASS, RES0, SPEC0, USE
from .content import DIVE_CARDS, NUM_RES, WILD
from .ending import record_triggers
from .specialists import AGENT, face_up, play, plays
from .state import NO, SeasteadData
from .steps import Step
from .tokens import gain, opponent, supplied_kinds


def reveal(d: SeasteadData) -> None:
    """Turn over the top dive card; an empty deck is first rebuilt from the shuffled discard pile."""
    if not d.dive_deck:
        rng = d.chance.generator()
        d.dive_deck = [d.dive_discard[i] for i in rng.permutation(len(d.dive_discard))]
        d.dive_discard = []
        d.dive_reshuffled = 1
    d.revealed = d.dive_deck.pop()
    record_triggers(d)  # a Depths card back may show now


def start_dive(d: SeasteadData, seat: int) -> None:
    opp = opponent(seat)
    d.stack += [
        (Step.END_TURN, seat, 0, 0),
        (Step.AFTER, seat, 0, 0),
        (Step.DISCARD_DIVE, seat, 0, 0),
        (Step.TAKE_HALF, opp, 1, 0),
        (Step.TAKE_HALF, seat, 0, 0),
        (Step.DIVE_SPLIT, seat, 0, 0),
        (Step.REVEAL, seat, 0, 0),
    ]


def run_reveal(d: SeasteadData, seat: int, a: int, b: int) -> None:
    reveal(d)


def legal_split(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return [HALF0, HALF0 + 1, *plays(d, seat, "split")]


def apply_split(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    if action >= SPEC0:
        d.stack.append((Step.DIVE_SPLIT, seat, a, b))
        play(d, seat, action - SPEC0)
        return
    d.mine_half = action - HALF0
    opp = opponent(seat)
    if face_up(d, opp, AGENT):
        d.stack.append((Step.AGENT, opp, 0, 0))


def legal_agent(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return [USE, PASS]


def apply_agent(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    if action == USE:
        d.spec_spent[AGENT] = 1
        d.mine_half = 1 - d.mine_half


def share(d: SeasteadData, active_share: bool) -> list[int]:
    """Counts (fish, artifact, kelp, metal, wild) a share of the revealed card gives, modifiers included."""
    card = DIVE_CARDS[d.revealed]
    counts = list(card.halves[d.mine_half if active_share else 1 - d.mine_half])
    if active_share:
        if d.trawler:
            counts = [c + 1 if c else 0 for c in counts]
        if d.prospector != NO:
            total = sum(counts)
            counts = [0] * 5
            counts[d.prospector] = total
    return counts


def run_take_half(d: SeasteadData, seat: int, a: int, b: int) -> None:
    counts = share(d, a == 0)
    for k in range(NUM_RES):
        if counts[k]:
            gain(d, seat, k, counts[k])
    if counts[WILD]:
        d.stack.append((Step.DIVE_WILD, seat, counts[WILD], 0))


def legal_wild(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return supplied_kinds(d)


def apply_wild(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    gain(d, seat, action - RES0, 1)
    if a > 1:
        d.stack.append((Step.DIVE_WILD, seat, a - 1, 0))


def run_discard_dive(d: SeasteadData, seat: int, a: int, b: int) -> None:
    d.dive_discard.append(d.revealed)
    d.revealed = NO


def legal_prospector(d: SeasteadData, seat: int, a: int, b: int) -> list[int]:
    return [RES0 + k for k in range(NUM_RES)]


def apply_prospector(d: SeasteadData, action: int, seat: int, a: int, b: int) -> None:
    d.prospector = action - RES0
