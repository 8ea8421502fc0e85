"""Fit a game's value model on games its own agents play: one fitter for every game and model.

A game names what it fits in its manifest's ``value_fitters`` (name -> a
:class:`~meeplezoo.envs.core.value_fit.ValueFitter`): Concordia the ``valued`` agent's margin model, Board Royale
its win-chance model. The game gives one played game's rows and saves the model; this module does the rest:

1. plays ``games`` games (seeds from ``seed``) on ``jobs`` processes, :data:`CHUNK` games per task, and keeps
   each row's game (the rows, and so the model, do not depend on the number of processes);
2. holds games out (every n-th, or the last n-th: the fitter's ``holdout``), since the rows of one game share its
   outcome and only other games tell whether a model generalises;
3. fits: ``"margin"`` a ReLU MLP by mean squared error, keeping the weights with the best held-out R^2 (early
   stopping); ``"win"`` a conditional logit per group by Newton's method, reporting the held-out log loss;
4. saves through the game's ``save``.

``meeplezoo train`` runs it before PPO when the config has ``value_games > 0`` (the advisor's model, into
``OUT/value.npz``); ``python -m meeplezoo.training.value_fit GAME NAME --games N --out FILE`` runs it alone
(``scripts/fit_board_royale_value.py`` is that call for Board Royale's shipped win model). The shipped models were
fitted by these calls (docs/training.md gives the commands).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.torch_threads import one_torch_thread
from ..envs.core.errors import MeepleZooError
from ..envs.core.manifest import load
from ..envs.core.params import ParamError, bind, parse_assignments
from ..envs.core.value_fit import ValueFitter
from .parent_watch import exit_with_parent

#: games per task of the worker processes
CHUNK = 100

Rows = dict[str, np.ndarray]


class ValueFitError(MeepleZooError, ValueError):
    """A value model that cannot be fitted as asked (one line)."""


def fitter_of(game: str, name: str) -> ValueFitter:
    """The fitter of ``game``'s value model ``name`` (its manifest's ``value_fitters``)."""
    from ..games import manifest

    found = manifest(game)
    if name not in found.value_fitters:
        names = ", ".join(found.value_fitters) or "none"
        raise ValueFitError(f"{found.name} has no value model {name!r} to fit (its manifest's value_fitters: {names})")
    return load(found.value_fitters[name])


def game_seeds(fitter: ValueFitter, seed: int, games: int) -> list[int]:
    """The seed of each game: ``seed + k``, or drawn from ``seed``."""
    if fitter.consecutive_seeds:
        return [seed + k for k in range(games)]
    return [int(s) for s in np.random.default_rng(seed).integers(2**31, size=games)]


def play_rows(
    game: str, name: str, config: Mapping[str, Any], seeds: list[int], options: Mapping[str, Any]
) -> tuple[Rows, np.ndarray]:
    """The rows of the games of ``seeds`` (a worker's task) and each row's game (its index in ``seeds``)."""
    fitter = fitter_of(game, name)
    parts: list[Rows] = []
    index: list[np.ndarray] = []
    for k, seed in enumerate(seeds):
        found = fitter.rows(dict(config), seed, **options)
        if found is None:
            continue
        part = {key: np.asarray(v) for key, v in found.items()}
        parts.append(part)
        index.append(np.full(len(next(iter(part.values()))), k, np.int64))
    return _joined(parts), np.concatenate(index) if index else np.zeros(0, np.int64)


def _joined(parts: Sequence[Rows]) -> Rows:
    """Row arrays concatenated key by key."""
    if not parts:
        return {}
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def collect(
    game: str,
    name: str,
    config: Mapping[str, Any],
    games: int,
    seed: int,
    jobs: int = 0,
    options: Mapping[str, Any] | None = None,
) -> tuple[Rows, np.ndarray]:
    """The rows of ``games`` games on ``jobs`` processes (0: one per core), and each row's game index."""
    seeds = game_seeds(fitter_of(game, name), seed, games)
    jobs = jobs or os.cpu_count() or 1
    parts = [seeds[i : i + CHUNK] for i in range(0, games, CHUNK)]
    args = (game, name, dict(config))
    if jobs == 1 or len(parts) == 1:
        results = [play_rows(*args, p, dict(options or {})) for p in parts]
    else:
        with ProcessPoolExecutor(jobs, initializer=exit_with_parent, initargs=(os.getpid(),)) as pool:
            n = len(parts)
            results = list(pool.map(play_rows, *([a] * n for a in args), parts, [dict(options or {})] * n))
    rows = _joined([r for r, _ in results])
    return rows, np.concatenate([i + k * CHUNK for k, (_, i) in enumerate(results)])


def held_out(fitter: ValueFitter, game_index: np.ndarray, games: int) -> np.ndarray:
    """Which rows are held out, by their game: every n-th game from the first, or the last n-th of the games."""
    kind, n = fitter.holdout
    return game_index % n == 0 if kind == "every" else game_index >= games * (n - 1) // n


def fit_margin(
    x: np.ndarray,
    y: np.ndarray,
    held: np.ndarray,
    hidden: Sequence[int],
    epochs: int,
    seed: int,
    log: Callable[[str], None] = print,
) -> tuple[list[tuple[np.ndarray, np.ndarray]], float]:
    """Fit a ReLU MLP to ``y`` by mean squared error on the rows not ``held``; return its layers (weights in x
    out, bias) with the best held-out R^2, and that R^2."""
    import torch

    torch.manual_seed(seed)
    if held.all() or not held.any():
        raise ValueFitError("value fit: too few games to hold some out (give more games)")
    xt, yt = torch.from_numpy(x[~held]), torch.from_numpy(y[~held])
    xh, yh = torch.from_numpy(x[held]), torch.from_numpy(y[held])
    sizes = [x.shape[1], *hidden, 1]
    modules: list[Any] = []
    for i in range(len(sizes) - 1):
        modules.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            modules.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*modules)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-4, weight_decay=1e-2)
    var = float(yh.var())
    best, best_layers = -np.inf, None
    generator = torch.Generator().manual_seed(seed)

    def held_r2() -> float:
        with torch.no_grad():
            return 1.0 - float(((net(xh).squeeze(1) - yh) ** 2).mean()) / var

    batches = -(-len(yt) // 512)
    every = max(1, batches // 4)
    for epoch in range(epochs):
        order = torch.randperm(len(yt), generator=generator)
        for k in range(batches):
            idx = order[k * 512 : (k + 1) * 512]
            loss = torch.nn.functional.mse_loss(net(xt[idx]).squeeze(1), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if (k + 1) % every == 0 or k == batches - 1:
                r2 = held_r2()
                if r2 > best:
                    best = r2
                    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
                    best_layers = [
                        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears
                    ]
        log(f"value fit: epoch {epoch + 1}/{epochs}, held-out R^2 {held_r2():.3f} (best {best:.3f})")
    assert best_layers is not None
    return best_layers, best


def win_probabilities(x: np.ndarray, alive: np.ndarray, w: np.ndarray) -> np.ndarray:
    """A conditional logit's chance to win of every seat in every position (0 for eliminated seats)."""
    u = np.where(alive, x @ w, -np.inf)
    u -= u.max(1, keepdims=True)
    e = np.exp(u)
    return e / e.sum(1, keepdims=True)


def log_loss(x: np.ndarray, alive: np.ndarray, winner: np.ndarray, w: np.ndarray) -> float:
    """Mean negative log-likelihood of the winners (uniform over living seats: ``w`` all zero)."""
    p = win_probabilities(x, alive, w)[np.arange(len(winner)), winner]
    return float(-np.log(np.maximum(p, 1e-300)).mean()) if len(winner) else float("nan")


def fit_win(x: np.ndarray, alive: np.ndarray, winner: np.ndarray, l2: float = 1e-4, steps: int = 30) -> np.ndarray:
    """Newton's method for the conditional logit: ``x`` (positions, seats, features), ``alive`` (positions, seats)
    bools, ``winner`` the winning seat of each position. Minimises the mean log loss plus ``l2 * |w|^2``."""
    n, _, k = x.shape
    w = np.zeros(k)
    rows = np.arange(n)
    for _ in range(steps):
        p = win_probabilities(x, alive, w)
        mean = np.einsum("ns,nsk->nk", p, x)
        grad = (mean - x[rows, winner]).mean(0) + 2 * l2 * w
        hess = np.einsum("ns,nsk,nsj->kj", p, x, x) / n - mean.T @ mean / n + 2 * l2 * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def fit_win_groups(
    rows: Rows, held: np.ndarray, l2: float, log: Callable[[str], None] = print
) -> tuple[dict[int, np.ndarray], dict[int, dict[str, float]]]:
    """A conditional logit per group on the rows not ``held``; the weights and each group's held-out figures."""
    weights, report = {}, {}
    x, alive, winner, group = rows["x"], rows["alive"], rows["winner"], rows["group"]
    for g in sorted({int(v) for v in group}):
        train, test = ~held & (group == g), held & (group == g)
        w = fit_win(x[train], alive[train], winner[train], l2=l2)
        weights[g] = w
        report[g] = {
            "train_rows": int(train.sum()),
            "held_rows": int(test.sum()),
            "held_log_loss": log_loss(x[test], alive[test], winner[test], w),
            "held_log_loss_uniform": log_loss(x[test], alive[test], winner[test], np.zeros_like(w)),
        }
        log(f"value fit: group {g}: {report[g]}")
    return weights, report


def fit_value_model(
    game: str,
    name: str,
    config: Mapping[str, Any],
    games: int,
    out: str | Path,
    *,
    seed: int = 0,
    jobs: int = 0,
    options: Mapping[str, Any] | None = None,
    hidden: Sequence[int] = (128, 128),
    epochs: int = 3,
    l2: float = 1e-4,
    command: str = "",
    log: Callable[[str], None] = print,
) -> dict[str, float]:
    """Play, hold out, fit and save ``game``'s value model ``name`` to ``out``; return the figures (rows,
    seconds, and the held-out R^2 of a margin model). ``hidden`` and ``epochs`` shape a margin model, ``l2`` a
    win model; ``options`` go to the game's ``rows``."""
    fitter = fitter_of(game, name)
    options = bind(f"value model {name!r} of {game}", fitter.options, dict(options or {}), typed=True)
    if games < fitter.min_games:
        raise ValueFitError(f"value fit: games must be at least {fitter.min_games}, not {games}")
    start = time.perf_counter()
    rows, index = collect(game, name, config, games, seed, jobs, options)
    played = time.perf_counter() - start
    count = len(index)
    log(f"value fit: {games} {fitter.played}, {count} rows in {played:.0f} s")
    held = held_out(fitter, index, games)
    held_games = int(held_out(fitter, np.arange(games), games).sum())
    facts: dict[str, Any] = {"config": dict(config), "games": games, "seed": seed, "options": options}
    facts |= {"command": command, "held_games": held_games, "l2": l2, "hidden": list(hidden), "epochs": epochs}
    figures: dict[str, float] = {"rows": float(count), "play_seconds": played}
    if fitter.model == "margin":
        model, r2 = _fit_margin_quietly(rows, held, hidden, epochs, seed, log)
        figures["heldout_r2"] = r2
        facts["report"] = {"heldout_r2": r2}
    else:
        model, facts["report"] = fit_win_groups(rows, held, l2, log)
    fitter.save(model, out, facts)
    log(f"Saved {out}" + (f" (held-out R^2 {figures['heldout_r2']:.3f})" if "heldout_r2" in figures else ""))
    return {**figures, "seconds": time.perf_counter() - start}


def _fit_margin_quietly(
    rows: Rows, held: np.ndarray, hidden: Sequence[int], epochs: int, seed: int, log: Callable[[str], None]
) -> tuple[list[tuple[np.ndarray, np.ndarray]], float]:
    """:func:`fit_margin` on one torch thread (a small MLP; and one thread gives the same floats anywhere)."""
    with one_torch_thread():
        return fit_margin(rows["x"], rows["y"], held, hidden, epochs, seed, log)


def main(argv: Sequence[str] | None = None, prog: str = "value_fit", command: str | None = None) -> int:
    """``GAME NAME --games N --out FILE [--seed S] [--jobs J] [--set KEY=VALUE] [--option KEY=VALUE] ...``:
    fit one value model; a bad request is one line on stderr naming ``prog`` (exit status 2). ``command`` is
    what the model's file records as the command that fitted it (default: this module's)."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("name", help="the value model (the game's manifest's value_fitters)")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per core)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="game config")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="the rows' options")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 128], help="a margin model's hidden sizes")
    parser.add_argument("--epochs", type=int, default=3, help="a margin model's passes over the rows")
    parser.add_argument("--l2", type=float, default=1e-4, help="a win model's weight penalty")
    args = parser.parse_args(argv)
    words = argv if argv is not None else sys.argv[1:]
    command = command or " ".join(["python -m meeplezoo.training.value_fit", *words])
    try:
        from ..games import manifest

        fitter = fitter_of(args.game, args.name)
        config = bind(f"{args.game} config", manifest(args.game).config_params(), parse_assignments(args.set))
        options = bind(f"value model {args.name!r}", fitter.options, parse_assignments(args.option, "--option"))
        check_request(fitter, args.games, args.epochs, args.l2, args.out)
        fit_value_model(
            args.game,
            args.name,
            config,
            args.games,
            args.out,
            seed=args.seed,
            jobs=args.jobs,
            options=options,
            hidden=args.hidden,
            epochs=args.epochs,
            l2=args.l2,
            command=command,
        )
    except (ParamError, ValueFitError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    return 0


def check_request(fitter: ValueFitter, games: int, epochs: int, l2: float, out: Path) -> None:
    """A bad request fails before any game is played: too few games, no epochs, a negative penalty, an ``out``
    that cannot be written (checked by opening it for appending: an existing file is not changed)."""
    if games < fitter.min_games or epochs < 1 or l2 < 0:
        raise ValueFitError(f"--games must be at least {fitter.min_games}, --epochs at least 1, --l2 not negative")
    existed = out.exists()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("a"):
            pass
        if not existed:
            out.unlink()
    except OSError as exc:
        raise ValueFitError(f"--out {out}: {exc.strerror}") from None


if __name__ == "__main__":
    sys.exit(main())
