"""The score card's numbers from lists of :class:`~.outcomes.Outcome`: pure functions, no I/O, deterministic.

* **Per game**: the focal seat's win share (1/k when it is one of k seats ranked first), its margin (its score minus
  the best other seat's) and its pairwise results against every other seat (1 better, 1/2 tie, 0 worse).
* **Ratings** on the Elo scale (base 10, 400 points): :func:`fit_rating` is one player's maximum-likelihood rating
  against opponents of known (frozen) ratings, :func:`fit_population` the joint Bradley-Terry fit of the calibration
  run. Both add virtual draws so that a clean sweep still has a finite rating.
* **Card entries**: :func:`multi_task_entry`, :func:`solo_task_entry` and :func:`headline` build the parts of
  ``scorecard.json``; :func:`fit_calibration` the ``tasks`` part of the frozen calibration file.

Bit-for-bit reproducibility: inputs are put in a fixed order (outcomes sorted, names sorted, sums taken with
:func:`math.fsum`), solvers run a bounded number of steps to fixed tolerances, and every float that goes into a
file is rounded to :data:`DIGITS` digits.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from statistics import median, stdev
from typing import Any, Protocol

from ..arena.ratings import Z95, wilson
from .outcomes import Outcome
from .suite import MEASURES

DIGITS = 6  # decimal digits of every float written to a card or a calibration file
ELO = math.log(10) / 400  # natural-log units per Elo point
_MAX_ITER = 200


class TaskLike(Protocol):
    """What scoring reads of a suite task (``suite.SuiteTask`` has these and more)."""

    @property
    def name(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def config(self) -> Mapping[str, Any]: ...
    @property
    def players(self) -> int: ...
    @property
    def measure(self) -> str | None: ...


# --- one game, from one seat ---------------------------------------------------------------------------------------


def _check_seat(values: Sequence[Any], seat: int) -> None:
    if not 0 <= seat < len(values):
        raise ValueError(f"seat {seat} is not one of the game's {len(values)} seats")


def win_share(ranks: Sequence[int], seat: int) -> float:
    """1/k when ``seat`` is one of the k seats ranked 0 (first), else 0."""
    _check_seat(ranks, seat)
    if ranks[seat] != 0:
        return 0.0
    return 1.0 / sum(1 for r in ranks if r == 0)


def margin(scores: Sequence[float], seat: int) -> float:
    """``seat``'s score minus the best other seat's."""
    _check_seat(scores, seat)
    if len(scores) < 2:
        raise ValueError("a margin needs at least two seats")
    return float(scores[seat]) - max(float(s) for i, s in enumerate(scores) if i != seat)


def pair_results(ranks: Sequence[int], seat: int) -> list[tuple[int, float]]:
    """``(other seat, result)`` for each other seat: 1 if ``seat`` ranked better (lower), 0.5 tied, 0 worse."""
    _check_seat(ranks, seat)
    mine = ranks[seat]
    return [(i, 1.0 if mine < r else 0.5 if mine == r else 0.0) for i, r in enumerate(ranks) if i != seat]


# --- Elo ratings -----------------------------------------------------------------------------------------------------


def expected(r: float, r_opp: float) -> float:
    """Expected score of a player rated ``r`` against one rated ``r_opp`` (Elo logistic, base 10, scale 400)."""
    d = (r_opp - r) / 400
    if d > 0:  # written so that 10**x never overflows
        t = 10.0**-d
        return t / (1 + t)
    return 1 / (1 + 10.0**d)


def _check_score(score: float) -> float:
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a result must be a score in [0, 1], got {score}")
    return float(score)


def fit_rating(results: Sequence[tuple[float, float]], prior: Sequence[float] = ()) -> tuple[float, float]:
    """Maximum-likelihood rating of one player from ``(opponent rating, result)`` pairs, plus one virtual draw
    against each rating in ``prior``; returns ``(rating, standard error)``, the error from the Fisher information.

    The root of the score equation is bracketed, then found by Newton steps that fall back to bisection whenever a
    step leaves the bracket, so it cannot diverge. Without a prior, all wins (or all losses) have no finite maximum:
    that raises ``ValueError``.
    """
    games: dict[float, list[float]] = defaultdict(list)  # opponent rating -> results (the virtual draws included)
    for opp, score in results:
        games[float(opp)].append(_check_score(score))
    for opp in prior:
        games[float(opp)].append(0.5)
    if not games:
        raise ValueError("no results and no prior: nothing to rate")
    table = [(opp, len(got), math.fsum(got)) for opp, got in sorted(games.items())]
    total = math.fsum(s for _, _, s in table)
    played = sum(n for _, n, _ in table)
    if total <= 0.0 or total >= played:
        what = "all wins" if total >= played else "all losses"
        raise ValueError(f"{what} and no prior: the rating has no finite maximum (add a virtual draw via prior)")

    def excess(r: float) -> float:  # actual minus expected score; decreasing in r, zero at the rating
        return total - math.fsum(n * expected(r, opp) for opp, n, _ in table)

    lo, hi = _bracket(excess, table[0][0] - 400.0, table[-1][0] + 400.0)
    r = 0.5 * (lo + hi)
    for _ in range(_MAX_ITER):
        g = excess(r)
        if g == 0.0:
            break
        if g > 0:
            lo = r
        else:
            hi = r
        slope = ELO * _information(r, table)  # -d excess / dr
        step = r + g / slope if slope > 0 else math.nan
        nxt = step if lo < step < hi else 0.5 * (lo + hi)
        done = abs(nxt - r) < 1e-10 or hi - lo < 1e-10
        r = nxt
        if done:
            break
    return r, 1.0 / (ELO * math.sqrt(_information(r, table)))


def _information(r: float, table: Sequence[tuple[float, int, float]]) -> float:
    """Sum of n E (1 - E) over the opponents: the Fisher information, in units of ELO**2."""
    return math.fsum(n * expected(r, opp) * expected(opp, r) for opp, n, _ in table)


def _bracket(excess: Callable[[float], float], lo: float, hi: float) -> tuple[float, float]:
    """Widen [lo, hi] until ``excess`` is positive at lo and negative at hi (it is decreasing)."""
    width = hi - lo
    for _ in range(64):
        if excess(lo) > 0 and excess(hi) < 0:
            return lo, hi
        lo, hi, width = lo - width, hi + width, 2 * width
    raise ValueError("the results are too lopsided for a finite rating")


def fit_population(
    results: Sequence[tuple[str, str, float]], anchor: str = "random", anchor_rating: float = 0.0
) -> dict[str, float]:
    """Joint Elo (Bradley-Terry) maximum-likelihood ratings from pairwise results ``(a, b, score of a in [0, 1])``,
    with one virtual draw per pair of agents that met (keeps every rating finite), ``anchor`` set to
    ``anchor_rating``. Damped Newton on the log-likelihood until no rating moves by 1e-9; names sorted.
    """
    pairs = _pair_table(results)
    names = sorted({x for ab in pairs for x in ab})
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} is not among the rated agents ({', '.join(names) or 'none'})")
    _check_connected(names, pairs, anchor)
    free = [x for x in names if x != anchor]
    index = {x: i for i, x in enumerate(free)}
    table = [(index.get(a), index.get(b), n, w) for (a, b), (n, w) in sorted(pairs.items())]
    theta = [0.0] * len(free)  # natural-log units, the anchor at 0
    for _ in range(_MAX_ITER):
        grad, hess = _derivatives(theta, table)
        step = _solve(hess, grad)  # hess is -(Hessian): positive definite on a connected graph
        if max((abs(s) for s in step), default=0.0) < 1e-9 * ELO:
            theta = [t + s for t, s in zip(theta, step, strict=True)]
            break
        # halve an overshooting step; the slack ignores rounding noise once the likelihood is flat at the maximum
        base, t = _log_likelihood(theta, table), 1.0
        floor = base - 1e-12 * max(1.0, abs(base))
        while t > 1e-12 and _log_likelihood([x + t * s for x, s in zip(theta, step, strict=True)], table) < floor:
            t *= 0.5
        theta = [x + t * s for x, s in zip(theta, step, strict=True)]
    else:
        raise ValueError("the joint rating fit did not converge")  # not reached: the likelihood is strictly concave
    ratings = {x: anchor_rating + theta[index[x]] / ELO for x in free}
    ratings[anchor] = float(anchor_rating)
    return {x: ratings[x] for x in names}


def _pair_table(results: Iterable[tuple[str, str, float]]) -> dict[tuple[str, str], tuple[int, float]]:
    """``(a, b)`` with a < b -> (games, a's total score), the virtual draw included."""
    got: dict[tuple[str, str], list[float]] = defaultdict(list)
    for a, b, score in results:
        s = _check_score(score)
        if a == b:
            raise ValueError(f"a result of {a!r} against itself")
        if a < b:
            got[(a, b)].append(s)
        else:
            got[(b, a)].append(1.0 - s)
    return {ab: (len(s) + 1, math.fsum(s) + 0.5) for ab, s in got.items()}


def _check_connected(names: Sequence[str], pairs: Iterable[tuple[str, str]], anchor: str) -> None:
    met: dict[str, set[str]] = defaultdict(set)
    for a, b in pairs:
        met[a].add(b)
        met[b].add(a)
    seen, todo = {anchor}, [anchor]
    while todo:
        for other in met[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    if len(seen) < len(names):
        cut = ", ".join(x for x in names if x not in seen)
        raise ValueError(f"the results do not connect {cut} to the anchor {anchor!r}: no common rating scale")


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _diff(theta: Sequence[float], i: int | None, j: int | None) -> float:
    return (theta[i] if i is not None else 0.0) - (theta[j] if j is not None else 0.0)


def _log_likelihood(theta: Sequence[float], table: Sequence[tuple[int | None, int | None, int, float]]) -> float:
    terms = []
    for i, j, n, w in table:
        d = _diff(theta, i, j)
        terms.append(w * _log_sigmoid(d) + (n - w) * _log_sigmoid(-d))
    return math.fsum(terms)


def _derivatives(
    theta: Sequence[float], table: Sequence[tuple[int | None, int | None, int, float]]
) -> tuple[list[float], list[list[float]]]:
    """Gradient of the log-likelihood and minus its Hessian, over the free ratings."""
    k = len(theta)
    grad: list[list[float]] = [[] for _ in range(k)]
    hess: list[list[list[float]]] = [[[] for _ in range(k)] for _ in range(k)]
    for i, j, n, w in table:
        p = 1 / (1 + math.exp(-_diff(theta, i, j)))
        g, h = w - n * p, n * p * (1 - p)
        for x, sign in ((i, 1.0), (j, -1.0)):
            if x is not None:
                grad[x].append(sign * g)
                hess[x][x].append(h)
        if i is not None and j is not None:
            hess[i][j].append(-h)
            hess[j][i].append(-h)
    return [math.fsum(g) for g in grad], [[math.fsum(h) for h in row] for row in hess]


def _solve(a: Sequence[Sequence[float]], b: Sequence[float]) -> list[float]:
    """x with a x = b by Gaussian elimination with partial pivoting (small systems; no BLAS, so bit-stable)."""
    k = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, k):
            f = m[r][c] / m[c][c]
            m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    x = [0.0] * k
    for c in reversed(range(k)):
        x[c] = (m[c][k] - math.fsum(m[c][j] * x[j] for j in range(c + 1, k))) / m[c][c]
    return x


# --- score card entries ----------------------------------------------------------------------------------------------


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, DIGITS) + 0.0  # + 0.0: no "-0.0" in the files


