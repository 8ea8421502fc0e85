"""A trained policy as an agent: an sb3-contrib ``MaskablePPO`` model (``.zip``) acting with the mask.

``make_agent("ppo", "seastead")`` plays the policy shipped with MeepleZoo for the game (trained by
``meeplezoo train``, see docs/training.md), loaded when it first acts: the one shipped for the table's number
of players (``policies/<game>_<n>p.zip`` in the game's package, found by its manifest) if there is one, else
the game's (``policies/<game>.zip``);
``make_agent("ppo:models/seastead.zip", "seastead")`` loads the model (torch and sb3-contrib are the
``training`` extra); ``ppo:path=...,deterministic=false`` samples from the policy (with the agent's seeded
generator) instead of taking its most likely action. The model must have been trained on the same game
configuration (observation and action sizes are checked). A model trained with an advisor (``advisor =
"heuristic"`` in its training config, :mod:`meeplezoo.training.advised_policy`) gets the advisor's move on the
seat's view appended to its observation, as in training.

A policy file is code: an SB3 ``.zip`` holds pickles, and loading one can run anything its author wrote.
Load only files you trained or trust (docs/security.md); the web server never loads a path a request names.

A greedy policy is a function of the position, so in a game whose turns allow moves that change nothing
(Board Royale: an offer made and cancelled, a Pickaxe paying a Wood to take it back) it can repeat such a
cycle until the engine's safety bound ends the turn. In a game that declares its ``observation_clock`` (the
entries that only count decisions), the agent therefore remembers its last :data:`REPEAT_WINDOW` decisions:
back at a position it met there (the same observation, clock aside), it never repeats a move it took from
it and takes its most likely other one (``avoid_repeats=false``: the plain greedy choice).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from .base import Seed
from .spec import AgentSpecError, Param, bind_keywords
from .torch_threads import one_torch_thread
from .view import SeatView


class PolicyAgent:
    """Acts with a Stable-Baselines3-style model: ``model.predict(obs, action_masks=mask)``.

    ``model`` may be given directly (a loaded model) or ``path`` to a MaskablePPO ``.zip``; the other keywords
    are :attr:`PARAMS` (their defaults declared there only). If the model still picks an illegal action (a
    model without masking), the agent takes a uniformly random legal one.
    """

    name = "ppo"
    #: what an agent process's fork server imports first (:mod:`.isolation`): seconds a game otherwise
    PRELOAD: ClassVar[tuple[str, ...]] = ("torch", "sb3_contrib")
    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param("path", str, "", "a MaskablePPO .zip saved by model.save() (default: the game's shipped policy)"),
        Param("deterministic", bool, True, "the most likely action (true) or a sample of the policy (false)"),
        Param(
            "avoid_repeats",
            bool,
            True,
            "greedy only: back at a position of its last decisions, never repeat a move taken there",
        ),
    )
    path: str
    deterministic: bool
    avoid_repeats: bool

    def __init__(self, model: Any = None, seed: Seed = None, **params: Any) -> None:
        for key, value in bind_keywords(self.name, self.PARAMS, params).items():
            setattr(self, key, value)
        if model is None and self.path:
            model = load_model(self.path)
        self.model = model  # None: the game's shipped policy, loaded at the first act()
        self.seed = seed
        self.rng = np.random.default_rng(seed)  # every draw of the agent: its samples, its advisor's seed
        self._advisor: Any = None  # the advisor agent of an advised model, made at the first act()
        self._recent: deque[tuple[bytes, int]] = deque(maxlen=REPEAT_WINDOW)  # (position, move) pairs
        self.repeats_avoided = 0  # how often the guard changed the greedy move

    @property
    def uses_determinize(self) -> bool:
        """A plain model acts on the observation and the mask only; an advised one (or a shipped policy not
        loaded yet) may need the view's determinize for its advisor."""
        return self.model is None or bool(advisor_of(self.model))

    def prepare(self, game: str, num_players: int) -> None:
        """Load the game's shipped policy for the table now (else the first decision loads it). An agent process
        calls it: torch then computes on one thread there, so a decision's CPU time is the policy's work, not idle
        threads spinning."""
        import torch

        torch.set_num_threads(1)
        if self.model is None:
            self.model = load_model(str(shipped_policy(game, num_players)))

    def _load_for(self, view: SeatView) -> None:
        """Load the game's shipped policy for ``view``'s table if no model is set yet."""
        if self.model is None:
            self.model = load_model(str(shipped_policy(view.game_name, view.num_players)))

    def act(self, view: SeatView) -> int:
        with one_torch_thread():  # as in an agent process, whichever process plays it
            return self._act(view)

    def _act(self, view: SeatView) -> int:
        self._load_for(view)
        advisor = advisor_of(self.model)
        size = view.action_mask.size if advisor else 0
        obs_shape = getattr(getattr(self.model, "observation_space", None), "shape", None)
        if obs_shape is not None and tuple(obs_shape) != (view.observation.size + size,):
            raise AgentSpecError(
                f"ppo: the model expects observations of shape {tuple(obs_shape)}, "
                f"{view.game_name} gives {view.observation.shape}" + (f" and {size} of advice" if size else "")
            )
        obs = view.observation
        if advisor:
            if self._advisor is None:
                from .registry import make_agent

                self._advisor = make_agent(advisor, view.game_name, seed=int(self.rng.integers(2**31)))
            obs = with_advice(obs, int(self._advisor.act(view)), size)
        mask = view.action_mask.astype(bool)
        key = self._position(view)
        tried = {a for k, a in self._recent if k == key} if key is not None else set()
        if tried and len(tried) < len(view.legal_actions):
            action = self._best_untried(obs, mask, tried)
        elif not self.deterministic:
            action = self._sample(obs, mask)
        else:
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
            action = int(action)
        if not (0 <= action < mask.size and mask[action]):
            action = int(view.legal_actions[self.rng.integers(len(view.legal_actions))])
        if key is not None:
            self._recent.append((key, action))
        return action

    def action_probabilities(self, view: SeatView) -> np.ndarray | None:
        """The model's distribution over the flat action space at ``view`` (zero off the legal actions), or None
        for a model whose distribution cannot be read (no ``policy.get_distribution``, or an advised model, whose
        input needs its advisor's move). What a distilling learner fits (the az trainer's warm start)."""
        self._load_for(view)
        if advisor_of(self.model):
            return None
        with one_torch_thread():
            out = self._legal_probabilities(view.observation, view.action_mask.astype(bool), np.float32)
        return out if out is not None and out.sum() > 0 else None

    def _legal_probabilities(self, obs: np.ndarray, mask: np.ndarray, dtype: type) -> np.ndarray | None:
        """The model's probabilities at ``obs`` as ``dtype``, zero off the legal actions and summing to 1 (all zero
        when no legal action has any), or None for a model whose distribution cannot be read."""
        distribution = self._distribution(obs, mask)
        if distribution is None:
            return None
        out = distribution.probs[0].cpu().numpy().astype(dtype)
        out[~mask] = 0.0
        total = float(out.sum())
        return out / total if total > 0 else out

    def _distribution(self, obs: np.ndarray, mask: np.ndarray) -> Any:
        """The model's masked torch distribution at ``obs`` (a batch of one), or None for a model without
        ``policy.get_distribution``."""
        policy = getattr(self.model, "policy", None)
        if policy is None or not hasattr(policy, "get_distribution"):
            return None
        import torch

        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(obs)
            return policy.get_distribution(tensor, action_masks=mask[None]).distribution

    def _sample(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """A move drawn from the model's distribution with the agent's own generator, so that a seeded agent plays
        the same game whatever its process did before (sb3's ``predict`` samples with torch's global generator,
        which loading a model draws from too). A model whose distribution cannot be read samples through
        ``predict`` under a fork of torch's generator seeded from the agent's; the global one is left as it was."""
        probs = self._legal_probabilities(obs, mask, np.float64)
        if probs is None:
            import torch

            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(int(self.rng.integers(2**31)))
                action, _ = self.model.predict(obs, action_masks=mask, deterministic=False)
            return int(action)
        if not probs.sum() > 0:
            return -1  # no mass on a legal move: act() takes a uniformly random legal one
        return int(self.rng.choice(probs.size, p=probs))

    def _position(self, view: SeatView) -> bytes | None:
        """The position's key for the repeat guard (the observation with the clock zeroed), or None when the
        guard is off: sampling, ``avoid_repeats=false``, or a game without a clock."""
        if not (self.deterministic and self.avoid_repeats and view.observation_clock):
            return None
        obs = view.observation.copy()
        obs[list(view.observation_clock)] = 0.0
        return obs.tobytes()

    def _best_untried(self, obs: np.ndarray, mask: np.ndarray, tried: set[int]) -> int:
        """The most likely legal move not in ``tried`` (the guard's choice); the plain greedy move for a model
        whose action distribution cannot be read."""
        distribution = self._distribution(obs, mask)
        if distribution is None:
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
            return int(action)
        scores = distribution.logits[0].cpu().numpy().astype(np.float64)
        scores[~mask] = -np.inf
        scores[sorted(tried)] = -np.inf
        self.repeats_avoided += 1
        return int(np.argmax(scores))


#: how many of its last decisions the greedy agent remembers to avoid repeating a cycle
REPEAT_WINDOW = 64


def advisor_of(model: Any) -> str:
    """The advisor agent spec of an advised model (:mod:`meeplezoo.training.advised_policy`), else ``""``."""
    return str(getattr(getattr(model, "policy", None), "advisor", "") or "")


def with_advice(observation: np.ndarray, advice: int, num_actions: int) -> np.ndarray:
    """``observation`` followed by a one-hot of the advisor's move ``advice`` (all zeros for ``-1``)."""
    out = np.zeros(observation.size + num_actions, np.float32)
    out[: observation.size] = observation
    if advice >= 0:
        out[observation.size + advice] = 1.0
    return out


#: loaded models by (path, modification time): agents made per game share one
_LOADED: dict[tuple[str, float], Any] = {}


def shipped_policy(game: str, num_players: int | None = None) -> Path:
    """The path of the policy shipped with ``game`` (its package's ``policies/``, named by its manifest): the one
    for ``num_players`` (``<game>_<n>p.zip``) if one ships, else the game's default (``<game>.zip``); an
    :class:`AgentSpecError` if none ships."""
    from .. import games

    manifest = games.manifest(game)
    file = manifest.shipped_policy(num_players if num_players is not None else 0)
    if file is None:
        raise AgentSpecError(f"ppo: no policy ships for {manifest.name}; give a saved model: ppo:path/to/model.zip")
    return Path(str(file))


def load_model(path: str) -> Any:
    """Load a MaskablePPO ``.zip`` (a one-line :class:`AgentSpecError` if there is none or it is not one)."""
    if not path:
        raise AgentSpecError("ppo: give a saved model: ppo:path/to/model.zip")
    file = Path(path)
    if not file.is_file() and file.with_suffix(".zip").is_file():
        file = file.with_suffix(".zip")
    if not file.is_file():
        raise AgentSpecError(f"ppo: no model file {path!r}")
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:
        raise AgentSpecError(f"ppo: loading a model needs sb3-contrib (the training extra): {exc}") from None
    key = (str(file.resolve()), file.stat().st_mtime)
    if key in _LOADED:
        return _LOADED[key]
    try:
        model = MaskablePPO.load(str(file), device="cpu")
    except Exception as exc:  # a corrupt or foreign file: one line naming it
        raise AgentSpecError(f"ppo: {file} is not a MaskablePPO model: {type(exc).__name__}: {exc}") from None
    _LOADED[key] = model
    return model


__all__ = ["PolicyAgent", "advisor_of", "load_model", "shipped_policy", "with_advice"]
