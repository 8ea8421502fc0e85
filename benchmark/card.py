"""The score card of one benchmark run: ``scorecard.json`` (the numbers, citable) and ``README.md`` with PNG plots.

:func:`write_card` writes a card dict (the schema in ``docs/benchmark.md``) as ``out/scorecard.json``, keys in the
order given, and ``out/README.md``: the headline, a table per task (win rate with its 95% interval and the score
margin against each background agent), the solo tasks on the designer's bands, the skipped tasks and the card's
provenance, with the plots ``normalised.png`` (the normalised score per task), ``winrates.png`` (win rate against
each background agent per multi-player task) and ``solo.png`` (the solo tasks' games per band).
:func:`read_card` loads a card back and refuses, in one line naming the file, anything that is not a card of this
format (and, when asked, of this suite version). Every string a card carries (the agent spec is user input) is
escaped before it goes into Markdown (:func:`md_text`, :func:`md_code`) or a plot title.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..arena.report import id_ranges
from .errors import BenchmarkError

#: the ``format`` field of every score card
CARD_FORMAT = "meeplezoo-scorecard"
#: the card layout this MeepleZoo writes and reads (a new layout is a new version, not a silent change)
CARD_VERSION = 1
#: a larger file is refused before it is parsed (a suite v1 card is a few tens of kB)
MAX_CARD_BYTES = 5_000_000
#: every plot's resolution (dots per inch), as the arena report's
DPI = 120

# --- Markdown escaping -----------------------------------------------------------------------------------------

#: what Markdown (GitHub's, maths included) or HTML reads inline; ``+ - .`` matter only at a line's start (no card
#: string goes there)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#!|~<>&$])")


def _one_line(text: Any) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def md_text(text: Any) -> str:
    """``text`` as literal Markdown text on one line: every character Markdown or HTML would read is escaped."""
    return _MD_SPECIAL.sub(r"\\\1", _one_line(text))


def md_code(text: Any, table: bool = False) -> str:
    """``text`` as a one-line code span that no backtick in it can close; ``table``: inside a table cell, where a
    ``|`` must be escaped even in a code span (GitHub Markdown shows it as ``|``)."""
    text = _one_line(text) or " "
    fence = "`" * (1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    if "`" in text:  # a space each side keeps a backtick at an end off the fence (Markdown strips them)
        text = f" {text} "
    if table:
        text = text.replace("|", r"\|")
    return f"{fence}{text}{fence}"


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


# --- numbers in words ------------------------------------------------------------------------------------------


def _num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and not (isinstance(x, float) and math.isnan(x))


def _f(x: Any, fmt: str = ".2f") -> str:
    """A number, or ``-`` for a missing one (None, NaN)."""
    return format(x, fmt) if _num(x) else "-"


def _pct(x: Any) -> str:
    return f"{100 * x:.1f}%" if _num(x) else "-"


def _interval(ci: Any, fmt=_f) -> str:
    return f"[{fmt(ci[0])}, {fmt(ci[1])}]" if isinstance(ci, (list, tuple)) and len(ci) == 2 else ""


def _with_ci(x: Any, ci: Any, fmt=_f) -> str:
    return f"{fmt(x)} {_interval(ci, fmt)}".strip() if _num(x) else "-"


def _signed(x: Any) -> str:
    return _f(x, "+.1f")


def _1f(x: Any) -> str:
    return _f(x, ".1f")


def _r(x: Any) -> str:
    return _f(x, ".0f")


def _kv(values: Mapping[str, Any]) -> str:
    """``key=value`` pairs in the mapping's order (floats as ``%g``) as a code span; empty for none."""
    if not values:
        return ""
    return md_code(" ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items()))


def code_version(card: Mapping[str, Any]) -> str | None:
    """The code version that made the card: in its ``run`` (it varies between runs of the same card) or, in the
    layout of the first drafts, at the top level."""
    run = card.get("run")
    found = run.get("code_version") if isinstance(run, Mapping) else None
    return found if found is not None else card.get("code_version")


def played(task: Mapping[str, Any]) -> bool:
    """Whether the card's ``task`` entry was played (a skipped one carries only its reason)."""
    return "skipped" not in task


# --- README.md -------------------------------------------------------------------------------------------------


def headline_text(card: Mapping[str, Any]) -> str:
    """``score 0.97 (median 1.00) over 9 of 10 tasks``."""
    h = card["headline"]
    return f"score {_f(h.get('score'))} (median {_f(h.get('median'))}) over {h.get('tasks')} of {h.get('of')} tasks"


def _multi_section(task: Mapping[str, Any]) -> str:
    head = ["against", "games", "wins", "win rate [95%]", "margin [95%]", "forfeits (agent / background)", "truncated"]
    rows = [
        [
            md_code(v["background"], table=True),
            str(v.get("games", "-")),
            _f(v.get("wins"), "g"),
            _with_ci(v.get("win_rate"), v.get("ci"), _pct),
            _with_ci(v.get("margin"), v.get("margin_ci"), _signed),
            f"{v.get('focal_forfeits', 0)} / {v.get('background_forfeits', 0)}",
            str(v.get("truncated", 0)),
        ]
        for v in task.get("vs", [])
    ]
    rating = _with_ci(task.get("rating"), task.get("rating_ci"), _r)
    return (
        f"### {md_text(task['name'])}\n\n"
        f"{task.get('players', '-')} players, {task.get('games', '-')} games{_task_note(task)}: "
        f"normalised **{_f(task.get('normalised'))}**, rating {rating} "
        f"(Elo scale, 95% interval), {_f(task.get('cpu_per_decision'), '.4f')} CPU s per decision.\n\n"
        f"{_md_table(head, rows)}\n"
    )


def _task_note(task: Mapping[str, Any]) -> str:
    note = f" on seeds {id_ranges(task['seeds'])}" if task.get("seeds") else ""
    if task.get("config"):
        note += f", config {md_code(json.dumps(task['config']))}"
    return note + ("" if task.get("complete", True) else " (**incomplete**: fewer games than the suite's)")


def _solo_section(task: Mapping[str, Any]) -> str:
    measure = task.get("measure", "score")
    what = "the score minus the automa's" if measure == "margin" else "the final score"
    lines = [
        f"### {md_text(task['name'])}\n",
        f"{task.get('games', '-')} games{_task_note(task)}; measure: {md_text(measure)} ({what}).\n",
        f"- normalised: **{_f(task.get('normalised'))}**",
        f"- mean score: {_with_ci(task.get('mean_score'), task.get('score_ci'), _1f)} (95% interval)",
        f"- won (beat the automa / reached the target): {_f(task.get('wins'), 'g')} of {task.get('games', '-')}, "
        f"{_with_ci(task.get('win_rate'), task.get('ci'), _pct)}",
        f"- margin over the automa: {_with_ci(task.get('margin'), task.get('margin_ci'), _signed)}",
        f"- CPU s per decision: {_f(task.get('cpu_per_decision'), '.4f')}",
    ]
    bands = task.get("bands") or {}
    if bands:
        rows = [[md_text(band), str(n)] for band, n in bands.items()]
        lines.append("\n" + _md_table(["band", "games"], rows))
    return "\n".join(lines) + "\n"


def _summary_table(tasks: list[Mapping[str, Any]]) -> str:
    head = ["task", "kind", "games", "normalised", "rating / mean score [95%]"]
    rows = []
    for t in tasks:
        if not played(t):
            rows.append([md_text(t.get("name")), md_text(t.get("kind", "-")), "-", "-", "skipped"])
            continue
        value = (
            _with_ci(t.get("rating"), t.get("rating_ci"), _r)
            if t.get("kind") == "multi"
            else _with_ci(t.get("mean_score"), t.get("score_ci"), _1f)
        )
        rows.append(
            [md_text(t["name"]), md_text(t.get("kind")), str(t.get("games", "-")), _f(t.get("normalised")), value]
        )
    return _md_table(head, rows)


def provenance(card: Mapping[str, Any]) -> str:
    """The card's provenance as a Markdown list: suite, agent, versions, budget, seeds, machine, date, command."""
    suite, run = card.get("suite", {}), card.get("run", {})
    machine = run.get("machine") or {}
    envs = ", ".join(md_code(v) for v in (card.get("envs") or {}).values()) or "-"
    lines = [
        f"- suite: {md_text(suite.get('name'))} v{md_text(suite.get('version'))}, mode {md_text(suite.get('mode'))}, "
        f"digest {md_code(suite.get('digest'))}, calibration {md_code(suite.get('calibration'))}",
        f"- agent: {md_code(card.get('agent'))}",
        f"- MeepleZoo {md_text(card.get('package_version'))}, code version {md_code(code_version(card))}",
        f"- envs: {envs}",
        f"- budget (every agent process, enforced): {_kv(card.get('budget') or {}) or 'no limits'}",
        f"- seed: {md_text(card.get('seed'))} (deal d of a task is played with env seed seed + d)",
        f"- machine: {_kv(machine) or '-'}",
        f"- date: {md_text(run.get('date'))}; {md_text(run.get('seconds'))} s, {md_text(run.get('workers'))} "
        f"workers, backend {md_text(run.get('backend'))}, database {md_code(run.get('db'))} "
        f"({md_text(run.get('played'))} games played, {md_text(run.get('stored'))} stored)",
        f"- command: {md_code(run.get('command'))}",
    ]
    if run.get("failed"):
        lines.insert(-1, f"- games that failed and were not stored: {md_text(run['failed'])}")
    if suite.get("tasks_not_run"):
        names = ", ".join(md_text(name) for name in suite["tasks_not_run"])
        lines.insert(1, f"- tasks of the suite not run (`--tasks`): {names}")
    return "\n".join(lines) + "\n"


def readme(card: Mapping[str, Any], plots: list[str]) -> str:
    """The card's ``README.md`` text; ``plots``: the PNG file names written beside it."""
    cpu = (card.get("run") or {}).get("cpu_per_decision") or {}  # measured: kept with the run, not the results
    tasks = [{**t, "cpu_per_decision": cpu[t["name"]]} if t.get("name") in cpu else t for t in card["tasks"]]
    suite = card.get("suite", {})
    parts = [
        f"# Score card: {md_code(card['agent'])}\n",
        f"Suite {md_text(suite.get('name'))} v{md_text(suite.get('version'))} ({md_text(suite.get('mode'))}): "
        f"**{headline_text(card)}**. Normalised: 0 = random, 1 = heuristic on every task; the headline is the "
        "mean over the tasks played (docs/benchmark.md).\n",
        _summary_table(tasks) + "\n",
    ]
    parts += [f"![{name[:-4]}]({name})\n" for name in plots]
    multi = [t for t in tasks if played(t) and t.get("kind") == "multi"]
    solo = [t for t in tasks if played(t) and t.get("kind") == "solo"]
    skipped = [t for t in tasks if not played(t)]
    if multi:
        parts.append(
            "## Multi-player tasks\n\nThe agent in one seat, the same background agent in every other seat, "
            "seats rotated; win rate = share of first places (ties shared), margin = its score minus the best "
            "other seat's.\n"
        )
        parts += [_multi_section(t) for t in multi]
    if solo:
        parts.append("## Solo tasks\n")
        parts += [_solo_section(t) for t in solo]
    if skipped:
        parts.append(
            "## Skipped tasks\n\n" + "".join(f"- {md_text(t['name'])}: {md_text(t['skipped'])}\n" for t in skipped)
        )
    parts.append("## Provenance\n\n" + provenance(card))
    return "\n".join(parts)


# --- plots -----------------------------------------------------------------------------------------------------


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 11})
    return plt


