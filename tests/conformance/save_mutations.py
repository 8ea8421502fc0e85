"""Single-field mutations of saved states, and the check that each is refused or plays on (issue 36, item 4).

A save either raises ``CorruptStateError`` when it is loaded, or it plays on: ``observe()`` for every seat,
the legal actions, a few dozen applied legal moves, and ``validate()`` and a save/load round trip along the way,
without any other exception. :func:`mutations` edits one saved value at a time (every int of the record, in
lists, nested lists and task-stack tuples too; every list's length); :func:`check_mutation` loads one edited
save and probes it. ``test_save_mutations.py`` runs both over every game; the command line drives them by hand::

    python tests/conformance/save_mutations.py board_royale --positions 6
"""

from __future__ import annotations

import argparse
import copy
import random
import signal
import sys
import threading
import traceback
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from meeplezoo.envs.core import CorruptStateError, Game, State

#: the edits of one int: label -> new value from the old one
INT_EDITS: tuple[tuple[str, Any], ...] = (
    ("+1", lambda v: v + 1),
    ("-1", lambda v: v - 1),
    ("+1000", lambda v: v + 1000),
    ("-1000", lambda v: v - 1000),
    ("=0", lambda v: 0),
    ("=-1", lambda v: -1),
    ("=2**31", lambda v: 2**31),
)
#: lists longer than this have only a sample of their elements edited (the first two, the last two, a few more)
MAX_ELEMENTS = 8
#: random legal moves the probe applies to a loaded save
PROBE_MOVES = 30
#: seconds one mutation may take before the probe calls it a hang (an endless loop of automatic steps)
TIME_LIMIT = 10.0


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _sample(n: int, key: str, seed: int) -> list[int]:
    """Indices of a list of length ``n`` to edit: all of a short list; of a long one the two ends and a
    deterministic pick (by ``key`` and ``seed``) of the middle."""
    if n <= MAX_ELEMENTS:
        return list(range(n))
    rng = np.random.default_rng([zlib.crc32(key.encode()), seed])
    middle = rng.choice(np.arange(2, n - 2), size=MAX_ELEMENTS - 4, replace=False).tolist()
    return sorted({0, 1, n - 2, n - 1, *middle})


def _like(items: list[Any]) -> Any:
    """An element to append to ``items``: a copy of its last one (0 for an empty list)."""
    return copy.deepcopy(items[-1]) if items else 0


def _variants(value: Any, path: str, seed: int) -> Iterator[tuple[str, Any]]:
    """``(description, new value)`` for every single edit of ``value`` (the value at ``path``)."""
    if _is_int(value):
        seen = {value}
        for label, edit in INT_EDITS:
            new = edit(value)
            if new not in seen:
                seen.add(new)
                yield f"{path} {label}: {value} -> {new}", new
    elif isinstance(value, list):
        for i in _sample(len(value), path.split("[")[0], seed):
            for what, new in _variants(value[i], f"{path}[{i}]", seed):
                edited = list(value)
                edited[i] = new
                yield what, edited
        if value:
            yield f"{path}: last element dropped", value[:-1]
        yield f"{path}: element {_like(value)!r} appended", [*value, _like(value)]
        if value:
            yield f"{path}: emptied", []
    elif isinstance(value, dict):  # a Chance: {"seed": int, "events": int}
        for key in value:
            for what, new in _variants(value[key], f"{path}.{key}", seed):
                yield what, {**value, key: new}


def mutations(data: dict[str, Any], seed: int = 0) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(field, description, edited copy of data)`` for every single edit of every saved field of ``data``
    (a ``State.to_dict()``). Unedited fields are shared with ``data``: do not edit the copies in place.
    ``seed`` picks which elements of long lists are edited."""
    for name in sorted(data):
        for what, new in _variants(data[name], name, seed):
            yield name, what, {**data, name: new}


class ProbeTimeout(Exception):
    """A mutation took longer than its time limit (an endless loop)."""


def _where(exc: BaseException) -> str:
    """``file:line in function`` of the innermost frame of the project that ``exc`` passed through."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/envs/" in f.filename or "/agents/" in f.filename] or frames
    if not ours:
        return "?"
    f = ours[-1]
    name = f.filename.split("/envs/", 1)[-1] if "/envs/" in f.filename else Path(f.filename).name
    return f"{name}:{f.lineno} in {f.name}"


