"""Learned search: IS-MCTS with PUCT, guided by a policy-value network (:mod:`.az_net`), one agent for every game.

Each simulation draws a fresh determinization of the acting seat's information (``view.determinize``) and walks
one tree shared by all of them, keyed as :mod:`.mcts` keys it: below the root a child is keyed by the pending
decision's name, the seat to act and the action (the action path from the root), so the tree holds what the
searching seat can tell apart. Only the actions legal in the current determinization compete. At a node first
reached with a decision, the network gives the prior over its legal actions and the value of the leaf (no random
rollout); a finished game is valued by its real returns, as the network was trained to value (its ``value`` mode,
:func:`final_values`: ``win``, +1 / -1 for two players, or ``margin``, a ``tanh`` of the score margin).
With ``mix`` above 0 a leaf's value is that share of the game's static estimate of the determinized leaf
(:func:`estimated_values`, the estimate ``mcts`` values its cut-offs with, or the alternative ``estimate`` names)
and the rest the network's; with a ``rollout`` policy the estimate is read after ``cutoff`` decisions of a rollout
from the leaf (or the real result, when the rollout finishes the game), AlphaGo's mix of a value network and
rollouts.
Values are one number per seat in [-1, 1], backed up along the path; a seat choosing at a node maximises
``Q + c_puct * P * sqrt(N) / (1 + n)`` for itself, with an unvisited child's ``Q`` the node's own mean value
for that seat (first-play urgency at the parent's value); with ``first=root`` (``first=all``) an unvisited child of
the root (of any node) ranks above every visited one instead, so each move there is tried once, in the prior's
order, before any is tried twice: UCB1's rule, as ``mcts`` plays it. With ``qnorm`` every ``Q`` is first rescaled
to [0, 1] by the range of the values backed up so far in the search. An action legal now but not when the node's
prior was made (another determinization) gets the uniform share ``1 / |legal|``. ``prior=uniform`` gives every
legal action the same prior (with ``mix=1`` too, the network is never called: PUCT over ``mcts``' leaf values, a
search a network can be distilled from); ``prior=root`` takes the network's prior at the root only and the
uniform one below it (with ``mix=1``, one network call a search), and with ``deepen=K`` at every node too once
``K`` simulations have passed through it (the network is called where the search comes back); ``value=win`` or
``margin`` values finished games and the estimate in that mode instead of the network's. ``opponent=heuristic``
models the other seats: at their choices the prior leans ``oweight`` to the game's heuristic's move on that
determinization (an exploiting search, right against the heuristic only). ``guide=W`` (games with a guide hook)
leans the seat's own choices to a sequence of moves its prior overlooks (Board Royale: a trade offer): ``W`` of the
prior on the move that begins it, all of it on the moves that continue it; ``gname=NAME`` picks another of the
game's guides. ``repeat=1`` (games with a position key)
never plays again a move the seat already made in a position it cannot tell apart (as ``mcts:repeat=1``): the
search leaves those moves out at the root, so a cycle that changes nothing (an offer made and withdrawn, a failed
vote called again) ends after one round per legal move.

The network is evaluated ``batch`` leaves at a time: up to ``batch`` descents are walked before one network call,
each adding a *virtual loss* (a visit and a loss of ``vloss``, 1 by default, for the seat that chose each node on
its path) so that the next descent of the batch prefers other lines (``vloss=0``: a visit of value 0 only); a
descent reaching a leaf already waiting in the batch ends the batch. The move played is the root child visited most
(ties: the higher prior, then the lower action), or with ``temp > 0`` a sample of the visits raised to
``1 / temp``. ``sims=0`` plays the network alone: the legal action of highest prior on the seat's observation (no
determinization). With ``reuse`` the agent keeps the tree below the move it made and searches on from it at its
next decision when that decision follows from the move alone: the seat's knowledge after the move, played on its
public copy, is exactly what the next view shows (no hidden card drawn, no other seat's decision between; most of
a turn's decisions in these games are one seat's in a row). The kept visits count with the new ``sims``.

Spec: ``az`` (the game's shipped network for the table, ``policies/az_<n>p.pt`` in its package),
``az:sims=400``, ``az:seconds=0.5`` (CPU seconds per decision), ``az:path=runs/az/final.pt,sims=0``,
``az:sims=50,mix=0.5,rollout=heuristic,cutoff=20``. A
simulation budget replays exactly for the same seed; a time budget depends on the machine's speed and load.
Networks are trained by expert iteration: ``meeplezoo train GAME --algo az`` (:mod:`meeplezoo.training.az_train`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..envs.core.errors import IllegalActionError
from ..envs.core.params import bind, parse_call
from ..envs.core.rewards import seat_return
from .az_net import AZNet, AZNetError, cached_net
from .base import BaseAgent, Seed
from .spec import AgentSpecError, Param, bind_keywords
from .torch_threads import one_torch_thread
from .view import SeatView

if TYPE_CHECKING:
    from .mcts import RepeatMemory

#: a leaf's rollout policies (``rollout``): none, or as ``mcts`` plays them (:func:`.mcts.rollout_policy`)
ROLLOUTS = ("none", "random", "heuristic", "fast")

#: where a node's prior comes from (``prior``): the network's policy, the same share for every legal action, or the
#: network's policy at the root and the same share below it
PRIORS = ("net", "uniform", "root")

#: where an unvisited child is tried before any visited one (``first``): nowhere (first-play urgency at the
#: parent's mean value), at the root, or at every node
FIRST_VISITS = ("parent", "root", "all")

#: models of the other seats (``opponent``): none, or the game's heuristic, whose move at their choices the prior
#: leans to by ``oweight``
OPPONENT_MODELS = ("none", "heuristic")
_DEFAULT_OWEIGHT = 1.0
#: ``gname``: the game's own guide (its hooks' ``guide``); any other name is one of its hooks' ``guides``
DEFAULT_GUIDE = "default"

#: ``evaluate(observations, masks) -> (priors, seat-relative values)``: what the search asks of a network
#: (``observations`` is None for a search made with ``observe=False``: its evaluator reads none)
Evaluate = Callable[[np.ndarray | None, np.ndarray], tuple[np.ndarray, np.ndarray]]


def _leaned(prior: np.ndarray, move: int, weight: float) -> np.ndarray:
    """``prior`` with ``weight`` of its mass moved onto ``move``."""
    out = prior * (1.0 - weight)
    out[move] += weight
    return out


def shipped_net(game: str, num_players: int) -> Path:
    """The network shipped with ``game`` for ``num_players`` (``policies/az_<n>p.pt`` beside its policies), or a
    one-line :class:`AgentSpecError` saying how to train one."""
    from .. import games

    manifest = games.manifest(game)
    file = manifest.data_file("policies", f"az_{num_players}p.pt")
    if file is None:
        raise AgentSpecError(
            f"az: no network ships for {manifest.name} with {num_players} players; train one "
            f"(meeplezoo train {manifest.name} --algo az --out runs/az) and give it: az:path=runs/az/final.pt"
        )
    return Path(str(file))


class _Node:
    """A tree node: visits, each seat's value sum, its children by key and its priors by decision key."""

    __slots__ = ("children", "learned", "mover", "n", "priors", "w")

    def __init__(self, mover: int, num_players: int) -> None:
        self.mover = mover  # the seat whose action led here
        self.n = 0
        self.w = [0.0] * num_players
        self.children: dict[int, _Node] = {}
        self.priors: dict[int, np.ndarray] = {}  # decision key -> prior over the actions (made when first reached)
        self.learned: set[int] | None = None  # ``prior=root``: the keys whose prior is the network's, not uniform


