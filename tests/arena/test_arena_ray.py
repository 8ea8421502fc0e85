"""The Ray backend: the same schedule as Ray tasks on a local Ray instance, into the same kind of store."""

from __future__ import annotations

import pytest

from meeplezoo.arena import runner
from meeplezoo.arena.schedule import Study, validate
from meeplezoo.arena.store import Store

pytest.importorskip("ray")


@pytest.mark.slow
def test_a_tiny_study_on_a_local_ray_instance_matches_the_local_run(tmp_path):
    tasks = validate(Study("seastead", ["random", "heuristic"], games=4, seed=9))
    with Store(tmp_path / "ray.sqlite") as db:
        summary = runner.run(tasks, db, backend="ray", workers=2)
        on_ray = {r.key: (r.actions, r.scores, r.ranks) for r in db.games()}
    assert summary.played == 4 and not summary.failed
    with Store(tmp_path / "local.sqlite") as db:
        runner.run(tasks, db, workers=1)
        local = {r.key: (r.actions, r.scores, r.ranks) for r in db.games()}
    assert on_ray == local