def probe(state: State, full: bool = True) -> None:
    """Use ``state`` as a player and a tool would (raise on any defect): whose turn, the legal actions and
    mask, observations (every seat when ``full``, else the seat to move), and with ``full`` also the state
    vector, scores and ranks, action texts, ``validate()`` and a save/load round trip."""
    game = state.game
    legal = state.legal_actions()
    mask = state.legal_mask()
    if np.flatnonzero(mask).tolist() != legal:
        raise AssertionError("legal_mask() differs from legal_actions()")
    player = state.current_player()
    if state.is_terminal():
        if legal:
            raise AssertionError(f"a finished game has legal actions {legal[:5]}")
    else:
        if not legal:
            raise AssertionError(f"stuck: player {player} has no legal action ({state.pending()!r})")
        if not 0 <= player < game.num_players:
            raise AssertionError(f"current_player() is {player}, not a seat")
        if legal[0] < 0 or legal[-1] >= game.num_actions:
            raise AssertionError(f"legal actions out of range: {legal[0]}..{legal[-1]}")
    seats = range(game.num_players) if full or state.is_terminal() else (player,)
    for seat in seats:
        state.observe(seat)
    if full:
        state.pending()
        state.state_vector()
        state.standing()
        for action in legal[:20]:
            state.describe_action(action)
        state.validate()
        saved = state.to_dict()
        if game.state_from_dict(saved).to_dict() != saved:
            raise AssertionError("a save/load round trip changed the state")


def _alarm(signum: int, frame: Any) -> None:
    raise ProbeTimeout(f"no answer within {TIME_LIMIT:g} s")


def check_mutation(game: Game, data: dict[str, Any], moves: int = PROBE_MOVES, seed: int = 0) -> str | None:
    """Load the edited save ``data``: None when it is refused with ``CorruptStateError`` or survives
    :func:`probe` after loading, after each of ``moves`` random legal moves (seeded by ``seed``; a full probe
    every 10th) and at the end; else a one-line description of the failure (where, which exception)."""
    return outcome(game, data, moves, seed)[1]


def outcome(game: Game, data: dict[str, Any], moves: int = PROBE_MOVES, seed: int = 0) -> tuple[bool, str | None]:
    """:func:`check_mutation` that also tells whether the save was refused: ``(refused, failure or None)``."""
    timed = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if timed:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    stage = "load"
    try:
        try:
            state = game.state_from_dict(data)
        except CorruptStateError:
            return True, None
        stage = "probe after load"
        probe(state)
        rng = np.random.default_rng(seed)
        for k in range(1, moves + 1):
            if state.is_terminal():
                break
            stage = f"move {k}"
            state.apply(int(rng.choice(state.legal_actions())))
            probe(state, full=k % 10 == 0)
        stage = "final probe"
        probe(state)
    except Exception as exc:
        text = str(exc).splitlines()[0][:160] if str(exc) else ""
        return False, f"{stage}: {type(exc).__name__} at {_where(exc)}: {text}"
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return False, None


def first_position(game: Game, found: Callable[[State], bool], seeds: int) -> dict[str, Any]:
    """The save of the first position where ``found`` holds, in random games of ``game`` seeded 0 .. seeds-1
    (a hand-edited save test starts from a real position of the kind it edits)."""
    for seed in range(seeds):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_terminal():
            if found(state):
                return state.to_dict()
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no such position in {seeds} random games")


