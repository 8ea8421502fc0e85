"""The arena report: rich tables on the terminal, or a Markdown file with PNG plots, from the database alone.

``meeplezoo arena --report results.sqlite --out report/`` writes ``report/README.md`` and, per context,
``<context>-ratings.png`` (ratings with 95% intervals), ``<context>-winrates.png`` (the pairwise win-rate
matrix as a heat map) and ``<context>-scores.png`` (score distributions per agent). Each context names the ids
of the games it summarises (``meeplezoo replay DB ID`` or the Watch page opens one); a plot's title is the
game's name and the settings that differ from its defaults. A game whose score is only a final ranking and
whose table declares a chart quantity (Board Royale: escape points) gets a plot of that quantity at the end of
each game instead: its stored games are replayed.

Each context says how its games' agents ran (:func:`run_modes`: each in its own process and under which budget, in
the referee's process with ``--isolation none``, or not recorded for games stored before MeepleZoo recorded it),
and counts its truncated games: a game stopped at its decision cap is ranked by the game's standing there
(``State.adjudicated_ranks``, per game in its rules page) and rated so; a truncated game stored before that (no
recorded mode: its ranks may be an all-way tie) is counted, not rated.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import games
from ..agents.budget import BUDGET_PARAMS
from ..envs.core.manifest import load
from . import replay
from .contexts import context_title, split_context
from .ratings import ContextStats
from .store import GameRow, Store

# --- shared rows -----------------------------------------------------------------------------------------------


def _f(x: float, fmt: str = ".1f") -> str:
    return "-" if isinstance(x, float) and math.isnan(x) else format(x, fmt)


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def summary_line(cs: ContextStats) -> str:
    extra = []
    if cs.forfeited:
        extra.append(f"{cs.forfeited} forfeited")
    unrated = cs.games - cs.rated  # every stored game is rated but a truncated one stored before adjudication
    if cs.truncated > unrated:
        extra.append(f"{cs.truncated - unrated} truncated (ranked by the game's standing at its decision cap)")
    if unrated:
        extra.append(f"{unrated} truncated before adjudication (not rated)")
    if cs.solo:
        extra.insert(0, "solo: not rated; won = the automa beaten or the solo goal reached")
    title = context_title(*split_context(cs.context))
    seats = "1 seat" if cs.solo else f"{cs.seats} seats"
    return f"{title}: {cs.games} games, {seats}" + (f" ({', '.join(extra)})" if extra else "")


def budget_text(budget: Mapping[str, Any] | None) -> str:
    """A stored budget as ``decision_seconds=30 memory_mb=4096 start_seconds=120``: the limits set, in the budget's
    key order (keys it does not know after them); ``no limits`` when none is set."""
    values = dict(budget or {})
    known = [p.name for p in BUDGET_PARAMS]
    keys = [k for k in known if k in values] + sorted(set(values) - set(known))
    text = " ".join(
        f"{k}={values[k]:g}" if isinstance(values[k], float) else f"{k}={values[k]}"
        for k in keys
        if values[k] is not None
    )
    return text or "no limits"


def run_mode(isolation: str | None, budget: Mapping[str, Any] | None) -> str:
    """How the agents of a stored game ran (its ``isolation`` and ``budget`` columns), in words."""
    if isolation is None:
        return "not recorded (stored before MeepleZoo recorded the isolation mode)"
    if isolation == "none":
        limit = (budget or {}).get("decision_seconds")
        per = f"{limit:g} s per decision" if limit else "no time limit"
        return f"in the referee's process (--isolation none: trusted agents), {per}"
    if isolation == "process":
        return f"each agent in its own process, budget {budget_text(budget)}"
    return f"isolation {isolation!r} (unknown to this MeepleZoo), budget {budget_text(budget)}"


def run_modes(rows: Iterable[GameRow]) -> dict[str, list[str]]:
    """Per context, how its stored games' agents ran: ``40 games: each agent in its own process ...``, one line per
    mode and budget, most games first."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        counts[row.context][run_mode(row.isolation, row.budget)] += 1
    return {context: [f"{n} games: {text}" for text, n in c.most_common()] for context, c in counts.items()}


