"""Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012), one agent for every game.

Each iteration draws a fresh determinization of the acting seat's information (``view.determinize``: what
the seat cannot see resampled, fresh chance) and walks one tree shared by all determinizations: a node's
children are keyed by the decision and action taken there (whoever takes it), selection is UCB1 with
*availability* counts (a child's exploration term counts the iterations in which its action was legal,
not the parent's visits), and only children legal in the current determinization compete. Chance is the
engine's: it happens inside ``apply``. A leaf is expanded by one untried action, then a rollout (uniformly
random, the game's heuristic, or the game's cheap ``rollout_choice`` when it has one) runs to the end of
the game, or ``cutoff`` decisions when set, where a value is estimated from the seats' estimated scores.
Values are one number per seat in [0, 1] (a share of the win at the end; at a cut-off a softmax of
estimated scores, or with ``value=margin`` a sigmoid of each seat's margin over the best other seat), so
2-6 players and eliminations need nothing special. A solo game (one seat) is valued by a sigmoid of the
estimated score's gain over its estimate at the root. The move played is the root child visited most.

Options that are off by default (today's behaviour): ``forced=1`` makes decisions with one legal action no
tree level (they are applied on the way, so every expansion is a real choice); ``bias=W`` adds progressive
bias towards the game's heuristic (the heuristic's choice at a node, computed on the determinization that
first reaches it, is expanded first and gets ``W / (n + 1)`` on its UCB score); ``horizon=others`` makes the
cut-off count only the decisions of the seats other than the searching one (its own moves, such as a trade
offer made and withdrawn, then cannot push the others' replies past the cut-off: counting every decision,
a stalling line sees fewer of the others' moves before it is valued, and the search preferred it);
``repeat=1`` (games with a ``position_key``) never plays again an action the seat already played in a
position it cannot tell apart (same key), so a cycle that changes nothing (an offer made and withdrawn, a
failed vote called again) ends after at most one round per legal action; ``estimate=NAME`` values cut-offs
with one of the game's alternative estimates (Board Royale: ``items``, which also counts the items each seat
owns, saturates health and weighs escape points and Escape Sets more; ``fitted``, log-odds of winning from a
model fitted on games between heuristics, for ``value=softmax``, :mod:`.board_royale_value`).

Spec: ``mcts``, ``mcts:iters=400,rollout=heuristic``, ``mcts:seconds=0.5,cutoff=60``. An iteration budget
replays exactly for the same seed; a time budget depends on the machine's speed and load.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

import numpy as np

from .base import Seed
from .spec import AgentSpecError, Param
from .view import SeatView

VALUES = ("softmax", "margin")
HORIZONS = ("all", "others")
#: cut-off estimates by name (``estimate=NAME``): the default and every game's variants (``ESTIMATE_VARIANTS``;
#: a test keeps the two in step), so a misspelt name is a spec error before any game starts
ESTIMATE_NAMES = ("default", "items", "fitted")
#: with ``horizon=others`` a rollout still stops after this many times ``cutoff`` decisions in all
HORIZON_CAP = 4

#: game -> (``fn(state) -> list[float]``, scale): each seat's estimated final score at a cut-off, and a
#: typical margin between seats in those units (the softmax temperature at ``temp=1``)
ESTIMATES: dict[str, tuple[Callable[[Any], list[float]], float]] = {}
#: game -> name -> (fn, scale): a game's alternative cut-off estimates (``estimate=NAME``), for the games whose
#: heuristic module defines ``ESTIMATE_VARIANTS``
ESTIMATE_VARIANTS: dict[str, dict[str, tuple[Callable[[Any], list[float]], float]]] = {}
#: game -> ``fn(state, py: random.Random) -> action``: a cheap rollout policy (``rollout=fast``), for the games
#: whose heuristic module defines ``rollout_choice``; the others fall back to the heuristic
ROLLOUTS: dict[str, Callable[[Any, random.Random], int]] = {}
#: game -> ``fn(state, seat) -> hashable``: what the seat knows of the position, without turn counters
#: (``repeat=1``), for the games whose heuristic module defines ``position_key``
POSITION_KEYS: dict[str, Callable[[Any, int], Hashable]] = {}
#: ``repeat=1`` forgets the positions it saw once it holds this many
REPEAT_MEMORY = 10_000


class _Node:
    """An information-set node: visits, availability and the value sums of every seat."""

    __slots__ = ("avail", "children", "hint", "mover", "n", "w")

    def __init__(self, mover: int, num_players: int) -> None:
        self.mover = mover  # the seat whose action led here
        self.n = 0
        self.avail = 0
        self.w = [0.0] * num_players
        self.children: dict[int, _Node] = {}
        self.hint = -2  # the heuristic's action here (progressive bias); -2: not asked yet


class ISMCTSAgent:
    """Information-set MCTS over the seat's view (see the module docstring)."""

    name = "mcts"
    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param("iters", int, 300, "iterations per decision (when seconds is 0)", minimum=1),
        Param("seconds", float, 0.0, "time per decision instead of iterations (0: use iters)", minimum=0.0),
        Param("c", float, 0.7, "UCT exploration constant (values lie in [0, 1])", minimum=0.0),
        Param("rollout", str, "random", "rollout policy", choices=("random", "heuristic", "fast")),
        Param("cutoff", int, 0, "stop rollouts after this many decisions and estimate (0: play to the end)", minimum=0),
        Param("temp", float, 1.0, "softmax temperature of cut-off estimates, in units of the game's margin scale"),
        Param("value", str, "softmax", "cut-off value: softmax of estimates, or sigmoid of margins", choices=VALUES),
        Param("forced", bool, False, "decisions with one legal action are no tree level"),
        Param("bias", float, 0.0, "progressive bias weight towards the heuristic's choice (0: none)", minimum=0.0),
        Param("horizon", str, "all", "the cut-off counts every decision, or the other seats' only", choices=HORIZONS),
        Param("repeat", bool, False, "never replay an action in a position the seat cannot tell from an earlier one"),
        Param(
            "estimate",
            str,
            "default",
            "cut-off estimate: default, or a game's variant (board_royale: items, fitted)",
            choices=ESTIMATE_NAMES,
        ),
    )

    def __init__(
        self,
        seed: Seed = None,
        iters: int = 300,
        seconds: float = 0.0,
        c: float = 0.7,
        rollout: str = "random",
        cutoff: int = 0,
        temp: float = 1.0,
        value: str = "softmax",
        forced: bool = False,
        bias: float = 0.0,
        horizon: str = "all",
        repeat: bool = False,
        estimate: str = "default",
    ) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.iters, self.seconds, self.c = iters, seconds, c
        self.rollout, self.cutoff, self.temp = rollout, cutoff, temp
        self.value, self.forced, self.bias, self.horizon = value, forced, bias, horizon
        self.repeat, self.estimate = repeat, estimate
        self._played: dict[Hashable, set[int]] = {}  # repeat=1: position key -> actions played there
        self._heuristic: Any = None
        self._par = 0.0  # solo: the estimated score at the search's root
        self.last_iterations = 0  # iterations of the last search (for benchmarks)

    def check_game(self, game: str) -> None:
        """Raise :class:`AgentSpecError` if ``estimate`` names no cut-off estimate of ``game`` (``make_agent``
        calls it, so the spec fails before any game starts)."""
        variants = ESTIMATE_VARIANTS.get(game, {})
        if self.estimate != "default" and self.estimate not in variants:
            known = ", ".join(["default", *variants])
            raise AgentSpecError(f"mcts: {game} has no cut-off estimate {self.estimate!r}; it has: {known}")

    # --- the search --------------------------------------------------------------------------------------
    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        py = random.Random(int(self.rng.integers(2**63)))
        probe = view.determinize(self.rng)
        num_players, num_actions = probe.game.num_players, probe.game.num_actions
        policy = self._policy(view.game_name, py)
        self._hint = self._heuristic_agent(view.game_name).choose if self.bias > 0 else None
        estimate, scale = self._estimate(view.game_name, probe)
        scale *= self.temp
        self._par = estimate(probe)[0] if num_players == 1 else 0.0  # solo: the root's estimate is the bar
        root = _Node(view.seat, num_players)
        key_of = POSITION_KEYS.get(view.game_name) if self.repeat else None
        played = None  # repeat=1: the actions already played in this position (before the search moves probe)
        if key_of is not None:
            if len(self._played) >= REPEAT_MEMORY:
                self._played.clear()
            played = self._played.setdefault(key_of(probe, view.seat), set())
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        done = 0
        state = probe
        while True:
            self._iterate(root, state, py, policy, estimate, scale, num_players, num_actions)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.iters:
                break
            state = view.determinize(self.rng)
        self.last_iterations = done
        children = root.children
        candidates = legal
        if played is not None:
            candidates = [a for a in legal if a not in played] or legal
        best = max(candidates, key=lambda a: (children[a].n if a in children else -1, -a))
        if played is not None:
            played.add(int(best))
        return int(best)

    def _iterate(self, root, state, py, policy, estimate, scale, num_players, num_actions) -> None:
        node, path, c, bias, hint_of = root, [], self.c, self.bias, self._hint
        d = state.d
        # selection and expansion on the information-set tree
        while d.stack:
            legal = d.legal
            if self.forced and len(legal) == 1 and node is not root:
                state.apply(legal[0])
                continue
            step, mover = d.stack[-1][0], d.stack[-1][1]
            base = (step * num_players + mover) * num_actions if node is not root else 0
            children = node.children
            hint = -1
            if hint_of is not None:
                if node.hint == -2:
                    node.hint = hint_of(state) if len(legal) > 1 else -1
                hint = node.hint
            untried = []
            best, best_key, best_child = -1.0, -1, None
            for a in legal:
                child = children.get(base + a)
                if child is None:
                    untried.append(a)
                    continue
                child.avail += 1
                if untried:
                    continue
                score = child.w[mover] / child.n + c * math.sqrt(math.log(child.avail) / child.n)
                if a == hint:
                    score += bias / (child.n + 1)
                if score > best:
                    best, best_key, best_child = score, a, child
            if untried:
                a = hint if hint in untried else untried[int(py.random() * len(untried))]
                child = _Node(mover, num_players)
                child.avail = 1
                children[base + a] = child
                state.apply(a)
                path.append(child)
                break
            state.apply(best_key)
            node = best_child
            path.append(node)
        # rollout
        # the cut-off counts every decision, or (horizon=others) the other seats' only, capped in all
        cutoff, depth, steps = self.cutoff, 0, 0
        me = root.mover if self.horizon == "others" and num_players > 1 else None
        cap = HORIZON_CAP * cutoff if me is not None else cutoff
        while d.stack and not (cutoff and (depth >= cutoff or steps >= cap)):
            depth += d.stack[-1][1] != me
            state.apply(policy(state))
            steps += 1
        if num_players == 1:
            values = _solo_values(state, estimate, scale, self._par)
        elif not d.stack:
            values = _final_values(state, num_players)
        elif self.value == "margin":
            values = _margin_values(state, estimate, scale)
        else:
            values = _estimate_values(state, estimate, scale)
        for n in path:
            n.n += 1
            w = n.w
            for i in range(num_players):
                w[i] += values[i]

    def _estimate(self, game: str, probe: Any) -> tuple[Callable[[Any], list[float]], float]:
        if self.estimate != "default":
            self.check_game(game)  # an agent built directly, not by make_agent, is checked here
            return ESTIMATE_VARIANTS[game][self.estimate]
        return ESTIMATES.get(game, (_scores, 0.25 * float(probe.game.score_scale)))

    def _heuristic_agent(self, game: str) -> Any:
        if self._heuristic is None:
            from .registry import make_agent

            self._heuristic = make_agent("heuristic", game, seed=int(self.rng.integers(2**63)))
        return self._heuristic

    def _policy(self, game: str, py: random.Random) -> Callable[[Any], int]:
        if self.rollout == "fast" and game in ROLLOUTS:
            fast = ROLLOUTS[game]
            return lambda state: fast(state, py)
        if self.rollout in ("heuristic", "fast"):
            return self._heuristic_agent(game).choose

        def random_policy(state: Any) -> int:
            legal = state.d.legal
            return legal[int(py.random() * len(legal))]

        return random_policy

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds:g}" if self.seconds > 0 else f"iters={self.iters}"
        return (
            f"ISMCTSAgent({budget}, c={self.c:g}, rollout={self.rollout}, cutoff={self.cutoff}, value={self.value}, "
            f"forced={self.forced}, bias={self.bias:g}, horizon={self.horizon}, repeat={self.repeat}, "
            f"estimate={self.estimate}, seed={self.seed!r})"
        )


