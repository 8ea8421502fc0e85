"""Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012), one agent for every game.

Each iteration draws a fresh determinization of the acting seat's information (``view.determinize``: what
the seat cannot see resampled, fresh chance) and walks one tree shared by all determinizations: a node's
children are keyed by the decision and action taken there (whoever takes it), selection is UCB1 with
*availability* counts (a child's exploration term counts the iterations in which its action was legal,
not the parent's visits), and only children legal in the current determinization compete. Chance is the
engine's: it happens inside ``apply``. A leaf is expanded by one untried action, then a rollout (uniformly
random, the game's heuristic, or the game's cheap rollout policy when it has one) runs to the end of
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
failed vote called again) ends after at most one round per legal action (refused, before any game, for a
game without a key); ``estimate=NAME`` values cut-offs with one of the game's alternative estimates (its
search hooks' ``variants``; checked against the game when the agent is made).

What the search asks of a game comes from its manifest (:func:`search_hooks`: the
:class:`~meeplezoo.envs.core.manifest.SearchHooks` named there): the cut-off estimate and its scale, the cheap
rollout policy, the position key, the heuristic agent. A game that ships none is valued by the engine's
``scores()`` at a cut-off. The search itself talks to a state through the engine protocol only
(:class:`~meeplezoo.envs.core.engine.State`: ``is_terminal``, ``current_player``, ``pending``,
``legal_order``, ``apply``, ``ranks``, ``scores``, ``eliminated``); a tree node's children are keyed by the
pending decision's name, the seat to act and the action.

Spec: ``mcts``, ``mcts:iters=400,rollout=heuristic``, ``mcts:seconds=0.5,cutoff=60``. An iteration budget
replays exactly for the same seed; a time budget depends on the machine's speed and load.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from .. import games
from ..envs.core.manifest import SearchHooks, load
from .base import Seed
from .spec import AgentSpecError, Param, bind_keywords
from .view import SeatView

VALUES = ("softmax", "margin")
HORIZONS = ("all", "others")
#: the cut-off estimate every game has (its hooks' ``estimate``, else the engine's scores)
DEFAULT_ESTIMATE = "default"
#: with ``horizon=others`` a rollout still stops after this many times ``cutoff`` decisions in all
HORIZON_CAP = 4
#: ``repeat=1`` forgets the positions it saw once it holds this many
REPEAT_MEMORY = 10_000


class RepeatMemory:
    """``repeat=1``: the moves a seat made in each position it cannot tell apart (the game's position key), so a
    search can leave them out; forgets every position once it holds ``REPEAT_MEMORY`` of them."""

    def __init__(self) -> None:
        self._made: dict[Hashable, set[int]] = {}

    def made(self, key: Hashable) -> set[int]:
        """The moves made in the position keyed ``key`` (the set to add the next move to)."""
        if len(self._made) >= REPEAT_MEMORY:
            self._made.clear()
        return self._made.setdefault(key, set())


def fresh_moves(legal: Sequence[int], made: set[int]) -> list[int]:
    """The legal moves not yet made in this position, or all of them once every one was (the choice is free again)."""
    return [a for a in legal if a not in made] or list(legal)


#: what the search asks of a game that ships no hooks (or that the registry does not know)
NO_HOOKS = SearchHooks()

#: ``fn(state) -> list[float]``: each seat's estimated final score at a cut-off
Estimate = Callable[[Any], list[float]]


def search_hooks(game: str) -> SearchHooks:
    """What IS-MCTS asks of ``game``: the :class:`SearchHooks` its manifest names (``search``), or
    :data:`NO_HOOKS` (the engine's scores at a cut-off) for a game that names none or that is not registered."""
    try:
        ref = games.manifest(game).search
    except games.UnknownGameError:
        return NO_HOOKS
    if ref is None:
        return NO_HOOKS
    hooks = load(ref)
    if not isinstance(hooks, SearchHooks):
        raise TypeError(f"{game}: the manifest's search {ref} is a {type(hooks).__name__}, not a SearchHooks")
    return hooks


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
    """Information-set MCTS over the seat's view (see the module docstring).

    Made as ``ISMCTSAgent(seed, **params)``: the parameters are :attr:`PARAMS` (their defaults declared there
    only), each an attribute of the agent."""

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
        Param("estimate", str, DEFAULT_ESTIMATE, "cut-off estimate: default, or one of the game's variants by name"),
    )
    iters: int
    seconds: float
    c: float
    rollout: str
    cutoff: int
    temp: float
    value: str
    forced: bool
    bias: float
    horizon: str
    repeat: bool
    estimate: str

    def __init__(self, seed: Seed = None, **params: Any) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        for key, value in bind_keywords(self.name, self.PARAMS, params).items():
            setattr(self, key, value)
        self._played = RepeatMemory()  # repeat=1: the actions played in each position
        self._heuristic: Any = None
        self._hint: Callable[[Any], int] | None = None  # bias > 0: the heuristic's choice of a state
        self._hooks: tuple[str, SearchHooks] | None = None  # (game, its hooks), looked up when first seen
        self._decisions: dict[str, int] = {}  # a pending decision's name -> its number in tree keys
        self._par = 0.0  # solo: the estimated score at the search's root
        self.last_iterations = 0  # iterations of the last search (for benchmarks)
        self._last_visits: np.ndarray | None = None  # the root's visit counts of the last search, over every action

    def check_game(self, game: str) -> None:
        """Raise :class:`AgentSpecError` if ``game`` lacks what the parameters ask of it: the cut-off estimate
        ``estimate`` names, or the heuristic agent that ``rollout=heuristic`` (``fast`` without the game's cheap
        rollout) and ``bias`` play, or the position key ``repeat`` tells positions apart by. ``make_agent`` calls
        it, so the spec fails before any game starts."""
        hooks = self._game_hooks(game)
        self._check_estimate(game, hooks)
        uses = [f"rollout={self.rollout}"] if plays_heuristic(self.rollout, hooks) else []
        uses += ["bias"] if self.bias > 0 else []
        require_heuristic(self.name, game, hooks, uses)
        if self.repeat:
            require_position_key(self.name, game, hooks)

    def _check_estimate(self, game: str, hooks: SearchHooks) -> None:
        """Raise :class:`AgentSpecError` if ``estimate`` names none of the game's cut-off estimates."""
        require_estimate(self.name, game, hooks, self.estimate)

    def _game_hooks(self, game: str) -> SearchHooks:
        """The search hooks of ``game``, looked up once per game the agent meets."""
        if self._hooks is None or self._hooks[0] != game:
            self._hooks = (game, search_hooks(game))
        return self._hooks[1]

    # --- the search --------------------------------------------------------------------------------------
    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            self.last_iterations = 0
            self._last_visits = None
            return legal[0]
        game = view.game_name
        hooks = self._game_hooks(game)
        py = random.Random(int(self.rng.integers(2**63)))
        probe = view.determinize(self.rng)
        num_players, num_actions = probe.game.num_players, probe.game.num_actions
        policy = self._policy(game, hooks, py)
        self._hint = self._heuristic_agent(game, hooks).choose if self.bias > 0 else None
        estimate, scale = self._estimate(game, hooks, probe)
        scale *= self.temp
        self._par = estimate(probe)[0] if num_players == 1 else 0.0  # solo: the root's estimate is the bar
        root = _Node(view.seat, num_players)
        key_of = hooks.position_key if self.repeat else None
        played = None  # repeat=1: the actions already played in this position (before the search moves probe)
        if key_of is not None:
            played = self._played.made(key_of(probe, view.seat))
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
        visits = np.zeros(num_actions, np.float32)
        for a in legal:
            if a in children:
                visits[a] = children[a].n
        self._last_visits = visits
        candidates = fresh_moves(legal, played) if played is not None else legal
        best = max(candidates, key=lambda a: (children[a].n if a in children else -1, -a))
        if played is not None:
            played.add(int(best))
        return int(best)

    def search_distribution(self) -> np.ndarray | None:
        """The root's visit shares of the last search, over the flat action space (zero off its legal actions), or
        None when the last decision had one legal action. What a distilling learner fits (the az trainer's warm
        start with ``warm_soft``): the search's whole judgement, not only its move."""
        return visit_shares(self._last_visits)

    def _iterate(self, root, state, py, policy, estimate, scale, num_players, num_actions) -> None:
        path = self._descend(root, state, py, num_players, num_actions)
        # rollout: the cut-off counts every decision, or (horizon=others) the other seats' only, capped in all
        cutoff, depth, steps = self.cutoff, 0, 0
        me = root.mover if self.horizon == "others" and num_players > 1 else None
        cap = HORIZON_CAP * cutoff if me is not None else cutoff
        while not state.is_terminal() and not (cutoff and (depth >= cutoff or steps >= cap)):
            depth += 1 if me is None else state.current_player() != me
            state.apply(policy(state))
            steps += 1
        if num_players == 1:
            values = _solo_values(state, estimate, scale, self._par)
        elif state.is_terminal():
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

    def _descend(self, root: _Node, state: Any, py: random.Random, num_players: int, num_actions: int) -> list:
        """Selection and expansion on the information-set tree: the nodes walked, the one expanded last."""
        node, path, c, bias, hint_of, decisions = root, [], self.c, self.bias, self._hint, self._decisions
        while not state.is_terminal():
            legal = state.legal_order()
            if self.forced and len(legal) == 1 and node is not root:
                state.apply(legal[0])
                continue
            mover = state.current_player()
            base = 0
            if node is not root:  # below the root a child is keyed by (decision, mover, action)
                name = state.pending()
                step = decisions.get(name)
                if step is None:
                    step = decisions[name] = len(decisions)
                base = (step * num_players + mover) * num_actions
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
        return path

    def _estimate(self, game: str, hooks: SearchHooks, probe: Any) -> tuple[Estimate, float]:
        if self.estimate != DEFAULT_ESTIMATE:
            self._check_estimate(game, hooks)  # an agent built directly, not by make_agent, is checked here
            fn, scale = hooks.variants[self.estimate]
            return fn, float(scale)
        if hooks.estimate is not None:
            return hooks.estimate, float(hooks.scale)
        return _scores, 0.25 * float(probe.game.score_scale)

    def _heuristic_agent(self, game: str, hooks: SearchHooks) -> Any:
        """The game's heuristic (its hooks name it), whose ``choose(state)`` guides rollouts and the bias."""
        if self._heuristic is None:
            from .registry import make_agent

            self._heuristic = make_agent(hooks.heuristic, game, seed=int(self.rng.integers(2**63)))
        return self._heuristic

    def _policy(self, game: str, hooks: SearchHooks, py: random.Random) -> Callable[[Any], int]:
        return rollout_policy(self.rollout, hooks, py, lambda: self._heuristic_agent(game, hooks))

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds:g}" if self.seconds > 0 else f"iters={self.iters}"
        return (
            f"ISMCTSAgent({budget}, c={self.c:g}, rollout={self.rollout}, cutoff={self.cutoff}, value={self.value}, "
            f"forced={self.forced}, bias={self.bias:g}, horizon={self.horizon}, repeat={self.repeat}, "
            f"estimate={self.estimate}, seed={self.seed!r})"
        )


