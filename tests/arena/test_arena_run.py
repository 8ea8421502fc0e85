"""Running studies: results stored, ratings ordered, replays exact, reports written, forfeits, crashed workers."""

from __future__ import annotations

import dataclasses

import pytest

from meeplezoo.arena import ratings, replay, report, runner
from meeplezoo.arena.schedule import Study, validate
from meeplezoo.arena.store import Store


@pytest.fixture(scope="module")
def study_db(tmp_path_factory):
    """Random against heuristic on Seastead, 12 games, one worker (in this process)."""
    path = tmp_path_factory.mktemp("arena") / "r.sqlite"
    tasks = validate(Study("seastead", ["random", "heuristic"], games=12, seed=5))
    with Store(path) as db:
        summary = runner.run(tasks, db, workers=1)
    assert summary.played == 12 and not summary.failed
    return path, tasks


def test_every_scheduled_game_is_stored_with_its_record(study_db):
    path, tasks = study_db
    with Store(path) as db:
        rows = list(db.games())
    assert sorted(r.key for r in rows) == sorted(t.key for t in tasks)
    for r in rows:
        assert r.decisions == len(r.actions) > 0
        assert sorted(r.ranks) in ([0, 1], [0, 0]) and r.forfeit is None and not r.truncated
        assert r.duration > 0 and len(r.seat_time) == 2


def test_ratings_put_random_below_heuristic(study_db):
    with Store(study_db[0]) as db:
        [cs] = ratings.compute(db.games())
    assert [s.spec for s in cs.ranking()] == ["heuristic", "random"]
    heuristic, rnd = cs.agents["heuristic"], cs.agents["random"]
    assert heuristic.mu > rnd.mu
    pair = cs.pairs[("heuristic", "random")]
    assert pair.games == 12 and pair.rate > 0.5 and pair.interval[0] > 0.5
    assert cs.rated == 12 and sum(cs.seat_firsts) == pytest.approx(12)


def test_replays_reproduce_the_stored_scores(study_db):
    with Store(study_db[0]) as db:
        rows = list(db.games())
    for row in rows:
        final = replay.replay(row)
        assert final.is_terminal()
        assert [float(x) for x in final.scores()] == row.scores
        assert list(final.ranks()) == row.ranks
        steps = list(replay.steps(row))
        assert [s.action for s in steps] == row.actions
        assert all(s.agent == row.seats[s.seat] for s in steps)


def test_a_replay_that_diverges_is_reported(study_db):
    with Store(study_db[0]) as db:
        row = next(db.games())
    from dataclasses import replace

    with pytest.raises(replay.ReplayMismatch, match="the replay ends with scores"):
        replay.replay(replace(row, scores=[s + 1 for s in row.scores]))


def test_the_seat_view_names_the_other_seats_public_choices(study_db):
    """Every Seastead decision is public (``State.public_action_name`` keeps the full name): seat 0's view
    names and numbers the other seat's choices as the full view does (Resafa's redactions:
    ``test_replay_views.py``)."""
    with Store(study_db[0]) as db:
        row = next(db.games())
    doc, full = replay.to_json(row, seat=0), replay.to_json(row)
    assert len(doc["decisions"]) == len(row.actions)
    assert [d["action"] for d in doc["decisions"]] == row.actions
    assert [d["name"] for d in doc["decisions"]] == [d["name"] for d in full["decisions"]]
    assert all(d["name"] for d in doc["decisions"]) and {d["seat"] for d in doc["decisions"]} == {0, 1}


def test_the_report_is_written_from_the_database_alone(study_db, tmp_path):
    with Store(study_db[0]) as db:
        stats = ratings.compute(db.games())
    files = report.write_report(stats, tmp_path / "report", study_db[0])
    names = sorted(f.name for f in files)
    assert names == [
        "README.md",
        "seastead-decree-random-num-players-2-sides-aaaa-ratings.png",
        "seastead-decree-random-num-players-2-sides-aaaa-scores.png",
        "seastead-decree-random-num-players-2-sides-aaaa-winrates.png",
    ]
    for f in files[1:]:
        assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f.stat().st_size > 5000
    md = (tmp_path / "report" / "README.md").read_text()
    assert "| heuristic |" in md and "Wilson 95%" in md and "First-seat advantage" in md