def rating_rows(cs: ContextStats) -> tuple[list[str], list[list[str]]]:
    head = ["agent", "rating mu", "sigma", "95% interval", "mu - 3 sigma", "rated games"]
    rows = []
    for s in cs.ranking():
        interval = f"{s.low:.1f} .. {s.high:.1f}"
        rows.append([s.spec, f"{s.mu:.2f}", f"{s.sigma:.2f}", interval, f"{s.mu - 3 * s.sigma:.1f}", str(s.games)])
    return head, rows


def agent_rows(cs: ContextStats) -> tuple[list[str], list[list[str]]]:
    head = [
        "agent",
        "won" if cs.solo else "firsts",
        "mean score",
        "mean rank (0 = won)",
        "forfeits",
        "ms per decision",
        "longest decision s",
    ]
    rows = []
    for s in cs.ranking():
        forfeits = ", ".join(f"{n} {reason}" for reason, n in sorted(s.forfeits.items())) or "0"
        rows.append(
            [
                s.spec,
                _pct(s.firsts / s.games if s.games else float("nan")),
                _f(s.mean_score),
                _f(s.mean_rank - 1, ".2f"),  # AgentStats ranks are 1-based; every table says 0 = won
                forfeits,
                _f(s.ms_per_decision, ".2f"),
                _f(s.longest, ".3f"),
            ]
        )
    return head, rows


def pair_rows(cs: ContextStats) -> tuple[list[str], list[list[str]]]:
    head = ["agent", "against", "games", "ahead", "tied", "win rate", "Wilson 95%"]
    rows = []
    for (a, b), p in sorted(cs.pairs.items()):
        if p.games:
            lo, hi = p.interval
            rows.append([a, b, str(p.games), str(p.wins), str(p.ties), _pct(p.rate), f"{_pct(lo)} .. {_pct(hi)}"])
    return head, rows


def seat_rows(cs: ContextStats) -> tuple[list[str], list[list[str]]]:
    head = ["seat", "first places", "share", "Wilson 95%", "even share"]
    rows = []
    for seat in range(cs.seats):
        rate, lo, hi = cs.seat_rate(seat)
        rows.append(
            [str(seat), _f(cs.seat_firsts[seat], "g"), _pct(rate), f"{_pct(lo)} .. {_pct(hi)}", _pct(1 / cs.seats)]
        )
    return head, rows


def length_rows(cs: ContextStats) -> tuple[list[str], list[list[str]]]:
    n = cs.length
    head = ["decisions: mean", "median", "min", "max", "seconds per game"]
    return head, [[_f(n["mean"]), _f(n["median"], "g"), _f(n["min"], "g"), _f(n["max"], "g"), _f(n["seconds"], ".3f")]]


SECTIONS = (
    ("Ratings (openskill Plackett-Luce)", rating_rows),
    ("Per agent", agent_rows),
    ("Pairwise win rates", pair_rows),
    ("First-seat advantage", seat_rows),
    ("Game length", length_rows),
)
#: a solo context's sections: one seat, so no ratings, pairs or seat advantage
SOLO_SECTIONS = (("Per agent", agent_rows), ("Game length", length_rows))


def sections(cs: ContextStats) -> tuple[tuple[str, Any], ...]:
    """The report's sections for ``cs``: titles and the functions that make their tables."""
    return SOLO_SECTIONS if cs.solo else SECTIONS


# --- terminal --------------------------------------------------------------------------------------------------


