"""The save-mutation fuzz (issue 36, item 4): every single-field edit of a saved state is refused with
``CorruptStateError`` or plays on.

For each conformance case (``mutation_positions`` positions of one random game, from the sizes in the game's
conformance settings, and the finished game), :func:`save_mutations.mutations` edits every saved int (list
elements, nested lists and task tuples too, a sample of long lists) and every list's length;
:func:`save_mutations.check_mutation` loads each edited save and, unless it is refused, observes every seat, reads
the legal actions, plays 30 random legal moves and validates and round-trips the state along the way.
~3,000-5,000 edited saves per case, 1-2 s (Resafa ~3 s a position).
"""

from __future__ import annotations

import pytest
from games import CASES, GameCase
from save_mutations import check_mutation, mutations, outcome, run, sample_positions

from meeplezoo.envs.core import CorruptStateError
from meeplezoo.envs.seastead import SeasteadGame

FUZZED = [c for c in CASES if c.sizes.mutation_positions > 0]
ONE_PER_GAME = list({c.name: c for c in reversed(CASES)}.values())[::-1]  # each game's first case


@pytest.mark.parametrize("case", FUZZED, ids=[c.id for c in FUZZED])
def test_every_mutated_save_is_refused_or_plays_on(case: GameCase) -> None:
    refused, played, failed, failures = run(case.game(), positions=case.sizes.mutation_positions, seed=0)
    report = "\n".join(f"{label}: {what}: {problem}" for label, _, what, problem in failures[:40])
    assert not failures, f"{failed} of {refused + played + failed} edited saves loaded and then failed:\n{report}"
    assert refused > 0 and played > 0, f"refused {refused}, played on {played}: the fuzz tests nothing"


@pytest.mark.parametrize("case", ONE_PER_GAME, ids=[c.id for c in ONE_PER_GAME])
def test_mutations_edit_every_saved_field(case: GameCase) -> None:
    """The generator leaves no field of a save unedited, and each edit changes exactly one field."""
    game = case.game()
    for _, data in sample_positions(game, 1, seed=0):  # the start and the end
        seen = set()
        for name, what, edited in mutations(data):
            changed = [key for key in data if edited[key] != data[key]]
            assert changed == [name], f"{what}: changed {changed}"
            seen.add(name)
        assert seen == set(data), f"fields never edited: {sorted(set(data) - seen)}"


def test_check_mutation_reports_a_save_that_loads_and_then_crashes() -> None:
    """A finished game's save with an out-of-range dock tile: a loader that lets it through is caught (the
    probe's observation fails), the real one refuses it."""
    game = SeasteadGame()
    (_, data), *_ = sample_positions(game, 0, seed=0)  # the finished game only
    broken = game.state_from_dict(data)
    broken.d.dock_display[0] = 999  # what a save with that edit gives a loader without range checks

    class Unchecked(SeasteadGame):
        def state_from_dict(self, data):
            return broken

    failure = check_mutation(Unchecked(), broken.to_dict())
    assert failure is not None and failure.startswith("probe after load: IndexError"), failure
    assert outcome(SeasteadGame(), broken.to_dict()) == (True, None), "the real loader does not refuse it"


@pytest.mark.parametrize(
    "chance", [{"seed": True, "events": 0}, {"seed": 1, "events": False}, {"seed": -1, "events": 0}]
)
def test_chance_of_a_save_is_two_non_negative_ints(chance: dict) -> None:
    game = SeasteadGame()
    data = game.new_state(0).to_dict()
    with pytest.raises(CorruptStateError, match="chance"):
        game.state_from_dict({**data, "chance": chance})