def plot_text(text: Any) -> str:
    """A card string for a plot title or label: one line, ``$`` escaped (matplotlib reads ``$...$`` as maths)."""
    return _one_line(text).replace("$", r"\$")


def _title(what: str, card: Mapping[str, Any]) -> str:
    agent = "\n".join(textwrap.wrap(plot_text(card["agent"]), 60)) or "?"
    return f"{what}\n{agent}"


def _save(fig: Any, plt: Any, path: Path, title: str) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, metadata={"Title": title})  # the title, readable without OCR
    plt.close(fig)


def plot_normalised(card: Mapping[str, Any], path: Path) -> None:
    """Horizontal bars of the normalised score per task (a skipped task named, no bar), dashed at 0 and 1."""
    plt = _pyplot()
    tasks = card["tasks"][::-1]  # the first task on top
    values = [t.get("normalised") if played(t) and _num(t.get("normalised")) else 0.0 for t in tasks]
    labels = [plot_text(t["name"]) + ("" if played(t) else " (skipped)") for t in tasks]
    fig, ax = plt.subplots(figsize=(9, max(5.0, 0.45 * len(tasks) + 3)))
    bars = ax.barh(range(len(tasks)), values, color=["tab:blue" if v >= 0 else "tab:red" for v in values])
    ax.bar_label(bars, [f"{v:.2f}" if played(t) else "" for v, t in zip(values, tasks, strict=True)], padding=3)
    ax.set_xlim(min(-0.15, min(values) - 0.15), max(1.15, max(values) + 0.2))  # both dashed lines in view
    ax.axvline(0, color="grey", linestyle="--", label="0 = random")
    ax.axvline(1, color="black", linestyle="--", label="1 = heuristic")
    ax.set_yticks(range(len(tasks)), labels)
    ax.set_xlabel("normalised score (0 = random, 1 = heuristic)")
    ax.legend(loc="lower right", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title := _title(f"Normalised score per task: {headline_text(card)}", card), fontsize=12)
    _save(fig, plt, path, title)


