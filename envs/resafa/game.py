"""Resafa as a MeepleZoo engine: :class:`ResafaGame` (config) and :class:`ResafaState`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core import ConfigError, CorruptStateError, Game
from ..core.tasks import ArgsCheck, StackState, args_problem
from . import canals, observation, public_log, render, scoring, solo, turn
from .actions import NUM_ACTIONS
from .content import Action, Build, Choice, Convert, ExtraAction, Post, Trade, content
from .effects import EFFECTS, LISTS
from .geometry import CELLS, network, source_boxes
from .state import (
    BONUS_DECK_CARDS,
    CATEGORIES,
    CODEC,
    DECK_CARDS,
    LEVEL_WORKSHOPS,
    NO,
    NUM_ITEMS,
    POSTS_PER_CENTRE,
    SUPPLY_ITEMS,
    YELLOW0,
    ResafaData,
    S,
    setup,
)
from .steps import Step
from .trade import GOLD_PENDING

C = content()


class ResafaGame(Game):
    """Resafa for 1-4 players; 1 is the solo mode against Resafabot (solo.py, bot.py).

    Config: ``num_players`` 1, 2, 3 or 4 (default 2); ``advanced_setup`` (default False): the seed's advanced
    setup rule, every player may inspect the special cards returned to the box at setup (they become public in
    every observation, and ``determinize`` then keeps each face-down special deck's set, reshuffling its order).
    """

    name = "resafa"
    defaults: ClassVar[dict[str, Any]] = {"num_players": 2, "advanced_setup": False}

    def check_config(self, config: dict[str, Any]) -> dict[str, Any]:
        n = config["num_players"]
        if isinstance(n, bool) or not isinstance(n, int):
            raise ConfigError(f"resafa: num_players must be an integer 1-4, not {n!r}")
        if not 1 <= n <= 4:
            raise ConfigError(f"resafa: num_players must be 1 (solo against Resafabot), 2, 3 or 4, not {n}")
        if not isinstance(config["advanced_setup"], bool):
            raise ConfigError(f"resafa: advanced_setup must be True or False, not {config['advanced_setup']!r}")
        return config

    @property
    def num_players(self) -> int:
        return self.config["num_players"]

    num_actions = NUM_ACTIONS

    @property
    def observation_size(self) -> int:
        return observation.OBS_SIZE

    def observation_layout(self) -> dict[str, slice]:
        """The observation's named sections (:mod:`.observation`)."""
        return dict(observation.LAYOUT)

    @property
    def state_size(self) -> int:
        return observation.STATE_SIZE

    max_decisions = 6_000
    score_scale = 30.0

    def new_state(self, seed: int) -> ResafaState:
        d = setup(int(seed), self.num_players, self.config["advanced_setup"])
        if self.num_players == 1:
            solo.setup(d)
        s = ResafaState(self, d)
        s.refresh()
        return s

    def state_from_dict(self, data: dict[str, Any]) -> ResafaState:
        if isinstance(data, dict) and data.get("players") != self.num_players:
            raise CorruptStateError(f"resafa: saved state has players={data.get('players')!r}, not {self.num_players}")
        if isinstance(data, dict) and data.get("advanced") != int(self.config["advanced_setup"]):
            raise CorruptStateError(
                f"resafa: saved state has advanced={data.get('advanced')!r}, the config advanced_setup="
                f"{self.config['advanced_setup']}"
            )
        return ResafaState.load(self, data)


class ResafaState(StackState):
    """A Resafa position; the rules live in modules named after the rulebook (cards, workshops, canals ...)."""

    __slots__ = ()
    machine = turn.MACHINE
    codec = CODEC
    num_actions = NUM_ACTIONS

    def scores(self) -> list[float]:
        d = self.d
        k = len(CATEGORIES)
        if d.sheet:
            return [float(d.sheet[s * k + k - 1]) for s in range(d.players)]
        return [float(v) for v in d.vp]

    def ranks(self) -> list[int]:
        if self.d.players == 1:  # solo: "beating" Resafabot = reaching the designer's fair target (150)
            return [0 if self.scores()[0] >= solo.FAIR else 1]
        keys = [scoring.rank_key(self.d, s) for s in range(self.d.players)]
        return [sum(1 for k in keys if k > mine) for mine in keys]

    def adjudicated_ranks(self) -> list[int]:
        """A game stopped at its decision cap: each seat's total if the end scoring were done now (the VP track
        plus the end categories; rain still to come is not scored), then the seed's tiebreak (canal tiles);
        solo, reaching the fair target (150) with that total (docs/rules/resafa.md, "Stalling")."""
        d = self.d
        if d.sheet:
            return self.ranks()
        k = len(CATEGORIES)
        sheet = scoring.final_scoring(d)  # reads the position, changes nothing
        totals = [sheet[s * k + k - 1] for s in range(d.players)]
        if d.players == 1:
            return [0 if totals[0] >= solo.FAIR else 1]
        keys = [(totals[s], scoring.canals(d, s)) for s in range(d.players)]
        return [sum(1 for other in keys if other > mine) for mine in keys]

    def automa_score(self) -> float:
        """Solo: the score to beat. Resafabot scores nothing; the target is the designer's fair band (150)."""
        return float(solo.FAIR) if self.d.players == 1 else 0.0

    def verdict(self) -> str:
        """Solo: the designer's band the score reached (150 fair, 180 good, 200 very good, 220+ excellent)."""
        return solo.verdict(self.scores()[0]) if self.d.players == 1 else ""

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        return observation.observe(self.d, player, out)

    def state_vector(self, out: np.ndarray | None = None) -> np.ndarray:
        return observation.state_vector(self.d, out)

    def describe_action(self, action: int) -> str:
        return render.describe(self.d, action)

    def public_action_name(self, action: int, viewer: int | None) -> str:
        """The log's name for ``viewer``: a searched special card is named by the card, not its place."""
        return public_log.public_name(self.d, action, viewer)

    def automa_turns(self, before: StackState | None) -> list[str]:
        """Solo: Resafabot's turns since ``before`` (None: the setup), as its revealed solo cards show them."""
        return public_log.bot_turns(before.d if before is not None else None, self.d)

    def render(self) -> str:
        return render.render(self.d)

    def score_sheet(self) -> str:
        return render.score_sheet(self.d) if self.d.sheet else "(no final score yet)"

    def task_seats(self) -> int:
        """Solo: Resafabot is seat 1 of the tasks too (the water of its cube flows in FLOW_RUN tasks of seat 1)."""
        return 2 if self.game.num_players == 1 else self.game.num_players

    def keeps_legal(self, player: int) -> bool:
        """The pending decision's legal actions read only what its own seat sees
        (``tests/resafa/test_engine_fast.py``): kept when ``player`` is to act."""
        stack = self.d.stack
        return bool(stack) and stack[-1][1] == player

    def resample_hidden(self, player: int, rng: np.random.Generator | None) -> None:
        """Resample (or sort, ``rng`` None) what ``player`` cannot see: their own deck's order; the other seats'
        hands and decks together (sizes kept); the sack deck, the sack discard pile (shown as a count only) and
        the other seats' sack cards together; the workshop and bonus decks' orders; each face-down special deck
        (from its cards plus the box, unless ``player`` searched it or the advanced setup made the box public:
        then only its order); solo, the solo deck below its top card and Resafabot's canal deck."""
        d = self.d
        # ``arrange`` in place: sorted, or Generator.shuffle, which on a list makes the swaps ``permutation``
        # makes from the same draws (none for 0 or 1 items; see core.chance.arrange)
        # (a sorted pool's slices are sorted already: only shuffled ones are sorted again)
        shuffled = rng is not None
        order = rng.shuffle if shuffled else list.sort
        # in place: the record owns its lists (a clone copies every one)
        deck = d.deck[player]
        if len(deck) > 1:
            order(deck)
        others = [s for s in range(d.players) if s != player]
        hand = d.hand
        for s in others:
            pool = hand[s] + d.deck[s]
            if len(pool) > 1:
                order(pool)
            k = len(hand[s])
            hand[s], d.deck[s] = pool[:k], pool[k:]
            if shuffled:
                hand[s].sort()
        pool = d.sack_deck + d.sack_discard
        for s in others:
            pool += d.sack_hand[s]
        if len(pool) > 1:
            order(pool)
        for s in others:
            k = len(d.sack_hand[s])
            d.sack_hand[s], pool = pool[:k], pool[k:]
            if shuffled:
                d.sack_hand[s].sort()
        k = len(d.sack_discard)
        d.sack_discard, d.sack_deck = pool[:k], pool[k:]
        for decks in (d.ws_decks, d.bonus_decks):
            for x in decks:
                if len(x) > 1:
                    order(x)
        top = d.stack[-1] if d.stack else None
        pending_search = top[2] if top is not None and top[0] == Step.SEARCH_PICK and top[1] == player else NO
        known = -1 if d.advanced else d.spec_known[player]  # the decks whose box ``player`` knows (a bitmask)
        if pending_search != NO:
            known |= 1 << pending_search
        decks, boxes, ups = d.spec_decks, d.spec_box, d.spec_up
        for k, (cards, box, up) in enumerate(zip(decks, boxes, ups, strict=True)):
            if box and not (known >> k) & 1:  # the face-down cards and the box, together
                if up and cards:  # the face-up top card stays on top
                    n = len(cards) - 1
                    pool = cards[:n] + box
                    order(pool)
                    boxes[k] = pool[n:]
                    del pool[n:]
                    pool.append(cards[-1])
                    decks[k] = pool
                else:
                    n = len(cards)
                    pool = cards + box
                    order(pool)
                    decks[k], boxes[k] = pool[:n], pool[n:]
                if shuffled:
                    boxes[k].sort()
            elif len(cards) > 2 or (len(cards) == 2 and not up):  # more than one face-down card
                if up:
                    down = cards[:-1]
                    order(down)
                    down.append(cards[-1])
                    decks[k] = down
                else:
                    order(cards)
        if d.players == 1:
            solo.resample_hidden(d, rng)

    def validate(self) -> None:
        """Check component conservation and board consistency (raises CorruptStateError)."""
        validate(self.d)


def validate(d: ResafaData) -> None:
    """Raise CorruptStateError naming every rule the record breaks, in stages (each read only once the ones
    before hold): the player count, the sizes of the lists, the task steps and ids, then conservation of every
    piece and the consistency of the board, the turn and the solo pieces."""
    n = d.players
    _refuse([] if 1 <= n <= 4 else ["players"])
    net = network(n)
    boxes = net.rows * net.cols
    _refuse(_size_problems(d, n, boxes))
    # (the load checked the steps and seats first: kept for a state validated directly)
    _refuse([f"bad task {t}" for t in d.stack if not 0 <= t[0] < len(Step)] + _id_problems(d, n, boxes))
    _refuse(_goods_problems(d, n) + _card_problems(d, n) + _board_problems(d, n) + _progress_problems(d, n))


def _refuse(problems: list[str]) -> None:
    if problems:
        raise CorruptStateError("resafa: saved state breaks the rules: " + "; ".join(problems))


class _Problems(list):
    """What a record breaks, in the order found."""

    def need(self, ok: bool, what: str) -> None:
        if not ok:
            self.append(what)


def _seats(n: int) -> tuple[int, ...]:
    """What an owner entry may hold: nobody, a seat, or Resafabot in the solo game."""
    return (NO, *range(n), solo.BOT) if n == 1 else (NO, *range(n))


def _size_problems(d: ResafaData, n: int, boxes: int) -> list[str]:
    """Every list of the record has its size for ``n`` players on a network of ``boxes`` boxes."""
    sizes = {
        "coins": n, "vp": n, "store": n * NUM_ITEMS, "supply": NUM_ITEMS, "camel_at": n, "camel_item": n,
        "camel_load": n, "camel_step": n, "track": 4 * n, "hand": n, "deck": n, "played": n, "bonus_hand": n,
        "sack_hand": n, "spec_owner": len(C.specials), "spec_used": len(C.specials), "spec_round": len(C.specials),
        "spec_decks": 12, "spec_up": 12, "spec_box": 12, "spec_known": n, "ws_tile": n * CELLS,
        "ws_face": n * CELLS, "ws_rot": n * CELLS, "ws_decks": 2, "ws_display": 6, "g_orient": n * CELLS,
        "g_strips": n * CELLS, "g_tiles": 2 * n, "g_supply": 2, "gardens_done": n, "gate": n, "rows": 3 * n,
        "scarabs": n, "tokens": 2, "post_owner": len(C.centres) * POSTS_PER_CENTRE, "trade_tile": len(C.centres),
        "trade_side": len(C.centres), "canal_owner": boxes, "canal_design": boxes, "canal_side": boxes,
        "canal_placed": n * len(C.canal_tiles), "cbonus_at": boxes, "cbonus_owner": len(C.canal_bonus_tiles),
        "cbonus_used": len(C.canal_bonus_tiles), "cubes": len(source_boxes(n)), "cubes_taken": n,
        "bonus_decks": 8, "bonus_display": 12,
    }  # fmt: skip
    return [f"{name} must have {size} entries" for name, size in sizes.items() if len(getattr(d, name)) != size]


def _goods_problems(d: ResafaData, n: int) -> list[str]:
    """Items conserved (supply + storehouses + camels), camels within their capacity, track positions."""
    p = _Problems()
    p.need(all(x >= 0 for x in d.coins + d.store + d.supply + d.camel_load + d.g_supply + d.tokens), "negative counts")
    for k in range(NUM_ITEMS):
        total = d.supply[k] + sum(d.store[s * NUM_ITEMS + k] for s in range(n))
        total += sum(d.camel_load[s] for s in range(n) if d.camel_item[s] == k)
        p.need(total == SUPPLY_ITEMS[k], f"item {k}: {total} in the game, not {SUPPLY_ITEMS[k]}")
    p.need(all(x in (NO, 0, 1, 2, 3) for x in d.camel_item), "camel items")
    p.need(all((d.camel_item[s] == NO) == (d.camel_load[s] == 0) for s in range(n)), "camel item without load")
    p.need(all(d.camel_load[s] <= C.camel_track[d.camel_step[s]] for s in range(n)), "camel over capacity")
    p.need(all(0 <= x < len(C.centres) for x in d.camel_at), "camel nodes")
    p.need(all(0 <= x <= 10 for x in d.track), "track positions")
    return p


def _card_problems(d: ResafaData, n: int) -> list[str]:
    """Action, special, bonus and sack cards: each in one place, each seat's 6 action cards its own."""
    p = _Problems()
    seats = _seats(n)
    # action cards: each seat holds exactly 6, distinct, from its set or its yellow cards
    for s in range(n):
        cards = d.hand[s] + d.deck[s] + d.played[s]
        p.need(len(cards) == 6 and len(set(cards)) == 6, f"P{s} action cards {sorted(cards)}")
        p.need(len(d.hand[s]) <= 3, f"P{s} has more than 3 action cards in hand")
        for c in cards:
            p.need(
                (0 <= c < YELLOW0)
                or (
                    YELLOW0 <= c < YELLOW0 + len(C.specials)
                    and d.spec_owner[c - YELLOW0] == s
                    and C.specials[c - YELLOW0].halves is not None  # a yellow card: an action card
                ),
                f"P{s} action card {c}",
            )
    starting = sorted(c for s in range(n) for c in d.hand[s] + d.deck[s] + d.played[s] if c < YELLOW0)
    p.need(len(starting) == len(set(starting)), "a starting card is held twice")
    # special cards: each in one place
    for k, ids in enumerate(DECK_CARDS):
        owned = [i for i in ids if d.spec_owner[i] != NO]
        where = sorted(d.spec_decks[k] + d.spec_box[k] + owned)
        p.need(where == sorted(ids), f"special deck {k}: cards not each in one place")
        p.need(d.spec_up[k] in (0, 1) and (d.spec_up[k] == 0 or d.spec_decks[k]), f"special deck {k}: face-up flag")
    p.need(all(x in seats for x in d.spec_owner), "special owners")
    p.need(all(x in (0, 1) for x in d.spec_used), "special used flags")
    # bonus and sack cards
    for k, ids in enumerate(BONUS_DECK_CARDS):
        p.need(set(d.bonus_decks[k]) <= set(ids), f"bonus deck {k} holds foreign cards")
    held = [c for s in range(n) for c in d.bonus_hand[s]]
    shown = [c for c in d.bonus_display if c != NO]
    everything = held + shown + [c for deck in d.bonus_decks for c in deck]
    p.need(len(everything) == len(set(everything)), "a bonus card is in two places")
    p.need(all(c == NO or C.bonus_cards[c].colour == i // 3 for i, c in enumerate(d.bonus_display)), "display colours")
    sacks = sorted(d.sack_deck + d.sack_discard + [c for s in range(n) for c in d.sack_hand[s]])
    p.need(sacks == list(range(len(C.sack_cards))), "sack cards are not each in one place")
    return p


def _board_problems(d: ResafaData, n: int) -> list[str]:
    """Workshops, gardens, merchant tokens, owners on the board, canal tiles and water cubes."""
    p = _Problems()
    seats = _seats(n)
    # workshops
    on_board = [t for t in d.ws_tile if t != NO]
    shown = [t for t in d.ws_display if t != NO]
    tiles = sorted(on_board + shown + d.ws_decks[0] + d.ws_decks[1])
    p.need(len(tiles) == len(set(tiles)), "a workshop tile is in two places")
    p.need(set(d.ws_decks[0]) <= set(LEVEL_WORKSHOPS[0]) and set(d.ws_decks[1]) <= set(LEVEL_WORKSHOPS[1]), "ws decks")
    p.need(all(x in (0, 1) for x in d.ws_face) and all(0 <= x < 4 for x in d.ws_rot), "workshop faces / rotations")
    p.need(all(x in (NO, 0, 1) for x in d.g_orient) and all(0 <= x <= 7 for x in d.g_strips), "garden squares")
    p.need(all((d.g_orient[i] == NO) == (d.g_strips[i] == 0) for i in range(n * CELLS)), "garden orientation")
    p.need(
        d.g_supply[0] + sum(d.g_tiles[0::2]) == C.supply.garden_small
        and d.g_supply[1] + sum(d.g_tiles[1::2]) == C.supply.garden_large,
        "garden tiles total",
    )
    p.need(all(0 <= g <= 2 for g in d.gate) and all(0 <= r <= 3 for r in d.rows), "merchant tokens")
    placed = sum(d.gate) + sum(d.rows)
    p.need(d.tokens[0] + d.tokens[1] + placed == C.supply.square_tokens + C.supply.scarab_tokens, "token total")
    p.need(all(x in seats for x in d.post_owner + d.canal_owner + d.cbonus_owner), "seat numbers on the board")
    for s in range(n):
        p.need(d.canal_owner.count(s) == sum(d.canal_placed[s * 7 : s * 7 + 7]), f"P{s} canal tiles")
    p.need(all(x in (0, 1, 2) for x in d.cubes), "water cubes")
    p.need(n == 1 or sum(d.cubes_taken) == d.cubes.count(2), "water cubes taken")
    return p


def _progress_problems(d: ResafaData, n: int) -> list[str]:
    """Round, turn and task stack while the game runs, the score sheet once it is over, the solo pieces."""
    p = _Problems()
    p.need(1 <= d.round_no <= 7 and 0 <= d.first < n and 0 <= d.active < n, "round / seats")
    p.need(bool(d.stack) != bool(d.sheet), "the game is over exactly when the score sheet is filled")
    p.need((d.round_no == 7) == bool(d.sheet), "the score sheet is filled exactly after round 6")
    p.need(all(d.canal_owner[box] != NO for box, c in zip(source_boxes(n), d.cubes, strict=True) if c == 1), "cubes")
    if d.stack:
        p += _turn_problems(d, n) + _task_problems(d)
    p.need(len(d.sheet) in (0, n * len(CATEGORIES)), "score sheet size")
    p.need(d.advanced in (0, 1), "advanced setup flag")
    return p + solo.problems(d)


def _id_problems(d: ResafaData, n: int, boxes: int) -> list[str]:
    """Ids and small numbers out of the range the rules, the observation and the content tables read them in."""
    out = []

    def need(ok: bool, what: str) -> None:
        if not ok:
            out.append(what)

    tiles, designs = range(len(C.workshops)), range(len(C.canal_tiles))
    yellow = range(YELLOW0, YELLOW0 + len(C.specials))
    need(
        d.card == NO or 0 <= d.card < YELLOW0 or (d.card in yellow and C.specials[d.card - YELLOW0].halves is not None),
        "card is not an action card",
    )
    need(
        d.half in (NO, 0, 1) and d.main in (NO, *range(len(Action))) and d.colour in (NO, 0, 1, 2, 3),
        "half / main / colour",
    )
    need(all(0 <= x < len(C.camel_track) for x in d.camel_step), "camel steps")
    need(all(t == NO or t in tiles for t in d.ws_tile), "workshop tile ids")
    level = (LEVEL_WORKSHOPS[0],) * 3 + (LEVEL_WORKSHOPS[1],) * 3
    need(all(t == NO or t in level[i] for i, t in enumerate(d.ws_display)), "workshop display")
    need(all(c == NO or 0 <= c < len(C.bonus_cards) for c in d.bonus_display), "bonus display card ids")
    need(all(0 <= c < len(C.bonus_cards) for hand in d.bonus_hand for c in hand), "bonus card ids in hand")
    need(
        all(
            (t == NO) == (C.centres[node].colour == "city")
            and (t == NO or (0 <= t < len(C.trading_tiles) and C.trading_tiles[t].colour == C.centres[node].colour))
            for node, t in enumerate(d.trade_tile)
        )
        and len(set(d.trade_tile)) == len(d.trade_tile),
        "trading tiles",
    )
    need(all(x in (0, 1) for x in d.trade_side), "trading tile sides")
    need(
        all(
            (o == NO or t != NO) and (t == NO or t in designs)  # an owned box holds a tile
            for o, t in zip(d.canal_owner, d.canal_design, strict=True)
        ),
        "canal tile designs",
    )
    need(all(x in (0, 1) for x in d.canal_side), "canal tile sides")
    if not out:  # a tile printed on one side only has no back to lie on
        need(
            all(
                t == NO or canals.face(t, side) is not None
                for t, side in zip(d.canal_design, d.canal_side, strict=True)
            ),
            "canal tile sides",
        )
    bonus = [t for t in d.cbonus_at if t != NO]
    need(all(0 <= t < len(C.canal_bonus_tiles) for t in bonus) and len(set(bonus)) == len(bonus), "canal bonus tiles")
    need(all(x >= 0 for x in d.scarabs + d.gardens_done + d.cubes_taken + d.vp), "negative scores")
    return out


def _turn_problems(d: ResafaData, n: int) -> list[str]:
    """The turn order while the game runs: ``turns`` of this round taken clockwise from ``first``, and each seat's
    played cards one a turn it took this round (the running turn included once its card is played), plus the
    previous round's in rounds 2, 4 and 6 (the action cards are reshuffled after every even round)."""
    rounds = n * S.cards_per_round
    ending = any(t[0] == Step.END_ROUND for t in d.stack)
    if not (d.turns == rounds if ending else 0 <= d.turns < rounds):
        return [f"turns {d.turns}: not the turns of this round"]
    if not ending and d.active != (d.first + d.turns) % n:
        return [f"active {d.active} is not the seat whose turn it is after {d.turns} turns from first {d.first}"]
    playing = d.card != NO  # the active seat played its card; its turn ends at END_TURN
    out = []
    for s in range(n):
        taken = d.turns // n + ((s - d.first) % n < d.turns % n) + (playing and s == d.active)
        if len(d.played[s]) != (d.round_no - 1) % 2 * S.cards_per_round + taken:
            out.append(f"played[{s}] holds {len(d.played[s])} cards, not one a turn taken (turns {d.turns})")
    return out


#: steps whose ``a`` and ``b`` are both 0
_PLAIN_TASKS = frozenset(
    {Step.PLAY_CARD, Step.ORIENT, Step.CARD_MAIN, Step.CARD_COLOUR, Step.ORDER, Step.TRACK_PICK, Step.LOAD_ITEM}
    | {Step.HAND_LIMIT, Step.DRAW, Step.END_TURN, Step.RAIN, Step.END_ROUND}
)
#: steps only ever at the bottom of the stack (a turn's start and end, a round's end)
_BOTTOM = frozenset({Step.PLAY_CARD, Step.END_TURN, Step.END_ROUND})
#: the later parts of one paid choice (a tile's face, cell and rotation, a garden's square and position, a canal
#: tile's box, a searched card): pushed and decided at once (no card may be used first), so only ever on top
_TOP_ONLY = frozenset(
    {Step.WS_FACE, Step.WS_CELL, Step.WS_ROT, Step.GARDEN_SQUARE, Step.GARDEN_POS, Step.CANAL_BOX} | {Step.SEARCH_PICK}
)


def _task_problems(d: ResafaData) -> list[str]:
    """What is wrong with the task stack of a running game (each task 4 ints with a known step): the turn's or
    the round's task at the bottom only (END_TURN exactly while a card is played), the active seat's tasks only
    (but in the rain), the later parts of a choice on top only, each task's ``a`` and ``b`` as its step reads
    them (:data:`TASK_ARGS`)."""
    stack = d.stack
    out = []
    if stack[0][0] not in _BOTTOM or stack[0][1] != d.active or (stack[0][0] == Step.END_TURN) != (d.card != NO):
        out.append(f"the bottom task {stack[0]} is not the active seat's turn (its end once its card is played)")
    if not any(t[0] == Step.END_ROUND for t in stack) and any(t[1] != d.active for t in stack):
        out.append("a task of another seat than the active one during a turn")  # only the rain asks others
    for i, t in enumerate(stack):
        if (t[0] in _BOTTOM and i > 0) or (t[0] in _TOP_ONLY and i < len(stack) - 1):
            out.append(f"bad task {t}")
    wrong = args_problem(d, TASK_ARGS, lambda s: Step(s).name)
    return out if wrong is None else [*out, wrong]


def _effect(eid: int, kinds: tuple[type, ...]) -> bool:
    """``eid`` is the id of a printed effect of one of ``kinds``."""
    return 0 <= eid < len(EFFECTS) and isinstance(EFFECTS[eid], kinds)


def _discount(code: int) -> bool:
    """A Build or Post effect's discount code: 0 none, else the effect id + 1."""
    return code == 0 or _effect(code - 1, (Build, Post))


def _unplaced(d: ResafaData, tile: int) -> bool:
    """The workshop tile taken from the display is in no other place (a tile, the display, a deck)."""
    return 0 <= tile < len(C.workshops) and tile not in {*d.ws_tile, *d.ws_display, *d.ws_decks[0], *d.ws_decks[1]}


def _flow(d: ResafaData, s: int, a: int, b: int) -> bool:
    """A FLOW task: ``a`` a canal box, ``b`` a bitmask of boxes."""
    net = network(d.players)
    boxes = net.rows * net.cols
    return 0 <= a < boxes and 0 <= b < 1 << boxes


def _canal_box(d: ResafaData, s: int, a: int, b: int) -> bool:
    """A CANAL_BOX task: ``a`` = tile * 2 + side, a tile of the seat's not yet placed, with that side."""
    tiles = len(C.canal_tiles)
    return (
        0 <= a < 2 * tiles
        and b == 0
        and canals.face(a // 2, a % 2) is not None
        and s < d.players
        and d.canal_placed[s * tiles + a // 2] == 0
    )


#: per step (:func:`~meeplezoo.envs.core.tasks.args_problem`), the ``a`` and ``b`` it reads; the steps of
#: :data:`_PLAIN_TASKS` take none, and the others not listed (PRODUCE's bit fields, MERCHANT_ROW, BOT_TURN)
#: are read through tables that bound them
TASK_ARGS: dict[int, ArgsCheck | None] = {
    Step.CHOICE: lambda d, s, a, b: _effect(a, (Choice,)) and b == 0,
    Step.CONVERT: lambda d, s, a, b: _effect(a, (Convert,)) and b >= 0,
    Step.BUILD_OFFER: lambda d, s, a, b: _effect(a, (Build, Trade, Post)) and b == 0,
    Step.EXTRA_ACTION: lambda d, s, a, b: _effect(a, (ExtraAction,)) and b == 0,
    **dict.fromkeys((Step.WS_PICK, Step.CANAL_PICK), lambda d, s, a, b: a == 0 and _discount(b)),
    Step.GARDEN_SIZE: lambda d, s, a, b: a in (1, 2, 3) and _discount(b),
    Step.POST_BOX: lambda d, s, a, b: _discount(a) and b in (0, 1),
    **dict.fromkeys((Step.COLOUR_OPT, Step.BONUS_PICK), lambda d, s, a, b: a in (NO, 0, 1, 2, 3) and b == 0),
    **dict.fromkeys((Step.STEP, Step.COLOUR_ACTION), lambda d, s, a, b: a in (0, 1, 2, 3) and b == 0),
    **dict.fromkeys((Step.SPECIAL, Step.SEARCH_PICK), lambda d, s, a, b: 0 <= a < len(DECK_CARDS) and b == 0),
    Step.MAIN_ACTION: lambda d, s, a, b: 0 <= a < len(Action) and b in (0, 1, 2),
    Step.WS_FACE: lambda d, s, a, b: _unplaced(d, a) and b == 0,
    Step.WS_CELL: lambda d, s, a, b: _unplaced(d, a) and b in (0, 1),
    Step.WS_ROT: lambda d, s, a, b: 0 <= a < CELLS and b == 0,
    Step.GARDEN_SQUARE: lambda d, s, a, b: a in (0, 1) and b == 0,
    Step.GARDEN_POS: lambda d, s, a, b: a in (0, 1) and 0 <= b < CELLS,
    Step.CANAL_BOX: _canal_box,
    Step.LOAD_COUNT: lambda d, s, a, b: 0 <= a < NUM_ITEMS and b == 0,
    Step.DEAL: lambda d, s, a, b: 0 <= a < len(C.centres) and b == 0,
    # b = node (+ GOLD_PENDING while the gold bonus waits)
    Step.DEAL_COUNT: lambda d, s, a, b: (
        a in (0, 1) and 0 <= b % GOLD_PENDING < len(C.centres) and b // GOLD_PENDING in (0, 1)
    ),
    **dict.fromkeys((Step.FLOW, Step.FLOW_RUN), _flow),
    Step.TRADE_MOVE: lambda d, s, a, b: a >= 0 and b == 0,
    # a = printed effect list, b = its next effect
    Step.EFFECTS: lambda d, s, a, b: 0 <= a < len(LISTS) and 0 <= b < len(LISTS[a]),
}
TASK_ARGS |= {s: None for s in Step if s not in TASK_ARGS and s not in _PLAIN_TASKS}
