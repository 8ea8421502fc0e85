"""Resafa's state: one slotted record of ints and int lists (plus the Chance), and the setup.

Per-seat lists are flat (``store[seat * 4 + item]``, ``track[seat * 4 + colour]``, ``ws_tile[seat * 25 +
cell]``); hands and decks are nested lists with the top card at the end. Action cards are numbered
``0..23`` (the starting cards, content order) and ``24 + special index`` (yellow upgraded cards). Special
decks are numbered ``colour * 3 + level - 1``; bonus decks ``colour * 2 + level - 1``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Chance
from ..core.records import RecordCodec
from .content import Colour, Level, content
from .geometry import CELLS, START_CELLS, network, source_boxes
from .steps import Step

NO = -1
C = content()
S = C.setup
NUM_ITEMS = 4
NUM_START_CARDS = len(C.action_cards)
YELLOW0 = NUM_START_CARDS  # action card id of special card i is YELLOW0 + i
SETS = ("alpha", "beta", "gamma", "delta")
SET_CARDS = {name: [i for i, c in enumerate(C.action_cards) if c.set == name] for name in SETS}
SPECIAL_DECKS = tuple((col, lv) for col in Colour for lv in (Level.I, Level.II, Level.III))
DECK_CARDS = tuple(tuple(i for i, s in enumerate(C.specials) if (s.colour, s.level) == k) for k in SPECIAL_DECKS)
CARDS_PER_SPECIAL_DECK = 4
BONUS_DECK_CARDS = tuple(
    tuple(i for i, b in enumerate(C.bonus_cards) if b.colour == col and b.level == lv)
    for col in Colour
    for lv in (1, 2)
)
STARTING_WORKSHOPS = tuple(i for i, t in enumerate(C.workshops) if t.level == Level.START)
LEVEL_WORKSHOPS = (
    tuple(i for i, t in enumerate(C.workshops) if t.level == Level.I),
    tuple(i for i, t in enumerate(C.workshops) if t.level == Level.II),
)
CENTRE_NODES = tuple(i for i, x in enumerate(C.centres) if x.colour != "city")
CITY = next(i for i, x in enumerate(C.centres) if x.colour == "city")
POSTS_PER_CENTRE = 4
SUPPLY_ITEMS = (C.supply.stone, C.supply.marble, C.supply.spice, C.supply.amphora)


@dataclass(slots=True, eq=False)
class ResafaData:
    """Every fact of a Resafa position. Lists are copied on clone; ints and tuples are shared."""

    chance: Chance
    players: int
    round_no: int  # 1..6 (7 once the game is over)
    first: int  # start player of the round
    active: int  # whose turn it is
    turns: int  # turns taken this round
    coins: list[int]
    vp: list[int]
    store: list[int]  # seat * 4 + item: the Resafa storehouse
    supply: list[int]  # items left in the general supply
    camel_at: list[int]  # node of each camel
    camel_item: list[int]  # item the camel carries (NO: empty)
    camel_load: list[int]
    camel_step: list[int]  # step on the camel capacity track
    track: list[int]  # seat * 4 + colour: marker position 0..10
    hand: list[list[int]]  # action cards in hand
    deck: list[list[int]]  # each seat's face-down action deck, top at the end
    played: list[list[int]]  # action cards played since the last reshuffle
    bonus_hand: list[list[int]]
    sack_hand: list[list[int]]
    spec_owner: list[int]  # per special card: owning seat or NO
    spec_used: list[int]  # per special card: an instant card already used (turned face down)
    spec_round: list[int]  # round the card was taken (0: not taken)
    spec_decks: list[list[int]]  # 12 decks, top at the end
    spec_up: list[int]  # 1 when the deck's top card is face up
    spec_box: list[list[int]]  # cards of each deck left in the box at setup
    spec_known: list[int]  # per seat: bitmask of decks whose face-down cards that seat has seen
    ws_tile: list[int]  # seat * 25 + cell: workshop tile or NO
    ws_face: list[int]
    ws_rot: list[int]
    ws_decks: list[list[int]]  # level I, level II draw piles
    ws_display: list[int]  # 3 level I + 3 level II, NO when empty
    g_orient: list[int]  # seat * 25 + cell: NO, 0 horizontal, 1 vertical
    g_strips: list[int]  # filled strips bitmask
    g_tiles: list[int]  # seat * 2 + size: garden tiles placed (0 small, 1 large)
    g_supply: list[int]  # small, large tiles left
    gardens_done: list[int]
    gate: list[int]  # merchant tokens at the gate (max 2)
    rows: list[int]  # seat * 3 + row: tokens in the garden / workshop / canal rows
    scarabs: list[int]  # scarab tokens placed
    tokens: list[int]  # square, scarab tokens left
    post_owner: list[int]  # node * 4 + box: seat or NO
    trade_tile: list[int]  # per node: trading tile or NO (Resafa)
    trade_side: list[int]
    canal_owner: list[int]  # per box
    canal_design: list[int]
    canal_side: list[int]
    canal_placed: list[int]  # seat * 7 + design
    cbonus_at: list[int]  # per box: canal bonus tile lying there or NO
    cbonus_owner: list[int]  # per canal bonus tile
    cbonus_used: list[int]
    cubes: list[int]  # per source: 0 at the source, 1 activated (on the edge tile), 2 taken
    cubes_taken: list[int]  # per seat
    bonus_decks: list[list[int]]  # 8 decks
    bonus_display: list[int]  # colour * 3 + i
    sack_deck: list[int]
    sack_discard: list[int]
    stack: list[tuple[int, int, int, int]]
    card: int = NO  # the action card being played
    half: int = NO
    main: int = NO  # this turn's main action
    colour: int = NO  # this turn's colour
    looked: int = 0
    trade_here: int = NO  # the centre where this trade's deal was made
    advanced: int = 0  # 1: the advanced setup variant (the special cards returned to the box are public)
    sheet: list[int] = field(default_factory=list)  # filled at the end: seat * len(CATEGORIES) + category
    legal: tuple[int, ...] = ()
    # solo (players == 1) only, empty otherwise: Resafabot's pieces (solo.py, bot.py)
    bot_track: list[int] = field(default_factory=list)  # its cube on each colour track
    bot_deck: list[int] = field(default_factory=list)  # the solo deck, top (face up) at the end
    bot_shown: list[int] = field(default_factory=list)  # the cards revealed to its left this cycle, in order
    bot_canals: list[int] = field(default_factory=list)  # its canal tiles (designs) still to place, top at the end
    bot_out: int = NO  # the solo card drawn for its first canal tile (out of the game)
    bot_last: int = NO  # the box of its last canal tile
    bot_first: int = 0  # 1 when Resafabot starts the round
    bot_cubes: int = 0  # water cubes it took in rain scoring


CATEGORIES = (
    "during play",
    "scarabs",
    "gardens",
    "workshops",
    "canals",
    "pink cards",
    "yellow VP",
    "goods",
    "leftovers",
    "canal strip",
    "total",
)


def _shuffled(rng, items) -> list[int]:
    items = list(items)
    return [int(items[i]) for i in rng.permutation(len(items))]


def setup(seed: int, players: int, advanced: bool = False) -> ResafaData:
    """Set the board up for ``players`` (2-4). Seed-silent choices are in docs/rules/resafa.md.

    ``advanced``: the seed's advanced setup rule, "kurulumda kutuya geri konan özel kartları inceleyebilirler":
    the special cards returned to the box are known to all (the observation shows them). The steps below draw
    from one generator in this order (a saved seed replays the same setup)."""
    chance = Chance(seed)
    rng = chance.generator()
    n = players
    hands, decks = _deal_action_cards(rng, n)
    spec_decks, spec_box = _deal_special_decks(rng)
    ws_decks = [_shuffled(rng, ids) for ids in LEVEL_WORKSHOPS]
    ws_display = [ws_decks[0].pop() for _ in range(S.workshop_display[0])] + [NO] * S.workshop_display[1]
    bonus_decks = [_shuffled(rng, ids) for ids in BONUS_DECK_CARDS]
    trade_tile, trade_side = _deal_trading_tiles(rng)
    cbonus_at = _deal_canal_bonus_tiles(rng, n)
    first = int(rng.integers(n))
    d = ResafaData(
        chance=chance,
        players=n,
        round_no=1,
        first=first,
        active=first,
        turns=0,
        **_starting_goods(n, first),
        hand=hands,
        deck=decks,
        spec_decks=spec_decks,
        spec_up=[1 if lv == Level.I else 0 for _, lv in SPECIAL_DECKS],
        spec_box=spec_box,
        **_starting_workshops(n),
        ws_decks=ws_decks,
        ws_display=ws_display,
        trade_tile=trade_tile,
        trade_side=trade_side,
        cbonus_at=cbonus_at,
        bonus_decks=bonus_decks,
        sack_deck=_shuffled(rng, range(len(C.sack_cards))),
        stack=[(int(Step.PLAY_CARD), first, 0, 0)],
        advanced=int(advanced),
        **_empty_pieces(n),
    )
    refill_bonus_display(d)
    return d


def _deal_action_cards(rng, n: int) -> tuple[list[list[int]], list[list[int]]]:
    """A random starting set per seat, shuffled: the hand (sorted) and the deck below it."""
    sets = _shuffled(rng, range(4))[:n]
    hands, decks = [], []
    for seat in range(n):
        cards = _shuffled(rng, SET_CARDS[SETS[sets[seat]]])
        hands.append(sorted(cards[-S.hand_size :]))
        decks.append(cards[: -S.hand_size])
    return hands, decks


def _deal_special_decks(rng) -> tuple[list[list[int]], list[list[int]]]:
    """Each special deck: 4 random cards in play, the rest back in the box (sorted)."""
    spec_decks, spec_box = [], []
    for ids in DECK_CARDS:
        order = _shuffled(rng, ids)
        spec_decks.append(order[:CARDS_PER_SPECIAL_DECK])
        spec_box.append(sorted(order[CARDS_PER_SPECIAL_DECK:]))
    return spec_decks, spec_box


def _deal_trading_tiles(rng) -> tuple[list[int], list[int]]:
    """A random trading tile of its colour on each centre (none in Resafa), a random side up."""
    trade_tile, trade_side = [NO] * len(C.centres), [0] * len(C.centres)
    for colour in ("blue", "red"):
        nodes = [i for i, x in enumerate(C.centres) if x.colour == colour]
        tiles = _shuffled(rng, [i for i, t in enumerate(C.trading_tiles) if t.colour == colour])
        for node, tile in zip(nodes, tiles, strict=True):
            trade_tile[node] = tile
            trade_side[node] = int(rng.integers(2))
    return trade_tile, trade_side


def _deal_canal_bonus_tiles(rng, n: int) -> list[int]:
    """Per network box: the canal bonus tile the player count's setup card puts there (random), or NO."""
    net = network(n)
    card = next(k for k in C.canal_setup_cards if n in k.players)
    bonus_tiles = _shuffled(rng, range(len(C.canal_bonus_tiles)))
    cbonus_at = [NO] * (net.rows * net.cols)
    for (r, col), tile in zip(card.cells, bonus_tiles, strict=False):
        cbonus_at[r * net.cols + col] = tile
    return cbonus_at