def _pair(lo: float, hi: float) -> list[float | None]:
    return [_round(lo), _round(hi)]


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean +- 1.96 standard errors (sample sd); the interval is the mean alone for one."""
    if not values:
        raise ValueError("the mean of no values")
    m = math.fsum(values) / len(values)
    half = Z95 * stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return m, m - half, m + half


def _sorted(task: TaskLike, outcomes: Iterable[Outcome]) -> list[Outcome]:
    """The task's outcomes in a fixed order (so every sum is taken the same way), checked against the task."""
    got = sorted(outcomes, key=lambda o: (o.background or "", o.seed, o.focal_seat))
    for o in got:
        if o.task != task.name:
            raise ValueError(f"an outcome of task {o.task!r} given to task {task.name!r}")
        if len(o.ranks) != task.players or len(o.scores) != task.players:
            raise ValueError(f"an outcome of {task.name} with {len(o.ranks)} seats, not {task.players}")
    return got


def _head(task: TaskLike, kind: str, outcomes: Sequence[Outcome], scheduled: int) -> dict[str, Any]:
    return {
        "name": task.name,
        "game": task.game,
        "players": task.players,
        "config": dict(task.config),
        "kind": kind,
        "games": len(outcomes),
        "seeds": sorted({o.seed for o in outcomes}),
        "complete": len(outcomes) == scheduled,
    }


