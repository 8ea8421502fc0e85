"""The policy-value network of the ``az`` agent: a small torch MLP on the seat's observation vector.

One trunk (ReLU layers) and two heads:

* **policy**: one logit per action of the game's flat action space; :meth:`AZNet.evaluate_batch` masks the
  illegal ones (their prior is exactly 0) and normalises the legal ones (a softmax over them);
* **value**: a vector of ``num_players`` numbers in [-1, 1] (``tanh``), *seat-relative*: entry ``i`` is the
  expected return of seat ``(observer + i) % num_players``, so entry 0 is the observing seat's own. Which return
  is the meta's ``value``: ``win`` (the ``win`` reward mode of :mod:`meeplezoo.envs.core.rewards`) or ``margin``
  (a ``tanh`` of the score margin), as :func:`meeplezoo.agents.az.final_values` computes them. A vector rather
  than one number, so that 3-6 players and solo games (one entry) need nothing special;
  :func:`absolute_values` turns it into seat order.

A network is saved as one ``.pt`` file (:meth:`AZNet.save`): ``{"meta": JSON text, "weights": state dict}``
plus optional extras (a trainer's optimiser state). It is read with ``torch.load(weights_only=True)``, which
unpickles tensors and plain containers only, so a network file runs no code of its author (unlike an SB3
``.zip``). The JSON ``meta`` holds :data:`FORMAT`, :data:`VERSION`, the game, its config, the number of
players, the observation size, the number of actions and the hidden sizes; :func:`load_net` refuses a file
made for another game or other sizes, in one line.

The trainer's side (losses, fitting) is :mod:`meeplezoo.training.az_net`; this module is what an agent needs
to play, and computes on the threads its caller set (an agent process sets one).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..envs.core.errors import MeepleZooError

#: what a network file says it is
FORMAT = "meeplezoo-az"
#: the layout of the file and the network (bumped when a change makes old files unreadable)
VERSION = 1
#: hidden layer sizes of a new network unless told
DEFAULT_HIDDEN = (256, 256)


class AZNetError(MeepleZooError, ValueError):
    """A network file that cannot be used as asked (missing, foreign, for another game or size): one line."""


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - torch is the training extra
        raise AZNetError(f"az: the network needs torch (the training extra): {exc}") from None
    return torch


#: the torch module class (made on first use, so that importing this module does not import torch)
_Module: type | None = None


def _module_class() -> type:
    """The torch module class, made on first use so that importing this module does not import torch."""
    global _Module
    if _Module is not None:
        return _Module
    torch = _torch()
    nn = torch.nn

    class PolicyValueMLP(nn.Module):
        """Trunk of ReLU layers, a policy head (logits) and a value head (tanh, one entry per seat)."""

        def __init__(self, observation_size: int, num_actions: int, num_players: int, hidden: Sequence[int]) -> None:
            super().__init__()
            layers: list[Any] = []
            width = observation_size
            for size in hidden:
                layers += [nn.Linear(width, size), nn.ReLU()]
                width = size
            self.trunk = nn.Sequential(*layers)
            self.policy = nn.Linear(width, num_actions)
            self.value = nn.Linear(width, num_players)

        def forward(self, obs: Any) -> tuple[Any, Any]:
            h = self.trunk(obs)
            return self.policy(h), torch.tanh(self.value(h))

    _Module = PolicyValueMLP
    return _Module


class AZNet:
    """A policy-value network for one game configuration (see the module docstring).

    ``meta`` describes it (game, config, num_players, observation_size, num_actions, hidden); ``module`` is the
    torch module (``module.train()`` / ``.eval()`` as a trainer needs)."""

    def __init__(self, meta: Mapping[str, Any], module: Any = None) -> None:
        self.meta = dict(meta)
        self.game: str = str(meta["game"])
        self.num_players = int(meta["num_players"])
        self.observation_size = int(meta["observation_size"])
        self.num_actions = int(meta["num_actions"])
        self.hidden = tuple(int(h) for h in meta["hidden"])
        self.value = str(meta.get("value", "win"))  # what the value head estimates (the search values ends alike)
        cls = _module_class()
        self.module = module or cls(self.observation_size, self.num_actions, self.num_players, self.hidden)
        self.module.eval()

    @classmethod
    def for_game(
        cls, engine_game: Any, hidden: Sequence[int] = DEFAULT_HIDDEN, seed: int | None = None, value: str = "win"
    ) -> AZNet:
        """A new network for an engine :class:`~meeplezoo.envs.core.engine.Game`, its value head estimating the
        ``value`` return. Its weights are drawn from torch's generator seeded by ``seed`` when given (in a fork of
        it: the process's own generator is left as it was), else from the process's generator."""
        torch = _torch()
        meta = {
            "format": FORMAT,
            "version": VERSION,
            "game": engine_game.name,
            "config": dict(engine_game.config),
            "num_players": engine_game.num_players,
            "observation_size": engine_game.observation_size,
            "num_actions": engine_game.num_actions,
            "hidden": [int(h) for h in hidden],
            "value": value,
        }
        json.dumps(meta)  # a config that is not JSON-able fails here, not when saved
        if seed is None:
            return cls(meta)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            return cls(meta)

    @classmethod
    def from_weights(cls, meta: Mapping[str, Any], weights: Mapping[str, Any]) -> AZNet:
        """A network of ``meta`` holding ``weights`` (a state dict of tensors or numpy arrays: what :meth:`state`
        gives, or its arrays sent to another process)."""
        torch = _torch()
        net = cls(meta)
        net.module.load_state_dict({key: torch.as_tensor(value) for key, value in weights.items()})
        net.module.eval()
        return net

    def evaluate_batch(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Priors and values of a batch of positions, without gradients, on the caller's torch threads.

        ``observations``: ``(B, observation_size)`` float32; ``masks``: ``(B, num_actions)``, nonzero where legal
        (every row has a legal action). Returns ``priors`` ``(B, num_actions)`` float32 (0 where illegal, each row
        sums to 1) and ``values`` ``(B, num_players)`` float32, seat-relative (entry 0: the observer's).
        """
        torch = _torch()
        with torch.inference_mode():
            logits, values = self.module(torch.from_numpy(np.asarray(observations, dtype=np.float32)))
        # the masked softmax in numpy: on batches this small torch's own costs more than the network
        legal = np.asarray(masks, dtype=bool)
        logits = np.where(legal, logits.numpy(), -np.inf)
        priors = np.exp(logits - logits.max(axis=1, keepdims=True))
        priors /= priors.sum(axis=1, keepdims=True)
        return priors.astype(np.float32, copy=False), values.numpy()

    def state(self) -> dict[str, Any]:
        """What :meth:`save` writes: the JSON meta and the weights."""
        return {"meta": json.dumps(self.meta, sort_keys=True), "weights": self.module.state_dict()}

    def save(self, path: str | Path, **extras: Any) -> Path:
        """Write the network to ``path`` (``.pt``), with ``extras`` (tensors and plain data: an optimiser's state)."""
        torch = _torch()
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        torch.save({**self.state(), **extras}, tmp)
        tmp.replace(path)  # a reader never sees half a file
        return path

    def __repr__(self) -> str:
        return (
            f"AZNet({self.game}, {self.num_players} players, obs {self.observation_size}, "
            f"{self.num_actions} actions, hidden {list(self.hidden)})"
        )