def _final_values(state: Any, num_players: int) -> list[float]:
    """A share of the win: 1/k to each of the k seats ranked 0, nothing to the others."""
    ranks = state.ranks()
    k = ranks.count(0)
    return [1.0 / k if r == 0 else 0.0 for r in ranks]


def _estimate_values(state: Any, estimate: Callable[[Any], list[float]], scale: float) -> list[float]:
    """A softmax of the seats' estimated scores (eliminated seats get nothing)."""
    est = estimate(state)
    out = state.eliminated()
    top = max(e for i, e in enumerate(est) if i not in out)
    weights = [0.0 if i in out else math.exp((e - top) / scale) for i, e in enumerate(est)]
    total = sum(weights)
    return [w / total for w in weights]


def _margin_values(state: Any, estimate: Callable[[Any], list[float]], scale: float) -> list[float]:
    """Each seat's sigmoid of its estimated margin over the best other seat (eliminated seats get nothing).

    With two seats this equals the softmax; with more, a seat is judged against its strongest rival only."""
    est = estimate(state)
    out = state.eliminated()
    alive = [i for i in range(len(est)) if i not in out]
    values = [0.0] * len(est)
    for i in alive:
        rival = max((est[j] for j in alive if j != i), default=est[i])
        values[i] = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, (rival - est[i]) / scale))))
    return values