def require_named(agent: str, game: str, param: str, name: str, default: str, names: Iterable[str]) -> None:
    """Raise :class:`AgentSpecError` (one line naming the choices) if ``name``, the value of the agent's ``param``,
    is neither ``default`` nor one of ``game``'s ``names`` (its hooks' alternatives)."""
    names = tuple(names)
    if name != default and name not in names:
        raise Param(param, str, default, choices=(default, *names)).error(f"agent {agent!r} for {game}", name)


def require_estimate(agent: str, game: str, hooks: SearchHooks, name: str) -> None:
    """:func:`require_named` for the cut-off estimate: the default or one of the hooks' ``variants``."""
    require_named(agent, game, "estimate", name, DEFAULT_ESTIMATE, hooks.variants)


def require_position_key(agent: str, game: str, hooks: SearchHooks) -> Callable[[Any, int], Hashable]:
    """``game``'s position key (what ``repeat=1`` tells positions apart by), or a one-line :class:`AgentSpecError`
    for a game that gives none."""
    if hooks.position_key is None:
        raise AgentSpecError(f"{agent}: repeat=1 tells positions apart by the game's position key, which {game} lacks")
    return hooks.position_key


def plays_heuristic(rollout: str, hooks: SearchHooks) -> bool:
    """Whether rollout policy ``rollout`` plays the game's heuristic agent (``fast`` does when the game ships no
    cheap rollout policy)."""
    return rollout == "heuristic" or (rollout == "fast" and hooks.rollout is None)


