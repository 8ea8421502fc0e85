"""The shared core: the engine protocol, seeded chance, reward modes and the PettingZoo AEC adapter."""

from .adapter import ADAPTER_KEYS, EngineEnv, env_factory
from .chance import Chance
from .engine import TERMINAL, Game, State
from .errors import ActionTypeError, ConfigError, CorruptStateError, IllegalActionError, MeepleZooError
from .rewards import REWARD_MODES, seat_return

__all__ = [
    "ADAPTER_KEYS",
    "REWARD_MODES",
    "TERMINAL",
    "ActionTypeError",
    "Chance",
    "ConfigError",
    "CorruptStateError",
    "EngineEnv",
    "Game",
    "IllegalActionError",
    "MeepleZooError",
    "State",
    "env_factory",
    "seat_return",
]