def _solo_values(state: Any, estimate: Callable[[Any], list[float]], scale: float, par: float) -> list[float]:
    """One seat (a solo game has no rival to beat): a sigmoid of its estimated score over ``par``, the estimate
    at the search's root, so every gain counts whatever the level of the score (at the end of the game too:
    a win or loss against a fixed target would say nothing below or far above it)."""
    gain = estimate(state)[0] - par
    return [1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -gain / scale))))]


def _scores(state: Any) -> list[float]:
    return state.scores()


def _load_estimates() -> None:
    """Each game's cut-off estimate sits with its heuristic: ``estimate_scores(state)`` and ``ESTIMATE_SCALE``."""
    from . import board_royale_heuristic, concordia_heuristic, resafa_heuristic, seastead_heuristic

    for game, module in (
        ("seastead", seastead_heuristic),
        ("concordia", concordia_heuristic),
        ("board_royale", board_royale_heuristic),
        ("resafa", resafa_heuristic),
    ):
        ESTIMATES[game] = (module.estimate_scores, float(module.ESTIMATE_SCALE))
        if hasattr(module, "rollout_choice"):
            ROLLOUTS[game] = module.rollout_choice
        if hasattr(module, "ESTIMATE_VARIANTS"):
            ESTIMATE_VARIANTS[game] = dict(module.ESTIMATE_VARIANTS)
        if hasattr(module, "position_key"):
            POSITION_KEYS[game] = module.position_key


_load_estimates()

__all__ = ["ESTIMATES", "ESTIMATE_VARIANTS", "POSITION_KEYS", "ROLLOUTS", "ISMCTSAgent"]
