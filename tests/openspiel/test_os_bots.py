"""OpenSpiel's bots as MeepleZoo agents (``openspiel:ismcts|mcts|random``) and MeepleZoo agents as ``pyspiel.Bot``s."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

from meeplezoo.agents.registry import canonical_spec, make_agent  # noqa: E402
from meeplezoo.agents.spec import AgentSpecError  # noqa: E402
from meeplezoo.arena import runner  # noqa: E402
from meeplezoo.arena.schedule import Study, validate  # noqa: E402
from meeplezoo.arena.store import Store  # noqa: E402
from meeplezoo.openspiel import load_game  # noqa: E402
from meeplezoo.openspiel.bots import AgentBot, BudgetedISMCTS, BudgetedMCTS, OpenSpielAgent, agent_bots  # noqa: E402

GAMES = ("seastead", "concordia", "board_royale", "resafa")
#: the tables evaluate_bots plays: every game at 2 players, and one larger table
TABLES = [(g, 2) for g in GAMES] + [("concordia", 4)]


def dealt(game, deal=(1, 2, 3, 4), moves: int = 8):
    """A state of ``game`` after the deal ``deal`` and ``moves`` decisions of a seeded random player."""
    state = game.new_initial_state()
    for byte in deal:
        state.apply_action(byte)
    rng = np.random.default_rng(0)
    for _ in range(moves):
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    return state


# --- specs ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "canonical"),
    [
        ("openspiel:ismcts", "openspiel:bot=ismcts"),
        ("openspiel:mcts", "openspiel:bot=mcts"),
        ("openspiel:random", "openspiel:bot=random"),
        ("openspiel: ismcts, sims=0200", "openspiel:bot=ismcts,sims=200"),
        (
            "openspiel(bot=mcts, seconds=0.5, uct_c=1, rollouts=3)",
            "openspiel:bot=mcts,seconds=0.5,uct_c=1.0,rollouts=3",
        ),
    ],
)
def test_specs_parse_to_one_canonical_form(spec: str, canonical: str) -> None:
    assert canonical_spec(spec, "seastead") == canonical
    agent = make_agent(spec, "resafa", seed=1)
    assert isinstance(agent, OpenSpielAgent) and agent.bot == canonical.split("bot=")[1].split(",")[0]


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("openspiel:alphazero", "bot"),
        ("openspiel:ismcts,simz=3", "simz"),
        ("openspiel:ismcts,sims=0", "sims"),
        ("openspiel:mcts,seconds=-1", "seconds"),
        ("openspiel:ismcts,uct_c=wide", "uct_c"),
        ("openspiel:random,rollouts=0", "rollouts"),
    ],
)
def test_a_bad_bot_or_parameter_is_a_one_line_error_naming_it(spec: str, named: str) -> None:
    with pytest.raises(AgentSpecError) as err:
        make_agent(spec, "seastead")
    assert "\n" not in str(err.value) and named in str(err.value) and "openspiel" in str(err.value)


def test_without_open_spiel_the_agent_is_a_one_line_error_naming_the_extra() -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.modules["pyspiel"] = None  # as if open_spiel were not installed
        from meeplezoo.agents.registry import make_agent
        from meeplezoo.envs.core.errors import MeepleZooError
        try:
            make_agent("openspiel:ismcts", "seastead")
        except MeepleZooError as exc:
            print(exc)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-500:]
    assert len(out.stdout.strip().splitlines()) == 1 and 'pip install "meeplezoo[openspiel]"' in out.stdout


# --- MeepleZoo agents in OpenSpiel ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "players"), TABLES)
def test_evaluate_bots_plays_meeplezoo_agents_to_zero_sum_returns(name: str, players: int) -> None:
    game = load_game(name, {"num_players": players})
    specs = ["heuristic", "random"] * (players // 2)
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, agent_bots(specs, game, seed=3), np.random.RandomState(3))
    assert state.is_terminal() and state.core.decisions > players
    assert sum(returns) == pytest.approx(0.0) and max(returns) > 0 > min(returns)
    assert returns == state.returns()


def test_the_heuristic_beats_random_in_seastead_through_evaluate_bots() -> None:
    """The heuristic won 398 of 400 such games (seats alternated, seeds 0-399): at a 99% win rate, 5 or more wins
    in 6 games fail with probability 0.0014."""
    game = load_game("seastead", {"num_players": 2})
    wins = 0
    for seed in range(6):
        me = seed % 2
        specs = ["heuristic", "random"] if me == 0 else ["random", "heuristic"]
        returns = evaluate_bots.evaluate_bots(
            game.new_initial_state(), agent_bots(specs, game, seed=seed), np.random.RandomState(seed)
        )
        wins += returns[me] > 0
    assert wins >= 5


class SpyAgent:
    """Plays the lowest legal action and notes what it was given."""

    name = "spy"

    def __init__(self) -> None:
        self.prepared: list[tuple[str, int]] = []
        self.views: list = []

    def prepare(self, game: str, num_players: int) -> None:
        self.prepared.append((game, num_players))

    def act(self, view) -> int:
        self.views.append(view)
        return view.legal_actions[0]


def test_an_agent_bot_prepares_its_agent_once_and_hands_it_the_seats_view_only() -> None:
    game = load_game("resafa", {"num_players": 2})
    spies = [SpyAgent(), SpyAgent()]
    state = game.new_initial_state()
    evaluate_bots.evaluate_bots(
        state, [AgentBot(s, seat, game) for seat, s in enumerate(spies)], np.random.RandomState(1)
    )
    assert state.is_terminal()
    for seat, spy in enumerate(spies):
        assert spy.prepared == [("resafa", 2)]
        assert spy.views and all(v.seat == seat for v in spy.views)
    view = spies[0].views[-1]
    assert view.public_state() is not state.core.engine and not hasattr(view, "state")


def test_an_agent_bot_refuses_a_seat_that_is_not_to_act() -> None:
    game = load_game("seastead", {"num_players": 2})
    state = dealt(game)
    bot = AgentBot(SpyAgent(), 1 - state.current_player(), game)
    with pytest.raises(ValueError, match="the player to act is"):
        bot.step(state)


# --- OpenSpiel bots in MeepleZoo -----------------------------------------------------------------------------------
def _first_seating(study: Study):
    """The first game of ``study`` (its first lineup and seating)."""
    return validate(study)[0]


@pytest.mark.slow
def test_openspiel_bots_complete_a_game_of_every_game_in_the_arena_isolated(tmp_path) -> None:
    """Agents run in their own processes (the arena's default): pyspiel is imported and used there."""
    tasks = [
        _first_seating(Study(name, [spec, "random"], seats=2, games=1, seed=11))
        for name in GAMES
        for spec in ("openspiel:random", "openspiel:ismcts,sims=2")
    ]
    assert {t.isolation for t in tasks} == {"process"}
    with Store(tmp_path / "os.sqlite") as db:
        summary = runner.run(tasks, db, workers=1)
        rows = list(db.games())
    assert summary.played == len(tasks) and not summary.failed
    for row in rows:
        assert row.forfeit is None and not row.truncated and row.decisions == len(row.actions) > 0
        assert sorted(row.ranks) in ([0, 1], [0, 0]) and row.isolation == "process"
    seated = {(r.game, spec) for r in rows for spec in r.seats if spec != "random"}
    assert seated == {(g, s) for g in GAMES for s in ("openspiel:bot=random", "openspiel:bot=ismcts,sims=2")}


def test_the_same_seed_plays_the_same_game_with_ismcts(tmp_path) -> None:
    task = _first_seating(Study("seastead", ["openspiel:ismcts,sims=3", "random"], seats=2, games=1, seed=4))
    actions = []
    for run in ("a", "b"):
        with Store(tmp_path / f"{run}.sqlite") as db:
            assert runner.run([task], db, workers=1).played == 1
            [row] = list(db.games())
        actions.append(row.actions)
    assert actions[0] == actions[1]


def test_meeplezoo_play_runs_openspiel_mcts_isolated() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "meeplezoo",
            "play",
            "seastead",
            "--agents",
            "openspiel:mcts,sims=3",
            "random",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-800:]
    assert "Final score sheet" in out.stdout and "openspiel = openspiel:mcts,sims=3" in out.stdout
    assert re.search(r"^\d+ decisions in ", out.stdout, re.MULTILINE)