def refusal(game: Game, found: Callable[[State], bool], edit: Callable[[dict[str, Any]], None], seeds: int) -> str:
    """The message with which ``game`` refuses the save of :func:`first_position` edited by ``edit`` (the unedited
    save must load); an edited save that loads fails the test."""
    saved = first_position(game, found, seeds)
    game.state_from_dict(copy.deepcopy(saved))  # the position itself loads
    edit(saved)
    try:
        game.state_from_dict(saved)
    except CorruptStateError as exc:
        return str(exc)
    raise AssertionError("the edited save loaded")


def sample_positions(game: Game, count: int, seed: int = 0, final: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """``(label, saved dict)`` of ``count`` positions of one random game (seeded by ``seed``) evenly spread from
    the start to the last decision, plus the finished game when ``final``."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        actions.append(action)
        state.apply(action)
    last = len(actions) - 1
    wanted = sorted({round(i * last / max(count - 1, 1)) for i in range(count)}) if count > 0 else []
    if final:
        wanted.append(len(actions))
    out = []
    state = game.new_state(seed)
    for i in range(len(actions) + 1):
        if i in wanted:
            out.append((f"seed {seed}, decision {i}/{len(actions)}", state.to_dict()))
        if i < len(actions):
            state.apply(actions[i])
    return out


def run(
    game: Game, positions: int = 3, seed: int = 0, moves: int = PROBE_MOVES
) -> tuple[int, int, int, list[tuple[str, str, str, str]]]:
    """Mutate every field of ``positions`` positions (plus the finished game) of the random game ``seed`` and
    check each: ``(refused, played on, failed, failures)``, each failure ``(position, field, edit, failure)``."""
    refused = played = 0
    failures = []
    for p, (label, data) in enumerate(sample_positions(game, positions, seed)):
        for k, (name, what, edited) in enumerate(mutations(data, seed=p)):
            was_refused, problem = outcome(game, edited, moves=moves, seed=k)
            if problem is not None:
                failures.append((label, name, what, problem))
            elif was_refused:
                refused += 1
            else:
                played += 1
    return refused, played, len(failures), failures


def main(argv: list[str] | None = None) -> int:
    """Print the failing mutations of one game, grouped by field and kind of failure; exit 1 if any."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from games import CASES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="game name: " + ", ".join(sorted({c.name for c in CASES})))
    parser.add_argument("--case", help="conformance case id (default: the game's first case; 'all': every one)")
    parser.add_argument(
        "--positions", type=int, help="positions of a random game (and its end); default: the case's mutation_positions"
    )
    parser.add_argument("--seed", type=int, default=0, help="random game seed")
    parser.add_argument("--moves", type=int, default=PROBE_MOVES, help="random legal moves after loading")
    parser.add_argument("--examples", type=int, default=3, help="examples printed per kind of failure")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if c.name == args.game]
    if not cases:
        parser.error(f"no conformance case of game {args.game!r}")
    if args.case != "all":
        cases = [c for c in cases if c.id == args.case] if args.case else cases[:1]
        if not cases:
            parser.error(f"no case {args.case!r}; cases: {[c.id for c in CASES if c.name == args.game]}")
    total_failed = 0
    for case in cases:
        positions = args.positions if args.positions is not None else max(1, case.sizes.mutation_positions)
        refused, played, failed, failures = run(case.game(), positions, args.seed, args.moves)
        total_failed += failed
        print(
            f"{case.id}: {refused + played + failed} mutations: {refused} refused, {played} played on, {failed} failed"
        )
        by_field: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for label, name, what, problem in failures:
            kind = problem.split(": ", 2)[:2]
            by_field[name][": ".join(kind)].append(f"{label}: {what}: {problem}")
        for name in sorted(by_field):
            print(f"  {name}: {sum(len(v) for v in by_field[name].values())} failing")
            for kind, examples in sorted(by_field[name].items(), key=lambda kv: -len(kv[1])):
                print(f"    {len(examples)} x {kind}")
                for example in examples[: args.examples]:
                    print(f"      {example}")
    return 1 if total_failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
