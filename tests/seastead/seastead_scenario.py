"""Helpers for the Seastead rule scenarios: build a position by hand, then play actions on it.

A scenario starts from :func:`fresh` (any seed: every fact a test depends on is set explicitly), edits
``s.d`` with the helpers below, calls :func:`start` (which puts the pending decision on the stack and
calls ``s.refresh()``), applies actions and asserts the exact outcome. Nothing here hides a rule: the
helpers only move tokens between the places the engine keeps them, so ``s.validate()`` still holds.
"""

from __future__ import annotations

from meeplezoo.envs.seastead.actions import BUILD0, DIVE, HALF0, LOC0, PASS, SLOT0, USE
from meeplezoo.envs.seastead.content import (
    DIVE_CARDS,
    DOCKS,
    LOCATION_COST,
    LOCATIONS,
    LOCS_PER_FLOTILLA,
    NUM_LOCS,
    NUM_RES,
    SETUP,
    SPEC_BY_NAME,
    WILD,
    Bld,
    Deck,
    Location,
    Res,
)
from meeplezoo.envs.seastead.game import SeasteadGame, SeasteadState
from meeplezoo.envs.seastead.state import (
    NO,
    TRIGGER_CLEANUP_EXHAUSTED,
    TRIGGER_DEPTHS_VISIBLE,
    TRIGGER_FLOTILLA_FULL,
    TRIGGER_ONE_BUILDING_LEFT,
    SeasteadData,
)
from meeplezoo.envs.seastead.steps import Step

P0, P1 = 0, 1
#: the demand used by :func:`fresh`: flotilla f demands resource f; the Lanternreef (metal) token is locked
DEMAND = [Res.FISH, Res.ARTIFACT, Res.KELP, Res.METAL]
LOCKED = 3


# --- locations -----------------------------------------------------------------------------------------
def loc(flotilla: int, position: int) -> int:
    return flotilla * LOCS_PER_FLOTILLA + position


def locations(kind: str, n: int | None = None, resource: int | None = None) -> list[Location]:
    """The locations whose effect is ``kind`` (optionally with that ``n`` / ``resource``), board order."""
    return [
        x
        for x in LOCATIONS
        if x.effect.kind == kind
        and (n is None or x.effect.n == n)
        and (resource is None or x.effect.resource == resource)
    ]


def first_location(kind: str, n: int | None = None, resource: int | None = None) -> Location:
    found = locations(kind, n, resource)
    assert found, f"no location with effect {kind!r} n={n} resource={resource}"
    return found[0]


def la(location: Location | int) -> int:
    """The LOC action of a location (a Location or its index)."""
    return LOC0 + (location.index if isinstance(location, Location) else location)


# --- the position --------------------------------------------------------------------------------------
def fresh(active: int = P0, seed: int = 0, **config: object) -> SeasteadState:
    """A new game with nothing in hand, the fixed :data:`DEMAND`, and ``active`` first player of round 0
    (``config``: the game's config, e.g. ``sides="BBBB", decree="guild_tax"`` or ``num_players=1``).

    Call :func:`start` after the edits to put a decision on the stack.
    """
    s = SeasteadGame(**config).new_state(seed)
    d = s.d
    d.res = [0] * (2 * NUM_RES)
    d.supply = [SETUP.resource_supply] * NUM_RES
    d.demand = [int(k) for k in DEMAND]
    d.locked = LOCKED
    d.first_player = d.active = active
    d.round_no = d.turns_in_round = 0
    d.end_round = NO
    d.triggers = 0
    d.stack = [(Step.MAIN, active, 0, 0)]
    s.refresh()
    return s


def start(s: SeasteadState, step: Step = Step.MAIN, seat: int | None = None, a: int = 0, b: int = 0) -> None:
    """Make ``(step, seat, a, b)`` the only task on the stack (``seat`` defaults to the active player; a
    MAIN decision also makes ``seat`` the active player), then refresh the pending decision."""
    d = s.d
    if seat is None:
        seat = d.active
    if step == Step.MAIN:
        d.active = seat
    d.stack = [(step, seat, a, b)]
    s.refresh()


def set_res(d: SeasteadData, seat: int, fish: int = 0, artifact: int = 0, kelp: int = 0, metal: int = 0) -> None:
    """Set a player's resources; the supply keeps the rest of the 10 of each kind."""
    for k, n in enumerate((fish, artifact, kelp, metal)):
        d.res[seat * NUM_RES + k] = n
    for k in range(NUM_RES):
        d.supply[k] = SETUP.resource_supply - d.res[k] - d.res[NUM_RES + k] - sum(d.boss_res[k::NUM_RES])
        assert d.supply[k] >= 0, "more than 10 of a kind in the players' hands"