@dataclass
class SearchTimes:
    """Where a search's time went, in seconds of the wall clock (a search computes on one thread, so it is its
    CPU time less what other processes took): ``engine`` (determinize, apply, observe, final scores), ``network``
    (the network's calls), ``total`` (the whole search; the rest is the search's own work: selection, backup)."""

    engine: float = 0.0
    network: float = 0.0
    total: float = 0.0
    simulations: int = 0
    evaluations: int = 0  # positions the network evaluated
    calls: int = 0  # network calls (batches)

    @property
    def search(self) -> float:
        return max(self.total - self.engine - self.network, 0.0)

    def add(self, other: SearchTimes) -> None:
        for key in ("engine", "network", "total", "simulations", "evaluations", "calls"):
            setattr(self, key, getattr(self, key) + getattr(other, key))


@dataclass
class _Pending:
    """A leaf waiting for the network in the current batch, and the paths (with their leaf's mover) that wait on it."""

    node: _Node
    key: int
    mover: int
    obs: np.ndarray | None
    mask: np.ndarray
    paths: list[list[_Node]] = field(default_factory=list)
    estimate: list[float] | None = None  # the game's static estimate of the leaf (``mix`` above 0)
    lean: tuple[int, float] | None = None  # a move the leaf's prior leans to and by how much (``opponent``, ``guide``)