def _cpu_per_decision(outcomes: Sequence[Outcome]) -> float | None:
    decisions = sum(o.focal_decisions for o in outcomes)
    return _round(math.fsum(o.focal_cpu for o in outcomes) / decisions) if decisions else None


def _normalised(value: float, reference: Mapping[str, float], what: str) -> float:
    """(value - random's) / (heuristic's - random's)."""
    missing = [x for x in ("random", "heuristic") if x not in reference]
    if missing:
        raise ValueError(f"no frozen {what} of {' or '.join(missing)}: cannot normalise")
    span = reference["heuristic"] - reference["random"]
    if span == 0:
        raise ValueError(f"the frozen {what} of heuristic and random are equal: cannot normalise")
    return (value - reference["random"]) / span


def _vs_entry(background: str, games: Sequence[Outcome]) -> dict[str, Any]:
    """One background agent's line of a multi-player task."""
    n = len(games)
    wins = math.fsum(win_share(o.ranks, o.focal_seat) for o in games)
    entry: dict[str, Any] = {"background": background, "games": n, "wins": _round(wins)}
    if n:
        m, lo, hi = mean_interval([margin(o.scores, o.focal_seat) for o in games])
        entry |= {"win_rate": _round(wins / n), "ci": _pair(*wilson(wins, n))}
        entry |= {"margin": _round(m), "margin_ci": _pair(lo, hi)}
    else:
        entry |= {"win_rate": None, "ci": None, "margin": None, "margin_ci": None}
    return entry | {
        "focal_forfeits": sum(1 for o in games if o.forfeit_seat is not None and o.forfeit_seat == o.focal_seat),
        "background_forfeits": sum(1 for o in games if o.forfeit_seat is not None and o.forfeit_seat != o.focal_seat),
        "truncated": sum(1 for o in games if o.truncated),
    }


