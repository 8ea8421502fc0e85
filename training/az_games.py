"""The games an expert-iteration run plays, one game per call, and the process pool that plays them in parallel.

Each game is a function of the run's settings and the game's index alone (it draws its seeds from them), and it
returns its rows for the replay buffer, ``(observation, legal mask, policy target, seat-relative returns)``, in
the order it played them. The run adds them to its buffer in game order, so the buffer, and every network fitted
on it, do not depend on how many processes played the games (``workers``): a run with 2 workers ends with the
weights of the run with 1, bit for bit (``tests/training/test_az_train.py``).

- :func:`self_play_game`: every seat searches with the current network (the iterations), as :func:`run_agent`;
- :func:`imitation_game`: ``warm_agent`` in every seat (or in one seat against ``warm_against``), its moves or
  distributions as targets (the warm start);
- :func:`value_game`: seats drawn from ``value_agents``, a few positions kept for the value head only.

:class:`GamePool` plays a list of them on ``workers`` processes (``spawn``: no forked torch state) and hands
the results back in order, each with the CPU time its worker spent (the run counts it in its CPU budget).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..envs.core.errors import MeepleZooError
from .parent_watch import exit_with_parent


class WorkerError(MeepleZooError):
    """A worker process of the run died (killed, out of memory) while it played a game (one line)."""


#: a game's rows for the replay buffer: observation, legal mask, policy target (all zero: value only), returns
Row = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass
class SelfPlayGame:
    """One self-play game's figures: decisions (all), searched decisions, and where its CPU time went."""

    decisions: int = 0
    searched: int = 0
    search: float = 0.0
    network: float = 0.0
    engine: float = 0.0

    def add(self, other: SelfPlayGame) -> None:
        for key in ("decisions", "searched", "search", "network", "engine"):
            setattr(self, key, getattr(self, key) + getattr(other, key))


def play_out(engine_game: Any, state: Any, choose: Callable[[int, Any], int]) -> list[int] | None:
    """Play ``state`` to its end or the engine's decision cap: ``choose(seat, view)`` gives the move at every real
    choice (the seat's :class:`~meeplezoo.agents.view.SeatView`), a forced move is applied as it is. The
    adjudicated ranks of a game stopped at the cap, else None (the warm start's, the value games' and the value
    benchmark's games)."""
    from ..agents.view import view_of_state

    for _ in range(engine_game.max_decisions):
        if state.is_terminal():
            break
        legal = state.legal_order()
        if len(legal) > 1:
            seat = state.current_player()
            state.apply(choose(seat, view_of_state(state, seat)))
        else:
            state.apply(legal[0])
    return None if state.is_terminal() else state.adjudicated_ranks()


def self_play_game(
    engine_game: Any, net: Any, config: Mapping[str, Any], seed_words: tuple[int, ...]
) -> tuple[list[Row], SelfPlayGame]:
    """One self-play game seeded by ``seed_words``: every seat searches its own view with ``net`` (an
    :class:`~meeplezoo.agents.az.AZAgent` with the run's ``sims``, ``c_puct``, ``batch`` and ``search`` settings,
    root noise added); its searched positions, each with the root's visit shares and the game's final returns,
    and its figures."""
    from ..agents.az import choose, final_values
    from ..agents.mcts import visit_shares
    from ..agents.view import view_of_state

    sequence = np.random.SeedSequence(list(seed_words))
    game_seed, search_seed = sequence.generate_state(2)
    agent = run_agent(config, net, int(search_seed), config["sims"])
    rng = agent.rng  # the searches' determinizations, their noise and the moves drawn from the visits
    began = time.process_time()
    state = engine_game.new_state(int(game_seed))
    figures = SelfPlayGame()
    searched: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
    noise = (config["noise_alpha"], config["noise_fraction"]) if config["noise_fraction"] > 0 else None
    while not state.is_terminal() and figures.decisions < engine_game.max_decisions:
        legal = state.legal_order()
        figures.decisions += 1
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        seat = state.current_player()
        view = view_of_state(state, seat)
        # with ``repeat`` in ``search``, the moves the seat already made in this position are left out
        made, candidates, exclude = agent.moves_to_search(view, legal)
        visits, prior = agent.search(view, noise, exclude=exclude)
        mask = np.zeros(engine_game.num_actions, bool)
        mask[list(legal)] = True
        searched.append((view.observation, mask, visit_shares(visits), seat))
        temp = 1.0 if figures.searched < config["temp_moves"] else 0.0
        figures.searched += 1
        action = choose(visits, prior, candidates, temp, rng)
        if made is not None:
            made.add(action)
        agent.played(view, action)  # with ``reuse`` in ``search``, the tree below it is kept for the next decision
        state.apply(action)
    adjudicated = None if state.is_terminal() else state.adjudicated_ranks()  # stopped at the decision cap
    returns = np.array(final_values(state, net.value, adjudicated), np.float32)
    total = time.process_time() - began
    figures.network, figures.search, figures.engine = agent.times.network, agent.times.search, agent.times.engine
    figures.engine += max(total - figures.network - figures.search - figures.engine, 0.0)  # views, applies
    return [(obs, mask, pi, np.roll(returns, -seat)) for obs, mask, pi, seat in searched], figures


