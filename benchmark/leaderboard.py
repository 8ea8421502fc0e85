"""``docs/leaderboard.md`` from stored score cards: one row per agent and mode, best headline first, and the command
that reproduced each row.

Cards of different suite versions are never compared (a one-line :class:`BenchmarkError`), nor cards of the same
version whose suite or calibration digests differ (a suite file edited without a new version). Two cards of the same
agent and mode: the later run's date wins, and the page says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .card import code_version, md_code, md_text, played, read_card
from .errors import BenchmarkError


def _date(card: Mapping[str, Any]) -> tuple[int, datetime | str]:
    """A sort key of the card's run date (ISO 8601; a date without a zone is UTC; an unreadable one sorts
    before every readable one)."""
    text = card["run"]["date"]
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return (0, text)
    return (1, when if when.tzinfo else when.replace(tzinfo=timezone.utc))


def _label(card: Mapping[str, Any]) -> str:
    return f"{md_code(card['agent'])} ({md_text(card['suite']['mode'])})"


def check_comparable(cards: Iterable[Mapping[str, Any]]) -> None:
    """Raise :class:`BenchmarkError` unless every card ran the same suite: one name, one version, one suite and
    calibration digest."""
    first: Mapping[str, Any] | None = None
    for card in cards:
        if first is None:
            first = card
            continue
        a, b = first["suite"], card["suite"]
        if (a["name"], a["version"]) != (b["name"], b["version"]):
            raise BenchmarkError(
                f"score cards of different suite versions cannot share a leaderboard: {first['agent']!r} ran "
                f"{a['name']} v{a['version']}, {card['agent']!r} ran {b['name']} v{b['version']}"
            )
        for key, what in (("digest", "suite files"), ("calibration", "calibrations")):
            if a[key] != b[key]:
                raise BenchmarkError(
                    f"score cards of different {what} cannot share a leaderboard (both {a['name']} v{a['version']}): "
                    f"{first['agent']!r} ran {key} {a[key]}, {card['agent']!r} ran {key} {b[key]}"
                )
    if first is None:
        raise BenchmarkError("no score cards to rank")


def ranked(cards: list[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[str]]:
    """The rows of the leaderboard, best headline score first (no score last, then by agent), one per agent and
    mode (the later run), and a note line per card left out."""
    check_comparable(cards)
    latest: dict[tuple[str, str], Mapping[str, Any]] = {}
    notes = []
    for card in cards:
        key = (card["agent"], card["suite"]["mode"])
        kept = latest.get(key)
        if kept is None:
            latest[key] = card
            continue
        newer, older = (card, kept) if _date(card) > _date(kept) else (kept, card)
        latest[key] = newer
        notes.append(
            f"Two score cards of {_label(card)}: the run of {md_text(newer['run']['date'])} is listed, "
            f"the one of {md_text(older['run']['date'])} is not."
        )

    def order(card: Mapping[str, Any]) -> tuple[bool, float, str, str]:
        score = card["headline"]["score"]
        return (score is None, -(score or 0.0), card["agent"], card["suite"]["mode"])

    return sorted(latest.values(), key=order), notes


def _f(x: Any) -> str:
    return "-" if x is None else f"{x:.2f}"


def _task_names(cards: list[Mapping[str, Any]]) -> list[str]:
    """Every task of the cards, in the suite's order (the first card's, then any others')."""
    return list(dict.fromkeys(t["name"] for card in cards for t in card["tasks"]))


def _cell(card: Mapping[str, Any], task: str) -> str:
    entry = next((t for t in card["tasks"] if t["name"] == task), None)
    return "-" if entry is None or not played(entry) else _f(entry.get("normalised"))


def render(cards: list[Mapping[str, Any]]) -> str:
    """The leaderboard page (Markdown) of ``cards`` (read with :func:`~.card.read_card`)."""
    rows, notes = ranked(cards)
    suite = rows[0]["suite"]
    modes = ", ".join(sorted({card["suite"]["mode"] for card in rows}))
    tasks = _task_names(rows)
    head = ["#", "agent", "mode", "headline", "median", "tasks", *(md_text(t) for t in tasks)]
    lines = [
        "# MeepleZoo-Bench leaderboard\n",
        f"Suite {md_text(suite['name'])} v{suite['version']} (digest {md_code(suite['digest'])}), mode(s): "
        f"{md_text(modes)}. Normalised scores: 0 = random, 1 = heuristic on every task; the headline is the mean "
        "over the tasks an agent played, the median beside it; `-`: the task was skipped (its score card says why). "
        "How the suite is scored: docs/benchmark.md.\n",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    for i, card in enumerate(rows, 1):
        h = card["headline"]
        cells = [str(i), md_code(card["agent"], table=True), md_text(card["suite"]["mode"])]
        cells += [_f(h["score"]), _f(h["median"]), f"{h['tasks']}/{h['of']}", *(_cell(card, t) for t in tasks)]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"Note: {note}\n" for note in notes]
    lines.append("## How each row was produced\n")
    for i, card in enumerate(rows, 1):
        run = card["run"]
        lines.append(
            f"{i}. {_label(card)}: {md_code(run['command'])} (code version {md_code(code_version(card))}, "
            f"{md_text(run['date'])})"
        )
    return "\n".join(lines) + "\n"


def load_cards(paths: Iterable[str | Path], suite_version: int) -> list[dict[str, Any]]:
    """The score cards in ``paths``, each checked and of suite ``suite_version`` (else a one-line error naming it)."""
    return [read_card(path, suite_version) for path in paths]


def write_markdown(cards: list[Mapping[str, Any]], out: str | Path) -> Path:
    """Write :func:`render` of ``cards`` to ``out`` (its folder created); return ``out``."""
    out = Path(out)
    text = render(cards)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BenchmarkError(f"cannot write the leaderboard {out}: {exc.strerror or exc}") from None
    return out


def write_leaderboard(paths: list[Path], out: Path, suite_version: int) -> Path:
    """Read the score cards in ``paths`` (all of suite ``suite_version``) and write their leaderboard to ``out``."""
    return write_markdown(load_cards(paths, suite_version), out)


__all__ = ["check_comparable", "load_cards", "ranked", "render", "write_leaderboard", "write_markdown"]
