"""Decisions per second of each game through OpenSpiel, against its env, its engine and a C++ OpenSpiel game of
similar length, in one run: the speed figures of issue 41.

::

    python -m meeplezoo.bench.openspiel                       # every built-in game at 2 players, 500 games each way
    python -m meeplezoo.bench.openspiel --games 20 --players 2 4 --only concordia

For each game and player count, the same number of uniformly random legal games is played four ways, every
choice from a numpy Generator seeded per game (game ``g`` uses seed ``seed + g``):

* **env**: the PettingZoo AEC env (``make_env``), ``reset(seed)``, ``last()``, a random action from the mask;
* **engine**: the engine alone (``new_state(seed)``, ``legal_actions``, ``apply``): the floor under the others;
* **pyspiel**: the game loaded by ``pyspiel.load_game`` (``meeplezoo.openspiel``), ``current_player``,
  ``legal_actions``, ``apply_action``; the deal's four chance nodes get the bytes of the game's seed, so these
  are the engine's very games, decision for decision (the env derives its own seeds, so its games differ);
* **pyspiel+tensor**: the same with ``information_state_tensor()`` read once per decision, as an RL loop does;
* **C++**: of a fixed list of C++ OpenSpiel games (:data:`CANDIDATES`), the one whose mean random-play length
  (over :data:`LENGTH_GAMES` games) is closest to the game's mean decisions, played by the same Python loop
  (chance outcomes sampled by their probabilities), so that what differs from the pyspiel column is the game.

A game's time includes its setup and chance nodes; only decisions are counted. Rates are per CPU second of this
process (``time.process_time``), so they hold on a shared machine. Figures only: nothing here asserts a speed.
The measured figures and a profile of the pyspiel path are in docs/lab-notes/openspiel.md.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import games, options
from ..envs.core.errors import MeepleZooError

_clock = time.process_time

#: the C++ OpenSpiel games a MeepleZoo game is matched with (those missing from the installed pyspiel are
#: skipped): two-player games of every length random play gives, perfect and imperfect information, some with
#: chance. Bridge is left out: its default game scores the auction with a double-dummy solver (0.2 s a game).
CANDIDATES = (
    "breakthrough",
    "clobber",
    "dots_and_boxes",
    "mancala",
    "othello",
    "checkers",
    "hearts",
    "backgammon",
    "oware",
    "hex",
    "gin_rummy",
    "go(board_size=9)",
    "nine_mens_morris",
    "cribbage",
    "go(board_size=13)",
    "lines_of_action",
    "chess",
    "kriegspiel",
    "go(board_size=19)",
)
#: random games per C++ candidate to estimate its mean length
LENGTH_GAMES = 20
#: the default size: random games per game and way (about 1.5 CPU minutes for the four built-in games)
DEFAULT_GAMES = 500
#: the highest first seed: a game's seed must fit the deal's 32 bits
MAX_SEED = 2**32 - 1


@dataclass
class Tally:
    """Random games played one way: their decisions each, and the CPU seconds they took."""

    lengths: list[int] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def decisions(self) -> int:
        return sum(self.lengths)

    @property
    def per_second(self) -> float | None:
        return self.decisions / self.seconds if self.seconds > 0 else None

    @property
    def mean_length(self) -> float | None:
        return self.decisions / len(self.lengths) if self.lengths else None


@dataclass
class SpeedRow:
    """The figures of one game at one table size."""

    game: str
    players: int
    env: Tally
    engine: Tally
    pyspiel: Tally
    tensor: Tally
    cpp_game: str
    cpp_length: float  # the C++ game's mean length in the length estimate (LENGTH_GAMES games)
    cpp: Tally


def _chance_sampler(state: Any, rng: np.random.Generator) -> int:
    """A chance outcome of ``state`` drawn by its probability."""
    outcomes = state.chance_outcomes()
    draw = rng.random()
    for action, probability in outcomes:
        draw -= probability
        if draw < 0:
            return action
    return outcomes[-1][0]


def pyspiel_games(game: Any, count: int, seed: int, tensor: bool = False, deal: bool = False) -> Tally:
    """Play ``count`` random games of pyspiel ``game``; count the decisions, not the chance nodes.

    ``deal``: chance node ``k`` of game ``g`` gets byte ``k`` of seed ``seed + g`` (a MeepleZoo game's deal, so the
    game is the engine's game of that seed); otherwise chance outcomes are sampled. ``tensor``: read the
    information state tensor once per decision.
    """
    import pyspiel

    chance, terminal = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
    tally = Tally()
    start = _clock()
    for g in range(count):
        rng = np.random.default_rng(seed + g)
        seed_bytes = (seed + g).to_bytes(4, "big") if deal else b""
        state = game.new_initial_state()
        decisions = dealt = 0
        while True:
            player = state.current_player()
            if player == terminal:
                break
            if player == chance:
                if deal:
                    state.apply_action(seed_bytes[dealt])
                    dealt += 1
                else:
                    state.apply_action(_chance_sampler(state, rng))
                continue
            if tensor:
                state.information_state_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            decisions += 1
        tally.lengths.append(decisions)
    tally.seconds = _clock() - start
    return tally


def engine_games(engine_game: Any, count: int, seed: int) -> Tally:
    """Play ``count`` random games with the engine alone, stopped at its decision cap as the env and pyspiel stop."""
    cap = engine_game.max_decisions
    tally = Tally()
    start = _clock()
    for g in range(count):
        rng = np.random.default_rng(seed + g)
        state = engine_game.new_state(seed + g)
        decisions = 0
        while decisions < cap and not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
            decisions += 1
        tally.lengths.append(decisions)
    tally.seconds = _clock() - start
    return tally


def env_games(game: str, config: dict[str, Any], count: int, seed: int) -> Tally:
    """Play ``count`` random games through the PettingZoo AEC env, as a PettingZoo user does."""
    env = games.make_env(game, **config)
    tally = Tally()
    start = _clock()
    for g in range(count):
        rng = np.random.default_rng(seed + g)
        env.reset(seed=seed + g)
        decisions = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            decisions += 1
        tally.lengths.append(decisions)
    tally.seconds = _clock() - start
    env.close()
    return tally


def cpp_lengths(seed: int, count: int = LENGTH_GAMES) -> dict[str, float]:
    """The mean random-play length (decisions) of every installed candidate in :data:`CANDIDATES`."""
    import pyspiel

    registered = set(pyspiel.registered_names())
    return {
        name: pyspiel_games(pyspiel.load_game(name), count, seed).mean_length or 0.0
        for name in CANDIDATES
        if name.partition("(")[0] in registered
    }


def closest(lengths: dict[str, float], target: float) -> str:
    """The candidate whose mean length is closest to ``target`` (the first listed on a tie)."""
    if not lengths:
        raise MeepleZooError("no C++ OpenSpiel game of the candidate list is installed")
    return min(lengths, key=lambda name: abs(lengths[name] - target))


def measure(game: str, players: int, count: int, seed: int, lengths: dict[str, float]) -> SpeedRow:
    """The figures of ``game`` at ``players`` seats: ``count`` random games each way (see the module docstring)."""
    import pyspiel

    from .. import openspiel

    config = {"num_players": players}
    engine = engine_games(games.manifest(game).engine_class()(**config), count, seed)
    env = env_games(game, config, count, seed)
    spiel_game = openspiel.load_game(game, config)
    plain = pyspiel_games(spiel_game, count, seed, deal=True)
    tensor = pyspiel_games(spiel_game, count, seed, tensor=True, deal=True)
    match = closest(lengths, engine.mean_length or 0.0)
    cpp = pyspiel_games(pyspiel.load_game(match), count, seed)
    return SpeedRow(game, players, env, engine, plain, tensor, match, lengths[match], cpp)


def builtin_games() -> list[str]:
    """MeepleZoo's own games with an engine, in listing order."""
    return [m.name for m in games.manifests() if m.distribution == "meeplezoo" and m.engine is not None]


def run(
    count: int = DEFAULT_GAMES,
    players: Sequence[int] = (2,),
    only: Sequence[str] | None = None,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> list[SpeedRow]:
    """Measure every game of ``only`` (default: the built-in games) at each count of ``players`` it supports."""
    if not 0 <= seed <= MAX_SEED - count + 1:
        raise MeepleZooError(f"seed {seed} with {count} games: every game's seed must be below 2**32")
    names = [games.resolve(name) for name in only] if only else builtin_games()
    for name in names:
        if games.manifest(name).engine is None:
            raise MeepleZooError(f"{name} has no engine: it is not an OpenSpiel game")
    if progress:
        progress(f"mean lengths of the C++ candidates ({LENGTH_GAMES} random games each)")
    lengths = cpp_lengths(seed)
    rows = []
    for name in names:
        for n in players:
            if n not in games.player_counts(name):
                if progress:
                    progress(f"{name}: no {n}-player table, skipped")
                continue
            if progress:
                progress(f"{name} at {n} players")
            rows.append(measure(name, n, count, seed, lengths))
    return rows


def _fmt(x: float | None, digits: int = 0) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


COLUMNS = (
    "game",
    "dec/game",
    "env dec/s",
    "engine dec/s",
    "pyspiel dec/s",
    "pyspiel+tensor dec/s",
    "C++ game (dec/game)",
    "C++ dec/s",
)


def cells(row: SpeedRow) -> list[str]:
    """One row of the table, as text (the columns of :data:`COLUMNS`)."""
    return [
        f"{row.game} {row.players}p",
        _fmt(row.engine.mean_length, 1),
        _fmt(row.env.per_second),
        _fmt(row.engine.per_second),
        _fmt(row.pyspiel.per_second),
        _fmt(row.tensor.per_second),
        f"{row.cpp_game} ({row.cpp_length:.1f})",
        _fmt(row.cpp.per_second),
    ]


def table(rows: list[SpeedRow], title: str = "") -> Any:
    """A rich table of the figures."""
    from rich.table import Table

    t = Table(title=title or "Random legal play: decisions per CPU second")
    for col in COLUMNS:
        t.add_column(col, justify="left" if col in ("game", "C++ game (dec/game)") else "right")
    for row in rows:
        t.add_row(*cells(row))
    return t


def markdown(rows: list[SpeedRow]) -> str:
    """The figures as a Markdown table (for the docs)."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cells(row)) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from rich.console import Console

    p = argparse.ArgumentParser(prog="python -m meeplezoo.bench.openspiel", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--games",
        type=options.bounded_int("--games", 1, options.MAX_GAMES),
        default=DEFAULT_GAMES,
        help=f"random games per game, table size and way (default {DEFAULT_GAMES})",
    )
    p.add_argument(
        "--players",
        type=options.bounded_int("--players", 1, 99),
        nargs="+",
        default=[2],
        help="table sizes (default 2; a game without one is skipped)",
    )
    p.add_argument("--only", nargs="+", default=None, help="these games (default: every built-in game)")
    p.add_argument("--seed", type=options.bounded_int("--seed", 0, MAX_SEED), default=0)
    p.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    p.add_argument("--quiet", action="store_true", help="only the table")
    args = p.parse_args(argv)
    console = Console(highlight=False, width=140)
    try:
        rows = run(args.games, args.players, args.only, args.seed, None if args.quiet else console.print)
    except MeepleZooError as exc:
        p.error(str(exc))
    title = f"Random legal play, {args.games} games each way (seeds {args.seed}..): decisions per CPU second"
    if args.markdown:
        print(markdown(rows))
    else:
        console.print(table(rows, title))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
