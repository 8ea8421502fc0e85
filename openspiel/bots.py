"""OpenSpiel bots as MeepleZoo agents, and MeepleZoo agents as OpenSpiel bots.

* :class:`OpenSpielAgent` is the agent ``openspiel`` of every game: ``openspiel:ismcts`` (OpenSpiel's IS-MCTS),
  ``openspiel:mcts`` (its perfect-information MCTS on one determinization), ``openspiel:random`` (its uniform
  random bot). At each decision it wraps the seat's public copy (:meth:`~meeplezoo.agents.view.SeatView.
  public_state`: what the seat knows, hidden parts in canonical order, fresh chance) as a state of the pyspiel
  game (``view_of`` the seat) and asks the bot. IS-MCTS samples its worlds with ``resample_from_infostate`` (the
  engine's ``determinize``), so the search never sees the true state, nor the canonical stand-ins for its hidden
  parts. A budget is ``sims`` simulations, or ``seconds`` of CPU time (``time.process_time``) per decision.
* :class:`AgentBot` is a ``pyspiel.Bot`` playing one seat with a MeepleZoo agent, looking only at that seat's view,
  so that ``open_spiel.python.algorithms.evaluate_bots`` plays MeepleZoo agents::

    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots
    from meeplezoo.openspiel import load_game
    from meeplezoo.openspiel.bots import agent_bots

    game = load_game("seastead", {"num_players": 2})
    bots = agent_bots(["heuristic", "openspiel:ismcts,sims=50"], game, seed=1)
    evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))

Every random draw comes from the agent's seed: the same seed and the same game give the same choices with ``sims``
(a ``seconds`` budget depends on the machine's speed and load).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from .. import games
from ..agents.base import BaseAgent, Seed
from ..agents.match import action_id, agent_seed
from ..agents.registry import make_agent
from ..agents.spec import AgentSpecError, Param, bind_keywords
from ..agents.view import SeatView, view_of_state
from .game import MeepleZooGame, MeepleZooState
from .registration import load_game

#: the OpenSpiel bots ``openspiel:BOT`` plays
BOTS = ("ismcts", "mcts", "random")


# --- MeepleZoo agents in OpenSpiel -------------------------------------------------------------------------------
class AgentBot(pyspiel.Bot):
    """A MeepleZoo agent playing seat ``player_id`` of a MeepleZoo OpenSpiel game.

    :meth:`step` hands the agent the seat's view of the state's engine state (a public copy: nothing the seat
    cannot see reaches it) and returns the agent's action. The agent's ``prepare`` runs once, when the bot is made.
    """

    def __init__(self, agent: Any, player_id: int, game: MeepleZooGame) -> None:
        pyspiel.Bot.__init__(self)
        self.agent = agent
        self.player_id = player_id
        self.label = str(getattr(agent, "spec", getattr(agent, "name", type(agent).__name__)))
        prepare = getattr(agent, "prepare", None)
        if callable(prepare):
            prepare(game.engine_game.name, game.num_players())

    def step(self, state: MeepleZooState) -> int:
        engine = state.core.engine
        if engine is None or state.current_player() != self.player_id:
            raise ValueError(f"{self.label} plays seat {self.player_id}; the player to act is {state.current_player()}")
        view = view_of_state(
            engine,
            self.player_id,
            determinize=getattr(self.agent, "uses_determinize", True),
            disposable=getattr(self.agent, "owns_its_views", False),
        )
        return action_id(self.agent.act(view), f"player_{self.player_id}")

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to do: the agent reads each decision's view afresh."""

    def restart(self) -> None:
        """Nothing to do (see :meth:`restart_at`)."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to do: what the seat saw of the action is in its next view."""

    def __repr__(self) -> str:
        return f"AgentBot({self.label!r}, seat {self.player_id})"