def res(d: SeasteadData, seat: int) -> list[int]:
    """A player's resources, fish..metal."""
    return d.res[seat * NUM_RES : (seat + 1) * NUM_RES]


def set_cleanup(d: SeasteadData, seat: int, n: int) -> None:
    d.cleanup_supply += d.cleanup[seat] - n
    d.cleanup[seat] = n
    assert d.cleanup_supply >= 0


def place(d: SeasteadData, seat: int, btype: int, location: int) -> None:
    """Put one of ``seat``'s buildings on the board as if it had been built (the column bonuses of the
    columns emptied this way count as taken)."""
    assert d.loc_bld[location] == NO
    d.loc_owner[location] = seat
    d.loc_bld[location] = btype
    d.built[seat * 3 + btype] += 1
    assert d.built[seat * 3 + btype] <= SETUP.buildings_per_type
    d.columns[seat] = min(d.built[seat * 3 : seat * 3 + 3])


def put_ship(d: SeasteadData, seat: int, location: int) -> None:
    """A ship of ``seat`` at ``location`` (the player needs a built shipyard per ship)."""
    assert d.ship[location] == NO
    d.ship[location] = seat


def give_spec(d: SeasteadData, seat: int, name: str, spent: bool = False) -> int:
    """Hand the specialist ``name`` to ``seat`` (face up unless ``spent``); a display slot it leaves is
    refilled from the specialist deck. Returns its id."""
    sid = SPEC_BY_NAME[name]
    if sid in d.spec_deck:
        d.spec_deck.remove(sid)
    elif sid in d.spec_display:
        d.spec_display[d.spec_display.index(sid)] = d.spec_deck.pop() if d.spec_deck else NO
    d.spec_owner[sid] = seat
    d.spec_spent[sid] = int(spent)
    return sid


def set_spec_display(d: SeasteadData, names: list[str]) -> list[int]:
    """Put exactly these specialists in the display (the old ones go back into the deck)."""
    ids = [SPEC_BY_NAME[n] for n in names]
    d.spec_deck += [x for x in d.spec_display if x != NO]
    for sid in ids:
        d.spec_deck.remove(sid)
    d.spec_display = list(ids)
    return ids


def set_dock_display(d: SeasteadData, ids: list[int]) -> None:
    d.dock_deck += [x for x in d.dock_display if x != NO]
    for x in ids:
        d.dock_deck.remove(x)
    d.dock_display = list(ids)


def attach_dock(d: SeasteadData, dock_id: int, location: int) -> None:
    """Attach dock tile ``dock_id`` at ``location`` (a port there), taking it from the deck or display."""
    if dock_id in d.dock_deck:
        d.dock_deck.remove(dock_id)
    else:
        d.dock_display[d.dock_display.index(dock_id)] = d.dock_deck.pop()
    d.dock_at[location] = dock_id


def dock_id(resource: int, sections: tuple[int | None, ...], points: int) -> int:
    want = tuple(-1 if x is None else int(x) for x in sections)
    (found,) = [x.id for x in DOCKS if x.resource == resource and x.sections == want and x.points == points]
    return found


def fill_board(d: SeasteadData, keep: int) -> None:
    """Every location but ``keep`` gets a building or a ship: P1 builds all 12, P0 two of each type, and
    P0 has 2 ships, P1 3 ships on the remaining locations."""
    free = [i for i in range(NUM_LOCS) if i != keep]
    plan = [(P1, t) for t in Bld for _ in range(4)] + [(P0, t) for t in Bld for _ in range(2)]
    for (seat, t), i in zip(plan, free, strict=False):
        place(d, seat, t, i)
    for seat, i in zip([P0, P0, P1, P1, P1], free[len(plan) :], strict=True):
        put_ship(d, seat, i)


# --- the dive deck -------------------------------------------------------------------------------------
def card(half0: dict[str, int], half1: dict[str, int]) -> int:
    """The id of the dive card with these two halves (``{"fish": 2}``, ``{"wild": 1, "metal": 1}`` ...)."""

    def counts(h: dict[str, int]) -> tuple[int, ...]:
        names = ("fish", "artifact", "kelp", "metal", "wild")
        assert set(h) <= set(names)
        return tuple(h.get(n, 0) for n in names)

    (found,) = [c.id for c in DIVE_CARDS if c.halves == (counts(half0), counts(half1))]
    return found


def on_top(d: SeasteadData, *cards: int) -> None:
    """Put ``cards`` on the dive deck, the last one on top."""
    for c in cards:
        if c in d.dive_deck:
            d.dive_deck.remove(c)
        else:
            d.dive_discard.remove(c)
        d.dive_deck.append(c)