def plot_winrates(card: Mapping[str, Any], path: Path) -> None:
    """Per multi-player task, the win rate against each background agent with its 95% interval; a dotted tick at
    the even share (1 / players)."""
    plt = _pyplot()
    tasks = [t for t in card["tasks"] if played(t) and t.get("kind") == "multi"][::-1]
    backgrounds = list(dict.fromkeys(v["background"] for t in tasks for v in t.get("vs", [])))
    fig, ax = plt.subplots(figsize=(10.5, max(5.0, 0.3 * len(tasks) * max(len(backgrounds), 1) + 3)))
    step = 0.8 / max(len(backgrounds), 1)
    for j, bg in enumerate(backgrounds):
        ys, xs, lo, hi = [], [], [], []
        for i, t in enumerate(tasks):
            v = next((v for v in t.get("vs", []) if v["background"] == bg), None)
            if v is None or not _num(v.get("win_rate")):
                continue
            ci = v.get("ci") or [v["win_rate"], v["win_rate"]]
            ys.append(i + 0.4 - step * (j + 0.5))  # the first background agent on top
            xs.append(v["win_rate"])
            lo.append(max(v["win_rate"] - ci[0], 0.0))
            hi.append(max(ci[1] - v["win_rate"], 0.0))
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=3, label=f"vs {plot_text(bg)}")
    for i, t in enumerate(tasks):
        if _num(t.get("players")) and t["players"] > 0:
            ax.plot([1 / t["players"]] * 2, [i - 0.45, i + 0.45], color="grey", linestyle=":")
    ax.set_yticks(range(len(tasks)), [plot_text(t["name"]) for t in tasks])
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("win rate (95% interval); dotted: the even share 1 / players")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)  # beside the axes: it hides no point
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title := _title("Win rate against each background agent", card), fontsize=12)
    _save(fig, plt, path, title)


