"""A trained policy as an agent: an sb3-contrib ``MaskablePPO`` model (``.zip``) acting with the mask.

``make_agent("ppo", "seastead")`` plays the policy shipped with MeepleZoo for the game (trained by
``meeplezoo train``, see docs/training.md), loaded when it first acts;
``make_agent("ppo:models/seastead.zip", "seastead")`` loads the model (torch and sb3-contrib are the
``training`` extra); ``ppo:path=...,deterministic=false`` samples from the policy instead of taking its
most likely action. The model must have been trained on the same game configuration (observation and
action sizes are checked). A model trained with an advisor (``advisor = "heuristic"`` in its training config,
:mod:`meeplezoo.training.advised_policy`) gets the advisor's move on the seat's view appended to its
observation, as in training.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from .base import Seed
from .spec import AgentSpecError, Param
from .view import SeatView


class PolicyAgent:
    """Acts with a Stable-Baselines3-style model: ``model.predict(obs, action_masks=mask)``.

    ``model`` may be given directly (a loaded model) or ``path`` to a MaskablePPO ``.zip``. If the model
    still picks an illegal action (a model without masking), the agent takes a uniformly random legal one.
    """

    name = "ppo"
    PARAMS: ClassVar[tuple[Param, ...]] = (
        Param("path", str, "", "a MaskablePPO .zip saved by model.save() (default: the game's shipped policy)"),
        Param("deterministic", bool, True, "the most likely action (true) or a sample of the policy (false)"),
    )

    def __init__(self, model: Any = None, seed: Seed = None, deterministic: bool = True, path: str = "") -> None:
        if model is None and path:
            model = load_model(path)
        self.model = model  # None: the game's shipped policy, loaded at the first act()
        self.deterministic = deterministic
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        if not deterministic:
            # sb3 samples with torch's global generator: seed it so that a seeded agent replays
            import torch

            torch.manual_seed(int(self.rng.integers(2**31)))
        self._advisor: Any = None  # the advisor agent of an advised model, made at the first act()

    @property
    def uses_determinize(self) -> bool:
        """A plain model acts on the observation and the mask only; an advised one (or a shipped policy not
        loaded yet) may need the view's determinize for its advisor."""
        return self.model is None or bool(advisor_of(self.model))

    def act(self, view: SeatView) -> int:
        if self.model is None:
            self.model = load_model(str(shipped_policy(view.game_name)))
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
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        action = int(action)
        if not (0 <= action < mask.size and mask[action]):
            action = int(view.legal_actions[self.rng.integers(len(view.legal_actions))])
        return action


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


#: the folder of the shipped policies (``<game>.zip``), package data of ``meeplezoo.training``
POLICY_DIR = Path(__file__).resolve().parent.parent / "training" / "policies"

#: loaded models by (path, modification time): agents made per game share one
_LOADED: dict[tuple[str, float], Any] = {}


def shipped_policy(game: str) -> Path:
    """The path of the policy shipped for ``game`` (an :class:`AgentSpecError` if none ships)."""
    file = POLICY_DIR / f"{game}.zip"
    if not file.is_file():
        raise AgentSpecError(f"ppo: no policy ships for {game}; give a saved model: ppo:path/to/model.zip")
    return file


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


__all__ = ["POLICY_DIR", "PolicyAgent", "advisor_of", "load_model", "shipped_policy", "with_advice"]
