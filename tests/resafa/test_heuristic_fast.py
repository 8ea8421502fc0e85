"""The heuristic's fast paths against the plain code they replaced: the lookahead machine and the evaluation."""

from __future__ import annotations

from heuristic_reference import evaluate as ref_evaluate
from heuristic_reference import pending_value as ref_pending_value
from heuristic_reference import points as ref_points

from meeplezoo.agents.view import view_of_state
from meeplezoo.envs.resafa import ResafaGame, canals, gardens, trade, workshops
from meeplezoo.envs.resafa.cards import main_possible
from meeplezoo.envs.resafa.content import Action, Build
from meeplezoo.envs.resafa.effects import EFFECTS
from meeplezoo.envs.resafa.game import ResafaState
from meeplezoo.envs.resafa.heuristic import ResafaHeuristicAgent, evaluate, pending_value, points
from meeplezoo.envs.resafa.turn import LOOKAHEAD


def heuristic_positions(players: int, seed: int, limit: int = 250) -> list[ResafaState]:
    """Positions reached by the heuristic's own play (every seat), the first ``limit`` decisions."""
    state = ResafaGame(num_players=players).new_state(seed)
    agent = ResafaHeuristicAgent(seed=seed)
    out = []
    while not state.is_terminal() and len(out) < limit:
        out.append(state.clone())
        state.apply(agent.act(view_of_state(state, state.current_player())))
    return out


def test_lookahead_and_evaluation_match_the_game_machine_and_the_reference() -> None:
    """Every action of every position: the lookahead machine reaches the position the game's machine does
    (only the cached legal actions may differ), and the evaluation equals the one first written, float for
    float, for every seat."""
    checked = 0
    for players, seed in ((1, 2), (2, 3), (3, 4), (4, 5)):
        for state in heuristic_positions(players, seed):
            for action in state.legal_actions():
                game, look = state.clone(), state.clone()
                game.apply(action)
                LOOKAHEAD.apply(look.d, action)
                assert set(look.d.legal) <= set(game.d.legal) and bool(look.d.legal) == bool(game.d.legal)
                look.d.legal = game.d.legal
                assert look.to_dict() == game.to_dict()
                for s in range(players):
                    assert points(game.d, s) == ref_points(game.d, s)
                    assert pending_value(game.d, s) == ref_pending_value(game.d, s)
                    assert evaluate(game.d, s) == ref_evaluate(game.d, s)
                checked += 1
    assert checked > 2000


#: the discount codes of the printed build effects (effect id + 1)
BUILD_CODES = tuple(i + 1 for i, e in enumerate(EFFECTS) if isinstance(e, Build))


def test_main_possible_stops_at_the_first_legal_action() -> None:
    """``main_possible`` (first legal action of each main action's first decision) and ``has_free_cell`` say
    what the full legal lists say, for every seat of every position of heuristic games."""
    checked = 0
    for players, seed in ((1, 6), (2, 7), (3, 8), (4, 9)):
        for state in heuristic_positions(players, seed, limit=300):
            d = state.d
            for seat in range(players):
                full = {
                    Action.WORKSHOP: bool(workshops.legal_ws_pick(d, seat, 0, 0)),
                    Action.PRODUCTION: workshops.production_possible(d, seat),
                    Action.GARDEN: bool(gardens.legal_garden_size(d, seat, 3, 0)),
                    Action.CANAL: bool(canals.legal_canal_pick(d, seat, 0, 0)),
                    Action.TRADE: bool(trade.legal_move(d, seat, 0, 0)),
                }
                for action, possible in full.items():
                    assert main_possible(d, seat, action) == possible
                    checked += possible
                assert workshops.has_free_cell(d, seat) == bool(workshops.free_cells(d, seat))
                for code in BUILD_CODES:  # a build effect's discount (build offers)
                    assert (next(canals.canal_picks(d, seat, code), None) is not None) == bool(
                        canals.legal_canal_pick(d, seat, 0, code)
                    )
                    assert (next(gardens.garden_sizes(d, seat, 3, code), None) is not None) == bool(
                        gardens.legal_garden_size(d, seat, 3, code)
                    )
                for road_discount in (0, 1, 2):
                    assert (next(trade.moves(d, seat, road_discount), None) is not None) == bool(
                        trade.legal_move(d, seat, road_discount, 0)
                    )
    assert checked > 1000


def test_action_values_match_the_reference() -> None:
    """``main_value`` (its trade, canal and garden estimates from tables), ``colour_value`` and ``card_value``
    equal the reference's, float for float, for every seat of every position and every main action, colour
    and card in hand."""
    from heuristic_reference import card_value as ref_card_value
    from heuristic_reference import colour_value as ref_colour_value
    from heuristic_reference import main_value as ref_main_value

    from meeplezoo.envs.resafa.heuristic import card_value, colour_value, main_value

    trades = 0
    for players, seed in ((1, 16), (2, 17), (3, 18), (4, 19)):
        for state in heuristic_positions(players, seed, limit=300)[::3]:
            d = state.d
            for seat in range(players):
                for m in range(6):
                    value = main_value(d, seat, m)
                    assert value == ref_main_value(d, seat, m)
                    trades += m == int(Action.TRADE) and value != 0.0
                for colour in (-1, 0, 1, 2, 3):
                    assert colour_value(d, seat, colour) == ref_colour_value(d, seat, colour)
                for card in d.hand[seat]:
                    assert card_value(d, seat, card) == ref_card_value(d, seat, card)
    assert trades > 100