def _starting_goods(n: int, first: int) -> dict[str, list[int]]:
    """Each seat's starting items, coins and VP, and the supply left."""
    start = S.start_items
    store = list(start.items) * n
    coins, vp = [S.start_coins] * n, [0] * n
    if n == 4:  # seed: the 4th player (in turn order) starts with 1 extra stone and 2 VP
        fourth, extra = (first + 3) % 4, S.fourth_player
        for k, v in enumerate(extra.items):
            store[fourth * NUM_ITEMS + k] += v
        coins[fourth] += extra.coins
        vp[fourth] += extra.vp
    supply = [SUPPLY_ITEMS[k] - sum(store[s * NUM_ITEMS + k] for s in range(n)) for k in range(NUM_ITEMS)]
    return {"coins": coins, "vp": vp, "store": store, "supply": supply}


def _starting_workshops(n: int) -> dict[str, list[int]]:
    """Each seat's two starting workshops on their cells, front up, unrotated."""
    ws_tile, ws_face, ws_rot = [NO] * (n * CELLS), [0] * (n * CELLS), [0] * (n * CELLS)
    for seat in range(n):
        for k, cell in enumerate(START_CELLS):
            ws_tile[seat * CELLS + cell] = STARTING_WORKSHOPS[2 * seat + k]
    return {"ws_tile": ws_tile, "ws_face": ws_face, "ws_rot": ws_rot}


