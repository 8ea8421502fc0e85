"""A masked actor-critic that learns a correction to an advisor agent's choice (residual policy learning).

With ``advisor = "heuristic"`` in a training config, the learner's observation ends with a one-hot of the
move the advisor (a baseline agent, acting on the learner's own :class:`~meeplezoo.agents.view.SeatView`)
would make (:func:`~meeplezoo.agents.policy.with_advice`), and :class:`AdvisedPolicy` adds
``advice_weight * one_hot`` to the policy's logits. At the start the network's logits are near 0, so the
greedy policy plays the advisor's move and a sampled one mostly does; PPO then learns where to deviate. The
weight is a trained parameter (``advice_weight`` is its start). The network sees the advice too, so a
correction can depend on what the advisor proposed.

With ``advice_anchor > 0`` the training loss also gets ``advice_anchor * -mean log pi(advice)`` (a behaviour-
cloning anchor to the advisor, in the spirit of piKL, Jacob et al. 2022): PPO's clipped update can only lower
a near-certain move's probability, so under noisy advantages an advised policy drifts from its advisor; the
anchor pulls it back unless the advantages keep it away. The term rides on the gradient of the returned
``log_prob`` (:class:`_AddLoss`), so sb3's loop and its logged losses are unchanged (the warm start's
fitting calls the same method, so it gets the anchor too: towards the advice its labels mostly are).

The advice is computed from the seat's view only (what the seat may know), as the advisor would act in that
seat: the policy gets no information a player at the table would not have. Loading a saved model restores
the advisor's name (``model.policy.advisor``), so the ``ppo`` agent rebuilds the advice when it plays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.distributions import MaskableDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn


class _AddLoss(th.autograd.Function):
    """Identity on ``x``; its backward also sends gradient 1 to the scalar ``extra``, so that any loss built
    on ``x`` is minimised as if ``extra`` were added to it."""

    @staticmethod
    def forward(ctx: Any, x: th.Tensor, extra: th.Tensor) -> th.Tensor:
        return x.clone()

    @staticmethod
    def backward(ctx: Any, grad: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return grad, grad.new_ones(())


class AdvisedPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` whose logits get ``advice_weight`` times the observation's last
    ``advice_size`` entries (the advisor's move, one-hot) added.

    Args:
        advice_size: length of the advice one-hot (the game's number of actions).
        advisor: agent spec of the advisor (kept with the model, so the ``ppo`` agent can rebuild the advice).
        advice_weight: the weight's start (a trained parameter).
        advice_anchor: weight of the anchor loss ``-mean log pi(advice)`` in training (0: none).
    """

    def __init__(
        self,
        *args: Any,
        advice_size: int,
        advisor: str = "heuristic",
        advice_weight: float = 4.0,
        advice_anchor: float = 0.0,
        **kwargs: Any,
    ) -> None:
        self.advice_size = int(advice_size)
        self.advice_anchor = float(advice_anchor)
        self.advisor = str(advisor)
        self.advice_weight_start = float(advice_weight)
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        # before the optimizer is made (in super()._build), so that it trains the weight too
        self.advice_weight = nn.Parameter(th.tensor(self.advice_weight_start, dtype=th.float32))
        super()._build(lr_schedule)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(
            advice_size=self.advice_size,
            advisor=self.advisor,
            advice_weight=self.advice_weight_start,
            advice_anchor=self.advice_anchor,
        )
        return data

    def _advised_distribution(self, latent_pi: th.Tensor, obs: th.Tensor) -> MaskableDistribution:
        logits = self.action_net(latent_pi) + self.advice_weight * obs[..., -self.advice_size :].float()
        return self.action_dist.proba_distribution(action_logits=logits)

    def _latents(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        features = self.extract_features(obs)
        if self.share_features_extractor:
            return self.mlp_extractor(features)
        pi_features, vf_features = features
        return self.mlp_extractor.forward_actor(pi_features), self.mlp_extractor.forward_critic(vf_features)

    def forward(
        self, obs: th.Tensor, deterministic: bool = False, action_masks: np.ndarray | None = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        latent_pi, latent_vf = self._latents(obs)
        distribution = self._advised_distribution(latent_pi, obs)
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), self.value_net(latent_vf), log_prob

    def evaluate_actions(
        self, obs: th.Tensor, actions: th.Tensor, action_masks: th.Tensor | None = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        latent_pi, latent_vf = self._latents(obs)
        distribution = self._advised_distribution(latent_pi, obs)
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        log_prob = distribution.log_prob(actions)
        if self.advice_anchor > 0:
            advised = obs[..., -self.advice_size :].argmax(dim=-1)
            anchor = -self.advice_anchor * distribution.log_prob(advised).mean()
            log_prob = _AddLoss.apply(log_prob, anchor)
        return self.value_net(latent_vf), log_prob, distribution.entropy()

    def get_distribution(self, obs: th.Tensor, action_masks: np.ndarray | None = None) -> MaskableDistribution:
        # BasePolicy's extract_features with the actor's extractor, as MaskableActorCriticPolicy does
        features = super(MaskableActorCriticPolicy, self).extract_features(obs, self.pi_features_extractor)
        latent_pi = self.mlp_extractor.forward_actor(features)
        distribution = self._advised_distribution(latent_pi, obs)
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return distribution


__all__ = ["AdvisedPolicy"]