def agent_bots(specs: Sequence[str], game: MeepleZooGame, seed: int = 0) -> list[AgentBot]:
    """One :class:`AgentBot` per seat of ``game``, seat ``i`` played by ``make_agent(specs[i])`` seeded as the arena
    seeds seat ``i`` of the game seeded ``seed`` (:func:`~meeplezoo.agents.match.agent_seed`)."""
    n = game.num_players()
    if len(specs) != n:
        raise ValueError(f"{len(specs)} agent specs for the {n} seats of {game}")
    name = game.engine_game.name
    return [
        AgentBot(make_agent(spec, name, seed=agent_seed(seed, seat)), seat, game) for seat, spec in enumerate(specs)
    ]


# --- OpenSpiel bots in MeepleZoo ---------------------------------------------------------------------------------
class _Budget:
    """A search budget: ``sims`` simulations, or (``seconds`` > 0) CPU seconds from when it is started."""

    def __init__(self, sims: int, seconds: float) -> None:
        self.sims, self.seconds = sims, seconds
        self.deadline = time.process_time() + seconds if seconds > 0 else None

    def spent(self, done: int) -> bool:
        """Whether the search, ``done`` simulations in, stops (it always runs one)."""
        if done == 0:
            return False
        if self.deadline is not None:
            return time.process_time() >= self.deadline
        return done >= self.sims


class BudgetedISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's :class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot` with a simulation or CPU-time budget and
    its worlds sampled from its own seeded generator (``resample_from_infostate`` with the bot's sampler)."""

    def __init__(self, game: MeepleZooGame, uct_c: float, sims: int, seconds: float, rollouts: int, rs: Any) -> None:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rs)
        super().__init__(game, evaluator, uct_c, sims, random_state=rs)
        self.seconds = seconds
        self.last_simulations = 0
        self.set_resampler(self._resample)

    def _resample(self, state: MeepleZooState, player: int) -> MeepleZooState:
        return state.resample_from_infostate(player, self._random_state.uniform)

    def run_search(self, state: MeepleZooState) -> list[tuple[int, float]]:
        """ISMCTSBot's search (a fresh tree, one resampled world per simulation) until the budget is spent."""
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        budget, done = _Budget(self._max_simulations, self.seconds), 0
        while not budget.spent(done):
            world = self.sample_root_state(state)
            if self.get_state_key(world) != root_key:  # OpenSpiel asserts it: the seat cannot tell the world apart
                raise RuntimeError(f"{state.get_game()}: a resampled world's information state differs from the root's")
            self.run_simulation(world)
            done += 1
        self.last_simulations = done
        return self.get_final_policy(state, self._root_node)


class _OutOfTime(Exception):
    """Raised between two simulations of :class:`BudgetedMCTS` when its CPU time is spent."""


class BudgetedMCTS(mcts.MCTSBot):
    """OpenSpiel's :class:`~open_spiel.python.algorithms.mcts.MCTSBot` (random rollouts, MCTS-solver) with a
    simulation or CPU-time budget: with ``seconds`` its search stops before the first simulation past the budget."""

    def __init__(self, game: MeepleZooGame, uct_c: float, sims: int, seconds: float, rollouts: int, rs: Any) -> None:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rs)
        super().__init__(game, uct_c, sys.maxsize if seconds > 0 else sims, evaluator, random_state=rs)
        self.seconds = seconds
        self.last_simulations = 0
        self._budget: _Budget | None = None
        self._root: Any = None

    def mcts_search(self, state: MeepleZooState) -> Any:
        self._budget, self._root = _Budget(self.max_simulations, self.seconds), None
        try:
            root = super().mcts_search(state)
        except _OutOfTime:
            root = self._root
        self.last_simulations = root.explore_count
        return root

    def _apply_tree_policy(self, root: Any, state: MeepleZooState) -> Any:
        # called once at the start of each simulation, before it touches the tree: the place to stop cleanly
        if self.seconds > 0 and self._budget.spent(root.explore_count):
            self._root = root
            raise _OutOfTime
        return super()._apply_tree_policy(root, state)