def multi_task_entry(
    task: TaskLike,
    outcomes: Iterable[Outcome],
    ratings: Mapping[str, float],
    backgrounds: Sequence[str],
    scheduled: int,
) -> dict[str, Any]:
    """The card's entry of a multi-player task: per background agent (in ``backgrounds`` order) wins, win rate,
    margin, forfeits and truncations; the rating against the frozen ``ratings`` with its 95% interval (a virtual
    draw against each background met); normalised = (R - R_random) / (R_heuristic - R_random). ``complete`` says
    whether all ``scheduled`` games are in. Every game's margin counts, forfeited or truncated ones included."""
    games = _sorted(task, outcomes)
    by_background: dict[str, list[Outcome]] = {b: [] for b in backgrounds}
    for o in games:
        if o.background not in by_background:
            raise ValueError(f"{task.name}: background {o.background!r} is not one of {', '.join(backgrounds)}")
        by_background[o.background].append(o)
    met = [b for b in backgrounds if by_background[b]]
    unrated = [b for b in met if b not in ratings]
    if unrated:
        raise ValueError(f"{task.name}: no frozen rating of {', '.join(unrated)}")
    entry = _head(task, "multi", games, scheduled)
    entry["vs"] = [_vs_entry(b, by_background[b]) for b in backgrounds]
    if games:
        pairs = [(ratings[o.background], s) for o in games for _, s in pair_results(o.ranks, o.focal_seat)]
        rating, se = fit_rating(pairs, prior=[ratings[b] for b in met])
        entry |= {"rating": _round(rating), "rating_ci": _pair(rating - Z95 * se, rating + Z95 * se)}
        entry["normalised"] = _round(_normalised(rating, ratings, "ratings"))
    else:
        entry |= {"rating": None, "rating_ci": None, "normalised": None}
    entry["cpu_per_decision"] = _cpu_per_decision(games)
    return entry


def _solo_margins(task: TaskLike, games: Sequence[Outcome]) -> list[float]:
    """Score minus the automa's, over the games that keep the automa's score (all of them when it is the measure)."""
    kept = [o.scores[0] - o.automa_score for o in games if o.automa_score is not None]
    if task.measure == "margin" and len(kept) < len(games):
        raise ValueError(f"{task.name}: its measure is the margin but {len(games) - len(kept)} games lack the automa")
    return kept


def solo_task_entry(
    task: TaskLike,
    outcomes: Iterable[Outcome],
    means: Mapping[str, float],
    band: Callable[[float], str] | None,
    scheduled: int,
) -> dict[str, Any]:
    """The card's entry of a solo task: mean score with its 95% interval, wins (``ranks[0] == 0``: beat the automa or
    the target), the margin over the automa where its score is kept (else null), counts per band (``band`` maps a
    score to its band's name; ``{}`` without), and normalised = (mean measure - random's mean) / (heuristic's -
    random's) with the frozen ``means``. Forfeited games count like any other."""
    if task.measure not in MEASURES:
        raise ValueError(f"{task.name}: measure {task.measure!r} is not one of {', '.join(MEASURES)}")
    games = _sorted(task, outcomes)
    entry = _head(task, "solo", games, scheduled)
    entry["measure"] = task.measure
    scores = [float(o.scores[0]) for o in games]
    margins = _solo_margins(task, games)
    wins = sum(1 for o in games if o.ranks[0] == 0)
    if games:
        m, lo, hi = mean_interval(scores)
        entry |= {"mean_score": _round(m), "score_ci": _pair(lo, hi), "wins": wins}
        entry |= {"win_rate": _round(wins / len(games)), "ci": _pair(*wilson(wins, len(games)))}
    else:
        entry |= {"mean_score": None, "score_ci": None, "wins": 0, "win_rate": None, "ci": None}
    if margins:
        m, lo, hi = mean_interval(margins)
        entry |= {"margin": _round(m), "margin_ci": _pair(lo, hi)}
    else:
        entry |= {"margin": None, "margin_ci": None}
    entry["bands"] = _bands(scores, band)
    measured = margins if task.measure == "margin" else scores
    normalised = _normalised(math.fsum(measured) / len(measured), means, "means") if measured else None
    entry["normalised"] = _round(normalised)
    entry["cpu_per_decision"] = _cpu_per_decision(games)
    return entry


