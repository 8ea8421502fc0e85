"""A replay's seat view names every decision as that seat may read it in a game log
(``State.public_action_name``): the other seats' public choices in full, what the game keeps secret
redacted, in the text replay and the JSON export alike."""

from __future__ import annotations

from played_games import random_play

from meeplezoo.arena import replay
from meeplezoo.arena.store import GameRow
from meeplezoo.envs.resafa import actions as A

SECRET = ("USE_SACK0", "DROP_SACK0", "PICK0")  # Resafa's redacted decisions (envs/resafa/public_log.py)


def stored(game: str, config: dict, seed: int, decisions: int) -> GameRow:
    """A game of random play cut after ``decisions`` decisions, as the arena stores a truncated game."""
    state, actions = random_play(game, config, seed, decisions)
    n = len(state.scores())
    return GameRow(
        id=1, key="k", game=game, config=config, seed=seed, deal=0, seats=["random"] * n, agent_seeds=[0] * n,
        scores=[float(x) for x in state.scores()], ranks=[0] * n, decisions=len(actions), truncated=True,
        forfeit=None, duration=0.0, seat_time=[[0.0, 0.0, 0.0]] * n, time_limit=None, code_version="test",
        finished_at="", actions=actions,
    )  # fmt: skip


def test_a_seat_view_names_the_other_seats_public_choices_in_full():
    row = stored("concordia", {"num_players": 3, "map": "italia"}, seed=1, decisions=120)
    full = replay.to_json(row)
    for seat in range(3):
        view = replay.to_json(row, seat)
        assert view["view"] == f"seat {seat}"
        assert [d["name"] for d in view["decisions"]] == [d["name"] for d in full["decisions"]]
        assert [d["action"] for d in view["decisions"]] == row.actions
        others = [d for d in view["decisions"] if d["seat"] != seat]
        assert others and all(d["name"] for d in others)
    text = [(s.seat, s.name, s.full) for s in replay.steps(row, 0)]
    assert all(full for _, _, full in text) and {seat for seat, _, _ in text} == {0, 1, 2}
    assert text[0][1] == full["decisions"][0]["name"]


def test_a_resafa_seat_view_keeps_a_redacted_choice_redacted():
    row = stored("resafa", {"num_players": 2}, seed=1, decisions=40)
    full = replay.to_json(row)["decisions"]
    secret = [i for i, a in enumerate(row.actions) if A.action_range(a)[0] in SECRET]
    assert secret  # seed 1 discards a sack card unused at its 7th decision
    for seat in (0, 1):
        view = replay.to_json(row, seat)["decisions"]
        for i, (mine, every) in enumerate(zip(view, full, strict=True)):
            if i in secret and every["seat"] != seat:
                assert mine["name"] != every["name"] and mine["action"] is None
                assert mine["name"] in ("discard an unused sack card (+1 VP)",) or mine["name"].startswith(
                    ("use a sack card: ", "take ")
                )
                assert "sack-" not in mine["name"]  # no card id
            else:
                assert mine["name"] == every["name"] and mine["action"] == row.actions[i]
    i = secret[0]
    step = next(s for s in replay.steps(row, 1 - full[i]["seat"]) if s.index == i)  # the text replay's step
    assert not step.full and step.name == replay.to_json(row, 1 - full[i]["seat"])["decisions"][i]["name"]