def require_heuristic(agent: str, game: str, hooks: SearchHooks, uses: list[str]) -> None:
    """Raise a one-line :class:`AgentSpecError` if ``uses`` (the parameters of ``agent`` that play the game's
    heuristic) is not empty and ``game`` has no agent by the name its hooks give."""
    if not uses:
        return
    from .registry import available_agents

    if hooks.heuristic not in available_agents(game):
        raise AgentSpecError(
            f"agent {agent!r} for {game}: {' and '.join(uses)} needs the game's {hooks.heuristic!r} agent, and "
            f"{game} has none"
        )


def rollout_policy(
    rollout: str, hooks: SearchHooks, py: random.Random, heuristic: Callable[[], Any]
) -> Callable[[Any], int]:
    """``policy(state) -> action`` for rollout policy ``rollout``: ``random`` (uniform over the legal actions, drawn
    from ``py``), ``heuristic`` (``heuristic()``'s agent's ``choose``) or ``fast`` (the game's cheap rollout policy,
    else the heuristic's)."""
    fast = hooks.rollout
    if rollout == "fast" and fast is not None:
        return lambda state: fast(state, py)
    if plays_heuristic(rollout, hooks):
        return heuristic().choose

    def random_policy(state: Any) -> int:
        legal = state.legal_order()
        return legal[int(py.random() * len(legal))]

    return random_policy