class PUCTSearch:
    """One search from the root of a seat's decision (see the module docstring); the agent and the trainer's
    self-play share it. ``noise=(alpha, fraction)`` mixes Dirichlet noise into the root's prior (self-play);
    ``rng`` draws it. ``decisions`` maps a pending decision's name to its number in tree keys (kept across
    searches by the caller, so that keys are stable). ``value``: how finished games are valued (:func:`final_values`,
    the network's mode). ``estimate``/``mix``: a leaf's value is ``(1 - mix)`` times the network's plus ``mix`` times
    ``estimate(state)`` (:func:`estimated_values`: the game's static estimate of the determinized leaf). ``qnorm``:
    selection reads each ``Q`` rescaled to [0, 1] by the lowest and highest value backed up so far in this search
    (MuZero's normalisation), so ``c_puct`` weighs the prior against the value differences the search meets, not
    against the full [-1, 1]. ``rollout``: a policy (``policy(state) -> action``) played from each leaf for up to
    ``cutoff`` decisions (0: to the end) before ``estimate`` reads it (``mix`` above 0 only). ``ptemp``: the priors
    are the network's policy raised to ``1 / ptemp`` and renormalised (a softmax temperature; above 1 flattens
    them, so the search spreads further from the network's favourites). ``first``: where an
    unvisited child outranks every visited one (:data:`FIRST_VISITS`), so each legal move there is tried once, in
    prior order, before any is tried twice. ``vloss``: the virtual loss of a descent waiting in a batch, for the
    seat that chose each node on its path (1: a lost game's value; 0: a visit of value 0). ``observe=False``: the
    observations of the leaves below the root are not taken (``evaluate`` reads none: a uniform prior valued by the
    estimate alone). ``root``: what evaluates the root instead of ``evaluate`` (the root is always evaluated alone,
    first, and observed; a kept root whose prior ``root`` did not give is evaluated by it before the search).
    ``deepen`` (with ``root``): a node below the root whose prior ``evaluate`` gave takes ``root``'s instead once
    that many simulations have passed through it (0: never; a forced decision keeps its prior), so the network is
    called where the search comes back. ``stop``: a search of ``sims`` ends once the most visited root move leads
    every other by more than the simulations left, so no continuation could change the most visited move.
    ``mast`` (above 0, with ``rollout``): the rollouts play the Move-Average Sampling Technique instead of
    ``rollout``: at each decision the legal move with the best mean leaf value (the estimate's, after the rollout)
    for the seat to move over this search's simulations that played it (anywhere, the tree's part included; a move
    never tried first), a uniformly random one with probability ``mast`` (Finnsson and Björnsson's MAST, as
    epsilon-greedy in Tak, Winands and Björnsson 2012). ``opponent`` (``policy(state) -> action``): a model of the
    other seats; at a node where a seat other than the root's chooses among several moves, the prior puts
    ``oweight`` on the model's move there (read on that determinization) and ``1 - oweight`` on the prior it had,
    so the search expects them to play as the model does unless it finds otherwise. ``guide`` (``guide(state, seat,
    begin) -> action | None``, the game's hook) leans the searched seat's own choices: ``gweight`` of the prior on the
    move that begins a sequence the guide names, all of it on the next move of one under way; the rollouts finish
    one under way too."""

    def __init__(
        self,
        evaluate: Evaluate,
        c_puct: float,
        batch: int,
        rng: np.random.Generator,
        noise: tuple[float, float] | None = None,
        decisions: dict[str, int] | None = None,
        value: str = "win",
        estimate: Callable[[Any], list[float]] | None = None,
        mix: float = 0.0,
        qnorm: bool = False,
        rollout: Callable[[Any], int] | None = None,
        cutoff: int = 0,
        ptemp: float = 1.0,
        first: str = "parent",
        vloss: float = 1.0,
        observe: bool = True,
        root: Evaluate | None = None,
        deepen: int = 0,
        stop: bool = False,
        mast: float = 0.0,
        opponent: Callable[[Any], int] | None = None,
        oweight: float = _DEFAULT_OWEIGHT,
        guide: Callable[[Any, int, bool], int | None] | None = None,
        gweight: float = 0.0,
    ) -> None:
        if first not in FIRST_VISITS:
            raise ValueError(f"first takes one of {', '.join(FIRST_VISITS)}, not {first!r}")
        self.first = first
        self.vloss = vloss
        self.observe = observe
        self.root_evaluate = root
        self.deepen = deepen if root is not None else 0
        self.stop = stop
        self.opponent, self.oweight = opponent, oweight
        self.guide, self.gweight = (guide, gweight) if guide is not None and gweight > 0 else (None, 0.0)
        self.evaluate, self.c_puct, self.batch, self.rng, self.noise = evaluate, c_puct, max(1, batch), rng, noise
        self.qnorm = qnorm
        self.ptemp = ptemp
        self.low, self.high = math.inf, -math.inf  # the range of the values backed up in this search (qnorm)
        self.estimate, self.mix = (estimate, mix) if estimate is not None and mix > 0 else (None, 0.0)
        self.rollout, self.cutoff = (rollout, cutoff) if self.estimate is not None else (None, 0)
        self.mast = mast if self.rollout is not None else 0.0
        if self.mast:
            self.rollout = self._mast_move
        elif self.rollout is not None and self.guide is not None:
            self.rollout = self._guided(self.rollout)
        self._trail: list[tuple[int, int]] = []  # MAST: (seat, move) of the simulation under way, tree part first
        self._mast_q: list[list[float]] = []  # MAST: each seat's mean value of each move (a move never tried: inf)
        self._mast_n: list[list[int]] = []
        self._mast_draw: Callable[[], float] | None = None  # MAST: the rollouts' random source, seeded from ``rng``
        self.value = value  # how finished games are valued: the network's mode (final_values)
        self.decisions = decisions if decisions is not None else {}
        self.times = SearchTimes()
        self.root: _Node | None = None  # the root of the last run
        self.exclude: frozenset[int] = frozenset()  # the root moves left out of the search under way
        self.seat = -1  # the seat searched for (its decisions are never leaned to the opponent model)

    def run(
        self,
        determinize: Callable[[], Any],
        seat: int,
        sims: int = 0,
        seconds: float = 0.0,
        root: _Node | None = None,
        exclude: frozenset[int] = frozenset(),
    ) -> tuple[np.ndarray, np.ndarray]:
        """Search ``sims`` simulations (or ``seconds`` of CPU time, when above 0; at least one) from the decision of
        ``seat``, each on ``determinize()``; return the root's visit counts and prior, both over every action.
        ``root``: a tree kept from an earlier search of this position (:func:`subtree`), searched further (its
        visits count in the result; root noise, if any, is mixed into its prior now). The root searched is
        :attr:`root` afterwards. ``exclude``: root moves the search leaves out (the agent's ``repeat``; a
        determinization where they are the only legal moves searches them all); their visit counts are 0."""
        began, cpu = time.perf_counter(), time.process_time()
        times = self.times
        deadline = cpu + seconds if seconds > 0 else None
        probe = determinize()
        times.engine += time.perf_counter() - began
        game = probe.game
        self.num_players, self.num_actions = game.num_players, game.num_actions
        self.seat = seat
        self.exclude = exclude
        if self.mast and not self._mast_n:
            self._mast_q = [[math.inf] * self.num_actions for _ in range(self.num_players)]
            self._mast_n = [[0] * self.num_actions for _ in range(self.num_players)]
            self._mast_draw = random.Random(int(self.rng.integers(2**63))).random
        if root is None:
            root = _Node(seat, self.num_players)
        else:
            if self.root_evaluate is not None and not _learned(root, 0):
                self._learn(root, 0, probe)
            if self.noise is not None:
                root.priors[0] = self._noisy(root.priors[0], probe.legal_mask())
        self.root = root
        done = 0
        first: Any = probe
        while True:
            todo = self.batch if done else 1  # the root alone first: every later descent needs its prior
            if deadline is None:
                todo = min(todo, sims - done)
            done += self._batch(root, todo, first, determinize)
            first = None
            if (time.process_time() >= deadline) if deadline is not None else done >= sims:
                break
            if self.stop and deadline is None and _decided(root, sims - done, exclude):
                break
        visits = np.zeros(self.num_actions, np.int64)
        for action, child in root.children.items():
            if action not in exclude:
                visits[action] = child.n
        times.simulations += done
        times.total += time.perf_counter() - began
        return visits, root.priors[0]

    def _batch(self, root: _Node, todo: int, first: Any, determinize: Callable[[], Any]) -> int:
        """Up to ``todo`` descents with virtual loss, one network call for their leaves, the backups; the number of
        descents made (fewer when one reaches a leaf already waiting)."""
        times = self.times
        waiting: dict[tuple[int, int], _Pending] = {}
        finished: list[tuple[list[_Node], list[float]]] = []
        done, vloss = 0, self.vloss
        while done < todo:
            if first is None:
                t = time.perf_counter()
                state = determinize()
                times.engine += time.perf_counter() - t
            else:
                state, first = first, None
            path, leaf = self._descend(root, state)
            done += 1
            root.n += 1
            for node in path[1:]:  # virtual loss: the visit now, a loss for the chooser until the backup
                node.n += 1
                node.w[node.mover] -= vloss
            if isinstance(leaf, list):
                finished.append((path, leaf))
                continue
            node, key, mover, obs, mask, lean = leaf
            slot = waiting.get((id(node), key))
            if slot is not None:  # the same leaf twice: it waits once, and the batch ends here
                slot.paths.append(path)
                break
            slot = _Pending(node, key, mover, obs, mask, [path], lean=lean)
            if self.estimate is not None:
                t = time.perf_counter()
                slot.estimate = self._leaf_estimate(state)
                times.engine += time.perf_counter() - t
            waiting[(id(node), key)] = slot
        if waiting:
            self._evaluate(root, list(waiting.values()))
        for path, values in finished:
            self._seen(values)
            _backup(path, values, vloss)
        return done

    def _guided(self, policy: Callable[[Any], int]) -> Callable[[Any], int]:
        """``policy``, except that the searched seat finishes a sequence of moves the guide began (an offer the tree
        started is built to the end and answered, not dropped by a policy that never makes one)."""
        guide = self.guide
        assert guide is not None

        def move(state: Any) -> int:
            if state.current_player() == self.seat:
                action = guide(state, self.seat, False)
                if action is not None:
                    return action
            return policy(state)

        return move

    def _leaf_estimate(self, state: Any) -> list[float]:
        """The estimate's values of a leaf (its observation already taken, so ``state`` may move on): read at once,
        or after the rollout, which is valued by its real result if it finishes the game. With ``mast`` every move
        of the simulation (the tree's part and the rollout's, in the trail) then learns the values it led to."""
        policy = self.rollout
        if policy is not None:
            cutoff, steps = self.cutoff, 0
            while not state.is_terminal() and (cutoff == 0 or steps < cutoff):
                state.apply(policy(state))
                steps += 1
        ended = policy is not None and state.is_terminal()
        values = final_values(state, self.value) if ended else self.estimate(state)  # type: ignore[misc]
        if self.mast:
            self._mast_learn(values)
        return values

    def _mast_move(self, state: Any) -> int:
        """MAST's rollout policy (``mast``): the mover's legal move of best mean value (a move never tried first;
        the first in legal order among equals), a uniformly random one with probability ``mast``; kept in the
        trail."""
        legal = state.legal_order()
        mover = state.current_player()
        draw = self._mast_draw
        assert draw is not None  # made with the tables, at the start of the search
        if len(legal) == 1:
            action = legal[0]
        elif draw() < self.mast:
            action = legal[int(draw() * len(legal))]
        else:
            action = max(legal, key=self._mast_q[mover].__getitem__)
        self._trail.append((mover, action))
        return action

    def _mast_learn(self, values: Sequence[float]) -> None:
        """Fold a simulation's leaf values into the running mean of every (seat, move) in its trail."""
        q, n = self._mast_q, self._mast_n
        for seat, action in self._trail:
            count = n[seat][action] = n[seat][action] + 1
            mean = q[seat][action]
            q[seat][action] = values[seat] if count == 1 else mean + (values[seat] - mean) / count

    def _seen(self, values: Sequence[float]) -> None:
        """Widen the range of backed-up values (``qnorm``) by a leaf's."""
        low, high = min(values), max(values)
        if low < self.low:
            self.low = low
        if high > self.high:
            self.high = high

    def _evaluate(self, root: _Node, slots: list[_Pending]) -> None:
        """One network call for the waiting leaves: their priors stored, their values backed up."""
        times = self.times
        at_root = slots[0].node is root  # the root waits alone, in the search's first batch
        evaluate = self.root_evaluate if at_root and self.root_evaluate is not None else self.evaluate
        obs = np.stack([s.obs for s in slots]) if slots[0].obs is not None else None
        masks = np.stack([s.mask for s in slots])
        t = time.perf_counter()
        priors, values = evaluate(obs, masks)
        times.network += time.perf_counter() - t
        times.calls += 1
        times.evaluations += len(slots)
        n = self.num_players
        for i, slot in enumerate(slots):
            prior = self._tempered(priors[i])
            if slot.node is root and self.noise is not None:
                prior = self._noisy(prior, masks[i])
            if slot.lean is not None:
                prior = _leaned(prior, *slot.lean)
            slot.node.priors[slot.key] = prior
            if at_root and self.root_evaluate is not None:
                _mark_learned(slot.node, slot.key)
            relative = values[i]
            absolute = [float(relative[(s - slot.mover) % n]) for s in range(n)]
            if slot.estimate is not None:
                absolute = [(1.0 - self.mix) * v + self.mix * e for v, e in zip(absolute, slot.estimate, strict=True)]
            self._seen(absolute)
            for path in slot.paths:
                _backup(path, absolute, self.vloss)

    def _tempered(self, policy: np.ndarray) -> np.ndarray:
        """A network's policy as a node's prior: float64, raised to ``1 / ptemp`` and renormalised."""
        prior = np.array(policy, dtype=np.float64)
        if self.ptemp != 1.0:  # a softmax temperature on the network's policy: above 1 flattens it
            prior **= 1.0 / self.ptemp
            prior /= prior.sum()
        return prior

    def _learn(self, node: _Node, key: int, state: Any) -> np.ndarray:
        """Replace the prior of ``node``'s decision ``key`` (``state`` stands there) by ``root``'s evaluation."""
        times = self.times
        t = time.perf_counter()
        obs = state.observe(state.current_player())
        mask = state.legal_mask().astype(bool)
        times.engine += time.perf_counter() - t
        t = time.perf_counter()
        priors, _ = self.root_evaluate(obs[None], mask[None])  # type: ignore[misc]
        times.network += time.perf_counter() - t
        times.calls += 1
        times.evaluations += 1
        prior = self._tempered(priors[0])
        lean = self._model_move(state)
        if lean is not None:
            prior = _leaned(prior, *lean)
        node.priors[key] = prior
        _mark_learned(node, key)
        return prior

    def _model_move(self, state: Any) -> tuple[int, float] | None:
        """The move ``state``'s prior leans to and by how much, where the seat to move chooses among several: the
        opponent model's (``oweight``) at another seat's choice; at the searched seat's own, the guide's next move of
        a sequence under way (all of the prior: whether to begin one is the search's choice, where it began) or else
        the move it would begin one with (``gweight``); None otherwise (then nothing of ``state`` is read)."""
        if self.opponent is None and self.guide is None:
            return None
        mover = state.current_player()
        if (self.opponent if mover != self.seat else self.guide) is None or len(state.legal_order()) < 2:
            return None
        t = time.perf_counter()
        if mover != self.seat:
            lean: tuple[int, float] | None = (self.opponent(state), self.oweight)  # type: ignore[misc]
        elif (move := self.guide(state, mover, False)) is not None:  # type: ignore[misc]
            lean = (move, 1.0)  # a sequence under way: built as the guide names it once the search began it
        else:
            move = self.guide(state, mover, True)  # type: ignore[misc]
            lean = None if move is None else (move, self.gweight)
        self.times.engine += time.perf_counter() - t
        return lean

    def _noisy(self, prior: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The root's prior mixed with Dirichlet noise over its legal actions (self-play exploration)."""
        alpha, fraction = self.noise  # type: ignore[misc]
        legal = np.flatnonzero(mask)
        out = prior.copy()
        out[legal] = (1 - fraction) * prior[legal] + fraction * self.rng.dirichlet([alpha] * len(legal))
        return out

    def _descend(self, root: _Node, state: Any) -> tuple[list[_Node], Any]:
        """Selection down the tree on ``state`` (played forward): the nodes walked, and the leaf: a finished game's
        values (a list), or ``(node, key, mover, observation, mask, lean)`` for the network (``lean``: the opponent
        model's move there, or None)."""
        node, path, c, num_players, num_actions = root, [root], self.c_puct, self.num_players, self.num_actions
        first, deepen = self.first, self.deepen
        times, decisions = self.times, self.decisions
        trail = self._trail
        trail.clear()
        while True:
            if state.is_terminal():
                t = time.perf_counter()
                values = final_values(state, self.value)
                times.engine += time.perf_counter() - t
                return path, values
            legal = state.legal_order()
            mover = state.current_player()
            key = 0
            if node is root:
                if self.exclude:
                    legal = [a for a in legal if a not in self.exclude] or legal
            else:  # below the root the decision and the seat to act are part of the key
                name = state.pending()
                step = decisions.get(name)
                if step is None:
                    step = decisions[name] = len(decisions)
                key = (step * num_players + mover) * num_actions
            prior = node.priors.get(key)
            if prior is None:
                obs = None
                if self.observe or (node is root and self.root_evaluate is not None):
                    t = time.perf_counter()
                    obs = state.observe(mover)
                    times.engine += time.perf_counter() - t
                mask = np.zeros(num_actions, bool)
                mask[list(legal)] = True
                return path, (node, key, mover, obs, mask, self._model_move(state))
            if deepen and node.n >= deepen and len(legal) > 1 and not _learned(node, key):
                prior = self._learn(node, key, state)
            children = node.children
            scale = c * math.sqrt(node.n)
            fpu = node.w[mover] / node.n if node.n else 0.0
            shift, stretch = 0.0, 1.0  # Q as it is, or (qnorm) rescaled to the range of the values met
            if self.qnorm and self.high > self.low:
                shift, stretch = self.low, 1.0 / (self.high - self.low)
            fpu = (fpu - shift) * stretch
            uniform = 1.0 / len(legal)
            untried_first = first == "all" or (first == "root" and node is root)
            best, best_action = -math.inf, -1
            for a in legal:
                p = prior[a] or uniform
                child = children.get(key + a)
                if child is None or child.n == 0:
                    # an untried move outranks any tried one (a Q lies in [-1, 1], or [0, 1] with qnorm)
                    score = (_UNTRIED + p) if untried_first else fpu + scale * p
                else:
                    score = (child.w[mover] / child.n - shift) * stretch + scale * p / (1 + child.n)
                if score > best:
                    best, best_action = score, a
            child = children.get(key + best_action)
            if child is None:
                child = children[key + best_action] = _Node(mover, num_players)
            if self.mast:
                trail.append((mover, best_action))
            t = time.perf_counter()
            state.apply(best_action)
            times.engine += time.perf_counter() - t
            node = child
            path.append(node)


def _learned(node: _Node, key: int) -> bool:
    """Whether the prior of ``node``'s decision ``key`` came from the network (``prior=root``)."""
    return node.learned is not None and key in node.learned


def _mark_learned(node: _Node, key: int) -> None:
    if node.learned is None:
        node.learned = set()
    node.learned.add(key)


def _knowledge(state: Any, seat: int) -> str:
    """What ``seat`` knows of ``state``, exactly: its public copy (hidden parts in canonical order) as saved."""
    return state.public_copy(seat).to_json()


def subtree(node: _Node, key: int, num_actions: int) -> _Node | None:
    """``node``'s statistics for the decision keyed ``key`` as the root of a new search (None if no search reached
    that decision there): its children for that decision and their prior, the visits through them, and the node's
    mean values over those visits."""
    prior = node.priors.get(key)
    if prior is None:
        return None
    root = _Node(node.mover, len(node.w))
    root.priors[0] = prior
    if _learned(node, key):
        _mark_learned(root, 0)
    root.children = {a: child for a in range(num_actions) if (child := node.children.get(key + a)) is not None}
    root.n = 1 + sum(child.n for child in root.children.values())  # the evaluation of the decision, and below
    share = root.n / node.n if node.n else 0.0
    root.w = [w * share for w in node.w]
    return root


#: an untried child's score when untried moves go first: above any visited child's ``Q`` plus its prior term
#: (``c_puct * sqrt(N)`` stays far below it at any real budget)
_UNTRIED = 1e12


def _backup(path: Sequence[_Node], values: Sequence[float], vloss: float) -> None:
    """Add ``values`` (seat order) along ``path`` (the root first) and take back the virtual loss ``vloss`` below
    the root (the visits stay)."""
    for depth, node in enumerate(path):
        w = node.w
        if depth:
            w[node.mover] += vloss
        for i, v in enumerate(values):
            w[i] += v


#: how a finished game is valued (a network's ``value`` mode, chosen when it is trained)
VALUE_MODES = ("win", "margin")


def final_values(state: Any, mode: str = "win", ranks: Sequence[int] | None = None) -> list[float]:
    """Each seat's real return of a finished game, in [-1, 1]. ``win``: the ``win`` reward mode (+1 / -1 with two
    players; solo: +1 for beating the game's bar, else -1). ``margin``: ``tanh`` of the seat's score margin over
    the best other seat (solo: over the automa's score, :meth:`~meeplezoo.envs.core.engine.State.automa_score`) in
    units of twice the game's ``score_scale``: every point counts, which a solo score target needs. ``ranks``
    replaces the state's own (a game stopped at its decision cap: its adjudicated ranks)."""
    own_ranks, scores = state.standing()
    ranks = own_ranks if ranks is None else ranks
    if mode == "win":
        return [seat_return("win", seat, ranks, scores, 1.0) for seat in range(len(ranks))]
    return tanh_margins(state, scores, 2.0 * float(state.game.score_scale))


def tanh_margins(state: Any, scores: Sequence[float], scale: float) -> list[float]:
    """Each seat's ``tanh`` of its margin in ``scores`` over the best other seat's (solo: over the automa's score,
    :meth:`~meeplezoo.envs.core.engine.State.automa_score`), in units of ``scale``."""
    if len(scores) == 1:
        return [math.tanh((scores[0] - state.automa_score()) / scale)]
    return [math.tanh((own - max(x for j, x in enumerate(scores) if j != i)) / scale) for i, own in enumerate(scores)]


def estimated_values(game: str, mode: str = "win", variant: str = "default") -> Callable[[Any], list[float]]:
    """``fn(state) -> list[float]``: each seat's value in [-1, 1] by ``game``'s static estimate of the final scores
    (its search hooks' ``estimate``, else the engine's scores): a ``tanh`` of the seat's estimated margin over the
    best other seat (solo: over the automa's score), in the units :func:`final_values` uses for ``mode``
    (``margin``: twice the game's ``score_scale``; ``win``: the hooks' typical margin, ``scale``).

    ``variant`` names one of the game's alternative estimates (its hooks' ``variants``, as ``mcts:estimate=``);
    its values are in its own units, so its margins are read in its own scale whatever the ``mode``. Raises
    :class:`AgentSpecError` for a name the game lacks."""
    from .mcts import DEFAULT_ESTIMATE, require_estimate, search_hooks

    hooks = search_hooks(game)
    if variant != DEFAULT_ESTIMATE:
        require_estimate("az", game, hooks, variant)
        fn, own_scale = hooks.variants[variant]

        def variant_values(state: Any) -> list[float]:
            return tanh_margins(state, list(fn(state)), float(own_scale))

        return variant_values
    estimate = hooks.estimate

    def values(state: Any) -> list[float]:
        scores = list(estimate(state)) if estimate is not None else list(state.scores())
        scale = 2.0 * float(state.game.score_scale) if mode == "margin" else float(hooks.scale)
        return tanh_margins(state, scores, scale)

    return values


def _decided(root: _Node, left: int, exclude: frozenset[int] = frozenset()) -> bool:
    """True when the root's most visited move leads every other by more than ``left`` visits: no ``left`` more
    simulations can make another move the most visited, nor tie it (moves in ``exclude`` do not count)."""
    top = second = 0
    for action, child in root.children.items():
        if action in exclude:
            continue
        n = child.n
        if n > top:
            top, second = n, top
        elif n > second:
            second = n
    return top > second + left


def choose(visits: np.ndarray, prior: np.ndarray, legal: Sequence[int], temp: float, rng: np.random.Generator) -> int:
    """The move of a search: the legal action visited most (ties: higher prior, then lower action), or with
    ``temp > 0`` one drawn with probability proportional to ``visits ** (1 / temp)``."""
    legal = list(legal)
    if temp > 0:
        weights = visits[legal].astype(np.float64)
        if weights.sum() > 0:
            weights = weights ** (1.0 / temp)
            return int(legal[rng.choice(len(legal), p=weights / weights.sum())])
    return int(max(legal, key=lambda a: (visits[a], prior[a], -a)))


class AZAgent(BaseAgent):
    """PUCT search over determinizations with a policy-value network (see the module docstring).

    Made as ``AZAgent(seed, **params)`` (the parameters are :attr:`PARAMS`), or with ``net=`` a loaded
    :class:`~meeplezoo.agents.az_net.AZNet` (tests, the trainer's evaluations)."""

    name = "az"
    #: what an agent process's fork server imports first (:mod:`.isolation`)
    PRELOAD: ClassVar[tuple[str, ...]] = ("torch",)
    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param("sims", int, 200, "simulations per decision (0: the network's policy alone)", minimum=0),
        Param("seconds", float, 0.0, "CPU seconds per decision instead of sims (0: use sims)", minimum=0.0),
        Param("c_puct", float, 1.5, "PUCT exploration constant (values lie in [-1, 1])", minimum=0.0),
        Param("path", str, "", "an az network .pt (default: the game's shipped policies/az_<n>p.pt)"),
        Param("batch", int, 8, "leaf evaluations per network call (virtual loss spreads a batch)", minimum=1),
        Param("temp", float, 0.0, "0: the most visited move; above: sample visits ** (1 / temp)", minimum=0.0),
        Param("mix", float, 0.0, "the game's static estimate's share of a leaf value", minimum=0.0, maximum=1.0),
        Param(
            "estimate",
            str,
            "default",
            "the static estimate mix reads: default, or one of the game's alternative estimates by name (as mcts's)",
        ),
        Param("qnorm", bool, False, "selection reads Q rescaled to the range of the values the search met"),
        Param(
            "rollout", str, "none", "a leaf's rollout policy before the estimate (needs mix above 0)", choices=ROLLOUTS
        ),
        Param("cutoff", int, 20, "rollout length in decisions (0: to the end of the game)", minimum=0),
        Param(
            "mast",
            float,
            0.0,
            "rollout=random: the rollouts play the mover's move with the best mean leaf value over the search's "
            "simulations that played it (MAST), a random one with this probability (0: uniformly random rollouts)",
            minimum=0.0,
            maximum=1.0,
        ),
        Param("ptemp", float, 1.0, "softmax temperature of the prior (above 1 flattens it)", minimum=0.05),
        Param(
            "first",
            str,
            "parent",
            "where each legal move is tried once, in prior order, before any twice: root, all, or parent (none)",
            choices=FIRST_VISITS,
        ),
        Param(
            "prior",
            str,
            "net",
            "a node's prior: net (the policy head), uniform (with mix=1 the network is not called), or root (the "
            "policy head at the root, uniform below: with mix=1 one network call a search)",
            choices=PRIORS,
        ),
        Param(
            "deepen",
            int,
            0,
            "prior=root: a node below the root takes the policy head's prior once this many simulations passed "
            "through it (0: never, uniform below the root)",
            minimum=0,
        ),
        Param(
            "value",
            str,
            "net",
            "how finished games and the estimate are valued: net (the network's mode; margin for a search that "
            "calls no network), win or margin",
            choices=("net", *VALUE_MODES),
        ),
        Param(
            "vloss",
            float,
            1.0,
            "virtual loss of a descent waiting in a batch (1: a lost game; 0: a visit of value 0)",
            minimum=0.0,
            maximum=1.0,
        ),
        Param(
            "stop",
            bool,
            False,
            "end a search of sims once no other move can overtake the most visited one in the simulations left "
            "(the same move for fewer simulations; needs temp=0 and sims)",
        ),
        Param(
            "opponent",
            str,
            "none",
            "a model of the other seats: heuristic (at their choices the prior leans to the game's heuristic's move "
            "on the determinization, by oweight) or none",
            choices=OPPONENT_MODELS,
        ),
        Param(
            "oweight",
            float,
            _DEFAULT_OWEIGHT,
            "opponent=heuristic: the share of the other seats' prior put on the model's move",
            minimum=0.0,
            maximum=1.0,
        ),
        Param(
            "guide",
            float,
            0.0,
            "the share of the seat's own prior on the move that begins the game's guided sequence (one the prior "
            "overlooks, such as a trade offer; once begun it is built as the guide names it); 0: none",
            minimum=0.0,
            maximum=1.0,
        ),
        Param(
            "gname",
            str,
            DEFAULT_GUIDE,
            "the guide guide=W leans to: default (the game's), or another of the game's guides by name",
        ),
        Param(
            "repeat",
            bool,
            False,
            "never play again a move the seat made in a position it cannot tell apart (games with a position key; "
            "as mcts's)",
        ),
        Param(
            "reuse",
            bool,
            False,
            "search on from the tree of the seat's last decision when its next decision follows from its own move "
            "(no chance, no other seat's decision between)",
        ),
    )
    sims: int
    seconds: float
    c_puct: float
    path: str
    batch: int
    temp: float
    mix: float
    estimate: str
    qnorm: bool
    rollout: str
    cutoff: int
    mast: float
    ptemp: float
    first: str
    vloss: float
    prior: str
    deepen: int
    value: str
    stop: bool
    opponent: str
    oweight: float
    guide: float
    gname: str
    repeat: bool
    reuse: bool

    def __init__(self, seed: Seed = None, net: AZNet | None = None, **params: Any) -> None:
        super().__init__(seed)
        for key, value in bind_keywords(self.name, self.PARAMS, params).items():
            setattr(self, key, value)
        self.net = net
        self._checked: tuple[str, int] | None = None  # the table the network was checked against
        self._decisions: dict[str, int] = {}
        self.times = SearchTimes()  # summed over the agent's searches (benchmarks: the time split)
        self.last_simulations = 0
        self._last_visits: np.ndarray | None = None  # the root's visit counts of the last search
        self._estimate: Callable[[Any], list[float]] | None = None  # the game's static estimate (``mix``)
        self._rollout: tuple[str, Callable[[Any], int]] | None = None  # (game, the rollout policy) once made
        self._heuristic: Any = None  # the game's heuristic agent (``rollout=heuristic``)
        self._root: Any = None  # the root of the last search, or the tree kept for a forced move (``reuse``)
        self._bounds = (math.inf, -math.inf)  # the values the last search backed up (``qnorm``), kept with its tree
        #: ``reuse``: the subtree below the move made, the seat's expected knowledge after it, and its bounds
        self._kept: tuple[Any, str, tuple[float, float]] | None = None
        #: ``repeat``: the game, its position key and the moves made in each position, once needed
        self._repeat: tuple[str, Callable[[Any, int], Hashable], RepeatMemory] | None = None
        if self.rollout != "none" and self.mix == 0:
            raise AgentSpecError(f"az: rollout={self.rollout} values leaves by the estimate, which needs mix above 0")
        if self.estimate != "default" and self.mix == 0:
            raise AgentSpecError(
                f"az: estimate={self.estimate} names the estimate mix blends into leaf values, which needs mix above 0"
            )
        if self.mast and self.rollout != "random":
            raise AgentSpecError(
                f"az: mast={self.mast:g} plays the rollouts by the moves' mean values and a random move with that "
                f"probability, which needs rollout=random (rollout={self.rollout})"
            )
        if self.stop and (self.temp > 0 or self.seconds > 0):
            raise AgentSpecError(
                "az: stop=1 ends a search of sims once its most visited move is settled, which needs temp=0 "
                f"(the move drawn from the visits) and a sims budget (temp={self.temp:g}, seconds={self.seconds:g})"
            )
        if self.opponent == "none" and self.oweight != _DEFAULT_OWEIGHT:
            raise AgentSpecError(
                f"az: oweight={self.oweight:g} is the share of the other seats' prior on an opponent model's move, "
                "which needs opponent=heuristic"
            )
        if self.gname != DEFAULT_GUIDE and not self.guide:
            raise AgentSpecError(
                f"az: gname={self.gname} names the guide that guide=W leans the prior to, which needs guide above 0"
            )
        if self.deepen and self.prior != "root":
            raise AgentSpecError(
                f"az: deepen={self.deepen} gives nodes below the root the network's prior late, "
                f"which needs prior=root (prior={self.prior} gives every prior at once)"
            )

    def check_game(self, game: str) -> None:
        """Raise :class:`AgentSpecError` if ``rollout`` or ``opponent`` needs the game's heuristic agent and the game
        has none, ``estimate`` names one the game lacks, ``guide`` needs its guide hook, or ``repeat`` its position
        key (``make_agent`` calls it before any game starts)."""
        from .mcts import plays_heuristic, require_estimate, require_heuristic, require_position_key, search_hooks

        hooks = search_hooks(game)
        uses = [f"rollout={self.rollout}"] if plays_heuristic(self.rollout, hooks) else []
        if self.opponent == "heuristic":
            uses.append("opponent=heuristic")
        require_heuristic(self.name, game, hooks, uses)
        if self.guide:
            self._guide(game)
        require_estimate(self.name, game, hooks, self.estimate)
        if self.repeat:
            require_position_key(self.name, game, hooks)

    def _rollout_policy(self, game: str) -> Callable[[Any], int] | None:
        """The leaf rollout policy for ``game`` (None without ``rollout``), made once per game from the agent's
        generator (random rollouts draw from a ``random.Random`` it seeds)."""
        if self.rollout == "none":
            return None
        if self._rollout is None or self._rollout[0] != game:
            from .mcts import rollout_policy, search_hooks

            hooks = search_hooks(game)
            py = random.Random(int(self.rng.integers(2**63)))
            self._rollout = (game, rollout_policy(self.rollout, hooks, py, lambda: self._heuristic_agent(game)))
        return self._rollout[1]

    def _guide(self, game: str) -> Callable[[Any, int, bool], int | None] | None:
        """The game's guide (``guide`` above 0), or None."""
        if not self.guide:
            return None
        from .mcts import require_named, search_hooks

        hooks = search_hooks(game)
        if self.gname != DEFAULT_GUIDE:  # also checked before any game (check_game)
            require_named(self.name, game, "gname", self.gname, DEFAULT_GUIDE, hooks.guides)
            return hooks.guides[self.gname]
        if hooks.guide is None:
            raise AgentSpecError(f"az: guide={self.guide:g} leans the prior to the game's guide move; {game} has none")
        return hooks.guide

    def _heuristic_agent(self, game: str) -> Any:
        from .mcts import search_hooks
        from .registry import make_agent

        if self._heuristic is None:
            self._heuristic = make_agent(search_hooks(game).heuristic, game, seed=int(self.rng.integers(2**63)))
        return self._heuristic

    @property
    def needs_network(self) -> bool:
        """False for a search that calls no network (``prior=uniform,mix=1`` with no ``path``): it loads none, so
        it plays where no network ships."""
        return bool(self.path) or not (self.prior == "uniform" and self.mix == 1.0 and self.uses_determinize)

    @property
    def uses_determinize(self) -> bool:  # type: ignore[override]
        """Only a search determinizes; the network alone reads the observation and the mask."""
        return self.sims > 0 or self.seconds > 0

    def prepare(self, game: str, num_players: int) -> None:
        """Load the network now (an agent process: under its start budget) and compute on one torch thread."""
        import torch

        torch.set_num_threads(1)
        if self.needs_network:
            self._network(game, num_players)

    def _network(self, game: str, num_players: int) -> AZNet:
        if self.net is None:
            try:
                self.net = cached_net(self.path or shipped_net(game, num_players))
            except AZNetError as exc:
                raise AgentSpecError(str(exc)) from None
        return self.net

    def _check(self, view: SeatView) -> AZNet | None:
        """The network, checked once per table against the view's game and sizes (one line if it does not fit);
        None for a search that calls no network and was given none."""
        if self.net is None and not self.needs_network:
            return None
        net = self._network(view.game_name, view.num_players)
        table = (view.game_name, view.num_players)
        if self._checked != table:
            sizes = (net.game, net.num_players, net.num_actions)
            if sizes != (view.game_name, view.num_players, view.num_actions):
                raise AgentSpecError(
                    f"az: the network is for {net.game} with {net.num_players} players and {net.num_actions} "
                    f"actions; this table is {view.game_name} with {view.num_players} and {view.num_actions}"
                )
            if view.observation.size != net.observation_size:
                raise AgentSpecError(
                    f"az: the network reads observations of {net.observation_size}, {view.game_name} gives "
                    f"{view.observation.size}"
                )
            self._checked = table
        return net

    def act(self, view: SeatView) -> int:
        with one_torch_thread():  # as in an agent process, whichever process plays it
            return self._act(view)

    def _act(self, view: SeatView) -> int:
        legal = view.legal_actions
        net = self._check(view)
        self._last_visits = None
        if len(legal) == 1:
            self.last_simulations = 0
            if self.reuse and self.uses_determinize:  # the kept tree passes through the seat's forced move
                self._root = self._reused(view)
                self.played(view, int(legal[0]))
            return int(legal[0])
        made, candidates, exclude = self.moves_to_search(view)
        if not self.uses_determinize:
            assert net is not None  # the policy alone needs the network (needs_network)
            priors, _ = net.evaluate_batch(view.observation[None], view.action_mask[None].astype(bool))
            self.last_simulations = 0
            action = int(max(candidates, key=lambda a: (priors[0][a], -a)))
        else:
            visits, prior = self.search(view, exclude=exclude)
            action = choose(visits, prior, candidates, self.temp, self.rng)
            self.played(view, action)
        if made is not None:
            made.add(action)
        return action

    def moves_to_search(
        self, view: SeatView, legal: Sequence[int] | None = None
    ) -> tuple[set[int] | None, list[int], frozenset[int]]:
        """``repeat``: the moves the seat already made in positions it cannot tell from ``view``'s (to add the move
        it makes now to), the legal moves it may make (in the order of ``legal``, default the view's), and the ones
        the search leaves out at the root; without ``repeat``: None, every legal move, none left out (the trainer's
        self-play asks the same)."""
        legal = list(view.legal_actions if legal is None else legal)
        if not self.repeat:
            return None, legal, frozenset()
        from .mcts import fresh_moves

        made = self._made_here(view)
        candidates = fresh_moves(legal, made)
        return made, candidates, frozenset(legal).difference(candidates)

    def _made_here(self, view: SeatView) -> set[int]:
        """``repeat``: the moves the seat already made in positions it cannot tell from ``view``'s (the game's
        position key on its public copy; the memory is cleared once it holds ``REPEAT_MEMORY`` positions)."""
        from .mcts import RepeatMemory, require_position_key, search_hooks

        game = view.game_name
        if self._repeat is None or self._repeat[0] != game:  # positions of another game never match this one's
            self._repeat = (game, require_position_key(self.name, game, search_hooks(game)), RepeatMemory())
        _, key, memory = self._repeat
        return memory.made(key(view.public_state(), view.seat))

    def played(self, view: SeatView, action: int) -> None:
        """The move made at the seat's last decision (``view``): with ``reuse``, the subtree below it is kept for
        the seat's next decision when that decision follows from the move alone: the seat's knowledge after it,
        read by playing it on the view's public copy, is then exactly what the next view shows (a move that draws
        hidden cards or gives another seat the turn keeps nothing)."""
        self._kept = None
        root = self._root
        if not self.reuse or root is None or (child := root.children.get(action)) is None:
            return
        after = view.public_state()
        try:
            after.apply(action)
        except IllegalActionError:  # the move's legality rests on something the public copy holds otherwise
            return
        if after.is_terminal() or after.current_player() != view.seat:
            return
        self._kept = (child, _knowledge(after, view.seat), self._bounds)

    def _reused(self, view: SeatView) -> Any:
        """The tree kept at the seat's last move as the root for ``view``'s decision, or None: kept nothing, the
        position is not the one the move led to, or no search reached this decision there."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        node, knowledge, bounds = kept
        step = self._decisions.get(view.pending)
        if step is None or _knowledge(view.public_state(), view.seat) != knowledge:
            return None
        self._bounds = bounds
        return subtree(node, (step * view.num_players + view.seat) * view.num_actions, view.num_actions)

    def search(
        self, view: SeatView, noise: tuple[float, float] | None = None, exclude: frozenset[int] = frozenset()
    ) -> tuple[np.ndarray, np.ndarray]:
        """Search the seat's decision with the agent's settings and generator: the root's visit counts and prior over
        every action (what :meth:`act` chooses from; the trainer's self-play adds root ``noise=(alpha, fraction)``;
        ``exclude``: root moves left out, as ``repeat`` leaves them)."""
        net = self._check(view)
        mode = self.value
        if mode == "net":  # the network's mode; a search that loads none plays for the margin
            mode = net.value if net is not None else "margin"
        if self.mix > 0 and self._estimate is None:
            self._estimate = estimated_values(view.game_name, mode, self.estimate)
        search = PUCTSearch(
            self._evaluator(net, view.num_players),
            self.c_puct,
            self.batch,
            self.rng,
            noise=noise,
            decisions=self._decisions,
            value=mode,
            estimate=self._estimate,
            mix=self.mix,
            qnorm=self.qnorm,
            rollout=self._rollout_policy(view.game_name),
            cutoff=self.cutoff,
            ptemp=self.ptemp,
            first=self.first,
            vloss=self.vloss,
            observe=self.prior == "net" or self.mix < 1.0,  # a uniform prior valued by the estimate reads none
            root=net.evaluate_batch if net is not None and self.prior == "root" else None,
            deepen=self.deepen,
            stop=self.stop,
            mast=self.mast,
            opponent=self._heuristic_agent(view.game_name).choose if self.opponent == "heuristic" else None,
            oweight=self.oweight,
            guide=self._guide(view.game_name),
            gweight=self.guide,
        )
        root = self._reused(view) if self.reuse else None
        if root is not None and self.qnorm:
            search.low, search.high = self._bounds
        visits, prior = search.run(
            lambda: view.determinize(self.rng), view.seat, self.sims, self.seconds, root, exclude=exclude
        )
        self._root, self._bounds = search.root, (search.low, search.high)
        self.times.add(search.times)
        self.last_simulations = search.times.simulations
        self._last_visits = visits
        return visits, prior

    def _evaluator(self, net: AZNet | None, num_players: int) -> Evaluate:
        """What the search calls for a batch of leaves: the network, or with ``prior=uniform`` (``prior=root``: below
        the root) the same share for each legal action and the network's values (zeros without a call when ``mix=1``
        leaves no share to them)."""
        if net is not None and self.prior == "net":
            return net.evaluate_batch
        need_values = self.mix < 1.0

        def uniform(observations: np.ndarray | None, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            legal = np.asarray(masks, dtype=np.float32)
            priors = legal / legal.sum(axis=1, keepdims=True)
            if need_values:
                assert observations is not None and net is not None  # the network values the observed leaves
                return priors, net.evaluate_batch(observations, masks)[1]
            return priors, np.zeros((len(legal), num_players), np.float32)

        return uniform

    def search_distribution(self) -> np.ndarray | None:
        """The root's visit shares of the last search over the flat action space (zero off its legal actions), or
        None when the last decision was not searched (one legal action, or ``sims=0``): what a distilling learner
        fits (the az trainer's warm start with ``warm_soft``)."""
        from .mcts import visit_shares

        return visit_shares(self._last_visits)

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds:g}" if self.seconds > 0 else f"sims={self.sims}"
        leaf = f", mix={self.mix:g}, rollout={self.rollout}, cutoff={self.cutoff}" if self.mix > 0 else ""
        leaf += f", mast={self.mast:g}" if self.mast else ""
        leaf += f", estimate={self.estimate}" if self.mix > 0 and self.estimate != "default" else ""
        leaf += f", opponent={self.opponent}, oweight={self.oweight:g}" if self.opponent != "none" else ""
        leaf += f", guide={self.guide:g}" if self.guide else ""
        leaf += f", gname={self.gname}" if self.gname != DEFAULT_GUIDE else ""
        leaf += ", repeat=True" if self.repeat else ""
        return (
            f"AZAgent({budget}, c_puct={self.c_puct:g}, batch={self.batch}, temp={self.temp:g}, ptemp={self.ptemp:g}, "
            f"qnorm={self.qnorm}, first={self.first}, vloss={self.vloss:g}, prior={self.prior}, deepen={self.deepen}, "
            f"reuse={self.reuse}, stop={self.stop}, value={self.value}{leaf}, seed={self.seed!r})"
        )