class OpenSpielAgent(BaseAgent):
    """An OpenSpiel bot playing a seat of a MeepleZoo game (see the module docstring).

    * ``ismcts``: :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot` (UCT, most visited action, a fresh tree
      per decision), each simulation in a world resampled from the seat's information state.
    * ``mcts``: :class:`open_spiel.python.algorithms.mcts.MCTSBot`, OpenSpiel's perfect-information MCTS on one
      determinization: once per decision it resamples what the seat cannot see and searches that one world as if
      it were the true state (it sees nothing hidden, but plans as though its one guess were right).
    * ``random``: ``pyspiel.make_uniform_random_bot``.

    Both searches value leaves with random rollouts to the end of the game (``mcts.RandomRolloutEvaluator``).
    """

    name = "openspiel"
    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param("bot", str, "ismcts", "OpenSpiel's bot", choices=BOTS),
        Param("sims", int, 100, "simulations per decision (when seconds is 0)", minimum=1),
        Param("seconds", float, 0.0, "CPU seconds per decision instead of sims (0: use sims)", minimum=0.0),
        Param("uct_c", float, 2.0, "UCT exploration constant (returns lie in [-1, 1])", minimum=0.0),
        Param("rollouts", int, 1, "random rollouts per evaluated leaf", minimum=1),
    )
    PRELOAD: ClassVar[tuple[str, ...]] = ("pyspiel", "meeplezoo.openspiel", __name__)
    owns_its_views = True  # act takes the view's public copy over (copy=False)
    bot: str
    sims: int
    seconds: float
    uct_c: float
    rollouts: int

    def __init__(self, seed: Seed = None, **params: Any) -> None:
        super().__init__(seed)
        for key, value in bind_keywords(self.name, self.PARAMS, params).items():
            setattr(self, key, value)
        self._rs = np.random.RandomState(int(self.rng.integers(2**32)))  # the bots' generator
        self._games: dict[tuple, MeepleZooGame] = {}
        self._bots: dict[tuple, Any] = {}
        self.last_simulations = 0  # simulations of the last search (0 when the decision was forced)

    def check_game(self, game: str) -> None:
        """Raise :class:`AgentSpecError` if ``game`` has no engine (only games with one are OpenSpiel games)."""
        if games.manifest(game).engine is None:
            raise AgentSpecError(f"agent {self.name!r}: {game} has no MeepleZoo engine, so no OpenSpiel game")

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            self.last_simulations = 0
            return int(legal[0])
        key = (view.game_name, tuple(sorted(view.config.items())))
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = load_game(view.game_name, dict(view.config))
        state = game.state_of(view.public_state(copy=False), view_of=view.seat)
        bot = self._bot(key, game, view.seat)
        if self.bot == "mcts":  # one world the seat cannot tell from its own, searched as if it were the true one
            state = state.resample_from_infostate(view.seat, self._rs.uniform)
        action = int(bot.step(state))
        self.last_simulations = getattr(bot, "last_simulations", 0)
        if action not in legal:
            raise RuntimeError(f"openspiel:{self.bot} answered {action}, not a legal action of {view.game_name}")
        return action

    def _bot(self, key: tuple, game: MeepleZooGame, seat: int) -> Any:
        """The bot for the game of ``key`` (the random bot is bound to a seat), made when first needed."""
        key = (*key, seat) if self.bot == "random" else key
        bot = self._bots.get(key)
        if bot is None:
            if self.bot == "random":
                bot = pyspiel.make_uniform_random_bot(seat, int(self._rs.randint(2**31)))
            elif self.bot == "mcts":
                bot = BudgetedMCTS(game, self.uct_c, self.sims, self.seconds, self.rollouts, self._rs)
            else:
                bot = BudgetedISMCTS(game, self.uct_c, self.sims, self.seconds, self.rollouts, self._rs)
            self._bots[key] = bot
        return bot

    def __repr__(self) -> str:
        return f"OpenSpielAgent(bot={self.bot!r}, seed={self.seed!r})"


__all__ = ["BOTS", "AgentBot", "BudgetedISMCTS", "BudgetedMCTS", "OpenSpielAgent", "agent_bots"]
