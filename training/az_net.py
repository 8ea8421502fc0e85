"""The ``az`` policy-value network, from the trainer's side: the network itself (:class:`AZNet`, saved and loaded
as one ``.pt`` file) and how expert iteration fits it (:func:`losses`, :func:`fit`).

The network lives with the agent that plays it (:mod:`meeplezoo.agents.az_net`: agents import nothing of
training) and is re-exported here. Its targets, per searched position: the root's visit distribution ``pi`` (the
policy head's cross-entropy against it, over the legal actions) and the seat-relative final returns ``z`` (the
value head's squared error, averaged over the seats).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..agents.az_net import (
    DEFAULT_HIDDEN,
    FORMAT,
    VERSION,
    AZNet,
    AZNetError,
    absolute_values,
    cached_net,
    load_net,
    read_file,
    relative_values,
)


def losses(net: AZNet, obs: Any, masks: Any, pis: Any, zs: Any) -> tuple[Any, dict[str, float]]:
    """The training loss of a minibatch (torch tensors: observations, bool masks, visit distributions, returns)
    and its figures: ``policy_loss`` (cross-entropy, over the positions with a policy target), ``value_loss``
    (MSE), ``policy_entropy`` (of the network's masked prior), ``value_error`` (mean absolute error of the
    values)."""
    import torch

    logits, values = net.module(obs)
    logp = torch.log_softmax(logits.masked_fill(~masks, float("-inf")), dim=-1).masked_fill(~masks, 0.0)
    per_row = -(pis * logp).sum(dim=-1)
    targeted = pis.sum(dim=-1) > 0  # a value game's position has no policy target (all-zero pi)
    policy_loss = per_row.mean() if bool(targeted.all()) else per_row.sum() / targeted.sum().clamp(min=1)
    value_loss = ((values - zs) ** 2).mean()
    with torch.no_grad():
        entropy = -(logp.exp() * logp).sum(dim=-1).mean()
        error = (values - zs).abs().mean()
    figures = {
        "policy_loss": float(policy_loss.detach()),
        "value_loss": float(value_loss.detach()),
        "policy_entropy": float(entropy),
        "value_error": float(error),
    }
    return policy_loss + value_loss, figures


def fit(
    net: AZNet,
    optimizer: Any,
    arrays: dict[str, np.ndarray],
    steps: int,
    batch_size: int,
    rng: np.random.Generator,
) -> dict[str, float]:
    """``steps`` minibatches of ``batch_size`` positions drawn (with ``rng``) from ``arrays`` (``obs``, ``mask``,
    ``pi``, ``z``: the replay buffer's filled rows); the mean of each figure of :func:`losses`, ``loss`` included.
    No step (empty arrays or ``steps == 0``) gives an empty dict."""
    import torch

    size = len(arrays["obs"])
    if not size or not steps:
        return {}
    totals: dict[str, float] = {}
    net.module.train()
    for _ in range(steps):
        rows = rng.integers(size, size=min(batch_size, size))
        batch = [torch.from_numpy(arrays[k][rows]) for k in ("obs", "mask", "pi", "z")]
        loss, figures = losses(net, *batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        figures["loss"] = float(loss.detach())
        for key, value in figures.items():
            totals[key] = totals.get(key, 0.0) + value
    net.module.eval()
    return {key: value / steps for key, value in totals.items()}


__all__ = [
    "DEFAULT_HIDDEN",
    "FORMAT",
    "VERSION",
    "AZNet",
    "AZNetError",
    "absolute_values",
    "cached_net",
    "fit",
    "load_net",
    "losses",
    "read_file",
    "relative_values",
]