def run_agent(config: Mapping[str, Any], net: Any, seed: int, sims: int) -> Any:
    """The run's ``az`` agent: ``net`` searched ``sims`` simulations a decision with the run's ``c_puct``, ``batch``
    and ``search`` settings (its self-play and its evaluations)."""
    from ..agents.az import AZAgent, search_settings

    return AZAgent(
        seed=seed,
        net=net,
        sims=sims,
        c_puct=config["c_puct"],
        batch=config["batch"],
        **search_settings(config["search"]),
    )


def imitation_game(game: str, engine_game: Any, config: Mapping[str, Any], g: int, value: str) -> list[Row]:
    """Warm-start game ``g`` (seeded by ``(seed, 0, g)``): ``warm_agent`` in every seat, or with ``warm_against`` in
    seat ``g mod players`` and those agents in the seats after it; each real choice a row with the policy target
    (with ``warm_soft`` the agent's distribution where it gives one: a policy's, or a search's visit shares; else
    its move) and the final returns (``value`` mode) as the value target."""
    from ..agents import make_agent
    from ..agents.az import final_values
    from ..games import manifest

    spec = config["warm_agent"] or manifest(game).baseline_agent
    n = engine_game.num_players
    seeds = np.random.SeedSequence([config["seed"], 0, g]).generate_state(n + 1)
    specs = warm_seats(spec, config["warm_against"], n, g)
    agents = [make_agent(specs[i], game, seed=int(seeds[i + 1])) for i in range(n)]
    state = engine_game.new_state(int(seeds[0]))
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []

    def imitate(seat: int, view: Any) -> int:
        obs, mask = view.observation.copy(), view.action_mask.astype(bool)  # before the agent takes it apart
        probabilities = getattr(agents[seat], "action_probabilities", None) if config["warm_soft"] else None
        target = probabilities(view) if probabilities is not None else None  # before act takes the view apart
        action = int(agents[seat].act(view))
        searched = getattr(agents[seat], "search_distribution", None) if config["warm_soft"] else None
        if target is None and searched is not None:  # a search's visit shares at the root
            target = searched()
        if target is None:  # the move itself
            target = np.zeros(engine_game.num_actions, np.float32)
            target[action] = 1.0
        rows.append((obs, mask, target, seat))
        return action

    adjudicated = play_out(engine_game, state, imitate)
    returns = np.array(final_values(state, value, adjudicated), np.float32)
    return [(obs, mask, target, np.roll(returns, -seat)) for obs, mask, target, seat in rows]


def warm_seats(warm: str, against: list[str], n: int, g: int) -> list[str]:
    """The agent spec of each seat in warm-start game ``g``: ``warm`` in every seat without ``against``; else
    ``warm`` in seat ``g mod n`` and ``against`` (cycled) in the seats after it, in turn order."""
    if not against:
        return [warm] * n
    first = g % n
    return [warm if s == first else against[((s - first) % n - 1) % len(against)] for s in range(n)]


def value_game(game: str, engine_game: Any, config: Mapping[str, Any], g: int, value: str) -> list[Row]:
    """Value game ``g`` (seeded by ``(seed, 0, g, 1)``): each seat an agent drawn from ``value_agents`` (default:
    the warm agent); ``value_positions`` of its real choices, drawn at random, as rows with the final returns
    (``value`` mode) as the value target and no policy target (an all-zero ``pi``, which
    :func:`~.az_net.losses` leaves out of the policy loss).

    Why: a game's successive positions share one result, so a value head fitted to every position of a few
    hundred games learns those games' results, and it judges positions unlike them (an opponent it has not met)
    no better than a constant. A few positions from each of many games, with varied seats, are as many results to
    learn from (the AlphaGo value network's one position per game, Silver et al. 2016)."""
    from ..agents import make_agent
    from ..agents.az import final_values
    from ..games import manifest

    pool = list(config["value_agents"]) or [config["warm_agent"] or manifest(game).baseline_agent]
    n = engine_game.num_players
    empty = np.zeros(engine_game.num_actions, np.float32)
    seeds = np.random.SeedSequence([config["seed"], 0, g, 1]).generate_state(n + 2)
    picker = np.random.default_rng(int(seeds[1]))
    agents = [make_agent(pool[int(picker.integers(len(pool)))], game, seed=int(seeds[i + 2])) for i in range(n)]
    state = engine_game.new_state(int(seeds[0]))
    rows: list[tuple[np.ndarray, np.ndarray, int]] = []

    def record(seat: int, view: Any) -> int:
        rows.append((view.observation.copy(), view.action_mask.astype(bool), seat))
        return int(agents[seat].act(view))

    adjudicated = play_out(engine_game, state, record)
    returns = np.array(final_values(state, value, adjudicated), np.float32)
    keep = picker.choice(len(rows), size=min(config["value_positions"], len(rows)), replace=False)
    return [(rows[i][0], rows[i][1], empty, np.roll(returns, -rows[i][2])) for i in sorted(keep.tolist())]


