"""Dive: reveal the top card, "I cut, you choose", the active player takes first, then the opponent.

Seed: "1. Dalış destesinin üst kartını açarsınız. 2. ... hangi yarının kime bakacağına siz karar verirsiniz.
3. Kartın size bakan yarısında gösterilen kaynakları arzdan alırsınız. 4. Rakibiniz ... diğer yarıyı alır.
5. Açılan kartı ... atma yığınına yüzü açık koyarsınız."
"""

from __future__ import annotations

from .actions import HALF0, PASS, RES0, SPEC0, USE
from .content import DIVE_CARDS, LOCS_PER_FLOTILLA, NUM_RES, WILD
from .ending import record_triggers
from .specialists import AGENT, face_up, play, plays
from .state import BOSS, BOSS_BUILDING, NO, SeasteadData
from .steps import Step
from .tokens import decree_is, gain, loc_cost, opponent, reveal, supplied_kinds


def start_dive(d: SeasteadData, seat: int) -> None:
    opp = opponent(seat)
    d.stack += [
        (Step.END_TURN, seat, 0, 0),
        (Step.AFTER, seat, 0, 0),
        (Step.DISCARD_DIVE, seat, 0, 0),
        (Step.BOSS_DELIVERY, seat, 0, 0) if d.solo else (Step.TAKE_HALF, opp, 1, 0),
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
    if not d.solo and face_up(d, opp, AGENT):
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
    if d.decree != NO and decree_is(d, "tide_of_plenty" if active_share else "fair_shares"):
        counts[WILD] += 1  # decrees: one more resource of the receiver's choice
    return counts


def run_boss_delivery(d: SeasteadData, seat: int, a: int, b: int) -> None:
    """Solo: the half not facing you goes to the Boss. Each kind on it goes to the flotilla whose demand token
    shows that kind, onto its cheapest empty location (leftmost on a tie); a location's second delivery sends
    its resources back to the supply and puts a Boss building there. A Boss wild is the kind the supply holds
    most of (the first such kind on a tie)."""
    counts = share(d, False)
    for _ in range(counts[WILD]):
        counts[max(range(NUM_RES), key=lambda k: (d.supply[k], -k))] += 1
    for k in range(NUM_RES):
        if counts[k]:
            deliver_to_boss(d, k, counts[k])


def deliver_to_boss(d: SeasteadData, kind: int, n: int) -> None:
    f = d.demand.index(kind)
    spots = [i for i in range(f * LOCS_PER_FLOTILLA, (f + 1) * LOCS_PER_FLOTILLA) if d.loc_bld[i] == NO]
    spots = [i for i in spots if d.ship[i] == NO]
    if not spots:
        return  # no empty location on that flotilla: the resources stay in the supply
    loc = min(spots, key=lambda i: (loc_cost(d, i), i))
    taken = min(n, d.supply[kind])
    d.supply[kind] -= taken
    d.boss_res[loc * NUM_RES + kind] += taken
    if not d.boss_visits[loc]:
        d.boss_visits[loc] = 1
        return
    for k in range(NUM_RES):  # the second delivery: a Boss building
        d.supply[k] += d.boss_res[loc * NUM_RES + k]
        d.boss_res[loc * NUM_RES + k] = 0
    d.boss_visits[loc] = 0
    d.loc_owner[loc], d.loc_bld[loc] = BOSS, BOSS_BUILDING
    record_triggers(d)


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