def _bands(scores: Sequence[float], band: Callable[[float], str] | None) -> dict[str, int]:
    """Games per band, the bands in the order of their lowest score."""
    if band is None:
        return {}
    low: dict[str, float] = {}
    count: dict[str, int] = defaultdict(int)
    for s in scores:
        name = band(s)
        count[name] += 1
        low[name] = min(low.get(name, s), s)
    return {name: count[name] for name in sorted(count, key=lambda x: (low[x], x))}


def headline(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The card's headline: mean and median of the played tasks' normalised scores, how many tasks of how many."""
    got = [float(e["normalised"]) for e in entries if e.get("normalised") is not None]
    score = _round(math.fsum(got) / len(got)) if got else None
    return {"score": score, "median": _round(median(got)) if got else None, "tasks": len(got), "of": len(entries)}


# --- calibration -----------------------------------------------------------------------------------------------------


def calibration_results(outcomes_by_agent: Mapping[str, Sequence[Outcome]]) -> dict[str, list[tuple[str, str, float]]]:
    """Per multi-player task, the pairwise results ``(focal agent, background agent, score)``, one per other seat of
    every game (solo outcomes and an agent's games against itself carry no pairwise information and are left out).
    Agents in name order, each agent's games in a fixed order."""
    got: dict[str, list[tuple[str, str, float]]] = defaultdict(list)
    for agent in sorted(outcomes_by_agent):
        games = sorted(outcomes_by_agent[agent], key=lambda o: (o.task, o.background or "", o.seed, o.focal_seat))
        for o in games:
            if o.background is None or o.background == agent:
                continue
            got[o.task].extend((agent, o.background, s) for _, s in pair_results(o.ranks, o.focal_seat))
    return {task: got[task] for task in sorted(got)}


def fit_calibration(
    outcomes_by_agent: Mapping[str, Sequence[Outcome]], solo_measures: Mapping[str, str]
) -> dict[str, dict[str, Any]]:
    """The ``tasks`` part of the calibration file: per multi-player task the joint ratings (random = 0) and its
    number of games; per solo task (``solo_measures``: task name -> "score" or "margin") each agent's mean measure
    and the number of games. Tasks in name order."""
    multi_games: dict[str, int] = defaultdict(int)
    solo: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for agent in sorted(outcomes_by_agent):
        games = sorted(outcomes_by_agent[agent], key=lambda o: (o.task, o.background or "", o.seed, o.focal_seat))
        for o in games:
            if o.background is not None:
                multi_games[o.task] += 1
                continue
            measure = solo_measures.get(o.task)
            if measure not in MEASURES:
                raise ValueError(f"solo task {o.task}: measure {measure!r} is not one of {', '.join(MEASURES)}")
            if measure == "margin" and o.automa_score is None:
                raise ValueError(f"solo task {o.task}: a game of {agent} lacks the automa score its margin needs")
            solo[o.task][agent].append(o.scores[0] - (o.automa_score if measure == "margin" else 0.0))
    tasks: dict[str, dict[str, Any]] = {}
    pairwise = calibration_results(outcomes_by_agent)
    for task in sorted(set(multi_games) | set(solo)):
        if task in solo:
            means = {a: _round(math.fsum(v) / len(v)) for a, v in sorted(solo[task].items())}
            tasks[task] = {"means": means, "games": sum(len(v) for v in solo[task].values())}
            continue
        try:
            ratings = fit_population(pairwise.get(task, []), anchor="random", anchor_rating=0.0)
        except ValueError as e:
            raise ValueError(f"calibration of {task}: {e}") from None
        tasks[task] = {"ratings": {a: _round(r) for a, r in ratings.items()}, "games": multi_games[task]}
    return tasks