def print_report(console: Console, stats: list[ContextStats], modes: Mapping[str, list[str]] | None = None) -> None:
    """The report's tables per context; with ``modes`` (:func:`run_modes` of the stored games), under each context's
    title, how its agents ran."""
    for cs in stats:
        console.rule(summary_line(cs))
        for line in (modes or {}).get(cs.context, []):
            console.print(Text(f"agents: {line}"), soft_wrap=True)
        for title, rows_of in sections(cs):
            head, rows = rows_of(cs)
            t = Table(title=title)
            for i, col in enumerate(head):
                t.add_column(col, justify="left" if i == 0 or col == "against" else "right", overflow="fold")
            for row in rows:
                t.add_row(*row)
            console.print(t)


# --- Markdown and plots ----------------------------------------------------------------------------------------


def slug(context: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", context).strip("-").lower()


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def id_ranges(ids: list[int]) -> str:
    """Game ids as sorted runs: ``1-12, 15, 20-24``."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def chart_of(state: Any) -> dict[str, Any] | None:
    """The game's own chart entry of ``state`` (its full table's ``chart``: what the Watch page plots instead of a
    score that is only a final ranking: a label and a value per seat), or None where its table has none."""
    ref = games.manifest(state.game.name).table
    if ref is None:  # a game without a table of its own (the generic one has no chart)
        return None
    return load(ref)(state, None).get("chart")


SCORES = ("Scores", "final score (finished, non-forfeited games)")


def plotted(cs: ContextStats, store: Store, ids: list[int]) -> tuple[str, str, list[tuple[str, list[float]]]]:
    """The score plot's title, y label and values per agent (best first): the final scores, or, for a game whose
    table declares a chart quantity (Board Royale: escape points), that quantity at the end of each game (the
    stored games replayed), over the same games (finished, non-forfeited)."""
    ranked = cs.ranking()
    rows = [row for row in map(store.game, ids) if not row.truncated and row.forfeit is None]
    chart = chart_of(replay.new_state(rows[0])) if rows else None
    if chart is None:
        return *SCORES, [(s.spec, s.scores) for s in ranked]
    title, label = f"Final {chart['label']} (the score is only a ranking: see the rules)", chart["label"]
    values: dict[str, list[float]] = {s.spec: [] for s in ranked}
    stale = 0
    for row in rows:
        try:
            got = chart_of(replay.replay(row))["values"]
        except replay.ReplayMismatch:  # stored by an engine that played differently: left out, and said so
            stale += 1
            continue
        for spec, x in zip(row.seats, got, strict=True):
            values[spec].append(float(x))
    if stale:
        title += f"\n{stale} games left out: they no longer replay to their stored scores"
    return title, label, [(s.spec, values[s.spec]) for s in ranked]


def write_report(stats: list[ContextStats], out: str | Path, source: str | Path) -> list[Path]:
    """Write ``out/README.md`` and the PNG plots of ``stats``, computed from the arena database ``source``
    (read for the ids of each context's games and the games a plot replays); return the files written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    parts = [f"# Arena report\n\nFrom `{source}`: {sum(cs.games for cs in stats)} games in {len(stats)} context(s).\n"]
    with Store(source, create=False) as store:
        ids: dict[str, list[int]] = {cs.context: [] for cs in stats}
        stored = [row for row in store.games(actions=False) if row.context in ids]
        for row in stored:
            ids[row.context].append(row.id)
        modes = run_modes(stored)
        for cs in stats:
            name = slug(cs.context)
            game, config = split_context(cs.context)
            parts.append(f"## {context_title(game, config)}\n\n{summary_line(cs)}; config `{json.dumps(config)}`.\n")
            parts.append(
                f"Game ids: {id_ranges(ids[cs.context])} (open one with `meeplezoo replay {source} ID`, "
                f"or on the Watch page of `meeplezoo serve --db {source}`).\n"
            )
            parts.append("How the agents ran:\n\n" + "".join(f"- {line}\n" for line in modes[cs.context]))
            for title, rows_of in sections(cs):
                head, rows = rows_of(cs)
                parts.append(f"### {title}\n\n{_md_table(head, rows)}\n")
            shown = plotted(cs, store, ids[cs.context])
            plots = (
                ("ratings", lambda p, cs=cs: plot_ratings(cs, p)),
                ("winrates", lambda p, cs=cs: plot_winrates(cs, p)),
                ("scores", lambda p, cs=cs, shown=shown: plot_scores(cs, p, *shown)),
            )
            if cs.solo:  # no ratings or pairs to plot
                plots = tuple(p for p in plots if p[0] == "scores")
            for kind, plot in plots:
                path = out / f"{name}-{kind}.png"
                plot(path)
                written.append(path)
                parts.append(f"![{kind}]({path.name})\n")
    md = out / "README.md"
    md.write_text("\n".join(parts), encoding="utf-8")
    return [md, *written]


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 11})
    return plt