#: the search settings an expert-iteration run may give its self-play and evaluation searches (its ``search``)
SEARCH_KEYS = (
    "mix",
    "estimate",
    "qnorm",
    "rollout",
    "cutoff",
    "mast",
    "ptemp",
    "first",
    "vloss",
    "prior",
    "deepen",
    "value",
    "reuse",
    "repeat",
)


def search_settings(text: str, where: str = "az search") -> dict[str, Any]:
    """``"mix=1,rollout=random,cutoff=20"`` (any of :data:`SEARCH_KEYS`, as an ``az`` spec writes them) as typed
    keyword arguments of :class:`AZAgent`; a bad key, value or combination is one :class:`AgentSpecError` line."""
    if not text.strip():
        return {}
    params = tuple(p for p in AZAgent.PARAMS if p.name in SEARCH_KEYS)
    _, raw = parse_call(f"search:{text}", where)
    out = bind(where, params, raw)
    AZAgent(seed=0, **out)  # the combinations the agent refuses (a rollout without mix)
    return out


__all__ = [
    "FIRST_VISITS",
    "OPPONENT_MODELS",
    "PRIORS",
    "SEARCH_KEYS",
    "VALUE_MODES",
    "AZAgent",
    "PUCTSearch",
    "SearchTimes",
    "choose",
    "estimated_values",
    "final_values",
    "search_settings",
    "shipped_net",
    "tanh_margins",
]