@pytest.mark.slow
def test_openspiels_ismcts_beats_random_in_seastead() -> None:
    """At 20 simulations it won 39 of 40 such games (seats alternated, seeds 0-39). At that rate 7 or more wins in
    8 games happen with probability 0.985; a player no better than random gets them with probability 0.035."""
    game = load_game("seastead", {"num_players": 2})
    wins = 0
    for seed in range(8):
        me = seed % 2
        specs = ["openspiel:ismcts,sims=20", "random"][:: 1 if me == 0 else -1]
        returns = evaluate_bots.evaluate_bots(
            game.new_initial_state(), agent_bots(specs, game, seed=seed), np.random.RandomState(seed)
        )
        wins += returns[me] > 0
    assert wins >= 7


@pytest.mark.parametrize(
    ("bot", "cls", "search"), [("ismcts", BudgetedISMCTS, "run_simulation"), ("mcts", BudgetedMCTS, "mcts_search")]
)
def test_the_search_sees_only_what_the_seat_knows(monkeypatch, bot: str, cls: type, search: str) -> None:
    """Two true states the seat cannot tell apart (the other seat's hidden holdings differ) hand the bot and its
    search the same states, each the seat's own (``view_of``) with deal bytes that are not the true game's."""
    game = load_game("resafa", {"num_players": 2})
    true = dealt(game)
    seat = true.current_player()
    twin = true.resample_from_infostate(seat, np.random.RandomState(9).uniform)
    assert np.array_equal(true.engine.observe(seat), twin.engine.observe(seat))
    assert not np.array_equal(true.engine.observe(1 - seat), twin.engine.observe(1 - seat))  # hidden parts differ
    seen: list = []
    for method in ("step", search):  # the state handed to the bot, and each state its search starts from
        original = getattr(cls, method)

        def spy(self, state, original=original):
            seen.append((state.core.view_of, state.core.deal, state.serialize()))
            return original(self, state)

        monkeypatch.setattr(cls, method, spy)
    runs = []
    for state in (true, twin):
        seen.clear()
        action = AgentBot(make_agent(f"openspiel:{bot},sims=6", "resafa", seed=4), seat, game).step(state)
        runs.append((action, list(seen)))
    assert runs[0] == runs[1] and len(runs[0][1]) > 1
    assert all(view_of == seat and deal != true.core.deal for view_of, deal, _ in runs[0][1])