# --- the pool -----------------------------------------------------------------------------------------------

#: one game to play: ("selfplay", seed words) or ("imitation" | "value", game index)
Job = tuple[str, Any]

#: a worker's game, its engine and the network of the iteration under way (set by :func:`_start`, :func:`_play`)
_WORKER: dict[str, Any] = {}


def play_one(game: str, engine_game: Any, config: Mapping[str, Any], net: Any, job: Job) -> tuple[Any, float]:
    """Play ``job`` in this process: its result (rows, or rows and figures for self-play) and its CPU seconds.
    ``net`` searches the self-play games; the others need none (their returns are the run's ``value`` mode)."""
    began = time.process_time()
    kind, arg = job
    if kind == "selfplay":
        result: Any = self_play_game(engine_game, net, config, arg)
    elif kind == "imitation":
        result = imitation_game(game, engine_game, config, arg, config["value"])
    elif kind == "value":
        result = value_game(game, engine_game, config, arg, config["value"])
    else:  # pragma: no cover - the run names only these
        raise ValueError(f"unknown game kind {kind!r}")
    return result, time.process_time() - began


def job_name(job: Job) -> str:
    """``self-play game (1, 3, 0)``, ``value game 7``: a job in a message."""
    kind, arg = job
    return f"{'self-play' if kind == 'selfplay' else kind} game {arg}"


def _start(game: str, engine_class: type, config: Mapping[str, Any], parent: int) -> None:
    """A worker's start: it ends with the run's process ``parent`` (even a killed one), one torch thread (as the
    run's own process), the game's engine."""
    import torch

    exit_with_parent(parent)
    torch.set_num_threads(1)
    _WORKER.update(game=game, engine=engine_class(**config["env"]), config=dict(config), version=None, net=None)


def _play(version: int, net_state: Mapping[str, Any] | None, job: Job) -> tuple[Any, float]:
    """Play ``job`` in a worker, with the network of ``version`` (rebuilt from ``net_state`` when it is new; None
    for a game without search)."""
    if net_state is not None and _WORKER["version"] != version:
        from ..agents.az_net import AZNet

        _WORKER.update(version=version, net=AZNet.from_weights(net_state["meta"], net_state["weights"]))
    return play_one(_WORKER["game"], _WORKER["engine"], _WORKER["config"], _WORKER["net"], job)


class GamePool:
    """``workers`` processes that play a run's games (with 1, the games are played in this process).

    :meth:`play` yields each job's result in the order of the jobs, with the CPU seconds a worker process spent on
    it (0 for a game played in this process); the caller may stop early (close the generator), and the jobs not
    yet started are cancelled."""

    def __init__(self, game: str, engine_game: Any, config: Mapping[str, Any], workers: int) -> None:
        self.game, self.engine_game, self.config, self.workers = game, engine_game, config, workers
        self._executor: ProcessPoolExecutor | None = None
        self._version = 0

    def play(self, net: Any, jobs: Sequence[Job]) -> Iterator[tuple[Any, float]]:
        """The results of ``jobs`` in order (``net`` searches the self-play games; None for the others)."""
        if self.workers <= 1 or len(jobs) <= 1:
            for job in jobs:  # this process's CPU: counted as the run's own
                yield play_one(self.game, self.engine_game, self.config, net, job)[0], 0.0
            return
        executor = self._pool()
        self._version += 1
        state = None
        if net is not None:  # plain arrays: no torch tensors (and their shared-memory handles) between processes
            state = {"meta": net.meta, "weights": {k: v.numpy() for k, v in net.module.state_dict().items()}}
        futures: list[Future[tuple[Any, float]]] = [executor.submit(_play, self._version, state, j) for j in jobs]
        try:
            for job, future in zip(jobs, futures, strict=True):
                try:
                    yield future.result()
                except BrokenProcessPool:
                    self.close()
                    raise WorkerError(
                        f"a worker process died while it played a {job_name(job)} "
                        "(killed, or out of memory); the run keeps its last checkpoint: --resume goes on from it"
                    ) from None
        finally:
            for future in futures:
                future.cancel()  # a stopped run: the games not started are dropped

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            import multiprocessing as mp

            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=mp.get_context("spawn"),
                initializer=_start,
                initargs=(self.game, type(self.engine_game), dict(self.config), os.getpid()),
            )
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