#: every plot's resolution (dots per inch)
DPI = 120


def plot_title(what: str, cs: ContextStats) -> str:
    """A plot title: ``what``, then the game's name and the settings that differ from its defaults."""
    return what + "\n" + "\n".join(textwrap.wrap(context_title(*split_context(cs.context)), 60))


def _label_room(specs: list[str]) -> float:
    """Inches of figure width for tick labels of these agent specs (about 0.09 in. per character at 11 pt)."""
    return 0.09 * max((len(s) for s in specs), default=0)


def plot_ratings(cs: ContextStats, path: Path) -> None:
    plt = _pyplot()
    ranked = cs.ranking()[::-1]
    fig, ax = plt.subplots(figsize=(7 + _label_room([s.spec for s in ranked]), 0.7 * len(ranked) + 2.8))
    ax.errorbar(
        [s.mu for s in ranked],
        range(len(ranked)),
        xerr=[[s.mu - s.low for s in ranked], [s.high - s.mu for s in ranked]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(range(len(ranked)), [s.spec for s in ranked])
    ax.set_xlabel("rating mu (95% interval: mu +- 1.96 sigma)")
    ax.set_title(title := plot_title("Ratings", cs), fontsize=12)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, metadata={"Title": title})  # the title, readable without OCR
    plt.close(fig)


def plot_winrates(cs: ContextStats, path: Path) -> None:
    plt = _pyplot()
    specs = [s.spec for s in cs.ranking()]
    grid = [[cs.pairs[(a, b)].rate if a != b else float("nan") for b in specs] for a in specs]
    room = _label_room(specs)
    fig, ax = plt.subplots(figsize=(1.4 * len(specs) + 4 + room, 1.1 * len(specs) + 3 + 0.6 * room))
    im = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                ax.text(j, i, f"{100 * v:.0f}%\n({cs.pairs[(specs[i], specs[j])].games})", ha="center", va="center")
    ax.set_xticks(range(len(specs)), specs, rotation=30, ha="right")
    ax.set_yticks(range(len(specs)), specs)
    ax.set_xlabel("against")
    ax.set_title(title := plot_title("Win rate of row against column (games)", cs), fontsize=12)
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, metadata={"Title": title})  # the title, readable without OCR
    plt.close(fig)


def plot_scores(
    cs: ContextStats, path: Path, title: str = SCORES[0], label: str = SCORES[1], values: list | None = None
) -> None:
    """Box plots per agent (best first) of ``values`` (default: the final scores) on a y axis named ``label``."""
    plt = _pyplot()
    if values is None:
        values = [(s.spec, s.scores) for s in cs.ranking()]
    room = _label_room([spec for spec, _ in values])
    fig, ax = plt.subplots(figsize=(1.5 * len(values) + 5 + 0.5 * room, 5.5 + 0.6 * room))
    ax.boxplot([xs or [float("nan")] for _, xs in values], showmeans=True)
    ax.set_xticks(range(1, len(values) + 1), [spec for spec, _ in values], rotation=30, ha="right")
    ax.set_ylabel("\n".join(textwrap.wrap(label, 40)))
    ax.set_title(title := plot_title(title, cs), fontsize=12)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, metadata={"Title": title})  # the title, readable without OCR
    plt.close(fig)
