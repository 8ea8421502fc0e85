"""The arena report: rich tables on the terminal, or a Markdown file with PNG plots, from the database alone.

``meeplezoo arena --report results.sqlite --out report/`` writes ``report/README.md`` and, per context,
``<context>-ratings.png`` (ratings with 95% intervals), ``<context>-winrates.png`` (the pairwise win-rate
matrix as a heat map) and ``<context>-scores.png`` (score distributions per agent).
"""

from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .ratings import ContextStats

# --- shared rows -----------------------------------------------------------------------------------------------


def _f(x: float, fmt: str = ".1f") -> str:
    return "-" if isinstance(x, float) and math.isnan(x) else format(x, fmt)


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def summary_line(cs: ContextStats) -> str:
    extra = []
    if cs.forfeited:
        extra.append(f"{cs.forfeited} forfeited")
    if cs.truncated:
        extra.append(f"{cs.truncated} truncated (not rated)")
    return f"{cs.context}: {cs.games} games, {cs.seats} seats" + (f" ({', '.join(extra)})" if extra else "")


def rating_rows(cs: ContextStats) -> tuple[list[str], list[list[str]]]:
    head = ["agent", "rating mu", "sigma", "95% interval", "mu - 3 sigma", "rated games"]
    rows = []
    for s in cs.ranking():
        interval = f"{s.low:.1f} .. {s.high:.1f}"
        rows.append([s.spec, f"{s.mu:.2f}", f"{s.sigma:.2f}", interval, f"{s.mu - 3 * s.sigma:.1f}", str(s.games)])
    return head, rows


def agent_rows(cs: ContextStats) -> tuple[list[str], list[list[str]]]:
    head = ["agent", "firsts", "mean score", "mean rank", "forfeits", "ms/decision", "longest decision s"]
    rows = []
    for s in cs.ranking():
        forfeits = ", ".join(f"{n} {reason}" for reason, n in sorted(s.forfeits.items())) or "0"
        rows.append(
            [
                s.spec,
                _pct(s.firsts / s.games if s.games else float("nan")),
                _f(s.mean_score),
                _f(s.mean_rank, ".2f"),
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


# --- terminal --------------------------------------------------------------------------------------------------


def print_report(console: Console, stats: list[ContextStats]) -> None:
    for cs in stats:
        console.rule(summary_line(cs))
        for title, rows_of in SECTIONS:
            head, rows = rows_of(cs)
            t = Table(title=title)
            for i, col in enumerate(head):
                t.add_column(col, justify="left" if i == 0 or col == "against" else "right", no_wrap=True)
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


def write_report(stats: list[ContextStats], out: str | Path, source: str) -> list[Path]:
    """Write ``out/README.md`` and the PNG plots; return the files written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    parts = [f"# Arena report\n\nFrom `{source}`: {sum(cs.games for cs in stats)} games in {len(stats)} context(s).\n"]
    for cs in stats:
        name = slug(cs.context)
        parts.append(f"## {cs.context}\n\n{summary_line(cs)}.\n")
        for title, rows_of in SECTIONS:
            head, rows = rows_of(cs)
            parts.append(f"### {title}\n\n{_md_table(head, rows)}\n")
        for kind, plot in (("ratings", plot_ratings), ("winrates", plot_winrates), ("scores", plot_scores)):
            path = out / f"{name}-{kind}.png"
            plot(cs, path)
            written.append(path)
            parts.append(f"![{kind}]({path.name})\n")
    md = out / "README.md"
    md.write_text("\n".join(parts), encoding="utf-8")
    return [md, *written]


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _title(what: str, cs: ContextStats) -> str:
    """A plot title: ``what`` over the context, wrapped so that a long config fits the figure."""
    return what + "\n" + "\n".join(textwrap.wrap(cs.context, 70))


def _label_room(specs: list[str]) -> float:
    """Inches of figure width for tick labels of these agent specs (about 0.075 in. per character)."""
    return 0.075 * max((len(s) for s in specs), default=0)


def plot_ratings(cs: ContextStats, path: Path) -> None:
    plt = _pyplot()
    ranked = cs.ranking()[::-1]
    fig, ax = plt.subplots(figsize=(5 + _label_room([s.spec for s in ranked]), 0.6 * len(ranked) + 2))
    ax.errorbar(
        [s.mu for s in ranked],
        range(len(ranked)),
        xerr=[[s.mu - s.low for s in ranked], [s.high - s.mu for s in ranked]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(range(len(ranked)), [s.spec for s in ranked])
    ax.set_xlabel("rating mu (95% interval: mu +- 1.96 sigma)")
    ax.set_title(_title("Ratings", cs), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_winrates(cs: ContextStats, path: Path) -> None:
    plt = _pyplot()
    specs = [s.spec for s in cs.ranking()]
    grid = [[cs.pairs[(a, b)].rate if a != b else float("nan") for b in specs] for a in specs]
    room = _label_room(specs)
    fig, ax = plt.subplots(figsize=(1.1 * len(specs) + 3 + room, 0.9 * len(specs) + 2.5 + 0.6 * room))
    im = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                ax.text(j, i, f"{100 * v:.0f}%\n({cs.pairs[(specs[i], specs[j])].games})", ha="center", va="center")
    ax.set_xticks(range(len(specs)), specs, rotation=30, ha="right")
    ax.set_yticks(range(len(specs)), specs)
    ax.set_xlabel("against")
    ax.set_title(_title("Win rate of row against column (games)", cs), fontsize=9)
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_scores(cs: ContextStats, path: Path) -> None:
    plt = _pyplot()
    ranked = cs.ranking()
    room = _label_room([s.spec for s in ranked])
    fig, ax = plt.subplots(figsize=(1.2 * len(ranked) + 3 + 0.5 * room, 4.5 + 0.6 * room))
    ax.boxplot([s.scores or [float("nan")] for s in ranked], showmeans=True)
    ax.set_xticks(range(1, len(ranked) + 1), [s.spec for s in ranked], rotation=30, ha="right")
    ax.set_ylabel("final score (finished, non-forfeited games)")
    ax.set_title(_title("Scores", cs), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