def visit_shares(visits: np.ndarray | None) -> np.ndarray | None:
    """A search's root visit counts as float32 shares summing to 1 (None stays None: no search was made); what a
    search agent's ``search_distribution`` gives (``mcts`` and ``az``)."""
    if visits is None:
        return None
    return (visits / float(visits.sum())).astype(np.float32)


def _final_values(state: Any, num_players: int) -> list[float]:
    """A share of the win: 1/k to each of the k seats ranked 0, nothing to the others."""
    ranks = state.ranks()
    k = ranks.count(0)
    return [1.0 / k if r == 0 else 0.0 for r in ranks]


def _estimate_values(state: Any, estimate: Estimate, scale: float) -> list[float]:
    """A softmax of the seats' estimated scores (eliminated seats get nothing)."""
    est = estimate(state)
    out = state.eliminated()
    top = max(e for i, e in enumerate(est) if i not in out)
    weights = [0.0 if i in out else math.exp((e - top) / scale) for i, e in enumerate(est)]
    total = sum(weights)
    return [w / total for w in weights]


def _margin_values(state: Any, estimate: Estimate, scale: float) -> list[float]:
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


def _solo_values(state: Any, estimate: Estimate, scale: float, par: float) -> list[float]:
    """One seat (a solo game has no rival to beat): a sigmoid of its estimated score over ``par``, the estimate
    at the search's root, so every gain counts whatever the level of the score (at the end of the game too:
    a win or loss against a fixed target would say nothing below or far above it)."""
    gain = estimate(state)[0] - par
    return [1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -gain / scale))))]


def _scores(state: Any) -> list[float]:
    return state.scores()


__all__ = [
    "NO_HOOKS",
    "ISMCTSAgent",
    "RepeatMemory",
    "fresh_moves",
    "plays_heuristic",
    "require_estimate",
    "require_heuristic",
    "require_named",
    "require_position_key",
    "rollout_policy",
    "search_hooks",
    "visit_shares",
]