def plot_solo(card: Mapping[str, Any], path: Path) -> None:
    """One panel per solo task: its games per band, the mean measure and its interval in the panel's title."""
    plt = _pyplot()
    tasks = [t for t in card["tasks"] if played(t) and t.get("kind") == "solo" and t.get("bands")]
    fig, axes = plt.subplots(1, len(tasks), figsize=(max(8.0, 5 * len(tasks) + 1), 5.5), squeeze=False)
    for ax, t in zip(axes[0], tasks, strict=True):
        bands = t["bands"]
        ax.bar(range(len(bands)), list(bands.values()))
        ax.set_xticks(range(len(bands)), [plot_text(b) for b in bands], rotation=30, ha="right")
        ax.set_ylabel("games")
        ax.yaxis.get_major_locator().set_params(integer=True)
        mean = _with_ci(t.get("mean_score"), t.get("score_ci"), _1f)
        ax.set_title(f"{plot_text(t['name'])}\nmean score {mean}", fontsize=11)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title := _title("Solo tasks: games per band", card), fontsize=12)
    _save(fig, plt, path, title)


def _plots(card: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The plots this card has data for: (file name, function writing it)."""
    tasks = card["tasks"]
    plots: list[tuple[str, Any]] = []
    if any(played(t) and _num(t.get("normalised")) for t in tasks):
        plots.append(("normalised.png", plot_normalised))
    if any(played(t) and t.get("kind") == "multi" and t.get("vs") for t in tasks):
        plots.append(("winrates.png", plot_winrates))
    if any(played(t) and t.get("kind") == "solo" and t.get("bands") for t in tasks):
        plots.append(("solo.png", plot_solo))
    return plots


# --- writing and reading ---------------------------------------------------------------------------------------


def write_card(card: dict[str, Any], out: Path) -> list[Path]:
    """Write ``out/scorecard.json`` (keys in the order given, indent 2), ``out/README.md`` and its plots; return the
    files written (the card first, then the README, then the plots)."""
    check_card(card, "the score card")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "scorecard.json"
    path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    plots = _plots(card)
    written = [path, out / "README.md"]
    written[1].write_text(readme(card, [name for name, _ in plots]), encoding="utf-8")
    for name, plot in plots:
        plot(card, out / name)
        written.append(out / name)
    return written


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise BenchmarkError(f"{where} is not a valid score card: {what}")


def check_card(card: Any, where: str) -> None:
    """Raise :class:`BenchmarkError` (one line naming ``where``) unless ``card`` has what a card must have: its
    format, the suite, the agent, the headline, the tasks and how it was run."""
    _need(isinstance(card, dict) and card.get("format") == CARD_FORMAT, where, f'no "format": "{CARD_FORMAT}"')
    version = card.get("format_version")
    if version != CARD_VERSION:
        raise BenchmarkError(
            f"{where} is score-card format v{version}; this MeepleZoo reads format v{CARD_VERSION}: "
            "rerun the agent with `meeplezoo benchmark`"
        )
    suite = card.get("suite")
    _need(isinstance(suite, dict), where, '"suite" is not an object')
    _need(isinstance(suite.get("version"), int) and not isinstance(suite["version"], bool), where, "no suite version")
    for key in ("name", "mode", "digest", "calibration"):
        _need(isinstance(suite.get(key), str), where, f'"suite" has no "{key}" string')
    _need(isinstance(card.get("agent"), str) and card["agent"].strip() != "", where, 'no "agent" spec')
    h = card.get("headline")
    _need(isinstance(h, dict), where, '"headline" is not an object')
    for key in ("score", "median"):
        _need(h.get(key) is None or _num(h.get(key)), where, f'headline "{key}" is not a number')
    for key in ("tasks", "of"):
        _need(isinstance(h.get(key), int) and not isinstance(h[key], bool), where, f'headline "{key}" is not a count')
    tasks = card.get("tasks")
    _need(isinstance(tasks, list) and len(tasks) > 0, where, '"tasks" is not a list of tasks')
    for i, t in enumerate(tasks):
        _need(isinstance(t, dict) and isinstance(t.get("name"), str), where, f"task {i} has no name")
        if played(t):
            _need(t.get("kind") in ("multi", "solo"), where, f'task {t["name"]} is neither "multi" nor "solo"')
            _need(t.get("normalised") is None or _num(t["normalised"]), where, f"task {t['name']}: bad normalised")
        else:
            _need(isinstance(t["skipped"], str), where, f"task {t['name']}: the skipped reason is not a string")
    run = card.get("run")
    _need(isinstance(run, dict), where, '"run" is not an object')
    for key in ("command", "date"):
        _need(isinstance(run.get(key), str), where, f'"run" has no "{key}" string')
    _need(isinstance(code_version(card), str), where, 'no "code_version" string (in "run")')


def read_card(path: str | Path, suite_version: int | None = None) -> dict[str, Any]:
    """The score card in ``path`` (a ``scorecard.json``, or the folder holding one), checked; with
    ``suite_version``, a card of another suite version is refused. Every refusal is one :class:`BenchmarkError`
    line naming the file."""
    path = Path(path)
    if path.is_dir():
        path = path / "scorecard.json"
    where = f"score card {path}"
    try:
        size = path.stat().st_size
        if size > MAX_CARD_BYTES:
            raise BenchmarkError(f"{where} is {size} bytes: a score card is at most {MAX_CARD_BYTES // 1_000_000} MB")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BenchmarkError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BenchmarkError(f"{where} cannot be read: {_one_line(exc)}") from None
    try:
        card = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BenchmarkError(f"{where} is not JSON (line {exc.lineno}: {exc.msg})") from None
    check_card(card, where)
    version = card["suite"]["version"]
    if suite_version is not None and version != suite_version:
        raise BenchmarkError(
            f"{where} is suite v{version}; this MeepleZoo runs suite v{suite_version}: "
            "rerun the agent with `meeplezoo benchmark`"
        )
    return card


__all__ = [
    "CARD_FORMAT",
    "CARD_VERSION",
    "MAX_CARD_BYTES",
    "check_card",
    "code_version",
    "headline_text",
    "md_code",
    "md_text",
    "played",
    "read_card",
    "readme",
    "write_card",
]
