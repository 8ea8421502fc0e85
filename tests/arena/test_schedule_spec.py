"""Agent specs are normalised before scheduling: one agent, one label, whatever order its parameters came in."""

import pytest

from meeplezoo.agents.registry import canonical_spec
from meeplezoo.arena.errors import ArenaError
from meeplezoo.arena.schedule import Study, schedule


def test_canonical_spec_orders_parameters_and_formats_values():
    assert canonical_spec("mcts: cutoff=20 , iters=0400", "seastead") == "mcts:iters=400,cutoff=20"
    assert canonical_spec("mcts:seconds=.50", "concordia") == "mcts:seconds=0.5"
    assert canonical_spec("random", "resafa") == "random"
    assert canonical_spec("ppo:some/model.zip", "seastead") == "ppo:path=some/model.zip"


def test_schedule_labels_seats_with_canonical_specs():
    study = Study(game="seastead", agents=["random", "mcts:cutoff=5,iters=3"], seats=2, games=2)
    seats = {spec for task in schedule(study) for spec in task.seats}
    assert seats == {"random", "mcts:iters=3,cutoff=5"}


def test_the_same_agent_written_twice_is_refused():
    study = Study(game="seastead", agents=["mcts:iters=3,cutoff=5", "mcts:cutoff=5,iters=3"], seats=2, games=2)
    with pytest.raises(ArenaError, match="each agent once"):
        schedule(study)