def wildless_cards(deck: Deck = Deck.SHELF) -> list[int]:
    return [c.id for c in DIVE_CARDS if c.deck == deck and not c.halves[0][WILD] and not c.halves[1][WILD]]


# --- playing -------------------------------------------------------------------------------------------
def pending(s: SeasteadState) -> tuple[Step | None, int]:
    """``(step, seat)`` of the pending decision (``(None, -1)`` at the end)."""
    return s.pending_step(), s.current_player() if s.d.stack else -1


def play(s: SeasteadState, *actions: int) -> None:
    for a in actions:
        s.apply(a)


def build(s: SeasteadState, btype: int, location: int | Location, slot: int = 0) -> None:
    """Build ``btype`` at ``location``; if the building effect asks for a display slot, take ``slot``."""
    play(s, BUILD0 + btype, la(location))
    if s.pending_step() in (Step.DOCK_CHOICE, Step.SPECIALIST_CHOICE):
        s.apply(SLOT0 + slot)


def dive_turn(s: SeasteadState, half: int = 0) -> None:
    """A whole dive turn: dive, take ``half``, choose wilds as the first legal kind, end the turn."""
    play(s, DIVE, HALF0 + half)
    while s.pending_step() in (Step.DIVE_WILD, Step.AFTER, Step.AGENT):
        s.apply(PASS if PASS in s.legal_actions() else s.legal_actions()[0])


# --- end triggers: each helper plays the turn of ``seat`` that sets off one end condition ------------
def fill_flotilla(s: SeasteadState, seat: int) -> None:
    """Kelpwood has 5 buildings (the opponent's); ``seat`` builds on its last location."""
    d = s.d
    opp = 1 - seat
    for p, t in enumerate([Bld.PORT, Bld.ACADEMY, Bld.SHIPYARD, Bld.PORT, Bld.ACADEMY]):
        place(d, opp, t, loc(0, p))
    set_res(d, seat, fish=LOCATION_COST[loc(0, 5)])
    start(s, Step.MAIN, seat)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(loc(0, 5)))
    s.apply(SLOT0)
    s.apply(PASS)


def one_building_left(s: SeasteadState, seat: int) -> None:
    """``seat`` has 2 buildings left on the board and builds one of them."""
    d = s.d
    spots = iter([loc(f, p) for p in range(4) for f in (1, 2, 3)])
    for t, n in ((Bld.PORT, 3), (Bld.ACADEMY, 4), (Bld.SHIPYARD, 3)):
        for _ in range(n):
            place(d, seat, t, next(spots))
    assert 12 - sum(d.built[seat * 3 : seat * 3 + 3]) == 2
    set_res(d, seat, fish=LOCATION_COST[loc(0, 1)])
    start(s, Step.MAIN, seat)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(loc(0, 1)))
    s.apply(SLOT0)
    s.apply(PASS)
    assert pending(s) == (Step.ROW_PORT, seat)  # the fourth port
    s.apply(PASS)


def depths_visible(s: SeasteadState, seat: int) -> None:
    """The last Shelf card lies on the Depths cards; ``seat`` dives it."""
    d = s.d
    depths = [c.id for c in DIVE_CARDS if c.deck == Deck.DEPTHS]
    last_shelf = wildless_cards(Deck.SHELF)[0]
    d.dive_discard = sorted(set(range(len(DIVE_CARDS))) - {*depths, last_shelf})
    d.dive_deck = [*depths, last_shelf]
    start(s, Step.MAIN, seat)
    s.apply(DIVE)
    s.apply(HALF0)


def cleanup_exhausted(s: SeasteadState, seat: int) -> None:
    """The cleanup supply has 1 token left; ``seat`` takes it with a location effect."""
    d = s.d
    where = first_location("cleanup", n=1)
    set_cleanup(d, 1 - seat, 19)
    set_res(d, seat, **{Res(DEMAND[where.flotilla]).name.lower(): where.cost})
    start(s, Step.MAIN, seat)
    s.apply(BUILD0 + Bld.PORT)
    s.apply(la(where))
    s.apply(SLOT0)
    s.apply(USE)


TRIGGERS = [
    (fill_flotilla, TRIGGER_FLOTILLA_FULL),
    (one_building_left, TRIGGER_ONE_BUILDING_LEFT),
    (depths_visible, TRIGGER_DEPTHS_VISIBLE),
    (cleanup_exhausted, TRIGGER_CLEANUP_EXHAUSTED),
]


def score_now(s: SeasteadState) -> None:
    """End the game at the end of this turn (the last turn of the last round)."""
    d = s.d
    d.end_round = d.round_no
    d.turns_in_round = 0 if d.solo else 1  # solo: a round is one turn
    d.stack = [(Step.END_TURN, d.active, 0, 0)]
    s.refresh()
    assert s.is_terminal()
