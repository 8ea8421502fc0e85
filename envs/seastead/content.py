"""Seastead content (dive cards, flotilla tiles, dock tiles, specialists), loaded once from data/seastead.json.

Everything here is immutable. Card and tile contents the seed leaves open are MeepleZoo's design and are
listed as filled in in docs/rules/seastead.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import IntEnum
from importlib import resources


class Res(IntEnum):
    """The four resource kinds (seed: "Balık, Eser, Yosun, Metal")."""

    FISH = 0
    ARTIFACT = 1
    KELP = 2
    METAL = 3


class Bld(IntEnum):
    """Building types, also the rows of a player board."""

    PORT = 0
    ACADEMY = 1
    SHIPYARD = 2


class Deck(IntEnum):
    SHALLOWS = 0
    SHELF = 1
    DEPTHS = 2


NUM_RES = 4
NUM_FLOTILLAS = 4
LOCS_PER_FLOTILLA = 6
NUM_LOCS = NUM_FLOTILLAS * LOCS_PER_FLOTILLA
WILD = 4  # index of the wild symbol in a dive half's counts


@dataclass(frozen=True, slots=True)
class DiveCard:
    id: int
    deck: Deck
    halves: tuple[tuple[int, int, int, int, int], tuple[int, int, int, int, int]]  # fish..metal, wild
    arrow: int  # first player shown by a Shallows card; -1 on other cards


@dataclass(frozen=True, slots=True)
class Effect:
    """A location effect: ``kind`` plus its parameters (see effects.py)."""

    kind: str
    resource: int = -1
    n: int = 1


@dataclass(frozen=True, slots=True)
class Location:
    index: int  # 0..23 = flotilla * 6 + position
    flotilla: int
    position: int
    cost: int  # also its value at final scoring
    effect: Effect


@dataclass(frozen=True, slots=True)
class Dock:
    id: int
    resource: int
    sections: tuple[int, int, int, int]  # building type per offset (-2,-1,+1,+2), -1 = unmarked
    points: int


@dataclass(frozen=True, slots=True)
class Specialist:
    id: int
    name: str
    kind: str  # "dive", "build" or "both"
    vp: int
    timing: str  # split | where | after | any | react_dive | react_build
    text: str


@dataclass(frozen=True, slots=True)
class Decree:
    """A decree card (B sides only): ``name`` is its config id; ``rule`` the part of the rules it changes."""

    id: int
    name: str
    title: str
    rule: str
    text: str


@dataclass(frozen=True, slots=True)
class Solo:
    boss_base_points: int
    boss_points_per_building: int
    extra_starting_resources: int
    removed_specialists: tuple[str, ...]
    removed_dive_deck: str


@dataclass(frozen=True, slots=True)
class Setup:
    resource_supply: int
    cleanup_supply: int
    buildings_per_type: int
    ships_per_player: int
    starting_resources: tuple[int, ...]
    specialist_display: int
    dock_display: int
    dock_section_offsets: tuple[int, ...]
    dock_resource_cap: int
    decree_draw: int


def _half(d: dict[str, int], names: list[str]) -> tuple[int, int, int, int, int]:
    unknown = set(d) - {*names, "wild"}
    if unknown:
        raise ValueError(f"unknown resource in dive card half: {sorted(unknown)}")
    return (*(d.get(n, 0) for n in names), d.get("wild", 0))  # type: ignore[return-value]


def _load() -> dict:
    return json.loads(resources.files(__package__).joinpath("data/seastead.json").read_text("utf-8"))


_DATA = _load()
RESOURCE_NAMES: tuple[str, ...] = tuple(_DATA["resources"])
BUILDING_NAMES: tuple[str, ...] = tuple(_DATA["building_types"])
_BLD = {n: i for i, n in enumerate(BUILDING_NAMES)}

SETUP = Setup(**{k: tuple(v) if isinstance(v, list) else v for k, v in _DATA["setup"].items() if k != "demand_tokens"})
DEMAND_TOKENS: tuple[int, ...] = tuple(RESOURCE_NAMES.index(r) for r in _DATA["setup"]["demand_tokens"])

DIVE_CARDS: tuple[DiveCard, ...] = tuple(
    DiveCard(
        c["id"],
        Deck[c["deck"].upper()],
        (_half(c["halves"][0], _DATA["resources"]), _half(c["halves"][1], _DATA["resources"])),
        c.get("arrow", -1),
    )
    for c in _DATA["dive_cards"]
)
SIDES = "AB"


def _locations(tiles: list[dict]) -> tuple[Location, ...]:
    return tuple(
        Location(
            f * LOCS_PER_FLOTILLA + p,
            f,
            p,
            loc["cost"],
            Effect(
                loc["effect"]["kind"],
                RESOURCE_NAMES.index(loc["effect"]["resource"]) if "resource" in loc["effect"] else -1,
                loc["effect"].get("n", 1),
            ),
        )
        for f, flot in enumerate(tiles)
        for p, loc in enumerate(flot["locations"])
    )


FLOTILLA_NAMES: tuple[str, ...] = tuple(f["name"] for f in _DATA["flotillas"])
FLOTILLA_NAMES_B: tuple[str, ...] = tuple(f["name"] for f in _DATA["flotillas_b"])
LOCATIONS: tuple[Location, ...] = _locations(_DATA["flotillas"])  # the A sides
LOCATIONS_B: tuple[Location, ...] = _locations(_DATA["flotillas_b"])
#: ``SIDE_LOCATIONS[side][location]`` with side 0 = A, 1 = B (a flotilla tile's side sets its six locations)
SIDE_LOCATIONS: tuple[tuple[Location, ...], tuple[Location, ...]] = (LOCATIONS, LOCATIONS_B)
DECREES: tuple[Decree, ...] = tuple(Decree(**x) for x in _DATA["decrees"])
DECREE_BY_NAME: dict[str, int] = {x.name: x.id for x in DECREES}
SOLO = Solo(**{k: tuple(v) if isinstance(v, list) else v for k, v in _DATA["solo"].items()})
EFFECT_KINDS: tuple[str, ...] = tuple(sorted({x.effect.kind for x in LOCATIONS + LOCATIONS_B}))
DOCKS: tuple[Dock, ...] = tuple(
    Dock(
        d["id"],
        RESOURCE_NAMES.index(d["resource"]),
        tuple(-1 if s is None else _BLD[s] for s in d["sections"]),  # type: ignore[arg-type]
        d["points"],
    )
    for d in _DATA["docks"]
)
SPECIALISTS: tuple[Specialist, ...] = tuple(Specialist(**s) for s in _DATA["specialists"])
SPEC_BY_NAME: dict[str, int] = {s.name: s.id for s in SPECIALISTS}
LOCATION_COST: tuple[int, ...] = tuple(loc.cost for loc in LOCATIONS)  # A sides
SIDE_COST: tuple[tuple[int, ...], tuple[int, ...]] = (LOCATION_COST, tuple(loc.cost for loc in LOCATIONS_B))


def dock_targets(dock: Dock, location: int) -> tuple[tuple[int, int], ...]:
    """``(location, building type)`` pairs a dock attached at ``location`` scores (same flotilla only)."""
    f, p = divmod(location, LOCS_PER_FLOTILLA)
    out = []
    for off, bt in zip(SETUP.dock_section_offsets, dock.sections, strict=True):
        q = p + off
        if bt >= 0 and 0 <= q < LOCS_PER_FLOTILLA:
            out.append((f * LOCS_PER_FLOTILLA + q, bt))
    return tuple(out)


def _check() -> None:
    assert len(LOCATIONS) == len(LOCATIONS_B) == NUM_LOCS and len(FLOTILLA_NAMES) == NUM_FLOTILLAS
    assert len(FLOTILLA_NAMES_B) == NUM_FLOTILLAS
    assert all(2 <= c <= 6 for side in SIDE_COST for c in side)
    assert len(DECREES) == 16 and [x.id for x in DECREES] == list(range(16)) and len(DECREE_BY_NAME) == 16
    assert all(x.effect.kind != "decree" for x in LOCATIONS)  # decrees come only with B sides
    assert all(n in {s.name for s in SPECIALISTS} for n in SOLO.removed_specialists)
    assert len(DIVE_CARDS) == 20 and len(DOCKS) == 12 and len(SPECIALISTS) == 16
    assert [sum(c.deck == d for c in DIVE_CARDS) for d in Deck] == [4, 12, 4]
    assert all(c.halves[0] != c.halves[1] for c in DIVE_CARDS)
    assert len({s.name for s in SPECIALISTS}) == 16


_check()
