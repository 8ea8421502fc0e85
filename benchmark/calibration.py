"""The frozen calibration of a suite: the background agents' ratings per multi-player task and their mean measure
per solo task, from a calibration run (``meeplezoo benchmark --calibrate``), shipped as
``suites/v<N>_calibration.json``. A score card rates its agent against these frozen figures, so its score does not
drift with who else was run; the card names the calibration's digest.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..arena import runner
from . import scoring
from .errors import BenchmarkError
from .outcomes import Outcome
from .suite import Suite


def calibration_file(suite: Suite) -> Path:
    """The shipped calibration of ``suite`` (beside a suite file of your own: ``<stem>_calibration.json``)."""
    if suite.source and Path(suite.source).parent != _suites_folder():
        return Path(suite.source).with_name(f"{Path(suite.source).stem}_calibration.json")
    return _suites_folder() / f"v{suite.version}_calibration.json"


def _suites_folder() -> Path:
    return Path(str(resources.files("meeplezoo.benchmark").joinpath("suites")))


def load(suite: Suite) -> dict[str, Any]:
    """The calibration of ``suite``, checked to cover its tasks and background, with the file's ``sha256``."""
    path = calibration_file(suite)
    try:
        raw = path.read_bytes()
        doc = json.loads(raw)
    except OSError:
        raise BenchmarkError(
            f"suite {suite.label} has no calibration ({path}); make one: meeplezoo benchmark --calibrate"
        ) from None
    except ValueError as exc:
        raise BenchmarkError(f"calibration {path} is not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("suite") != suite.name or doc.get("version") != suite.version:
        raise BenchmarkError(f"calibration {path} is not the calibration of suite {suite.label}")
    if doc.get("suite_digest") != suite.digest():
        raise BenchmarkError(f"calibration {path} was made for another content of suite {suite.label}")
    tasks = doc.get("tasks")
    for task in suite.tasks:
        entry = tasks.get(task.name) if isinstance(tasks, dict) else None
        key = "means" if task.solo else "ratings"
        values = entry.get(key) if isinstance(entry, dict) else None
        if not isinstance(values, dict) or not {"random", "heuristic"} <= set(values):
            raise BenchmarkError(f"calibration {path} has no {key} of random and heuristic for task {task.name}")
    return {**doc, "sha256": hashlib.sha256(raw).hexdigest()}


def build(
    suite: Suite, by_agent: Mapping[str, Mapping[str, Sequence[Outcome]]], *, quick: bool, command: str
) -> dict[str, Any]:
    """The calibration document of ``suite`` from each background agent's outcomes (agent -> task -> outcomes)."""
    flat = {agent: [o for found in tasks.values() for o in found] for agent, tasks in by_agent.items()}
    measures = {t.name: t.measure for t in suite.tasks if t.solo}
    fitted = scoring.fit_calibration(flat, measures)
    return {
        "suite": suite.name,
        "version": suite.version,
        "suite_digest": suite.digest(),
        "mode": "quick" if quick else "full",
        "command": command,
        "code_version": runner.code_version(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tasks": fitted,
    }


__all__ = ["build", "calibration_file", "load"]
