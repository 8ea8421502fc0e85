"""The human agent: the seat's view on screen, legal actions by id and name, a move typed by id or by the
start of its name, ``?`` lists the moves, bad input rejected in one line, ``q`` resigns; ``meeplezoo play GAME
--agents human mcts`` driven by stdin."""

from __future__ import annotations

import io

import numpy as np

from meeplezoo import cli
from meeplezoo.agents.human import HumanAgent, Resigned
from meeplezoo.agents.view import view_of_state
from meeplezoo.games import make_env


def a_view(game: str, seed: int = 0, **config):
    state = make_env(game, **config).unwrapped.game.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(12):
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state, view_of_state(state, state.current_player())


def test_bad_input_is_rejected_in_one_line_and_asked_again():
    _, view = a_view("seastead")
    legal = view.legal_actions
    illegal = next(a for a in range(view.num_actions) if a not in legal)
    out = io.StringIO()
    agent = HumanAgent(stdin=io.StringIO(f"zzz\n{view.num_actions + 5}\n{illegal}\n\n{legal[-1]}\n"), stdout=out)
    assert agent.act(view) == legal[-1]
    text = out.getvalue()
    assert "no legal move is called 'zzz'" in text
    assert f"out of range: {view.num_actions + 5}; action ids run 0..{view.num_actions - 1}" in text
    assert f"not legal now: {illegal}" in text
    assert text.count("your move (id or name, ? lists them, q resigns): ") == 5  # the empty line just asks again
    assert "''" not in text
    for a in legal:  # every legal action is listed by id and name
        assert f"{a:>4}  {view.describe_action(a)}" in text
    assert view.pending in text


def concordia_start():
    """Concordia's first decision: the same seven personality cards in every hand, two of them Prefects."""
    state = make_env("concordia", num_players=2).unwrapped.game.new_state(0)
    view = view_of_state(state, state.current_player())
    names: dict[str, int] = {}
    for a in view.legal_actions:  # a name's lowest id: the move listed for the two identical Prefects
        names.setdefault(view.describe_action(a), a)
    return view, names


def test_a_unique_start_of_a_name_in_any_case_picks_that_move():
    view, names = concordia_start()
    tribune = next(a for name, a in names.items() if name.startswith("play Tribune"))
    architect = next(a for name, a in names.items() if name.startswith("play Architect"))
    for typed, expected in (("PLAY T", tribune), ("play architect", architect), (str(architect), architect)):
        out = io.StringIO()
        assert HumanAgent(board=False, stdin=io.StringIO(typed + "\n"), stdout=out).act(view) == expected
        assert "ambiguous" not in out.getvalue() and "no legal move" not in out.getvalue()


def test_an_ambiguous_start_lists_the_moves_it_matches_and_asks_again():
    view, names = concordia_start()
    out = io.StringIO()
    agent = HumanAgent(board=False, stdin=io.StringIO("play\nplay Prefect [Saturnus, start]\n"), stdout=out)
    assert agent.act(view) == names["play Prefect [Saturnus, start]"]
    after = out.getvalue().split("your move", 1)[1]  # what came after the first question
    assert after.count("ambiguous: 'play' starts 6 moves") == 1  # seven cards, two of them identical: six moves
    for name, a in names.items():
        assert after.count(f"{a:>4}  {name}") == 1


def test_two_identical_cards_are_one_move_listed_once_and_either_id_is_taken():
    view, _ = concordia_start()
    prefects = [a for a in view.legal_actions if view.describe_action(a).startswith("play Prefect")]
    assert len(prefects) == 2
    out = io.StringIO()
    assert HumanAgent(board=False, stdin=io.StringIO(f"{prefects[1]}\n"), stdout=out).act(view) == prefects[1]
    text = out.getvalue()
    assert text.count("play Prefect") == 1 and f"{prefects[0]:>4}  play Prefect [Saturnus, start]" in text


def test_question_mark_and_help_list_the_legal_moves_again():
    view, names = concordia_start()
    out = io.StringIO()
    agent = HumanAgent(board=False, stdin=io.StringIO(f"?\nHELP\n{view.legal_actions[0]}\n"), stdout=out)
    assert agent.act(view) == view.legal_actions[0]
    text = out.getvalue()
    assert "no legal move" not in text
    for name, a in names.items():
        assert text.count(f"{a:>4}  {name}") == 3  # shown once, then after "?" and after "HELP"


