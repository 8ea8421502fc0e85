"""The 16 specialists: when each may be played and what it does.

Seed: "Uzman kartlarını dilediğiniz sırada 'harcayarak' (yüzünü kapatarak) tek seferlik yeteneklerini
kullanabilirsiniz; Yatırımcı (Investor) ve Ajan (Agent) kartları ... sıra sizde değilken de kullanılabilir."
Dive specialists are played during your dive, build specialists during your build, "both" ones at the start
or end of any of your turns. Timings: ``split`` (dive card revealed), ``where`` (choosing a build location),
``after`` (end of your turn, this turn's action kind), ``any`` (start or end of your turn), reactions.
"""

from __future__ import annotations

from .actions import LOC0, SPEC0
from .content import NUM_RES, SPEC_BY_NAME, SPECIALISTS, Bld
from .state import NO, SeasteadData
from .steps import Step
from .tokens import buildable_locations, dive_deck_ready, gain, gain_cleanup, has_empty_location, opponent, reveal

SCOUT = SPEC_BY_NAME["Scout"]
TRAWLER = SPEC_BY_NAME["Trawler"]
PROSPECTOR = SPEC_BY_NAME["Prospector"]
SALVAGER = SPEC_BY_NAME["Salvager"]
AGENT = SPEC_BY_NAME["Agent"]
ENGINEER = SPEC_BY_NAME["Engineer"]
FOUNDER = SPEC_BY_NAME["Founder"]
INVESTOR = SPEC_BY_NAME["Investor"]
ARCHITECT = SPEC_BY_NAME["Architect"]
WRECKER = SPEC_BY_NAME["Wrecker"]
FOREMAN = SPEC_BY_NAME["Foreman"]
MECHANIC = SPEC_BY_NAME["Mechanic"]
TRADER = SPEC_BY_NAME["Trader"]
SCAVENGER = SPEC_BY_NAME["Scavenger"]
PATRON = SPEC_BY_NAME["Patron"]
HARBOURMASTER = SPEC_BY_NAME["Harbourmaster"]

TIMING = tuple(s.timing for s in SPECIALISTS)
KIND = tuple(s.kind for s in SPECIALISTS)


def face_up(d: SeasteadData, seat: int, sid: int) -> bool:
    return d.spec_owner[sid] == seat and not d.spec_spent[sid]


def _movable_building(d: SeasteadData, owner: int) -> bool:
    return any(d.loc_owner[i] == owner and d.loc_bld[i] in (Bld.ACADEMY, Bld.SHIPYARD) for i in range(len(d.loc_bld)))


def usable(d: SeasteadData, seat: int, sid: int) -> bool:
    """Whether playing ``sid`` now can have an effect (spending a card for nothing is not offered)."""
    if sid == SCOUT:
        return dive_deck_ready(d)
    if sid == PROSPECTOR:
        return d.prospector == NO
    if sid == TRAWLER:
        return not d.trawler
    if sid == ENGINEER:
        return not d.engineer
    if sid == FOUNDER:
        return d.founder == NO
    if sid in (ARCHITECT, WRECKER):
        owner = seat if sid == ARCHITECT else opponent(seat)
        return _movable_building(d, owner) and bool(buildable_locations(d))
    if sid == FOREMAN:
        return d.built_loc != NO
    if sid == MECHANIC:
        return seat in d.ship and has_empty_location(d)
    if sid == TRADER:
        held = [k for k in range(NUM_RES) if d.res[seat * NUM_RES + k]]
        return any(d.supply[j] for k in held for j in range(NUM_RES) if j != k)
    if sid == PATRON:
        return any(d.res[seat * NUM_RES + k] == 0 and d.supply[k] for k in range(NUM_RES))
    if sid == HARBOURMASTER:
        return any(x != NO for x in d.dock_display) and any(
            d.dock_at[i] != NO and d.loc_owner[i] == seat for i in range(len(d.dock_at))
        )
    return True  # Salvager, Scavenger


def _offered(window: str, mode: str) -> tuple[int, ...]:
    if window == "main":
        return tuple(sid for sid, t in enumerate(TIMING) if t == "any")
    if window == "after":
        return tuple(sid for sid, t in enumerate(TIMING) if t == "any" or (t == "after" and KIND[sid] == mode))
    return tuple(sid for sid, t in enumerate(TIMING) if t == window)


#: ``(window, mode) -> specialists whose timing fits``: the part of :func:`plays` that depends on cards only
OFFERED = {(w, m): _offered(w, m) for w in ("main", "split", "where", "after") for m in ("", "build", "dive")}


def plays(d: SeasteadData, seat: int, window: str, mode: str = "") -> list[int]:
    """``SPEC`` actions ``seat`` may play in ``window`` ("main", "split", "where", "after")."""
    if seat not in d.spec_owner:
        return []
    owner, spent, played = d.spec_owner, d.spec_spent, d.played
    return [
        SPEC0 + sid
        for sid in OFFERED[window, mode]
        if owner[sid] == seat and not spent[sid] and not (played >> sid) & 1 and usable(d, seat, sid)
    ]


def play(d: SeasteadData, seat: int, sid: int) -> None:
    """Spend ``sid`` (turn it face down) and resolve it; follow-up decisions go on the stack."""
    d.spec_spent[sid] = 1
    d.played |= 1 << sid
    push = d.stack.append
    if sid == SCOUT:
        d.dive_discard.append(d.revealed)
        reveal(d)
    elif sid == TRAWLER:
        d.trawler = 1
    elif sid == PROSPECTOR:
        push((Step.PROSPECTOR_KIND, seat, 0, 0))
    elif sid == SALVAGER:
        gain_cleanup(d, seat, 1)
        push((Step.SALVAGER_KIND, seat, 0, 0))
    elif sid == ENGINEER:
        d.engineer = 1
    elif sid == FOUNDER:
        push((Step.FOUNDER_KIND, seat, 0, 0))
    elif sid == ARCHITECT:
        push((Step.BUILDING_SELECT, seat, 0, 0))
    elif sid == WRECKER:
        push((Step.BUILDING_SELECT, seat, 1, 0))
    elif sid == FOREMAN:
        push((Step.LOCATION_EFFECT, seat, d.built_loc, 0))
    elif sid == MECHANIC:
        push((Step.SHIP_SELECT, seat, 1, 0))
    elif sid == TRADER:
        push((Step.TRADER_FROM, seat, 0, 0))
    elif sid == SCAVENGER:
        gain_cleanup(d, seat, 2)
    elif sid == PATRON:
        for k in range(NUM_RES):
            if d.res[seat * NUM_RES + k] == 0:
                gain(d, seat, k, 1)
    elif sid == HARBOURMASTER:
        push((Step.HARBOUR_PORT, seat, 0, 0))
    else:  # Agent and Investor are played through their reaction decisions
        raise AssertionError(f"{SPECIALISTS[sid].name} is a reaction")


def own_port_docks(d: SeasteadData, seat: int) -> list[int]:
    """``LOC`` actions of ``seat``'s ports that carry a dock tile."""
    return [LOC0 + i for i in range(len(d.dock_at)) if d.dock_at[i] != NO and d.loc_owner[i] == seat]
