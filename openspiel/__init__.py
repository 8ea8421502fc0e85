"""MeepleZoo's games in OpenSpiel (the optional extra ``meeplezoo[openspiel]``).

Importing this package registers every installed MeepleZoo game as an OpenSpiel Python game::

    import pyspiel
    import meeplezoo.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("meeplezoo_concordia(num_players=4,map=imperium)")
    state = game.new_initial_state()  # a chance node: the first of the deal's four

:mod:`.game` holds the game and state classes, :mod:`.observer` what a seat observes, :mod:`.bots` the bridge
between OpenSpiel bots and MeepleZoo agents, :mod:`.playthroughs` OpenSpiel's playthrough files of each game.
``docs/openspiel.md`` describes the bridge and its measurements.
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ModuleNotFoundError as exc:  # the extra is not installed
    if exc.name != "pyspiel":
        raise
    raise ModuleNotFoundError(
        'meeplezoo.openspiel needs OpenSpiel: pip install "meeplezoo[openspiel]"', name=__name__
    ) from None

from .game import DEAL_NODES, PREFIX, MeepleZooGame, MeepleZooState
from .registration import game_string, load_game, register_all, short_name

GAMES = register_all()

__all__ = [
    "DEAL_NODES",
    "GAMES",
    "PREFIX",
    "MeepleZooGame",
    "MeepleZooState",
    "game_string",
    "load_game",
    "register_all",
    "short_name",
]
