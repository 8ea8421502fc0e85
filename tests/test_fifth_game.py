"""The proof of issue 38: a fifth game gets every MeepleZoo tool from its own package alone.

Goofspiel (``tests/plugins/goofspiel``) is a third-party plugin, installed as a user installs one
(``pip install -e tests/plugins/goofspiel``) and declared by its ``meeplezoo.games`` entry point; no file of
MeepleZoo names it. These tests run the tools on it as a user does (the CLI in a subprocess, the web app through
its HTTP API, IS-MCTS through the agent registry) and check that the conformance suite includes it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from meeplezoo import games
from meeplezoo.agents import make_agent, view_of_state
from meeplezoo.envs.core.manifest import load

ROOT = Path(__file__).resolve().parents[1]
GAME = "goofspiel"
#: MeepleZoo's own source: the folders of the wheel's packages, and its project file
SOURCE = ("meeplezoo", "envs", "agents", "training", "arena", "benchmark", "openspiel")


def meeplezoo(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``meeplezoo ARGS`` as a user does, in a folder of its own."""
    return subprocess.run(
        [sys.executable, "-m", "meeplezoo", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def run_ok(*args: str, cwd: Path, timeout: float = 120) -> str:
    done = meeplezoo(*args, cwd=cwd, timeout=timeout)
    assert done.returncode == 0, f"meeplezoo {' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def strings_outside_docstrings(tree: ast.AST) -> list[str]:
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_meeplezoo_s_source_does_not_name_the_game():
    """Everything the game gets comes from its package: MeepleZoo's code, data and project file never name it
    (a docstring's example of a plugin declaration aside)."""
    found = []
    for folder in SOURCE:
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py":
                tree = ast.parse(path.read_text(encoding="utf-8"))
                found += [f"{path.relative_to(ROOT)}: {s!r}" for s in strings_outside_docstrings(tree) if GAME in s]
                found += [f"{path.relative_to(ROOT)}: imports it" for s in ast.walk(tree) if _imports_the_plugin(s)]
            elif path.suffix in (".js", ".html", ".json", ".toml", ".md", ".css") and GAME in path.read_text("utf-8"):
                found.append(str(path.relative_to(ROOT)))
    found += ["pyproject.toml"] if GAME in (ROOT / "pyproject.toml").read_text(encoding="utf-8") else []
    assert not found, found
    assert games.manifest(GAME).distribution == "meeplezoo-goofspiel"  # the installed plugin's entry point


def _imports_the_plugin(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(alias.name.startswith("meeplezoo_goofspiel") for alias in node.names)
    return isinstance(node, ast.ImportFrom) and (node.module or "").startswith("meeplezoo_goofspiel")


def test_list_rules_and_play(tmp_path):
    listed = run_ok("list", cwd=tmp_path)
    row = next(line for line in listed.splitlines() if line.split()[:1] == [GAME])
    assert "meeplezoo-goofspiel/goofspiel-v0" in row and "2-4" in row.split()
    for agent in ("greedy", "match"):  # the manifest's agent and the plugin's entry-point agent, this game only
        line = next(line for line in listed.splitlines() if line.split()[:1] == [agent])
        assert line.split()[1] == GAME, line

    assert run_ok("rules", GAME, "--raw", cwd=tmp_path).strip() == games.manifest(GAME).rules().strip()

    out = run_ok("play", GAME, "--agents", "greedy", "random", "mcts:iters=30", "--seed", "2", cwd=tmp_path)
    assert "round 1 of 9" in out and "bid " in out
    for agent in ("greedy", "random", "mcts"):
        assert f"({agent})" in out or f" {agent} " in out, agent
    scores = [float(line.split()[1]) for line in out.splitlines() if line.startswith(("P0: ", "P1: ", "P2: "))]
    assert len(scores) == 3 and sum(scores) <= 45  # the prizes 1..9; a tie discards its prize

    out = run_ok("play", GAME, "--agents", "greedy", "random", "--games", "20", "--quiet", cwd=tmp_path)
    assert "Best: greedy" in out  # greedy wins most games against random (85% of these 20)
    done = meeplezoo("play", GAME, "--set", "cards=20", cwd=tmp_path)
    assert done.returncode == 2 and "cards" in done.stderr and done.stderr.count("\n") == 1


def test_arena_stores_games_that_replay_shows(tmp_path):
    arena = "arena goofspiel --agents greedy match --games 2 --db a.db --workers 1 --quiet"
    out = run_ok(*arena.split(), cwd=tmp_path)
    assert "2 games played and stored" in out
    listing = run_ok("replay", "a.db", cwd=tmp_path)
    assert listing.count(GAME) >= 2
    full = run_ok("replay", "a.db", "1", cwd=tmp_path)
    assert "final position" in full and "bid a card face down" not in full
    seat_view = run_ok("replay", "a.db", "1", "--seat", "1", cwd=tmp_path)
    assert "P1's view" in seat_view and "bid a card face down" in seat_view  # P0's bids are secret to P1
    record = json.loads(run_ok("replay", "a.db", "1", "--to-json", "-", cwd=tmp_path))
    assert record["game"] == GAME and len(record["decisions"]) == 18
    assert sum(record["scores"]) <= 45 and sorted(record["seats"]) == ["greedy", "match"]


def test_train_a_tiny_run_with_the_game_s_training_defaults(tmp_path):
    out = run_ok(
        "train", GAME, "--out", "run", "--steps", "128", "--n-envs", "1", "--no-progress", cwd=tmp_path, timeout=240
    )
    assert "final.zip" in out and (tmp_path / "run" / "final.zip").is_file()
    config = (tmp_path / "run" / "config.toml").read_text(encoding="utf-8")
    assert 'opponents = ["random", "greedy"]' in config and "n_steps = 64" in config  # from the game's manifest


def test_is_mcts_values_cut_offs_with_the_game_s_estimate():
    estimate = load(games.manifest(GAME).search).estimate
    calls = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        calls += event == "call" and frame.f_code is estimate.__code__

    state = games.manifest(GAME).engine_class()(num_players=3).new_state(seed=4)
    agent = make_agent("mcts:iters=40,cutoff=2", GAME, seed=1)
    sys.setprofile(count)
    try:
        action = agent.act(view_of_state(state, state.current_player()))
    finally:
        sys.setprofile(None)
    assert state.is_legal(action) and calls >= 40


@pytest.fixture
def client(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from meeplezoo.web import create_app

    # a plugin's agent is seated once allowed, as `meeplezoo serve --allow-agent greedy` does
    with TestClient(create_app(tmp_path / "web.sqlite", hosts=["testserver"], allow_agents=["greedy"])) as c:
        yield c


def lists_in(value: Any) -> list[list]:
    """Every list anywhere in a JSON value."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in lists_in(v)]
    if isinstance(value, list):
        return [value, *(x for v in value for x in lists_in(v))]
    return []


def test_serve_plays_against_a_bot_on_the_generic_table_without_leaks(client):
    catalog = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert catalog[GAME]["players"] == [2, 3, 4] and catalog[GAME]["options"] == {"cards": "9"}
    assert client.get(f"/views/{GAME}.js").status_code == 404  # no view of its own: the generic table
    r = client.post(
        "/api/play", json={"game": GAME, "config": {"num_players": 2}, "seat": 1, "bots": ["greedy"], "seed": 3}
    )
    assert r.status_code == 200, r.text
    g = r.json()
    tables = []
    while True:
        deadline = time.monotonic() + 30
        while (v := client.get(f"/api/play/{g['id']}?token={g['token']}").json())["thinking"]:
            assert time.monotonic() < deadline, "the bot never answered"
            time.sleep(0.01)
        tables.append(v["table"])
        if v["over"]:
            break
        assert v["your_turn"] and v["table"]["to_act"] == 1 and len(v["legal"]) == 9 - len(tables) + 1
        assert v["log"][-1]["name"] == "bid a card face down"  # the bot's bid of this round
        r = client.post(f"/api/play/{g['id']}/act", json={"token": g["token"], "action": v["legal"][0]["id"]})
        assert r.status_code == 200, r.text
    assert len(tables) == 10 and v["result"] is not None

    (stored,) = client.get("/api/stored").json()["games"]
    truth = client.get(f"/api/stored/{stored['id']}?seat=all").json()["frames"]
    seen = client.get(f"/api/stored/{stored['id']}?seat=1").json()["frames"]
    assert [f["table"] for f in seen[1::2]] == tables[:-1]  # what the player saw, before each of its bids
    for full, mine in zip(truth, seen, strict=True):  # the deck's order is never shown (a canonical one may be)
        deck = full["table"]["board"]["deck"]
        assert deck == sorted(deck) or deck not in lists_in(mine["table"]["board"]), full["index"]
    # the bot's face-down bid: the player's table is the same whichever card the bot bid
    actions = [int(f["decision"]["name"].split()[-1]) - 1 for f in truth[:-1]]  # full view names: "bid N"
    for k in (0, 8, 14):  # the bot's bids in rounds 1, 5 and 8
        other = next(c - 1 for c in truth[k]["table"]["board"]["hands"][0] if c - 1 != actions[k])
        after = []
        for bids in (actions[: k + 1], [*actions[:k], other]):
            export = {"game": GAME, "config": {"num_players": 2}, "seed": 3, "decisions": [{"action": a} for a in bids]}
            r = client.post("/api/replay?seat=1", json=export)
            assert r.status_code == 200, r.text
            after.append(r.json()["frames"][-1]["table"])
        assert after[0] == seen[k + 1]["table"]  # the export is the stored game
        assert after[1] == after[0], f"round {k // 2 + 1}: the table shows the bot's bid"


def test_the_conformance_suite_plays_the_game(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests/conformance"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    ids = [line for line in done.stdout.splitlines() if GAME in line]
    for test in (
        "test_pettingzoo_api_test",
        "test_random_playouts_keep_every_invariant",
        "test_determinize_keeps_each_view_and_resamples_hidden_parts",
        "test_public_action_names_tell_a_viewer_only_what_they_learn",
        "test_corrupt_saves_raise_corrupt_state_error",
    ):
        assert any(f"{test}[" in line for line in ids), f"{test} has no {GAME} case:\n{done.stdout[-2000:]}"
    assert len({line.split("[", 1)[1] for line in ids}) >= 3  # every case of its conformance settings


def test_the_web_seats_the_games_own_agent_but_not_a_plugin_agent_registered_for_it():
    from meeplezoo.web.bots import BotPolicy
    from meeplezoo.web.security import RequestError

    policy = BotPolicy()
    assert "greedy" in policy.names(GAME) and "match" not in policy.names(GAME)
    policy.check("greedy", GAME)
    with pytest.raises(RequestError, match="does not seat 'match'"):
        policy.check("match", GAME)
