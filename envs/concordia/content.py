"""Concordia content (maps, personality cards, costs, setup), loaded once from data/*.json.

Sources are named inside the data files and in docs/rules/concordia.md. Route graphs and the shortest
colonist move costs of both maps are computed here once, at import.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from enum import IntEnum
from importlib import resources


class Good(IntEnum):
    """Seed: "Tuğla (Brick), Yiyecek (Food), Alet (Tool), Şarap (Wine), Kumaş (Cloth)"."""

    BRICK = 0
    FOOD = 1
    TOOL = 2
    WINE = 3
    CLOTH = 4


class Act(IntEnum):
    """The action printed on a personality card."""

    TRIBUNE = 0
    ARCHITECT = 1
    PREFECT = 2
    MERCATOR = 3
    DIPLOMAT = 4
    SENATOR = 5
    CONSUL = 6
    COLONIST = 7
    SPECIALIST = 8


class God(IntEnum):
    VESTA = 0
    JUPITER = 1
    SATURNUS = 2
    MERCURIUS = 3
    MARS = 4
    MINERVA = 5


NUM_GOODS = 5
GOOD_NAMES = ("brick", "food", "tool", "wine", "cloth")
ANY = -1  # a '?' in a cost: any good
LAND, SEA = 0, 1
INF = 1 << 20


def _load(name: str) -> dict:
    return json.loads(resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8"))


_CARDS = _load("cards.json")
_RULES = _load("rules.json")
_MAPS = _load("maps.json")

GOOD_VALUE = tuple(_CARDS["goods_value"][g] for g in GOOD_NAMES)  # 3, 4, 5, 6, 7
HOUSE_MONEY = tuple(_CARDS["house_cost"][g][0] for g in GOOD_NAMES)  # 1..5 per house after building
HOUSE_GOODS = tuple(tuple(GOOD_NAMES.index(x) for x in _CARDS["house_cost"][g][1]) for g in GOOD_NAMES)
COLONIST_COST = tuple(GOOD_NAMES.index(x) for x in _CARDS["colonist_cost"])  # food + tool
BONUS_COINS = tuple(_CARDS["province_bonus_coin_side_yav"][g] for g in GOOD_NAMES)
START_GOODS = tuple(_CARDS["setup"]["storehouse_goods"][g] for g in GOOD_NAMES)
STOREHOUSE = _RULES["storehouse"]
MAX_HOUSES = _RULES["houses"]
COLONISTS_PER_KIND = _RULES["colonists_per_kind"]
COLONISTS = 2 * COLONISTS_PER_KIND  # colonist i < 3 is a land colonist, i >= 3 a sea colonist
FORUM_SIZE = _RULES["forum_size"]
CONCORDIA_VP = _RULES["concordia_vp"]
MINERVA_VP = tuple(_RULES["minerva_vp"][g] for g in GOOD_NAMES)
CAP_JUPITER = _RULES["caps"]["jupiter"]
CAP_MERCURIUS = _RULES["caps"]["mercurius"]
CAP_MARS = _RULES["caps"]["mars"]
SURCHARGE = tuple(
    tuple(ANY if x == "any" else GOOD_NAMES.index(x) for x in pos)
    for pos in _CARDS["forum_surcharge_by_position_1_to_7"]
)
#: city tokens per letter (the yav count for letter B; see docs/rules/concordia.md)
CITY_TOKENS = {
    letter: tuple(g for g in range(NUM_GOODS) for _ in range(counts[GOOD_NAMES[g]]))
    for letter, counts in _CARDS["city_tokens_yav"].items()
}
PLAYERS = {name: tuple(v) for name, v in _RULES["players"].items()}


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    action: Act
    god: God
    cost: tuple[int, ...]  # goods of the red field
    deck: int  # 0: starting hand, 1..5: Forum deck I..V
    amount: int = 0  # Mercator: sesterces
    good: int = -1  # Specialist: the good it produces
    name: str = ""


def _card(cid: int, raw: dict, deck: int) -> Card:
    text = raw["action"]
    word = text.split(" ")[0]
    good, amount = -1, 0
    if "specialist" in text:
        act = Act.SPECIALIST
        good = GOOD_NAMES.index(text.split("specialist ")[1].rstrip(")"))
    else:
        act = Act[word.upper()]
        if act == Act.MERCATOR:
            amount = int(text.split("(")[1].split(" ")[0])
    cost = tuple(GOOD_NAMES.index(x) for x in raw["cost"])
    return Card(cid, act, God[raw["god"].upper()], cost, deck, amount, good, text)


def _cards() -> tuple[Card, ...]:
    out = [_card(i, raw, 0) for i, raw in enumerate(_CARDS["starting_hand"])]
    for deck, numeral in enumerate(("I", "II", "III", "IV", "V"), start=1):
        for raw in _CARDS["decks_for_sale"][numeral]:
            out.append(_card(len(out), raw, deck))
    return tuple(out)


CARDS = _cards()
NUM_CARDS = len(CARDS)  # 7 starting + 30 for sale
STARTING_HAND = tuple(c.id for c in CARDS if c.deck == 0)
DECKS = tuple(tuple(c.id for c in CARDS if c.deck == k) for k in range(6))  # DECKS[1] = deck I ...


@dataclass(frozen=True, slots=True)
class MapInfo:
    """One board side with its route graph and precomputed colonist move costs."""

    name: str
    cities: tuple[str, ...]
    roma: int
    letter: tuple[str, ...]  # 'X' for Roma
    province_of: tuple[int, ...]
    provinces: tuple[str, ...]
    province_cities: tuple[tuple[int, ...], ...]
    routes: tuple[tuple[int, int, int], ...]  # (city a, city b, LAND/SEA)
    city_routes: tuple[tuple[int, ...], ...]
    #: moves[pos] = ((cost, route), ...) by cost, for the kind of colonist able to be at pos:
    #: pos < C is a city (moves_land / moves_sea), pos >= C is route pos - C
    moves_land: tuple[tuple[tuple[int, int], ...], ...]
    moves_sea: tuple[tuple[tuple[int, int], ...], ...]
    saturnus_cap: int
    source: str

    @property
    def num_cities(self) -> int:
        return len(self.cities)

    @property
    def num_routes(self) -> int:
        return len(self.routes)


def _bfs(n: int, adj: list[list[int]], start: int) -> list[int]:
    dist = [INF] * n
    dist[start] = 0
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for y in adj[x]:
            if dist[y] == INF:
                dist[y] = dist[x] + 1
                queue.append(y)
    return dist


def _build_map(key: str, raw: dict) -> MapInfo:
    cities = tuple(raw["cities"])
    index = {c: i for i, c in enumerate(cities)}
    provinces = tuple(raw["provinces"])
    province_of = tuple(provinces.index(raw["cities"][c]["province"]) for c in cities)
    routes = tuple(
        (index[a], index[b], kind)
        for kind, field in ((LAND, "land_routes"), (SEA, "sea_routes"))
        for a, b in raw[field]
    )
    n = len(cities)
    city_routes = tuple(tuple(r for r, (a, b, _) in enumerate(routes) if c in (a, b)) for c in range(n))
    tables = []
    for kind in (LAND, SEA):
        adj: list[list[int]] = [[] for _ in range(n)]
        for a, b, k in routes:
            if k == kind:
                adj[a].append(b)
                adj[b].append(a)
        dist = [_bfs(n, adj, c) for c in range(n)]
        # a step moves a colonist from a city or a route onto a neighbouring route of its kind; passing over
        # routes (occupied or not) costs one step per route, so cost = 1 + cities apart of the two ends
        starts = [(c,) for c in range(n)] + [(a, b) for a, b, _ in routes]
        table = []
        for pos, ends in enumerate(starts):
            options = []
            for r, (a, b, k) in enumerate(routes):
                if k != kind or pos == n + r:
                    continue
                cost = 1 + min(dist[x][y] for x in ends for y in (a, b))
                if cost < INF:
                    options.append((cost, r))
            table.append(tuple(sorted(options)))
        tables.append(tuple(table))
    letters = tuple(raw["cities"][c]["letter"] for c in cities)
    return MapInfo(
        name=key,
        cities=cities,
        roma=index["ROMA"],
        letter=letters,
        province_of=province_of,
        provinces=provinces,
        province_cities=tuple(tuple(c for c in range(n) if province_of[c] == p) for p in range(len(provinces))),
        routes=routes,
        city_routes=city_routes,
        moves_land=tables[LAND],
        moves_sea=tables[SEA],
        saturnus_cap=_RULES["caps"]["saturnus"][key],
        source=raw["source"],
    )


MAPS = {key: _build_map(key, _MAPS[key.capitalize()]) for key in ("italia", "imperium")}
MAX_CITIES = max(m.num_cities for m in MAPS.values())
MAX_ROUTES = max(m.num_routes for m in MAPS.values())
MAX_PROVINCES = max(len(m.provinces) for m in MAPS.values())
MAX_PLAYERS = 5


def _check() -> None:
    for m in MAPS.values():
        for letter, tokens in CITY_TOKENS.items():
            cities = [c for c in range(m.num_cities) if m.letter[c] == letter]
            assert not cities or len(cities) == len(tokens), (m.name, letter)
    assert len(CARDS) == 37 and len(STARTING_HAND) == 7


_check()
