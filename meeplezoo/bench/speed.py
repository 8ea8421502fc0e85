"""Speed figures: random legal games through the AEC loop, and the engine's clone + apply.

For every registered game (:func:`meeplezoo.games.manifests`), and PettingZoo's ``connect_four_v3`` as a
yardstick measured in the same run, :func:`run` plays uniformly random legal games the way a PettingZoo user
does (``agent_iter``, ``last()``, read the mask, ``step``) and reports decisions per second, games per second
and decisions per game. For MeepleZoo engines it also times ``state.clone()`` followed by one legal ``apply``
over positions sampled from random games, engine-only random playouts (new game to the end, no AEC loop) and
IS-MCTS iterations (``mcts``: determinize, walk the tree, random rollout to the end) over positions sampled from
random games: what bounds the strength of a search agent.

Rates are per CPU second of this process (``time.process_time``), not wall-clock seconds, so they hold on a
shared machine. Figures only: nothing here asserts a speed. ``meeplezoo bench`` prints them as a table.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import games

CONNECT_FOUR = "connect_four_v3"

#: every figure is per second of this process's CPU time, so a loaded machine (other processes on the cores)
#: gives the same figures as an idle one, and the ratio to connect_four_v3 holds on either
_clock = time.process_time


@dataclass
class BenchRow:
    """The figures of one env (``None`` where not measured)."""

    env: str
    games: int = 0
    steps: int = 0
    seconds: float = 0.0
    clone_apply_per_s: float | None = None
    playouts_per_s: float | None = None
    mcts_iterations_per_s: float | None = None
    note: str = ""

    @property
    def steps_per_s(self) -> float | None:
        return self.steps / self.seconds if self.seconds else None

    @property
    def games_per_s(self) -> float | None:
        return self.games / self.seconds if self.seconds else None

    @property
    def decisions_per_game(self) -> float | None:
        return self.steps / self.games if self.games else None


def aec_random_games(
    make_env: Callable[[], Any], seconds: float, max_games: int | None, seed: int
) -> tuple[int, int, float]:
    """Play random legal games through the AEC loop until ``seconds`` pass or ``max_games`` are done.

    At least one game is always finished. Returns ``(games, decisions, elapsed seconds)``.
    """
    env = make_env()
    rng = np.random.default_rng(seed)
    games = steps = 0
    start = _clock()
    deadline = start + seconds
    while True:
        env.reset(seed=seed + games)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
        games += 1
        if (max_games is not None and games >= max_games) or _clock() >= deadline:
            break
    elapsed = _clock() - start
    env.close()
    return games, steps, elapsed


def sample_states(game: Any, seed: int, count: int = 256, max_games: int = 16) -> list:
    """Non-terminal engine states taken at random points of random games (about ``count`` of them)."""
    rng = np.random.default_rng(seed)
    states: list = []
    for g in range(max_games):
        state = game.new_state(seed + g)
        trail = []
        while not state.is_terminal() and len(trail) < game.max_decisions:
            trail.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        take = min(len(trail), max(1, count // max_games))
        states.extend(trail[i] for i in sorted(rng.choice(len(trail), take, replace=False)))
        if len(states) >= count:
            break
    return states


def clone_apply_rate(game: Any, seconds: float, seed: int) -> float:
    """Clones followed by one legal ``apply`` per second, over states sampled from random games."""
    rng = np.random.default_rng(seed)
    states = sample_states(game, seed)
    moves = [(s, s.legal_actions()) for s in states]
    work = [(s, legal[rng.integers(len(legal))]) for s, legal in moves]
    done = 0
    start = _clock()
    deadline = start + seconds
    while True:
        for state, action in work:
            copy = state.clone()
            copy.apply(action)
        done += len(work)
        if _clock() >= deadline:
            break
    return done / (_clock() - start)


def playout_rate(game: Any, seconds: float, seed: int) -> float:
    """Engine-only random games per second: a new state played to the end with uniformly random legal
    actions (the engine's own ``legal_actions``/``apply``, no AEC loop, no copies)."""
    rng = np.random.default_rng(seed)
    done = 0
    start = _clock()
    deadline = start + seconds
    while True:
        state = game.new_state(seed + done)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        done += 1
        if _clock() >= deadline:
            break
    return done / (_clock() - start)


def mcts_iteration_rate(game: Any, seconds: float, seed: int, spec: str = "mcts:iters=50") -> float:
    """IS-MCTS iterations per second of agent ``spec`` over positions sampled from random games."""
    from ..agents import make_agent
    from ..agents.view import view_of_state

    states = [s for s in sample_states(game, seed, count=32, max_games=4) if len(s.legal_actions()) > 1]
    agent = make_agent(spec, game.name, seed=seed)
    iterations = 0
    start = _clock()
    deadline = start + seconds
    while True:
        for state in states:
            agent.act(view_of_state(state, state.current_player()))
            iterations += agent.last_iterations
            if _clock() >= deadline:
                return iterations / (_clock() - start)


def connect_four_factory() -> Callable[[], Any]:
    """``connect_four_v3.env`` (raises ImportError with a clear message if pygame is missing)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import connect_four_v3
    except Exception as exc:  # pettingzoo raises DependencyNotInstalled (not an ImportError) without pygame
        raise ImportError(
            f"{CONNECT_FOUR} needs pygame, which is in the dev extra: pip install -e '.[dev]' ({exc})"
        ) from exc
    return connect_four_v3.env


def env_row(manifest: Any, seconds: float, max_games: int | None, seed: int) -> BenchRow:
    """The figures of one game within about ``seconds``: half in the AEC loop, a sixth each on clone + apply,
    engine playouts and IS-MCTS iterations (an env-only game, without an engine, spends it all in the AEC loop)."""
    module = manifest.env_module()
    if manifest.engine is None:
        games_done, steps, elapsed = aec_random_games(module.env, seconds, max_games, seed)
        return BenchRow(manifest.env_module_name, games_done, steps, elapsed, note="no engine: AEC loop only")
    games_done, steps, elapsed = aec_random_games(module.env, seconds / 2, max_games, seed)
    game = module.env().unwrapped.game
    rate = clone_apply_rate(game, seconds / 6, seed)
    playouts = playout_rate(game, seconds / 6, seed)
    iterations = mcts_iteration_rate(game, seconds / 6, seed)
    return BenchRow(manifest.env_module_name, games_done, steps, elapsed, rate, playouts, iterations)


def run(
    seconds: float = 30.0,
    max_games: int | None = None,
    seed: int = 0,
    connect_four: bool = True,
    progress: Callable[[str], None] | None = None,
) -> list[BenchRow]:
    """Measure every registered game's env (and ``connect_four_v3``) within about ``seconds`` in total.

    The budget is shared equally between the envs (:func:`env_row` spends a game's share). ``max_games`` caps
    the AEC games of each env.
    """
    manifests = games.manifests()
    share = seconds / (len(manifests) + (1 if connect_four else 0))
    rows = []
    for manifest in manifests:
        if progress:
            progress(manifest.env_module_name)
        rows.append(env_row(manifest, share, max_games, seed))
    if connect_four:
        if progress:
            progress(CONNECT_FOUR)
        try:
            factory = connect_four_factory()
        except ImportError:
            rows.append(BenchRow(CONNECT_FOUR, note="skipped: needs pygame (pip install -e '.[dev]')"))
        else:
            done, steps, elapsed = aec_random_games(factory, share, max_games, seed)
            rows.append(BenchRow(CONNECT_FOUR, done, steps, elapsed, note="PettingZoo yardstick"))
    return rows


def table(rows: list[BenchRow]):
    """A rich table of the figures."""
    from rich.table import Table
    from rich.text import Text

    def fmt(x: float | None, digits: int = 0) -> str:
        return "-" if x is None else f"{x:,.{digits}f}"

    t = Table(title="Random legal play (AEC loop), engine clone + apply, engine playouts, IS-MCTS iterations")
    cols = (
        "env",
        "games",
        "dec/game",
        "steps/s",
        "games/s",
        "clone+apply/s",
        "playouts/s",
        "mcts it/s",
        "note",
    )
    for col in cols:
        t.add_column(col, justify="left" if col in ("env", "note") else "right")
    for r in rows:
        t.add_row(
            r.env,
            str(r.games) if r.games else "-",
            fmt(r.decisions_per_game, 1),
            fmt(r.steps_per_s),
            fmt(r.games_per_s, 1),
            fmt(r.clone_apply_per_s),
            fmt(r.playouts_per_s, 1),
            fmt(r.mcts_iterations_per_s),
            Text(r.note),  # plain text: "[dev]" is not rich markup
        )
    return t
