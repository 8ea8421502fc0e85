"""One adapter that turns any MeepleZoo engine into a PettingZoo ``AECEnv``.

It does all AEC bookkeeping so that no game touches PettingZoo: agent names, whose turn, rewards at the
end, eliminated agents leaving the loop, truncation, illegal actions, rendering. The checks PettingZoo's
generic wrappers add (order enforcing, out-of-bounds assertion, terminate-on-illegal) are built in and
cost a few integer comparisons per step, so ``env()`` needs no wrapper stack.

Observations are ``{"observation": float32[obs_size], "action_mask": int8[num_actions]}``; the mask is
all zeros for an agent that is not to act. Rewards come once, when the game (or an agent) is finished, in
one of the modes of :mod:`meeplezoo.envs.core.rewards`.
"""

from __future__ import annotations

import math
import warnings
from numbers import Real
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .engine import Game
from .errors import ActionTypeError, ConfigError, CorruptStateError, IllegalActionError
from .params import Param
from .rewards import REWARD_MODES, seat_return

ILLEGAL_MODES = ("penalize", "raise")


class EngineEnv(AECEnv):
    """PettingZoo AEC environment around a :class:`~meeplezoo.envs.core.engine.Game`.

    Args:
        game: the engine configuration to play.
        env_name: PettingZoo name, e.g. ``"seastead_v0"``.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints it).
        reward_mode: ``"win"`` (zero-sum, default), ``"rank"`` or ``"score_margin"``.
        illegal_action: ``"penalize"`` (PettingZoo classic: the game ends, the offender gets
            ``illegal_reward``, the others 0, a warning names the action) or ``"raise"``
            (:class:`IllegalActionError`, nothing changes).
        max_cycles: truncate once ``max_cycles * num_players`` decisions were taken (``None``: the
            engine's own bound). Truncated agents get reward 0.
    """

    def __init__(
        self,
        game: Game,
        env_name: str,
        render_mode: str | None = None,
        reward_mode: str = "win",
        illegal_action: str = "penalize",
        illegal_reward: float = -1.0,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ConfigError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if reward_mode not in REWARD_MODES:
            raise ConfigError(f"reward_mode must be one of {REWARD_MODES}, not {reward_mode!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise ConfigError(f"illegal_action must be one of {ILLEGAL_MODES}, not {illegal_action!r}")
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise ConfigError(f"max_cycles must be a positive int or None, not {max_cycles!r}")
        if (
            isinstance(illegal_reward, bool)
            or not isinstance(illegal_reward, Real)
            or not math.isfinite(illegal_reward)
        ):
            raise ConfigError(f"illegal_reward must be a finite number, not {illegal_reward!r}")
        self.game = game
        self.metadata = {"name": env_name, "render_modes": ["ansi", "human"], "is_parallelizable": False}
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        n = game.num_players
        self.max_cycles = max_cycles
        self._max_steps = max_cycles * n if max_cycles is not None else game.max_decisions
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (game.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )
        act_space = spaces.Discrete(game.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.state_space = spaces.Box(-1.0, 1.0, (game.state_size,), np.float32)  # of state()
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._zero_mask = np.zeros(game.num_actions, np.int8)
        self._seeds = np.random.default_rng()
        self.state_obj = None  # the engine state; None until reset()
        self._has_reset = False

    # --- spaces -----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- lifecycle --------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` fixes it; without one the next seed comes from the env's stream."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(2**63 - 1))
        self.state_obj = self.game.new_state(game_seed)
        self._start(game_seed)

    def load(self, state: Any) -> None:
        """Continue from an engine state (or a JSON save of this game) instead of a fresh game.

        A state object is validated and copied: the env never changes the caller's state.
        """
        if isinstance(state, str):
            state = self.game.state_from_json(state)
        else:
            game = getattr(state, "game", None)
            if game != self.game:
                raise CorruptStateError(f"cannot load a state of {game!r} into an env of {self.game!r}")
            state.validate()
            state = state.clone()
        self.state_obj = state
        self._start(None)

    def _start(self, game_seed: int | None) -> None:
        self.agents = [a for a in self.possible_agents if self._seat[a] not in self.state_obj.eliminated()]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._steps = 0
        self._dead_seats = set(self.state_obj.eliminated())
        self._has_reset = True
        self.game_seed = game_seed
        if self.state_obj.is_terminal():
            # a finished game (e.g. loaded): every remaining agent is rewarded and steps once with None
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
            self._finish_all()
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[self.state_obj.current_player()]

    def _require_reset(self, what: str) -> None:
        if not self._has_reset:
            raise RuntimeError(f"reset() needs to be called before {what}")

    # --- the AEC step -----------------------------------------------------------------------------
    def step(self, action: Any) -> None:
        self._require_reset("step")
        if not self.agents:
            raise RuntimeError("step() called after every agent is done; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ActionTypeError(f"{agent} is done: the only valid action is None, got {action!r}")
            self._was_dead_step(None)
            return
        state = self.state_obj
        action = self._check_action(action, agent)
        if not state.is_legal(action):
            self._illegal(action, agent)
            return
        state.apply(action)
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0  # PettingZoo: an agent's reward since its own last step
        self._clear_rewards()
        if state.is_terminal():
            self._finish_all()
        else:
            gone = state.eliminated()
            if len(gone) != len(self._dead_seats):
                self._eliminate(gone)
            else:
                self.agent_selection = self.possible_agents[state.current_player()]
            if self._max_steps is not None and self._steps >= self._max_steps:
                for a in self.agents:
                    self.truncations[a] = True
        self._accumulate_rewards()

    def _check_action(self, action: Any, agent: str) -> int:
        if action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ActionTypeError(f"{agent} must act with an int action, got {action!r} ({type(action).__name__})")
        action = int(action)
        if not 0 <= action < self.game.num_actions:
            raise ValueError(
                f"action {action} of {agent} is out of range: the action space is Discrete({self.game.num_actions})"
            )
        return action

    def _illegal(self, action: int, agent: str) -> None:
        state = self.state_obj
        seat = self._seat[agent]
        error = IllegalActionError(action, seat, state.pending(), f"{state.describe_action(action)!r} is not legal")
        if self.illegal_action == "raise":
            raise IllegalActionError(action, seat, state.pending(), f"{agent} tried {state.describe_action(action)!r}")
        warnings.warn(f"{agent}: {error}; the game ends and {agent} gets {self.illegal_reward}", stacklevel=2)
        self._clear_rewards()
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = self.illegal_reward if a == agent else 0.0
            self.infos[a]["illegal_action"] = {"agent": agent, "action": action}
        self._accumulate_rewards()

    def _finish_all(self) -> None:
        state = self.state_obj
        ranks, scores = state.standing()
        scale = self.game.score_scale
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = seat_return(self.reward_mode, self._seat[a], ranks, scores, scale)
        self._dead_seats = set(state.eliminated())

    def _eliminate(self, gone: frozenset[int]) -> None:
        """Newly eliminated seats: final reward now, then they step once with None and leave."""
        state = self.state_obj
        ranks, scores = state.standing()
        new = [self.possible_agents[s] for s in sorted(gone - self._dead_seats)]
        self._dead_seats = set(gone)
        for a in new:
            self.terminations[a] = True
            self.rewards[a] = seat_return(self.reward_mode, self._seat[a], ranks, scores, self.game.score_scale)
        self._skip_agent_selection = self.possible_agents[state.current_player()]
        self.agent_selection = new[0]

    # --- views ------------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_reset("observe")
        state = self.state_obj
        seat = self._seat[agent]
        # an agent that is done, or already gone from self.agents, has no legal action
        if agent == self.agent_selection and not (
            self.terminations.get(agent, True) or self.truncations.get(agent, True)
        ):
            mask = state.legal_mask() if state.current_player() == seat else self._zero_mask.copy()
        else:
            mask = self._zero_mask.copy()
        return {"observation": state.observe(seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        self._require_reset("state")
        return self.state_obj.state_vector()

    def render(self) -> str | None:
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'", stacklevel=2)
            return None
        self._require_reset("render")
        text = self.state_obj.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def observation_layout(self) -> dict[str, slice]:
        """The named sections of ``observe(agent)["observation"]``: name -> slice, in order, covering it.

        >>> from meeplezoo.envs import seastead_v0
        >>> env = seastead_v0.env(); env.reset(seed=0)
        >>> layout = env.observation_layout()
        >>> pending = env.observe("player_0")["observation"][layout["pending"]]  # one-hot: the decision
        """
        return dict(self.game.observation_layout())

    def describe_action(self, action: int) -> str:
        """Human-readable name of ``action`` for the agent now selected."""
        self._require_reset("describe_action")
        return self.state_obj.describe_action(int(action))

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


#: the adapter's settings a person may give with a game's config (render_mode is the caller's), declared once in
#: the parameter system; :class:`EngineEnv`'s keyword defaults equal them (tests/core keep the two in step)
ADAPTER_PARAMS: tuple[Param, ...] = (
    Param("reward_mode", str, "win", "the final rewards", choices=REWARD_MODES),
    Param(
        "illegal_action",
        str,
        "penalize",
        "an illegal move is penalised (and the game ends) or raises",
        choices=("penalize", "raise"),
    ),
    Param("illegal_reward", float, -1.0, "the penalty of an illegal move"),
    Param(
        "max_cycles", int, None, "truncate after this many decisions (none: the game's bound)", minimum=1, optional=True
    ),
)
ADAPTER_KEYS = frozenset({"render_mode", *(p.name for p in ADAPTER_PARAMS)})


def env_factory(game_cls: type[Game], env_name: str):
    """Build the ``raw_env(**kwargs)`` constructor of a game's env module.

    Keyword arguments in :data:`ADAPTER_KEYS` go to :class:`EngineEnv`; all others are the game's config
    (an unknown one raises :class:`ConfigError` naming it).
    """

    def raw_env(**kwargs: Any) -> EngineEnv:
        adapter_kwargs = {k: kwargs.pop(k) for k in ADAPTER_KEYS & kwargs.keys()}
        return EngineEnv(game_cls(**kwargs), env_name, **adapter_kwargs)

    raw_env.__name__ = "raw_env"
    raw_env.__doc__ = f"Create the {env_name} AEC env. Game config keys: {sorted(game_cls.defaults)}."
    return raw_env