def test_a_second_run_plays_nothing_and_a_copy_of_the_study_is_identical(study_db, tmp_path):
    path, tasks = study_db
    with Store(path) as db:
        again = runner.run(tasks, db, workers=1)
        first = {r.key: (r.actions, r.scores) for r in db.games()}
    assert again.played == 0 and again.already == 12
    # the same study on two workers into a new database: bit for bit the same games
    with Store(tmp_path / "copy.sqlite") as db:
        assert runner.run(tasks, db, workers=2).played == 12
        second = {r.key: (r.actions, r.scores) for r in db.games()}
    assert second == first


def test_faulty_agents_forfeit_and_the_tournament_goes_on(tmp_path, faulty):
    agents = ["random", "raiser", "exiter", "illegal", "sleeper:seconds=0.6", "fragile"]
    tasks = []
    for spec in agents[1:]:
        tasks += validate(Study("seastead", ["random", spec], games=2, time_limit=0.3), [faulty])
    with Store(tmp_path / "r.sqlite") as db:
        summary = runner.run(tasks, db, workers=1)
        rows = list(db.games())
    assert summary.played == 10 and not summary.failed
    reasons = {}
    for r in rows:
        faulty_seat = 1 - r.seats.index("random")
        assert r.forfeit is not None and r.forfeit["seat"] == faulty_seat
        assert r.ranks[faulty_seat] == 1 and r.ranks[1 - faulty_seat] == 0
        reasons[r.seats[faulty_seat]] = r.forfeit["reason"]
        assert replay.replay(r) is not None  # the moves before the forfeit replay to the stored scores
    assert reasons == {
        "raiser": "raised",
        "exiter": "crashed",  # sys.exit in its own process: the process tried to exit
        "illegal": "illegal action",
        "sleeper:seconds=0.6": "time limit",
        "fragile": "raised",
    }
    assert {r.forfeit["detail"] for r in rows if "fragile" in r.seats} == {
        "could not be made: OSError: the model file went missing"
    }
    [cs] = ratings.compute(rows)
    assert cs.forfeited == 10
    assert cs.agents["raiser"].forfeits == {"raised": 2}


def test_a_crashed_worker_loses_only_its_game_which_is_rerun(tmp_path, faulty):
    """In-process agents (``--isolation none``): an agent that kills its process kills the worker; the game goes
    back in the queue. (Isolated, the agent kills only its own process: a forfeit, ``test_isolation_arena.py``.)"""
    marker = tmp_path / "crashed"
    tasks = validate(Study("seastead", ["random", f"crash_once:marker={marker}"], games=4), [faulty])
    tasks = [dataclasses.replace(t, isolation="none") for t in tasks]
    with Store(tmp_path / "r.sqlite") as db:
        summary = runner.run(tasks, db, workers=2)
        rows = list(db.games())
    assert marker.exists()  # a worker did die
    assert summary.played == 4 and not summary.failed
    assert sorted(r.key for r in rows) == sorted(t.key for t in tasks)
    assert all(r.forfeit is None for r in rows)


def test_agents_with_parameters_play_and_are_stored_by_spec(tmp_path):
    spec = "mcts:iters=3,cutoff=5"
    tasks = validate(Study("seastead", ["random", spec], games=2, seed=2))
    with Store(tmp_path / "r.sqlite") as db:
        assert runner.run(tasks, db, workers=1).played == 2
        rows = list(db.games())
    assert sorted(tuple(r.seats) for r in rows) == [("mcts:iters=3,cutoff=5", "random"), ("random", spec)]
    for r in rows:
        assert r.forfeit is None
        assert [float(x) for x in replay.replay(r).scores()] == r.scores