def test_a_wild_resource_choice_reads_as_a_sentence_and_is_typed_by_name():
    from meeplezoo.envs.seastead.actions import RES0
    from meeplezoo.envs.seastead.steps import Step

    game = make_env("seastead").unwrapped.game
    for seed in range(50):  # random games until one asks for a wild symbol's resource
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and state.d.stack[-1][0] != Step.DIVE_WILD:
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        if not state.is_terminal():
            break
    view = view_of_state(state, state.current_player())
    metal = RES0 + 3
    assert view.describe_action(metal) == "take 1 metal for a wild symbol"
    out = io.StringIO()
    assert HumanAgent(board=False, stdin=io.StringIO("take 1 me\n"), stdout=out).act(view) == metal
    assert f"{metal:>4}  take 1 metal for a wild symbol" in out.getvalue()


def test_q_and_the_end_of_input_resign():
    _, view = a_view("concordia", num_players=2)
    for typed in ("q\n", "", "resign\n"):
        agent = HumanAgent(stdin=io.StringIO(typed), stdout=io.StringIO())
        try:
            agent.act(view)
        except Resigned as exc:
            assert exc.agent == view.agent
        else:
            raise AssertionError(f"{typed!r} should resign")


def test_board_royale_shows_the_own_hand_and_no_other_hand():
    state, view = a_view("board_royale", seed=3, num_players=3)
    out = io.StringIO()
    HumanAgent(stdin=io.StringIO(f"{view.legal_actions[0]}\n"), stdout=out).act(view)
    text = out.getvalue()
    from meeplezoo.envs.board_royale.content import KIND_NAMES, NUM_KINDS

    seat = view.seat
    mine = state.d.hand[seat * NUM_KINDS : (seat + 1) * NUM_KINDS]
    expected = ", ".join(f"{KIND_NAMES[k]} {c}" for k, c in enumerate(mine) if c)
    assert f"your hand: {expected}" in text
    assert text.count("your hand:") == 1


def test_the_own_cards_shown_are_the_ones_the_games_manifest_names(monkeypatch):
    """Seastead's picture shows every holding (its manifest names no ``own_cards``); a manifest that names a
    function gets its line under the table, from a determinization of the seat's view."""
    import dataclasses
    import sys
    import types

    from meeplezoo import games

    _, view = a_view("seastead", seed=2)
    out = io.StringIO()
    HumanAgent(stdin=io.StringIO(f"{view.legal_actions[0]}\n"), stdout=out).act(view)
    assert games.manifest("seastead").own_cards is None and "your hand" not in out.getvalue()
    module = types.ModuleType("fake_own_cards")
    module.own_cards = lambda seat_view, state: f"seat {seat_view.seat} holds {type(state).__name__}"
    monkeypatch.setitem(sys.modules, module.__name__, module)
    fake = dataclasses.replace(games.manifest("seastead"), own_cards="fake_own_cards:own_cards")
    real = games.manifest
    monkeypatch.setattr(games, "manifest", lambda name: fake if name == "seastead" else real(name))
    out = io.StringIO()
    HumanAgent(stdin=io.StringIO(f"{view.legal_actions[0]}\n"), stdout=out).act(view)
    assert f"seat {view.seat} holds {type(view.public_state()).__name__}" in out.getvalue().splitlines()
    out = io.StringIO()
    HumanAgent(board=False, stdin=io.StringIO(f"{view.legal_actions[0]}\n"), stdout=out).act(view)
    assert "holds" not in out.getvalue()  # board=false: no table, no holdings


def test_play_human_against_mcts_from_the_cli(capsys, monkeypatch):
    class Script(io.StringIO):
        """Two bad answers, then the first legal id on screen for ten decisions, then ``q``."""

        def __init__(self) -> None:
            super().__init__()
            self.calls = 0
            self.seen: list[str] = []

        def readline(self, *args) -> str:
            self.calls += 1
            if self.calls == 1:
                return "x\n"
            if self.calls == 2:
                return "-1\n"
            if self.calls > 12:
                return "q\n"
            shown = capsys.readouterr().out
            self.seen.append(shown)
            menu = "".join(self.seen).rpartition("(you) must")[2]
            ids = [line.split()[0] for line in menu.splitlines()[1:] if line.strip()[:1].isdigit()]
            return ids[0] + "\n"

    script = Script()
    monkeypatch.setattr("sys.stdin", script)
    code = cli.main(["play", "seastead", "--agents", "human", "mcts:iters=5", "--seed", "3"])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err
    seen = "".join(script.seen) + out
    assert "no legal move is called 'x'" in seen and "out of range: -1" in seen
    assert "player_0 (you) must" in seen
    assert "player_0 (human) resigned after" in out
    assert "board before decision" not in seen  # the true board is not printed while a person plays
    assert seen.count("(you) must") >= 10
