"""Score cards built by hand for the card and leaderboard tests: the layout of ``docs/benchmark.md`` with a
multi-player task, a solo task and a skipped one, and numbers that show in the README."""

from __future__ import annotations

import copy
from typing import Any

from markdown_it import MarkdownIt

#: an agent spec that tries to break a table, open HTML, close a code span, start maths and a heading
HOSTILE = "evil|spec <script>alert(1)</script> `tick` ``two`` $x$ & [link](http://x)\n# heading"

BASE: dict[str, Any] = {
    "format": "meeplezoo-scorecard",
    "format_version": 1,
    "suite": {
        "name": "meeplezoo-bench",
        "version": 1,
        "mode": "quick",
        "digest": "d" * 64,
        "calibration": "c" * 64,
        "tasks_not_run": [],
    },
    "agent": "heuristic",
    "package_version": "0.9.0",
    "envs": {
        "seastead": "seastead_v0",
        "concordia": "concordia_v0",
        "board_royale": "board_royale_v1",
        "resafa": "resafa_v0",
    },
    "budget": {"decision_cpu": 1.0, "decision_seconds": 10.0, "memory_mb": 4096},
    "seed": 40000,
    "headline": {"score": 0.97, "median": 1.0, "tasks": 2, "of": 3},
    "tasks": [
        {
            "name": "concordia-4p",
            "game": "concordia",
            "players": 4,
            "config": {"num_players": 4, "map": "italia"},
            "kind": "multi",
            "games": 8,
            "seeds": [40000, 40001, 40002, 40003],
            "complete": True,
            "vs": [
                {
                    "background": "random",
                    "games": 4,
                    "wins": 3.5,
                    "win_rate": 0.875,
                    "ci": [0.5, 0.98],
                    "margin": 12.3,
                    "margin_ci": [2.0, 22.6],
                    "focal_forfeits": 0,
                    "background_forfeits": 1,
                    "truncated": 0,
                },
                {
                    "background": "mcts-ref",
                    "games": 4,
                    "wins": 1.0,
                    "win_rate": 0.25,
                    "ci": [0.046, 0.699],
                    "margin": -7.25,
                    "margin_ci": [-15.5, 1.0],
                    "focal_forfeits": 0,
                    "background_forfeits": 0,
                    "truncated": 1,
                },
            ],
            "rating": 812.0,
            "rating_ci": [700.0, 924.0],
            "normalised": 0.93,
            "cpu_per_decision": 0.0012,
        },
        {
            "name": "resafa-solo",
            "game": "resafa",
            "players": 1,
            "config": {"num_players": 1},
            "kind": "solo",
            "games": 20,
            "seeds": list(range(40000, 40020)),
            "complete": True,
            "measure": "score",
            "mean_score": 92.5,
            "score_ci": [88.0, 97.0],
            "wins": 0,
            "win_rate": 0.0,
            "ci": [0.0, 0.16],
            "margin": None,
            "margin_ci": None,
            "bands": {"below fair": 18, "fair": 2},
            "normalised": 1.02,
            "cpu_per_decision": 0.0004,
        },
        {
            "name": "seastead-2p",
            "game": "seastead",
            "players": 2,
            "kind": "multi",
            "skipped": "the agent cannot play seastead: <no policy> | `x`",
        },
    ],
    "run": {
        "command": "meeplezoo benchmark heuristic --quick",
        "date": "2026-12-03T23:00:00Z",
        "code_version": "0.9.0+gabc123",
        "machine": {"platform": "Linux-6.1-x86_64", "python": "3.11.2", "processor": "x86_64", "cores": 2},
        "seconds": 301.2,
        "workers": 2,
        "backend": "local",
        "db": "bench.sqlite",
        "played": 28,
        "stored": 28,
        "failed": 0,
    },
}


def make_card(agent: str = "heuristic", score: float | None = 0.97, **changes: Any) -> dict[str, Any]:
    """A copy of :data:`BASE` for ``agent`` with headline ``score``; ``changes``: ``mode``, ``version``, ``date``,
    ``digest``, ``normalised`` (of the first task) or any top-level key."""
    card = copy.deepcopy(BASE)
    card["agent"] = agent
    card["headline"]["score"] = score
    card["run"]["command"] = f"meeplezoo benchmark {agent} --quick"
    for key in ("mode", "version", "digest", "calibration"):
        if key in changes:
            card["suite"][key] = changes.pop(key)
    if "date" in changes:
        card["run"]["date"] = changes.pop("date")
    if "normalised" in changes:
        card["tasks"][0]["normalised"] = changes.pop("normalised")
    card.update(changes)
    return card


def html(markdown: str) -> str:
    """``markdown`` as GitHub-like HTML (CommonMark with raw HTML on, and tables)."""
    return MarkdownIt("commonmark").enable("table").render(markdown)