def _empty_pieces(n: int) -> dict[str, list]:
    """Everything that starts empty, at zero or at its start: camels in Resafa, markers at the track starts,
    no card taken, no garden, post, canal tile or merchant token placed, the supplies full."""
    net = network(n)
    boxes = net.rows * net.cols
    return {
        "camel_at": [CITY] * n,
        "camel_item": [NO] * n,
        "camel_load": [0] * n,
        "camel_step": [0] * n,
        "track": [0] * (4 * n),
        "played": [[] for _ in range(n)],
        "bonus_hand": [[] for _ in range(n)],
        "sack_hand": [[] for _ in range(n)],
        "spec_owner": [NO] * len(C.specials),
        "spec_used": [0] * len(C.specials),
        "spec_round": [0] * len(C.specials),
        "spec_known": [0] * n,
        "g_orient": [NO] * (n * CELLS),
        "g_strips": [0] * (n * CELLS),
        "g_tiles": [0] * (2 * n),
        "g_supply": [C.supply.garden_small, C.supply.garden_large],
        "gardens_done": [0] * n,
        "gate": [0] * n,
        "rows": [0] * (3 * n),
        "scarabs": [0] * n,
        "tokens": [C.supply.square_tokens, C.supply.scarab_tokens],
        "post_owner": [NO] * (len(C.centres) * POSTS_PER_CENTRE),
        "canal_owner": [NO] * boxes,
        "canal_design": [NO] * boxes,
        "canal_side": [0] * boxes,
        "canal_placed": [0] * (n * len(C.canal_tiles)),
        "cbonus_owner": [NO] * len(C.canal_bonus_tiles),
        "cbonus_used": [0] * len(C.canal_bonus_tiles),
        "cubes": [0] * len(source_boxes(n)),
        "cubes_taken": [0] * n,
        "bonus_display": [NO] * 12,
        "sack_discard": [],
    }


def refill_bonus_display(d: ResafaData) -> None:
    """Clear the display and deal 3 cards per colour from the level I (rounds 1-3) or II (4-6) decks."""
    level = 0 if d.round_no <= 3 else 1
    for col in range(4):
        deck = d.bonus_decks[col * 2 + level]
        for i in range(S.bonus_display_per_colour):
            d.bonus_display[col * 3 + i] = deck.pop() if deck else NO


CODEC = RecordCodec(ResafaData, "resafa")