def read_file(path: str | Path) -> dict[str, Any]:
    """The raw content of a network file (meta parsed), or a one-line :class:`AZNetError`."""
    torch = _torch()
    file = Path(path)
    if not file.is_file():
        raise AZNetError(f"az: no network file {str(path)!r}")
    try:
        raw = torch.load(file, map_location="cpu", weights_only=True)
        meta = json.loads(raw["meta"])
    except Exception as exc:  # a corrupt or foreign file: one line naming it (torch's messages run over lines)
        why = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
        raise AZNetError(f"az: {file} is not an az network file: {type(exc).__name__}: {why}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise AZNetError(f"az: {file} is not an az network file (no {FORMAT!r} meta)")
    if meta.get("version") != VERSION:
        raise AZNetError(f"az: {file} is of network version {meta.get('version')!r}, this MeepleZoo reads {VERSION}")
    return {**raw, "meta": meta}


def load_net(
    path: str | Path,
    game: str | None = None,
    observation_size: int | None = None,
    num_actions: int | None = None,
    num_players: int | None = None,
) -> AZNet:
    """The network saved in ``path``; a one-line :class:`AZNetError` if it is none, or if it was made for another
    game or other sizes than those given."""
    raw = read_file(path)
    meta = raw["meta"]
    wanted = {
        "game": game,
        "observation_size": observation_size,
        "num_actions": num_actions,
        "num_players": num_players,
    }
    for key, value in wanted.items():
        if value is not None and meta.get(key) != value:
            raise AZNetError(f"az: {path} is a network for {key} {meta.get(key)!r}, not {value!r}")
    try:
        return AZNet.from_weights(meta, raw["weights"])
    except (RuntimeError, KeyError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise AZNetError(f"az: {path}: its weights do not fit its meta ({first})") from None


#: loaded networks by (path, modification time): agents made per game share one
_LOADED: dict[tuple[str, float], AZNet] = {}


def cached_net(path: str | Path) -> AZNet:
    """:func:`load_net` of ``path``, shared by every agent that asks for the same unchanged file."""
    file = Path(path)
    if not file.is_file():
        raise AZNetError(f"az: no network file {str(path)!r}")
    key = (str(file.resolve()), file.stat().st_mtime)
    if key not in _LOADED:
        _LOADED[key] = load_net(file)
    return _LOADED[key]


def absolute_values(relative: np.ndarray, observer: int) -> np.ndarray:
    """Seat-relative values (entry ``i``: seat ``observer + i``) in seat order.

    >>> absolute_values(np.array([0.5, -0.5, 0.0]), 1).tolist()
    [0.0, 0.5, -0.5]
    """
    return np.roll(relative, observer)


def relative_values(absolute: np.ndarray, observer: int) -> np.ndarray:
    """Values in seat order as the ``observer`` sees them (the inverse of :func:`absolute_values`).

    >>> relative_values(np.array([0.0, 0.5, -0.5]), 1).tolist()
    [0.5, -0.5, 0.0]
    """
    return np.roll(absolute, -observer)


__all__ = [
    "DEFAULT_HIDDEN",
    "FORMAT",
    "VERSION",
    "AZNet",
    "AZNetError",
    "absolute_values",
    "cached_net",
    "load_net",
    "read_file",
    "relative_values",
]
