"""An imitation warm start: fit the learner's policy to a demonstrator agent before PPO's first step.

With ``pretrain_games > 0`` a run first plays that many games through the same
:class:`~meeplezoo.training.single_agent.SingleAgentEnv` the learner trains in (the learner's seat drawn anew
each game, the other seats from the run's pool of baselines), the learner's seat acted by the demonstrator
(``pretrain_agent``, the heuristic by default) on that seat's :class:`~meeplezoo.agents.view.SeatView`, never
the true state. Each decision is recorded as (observation, action mask, action), each game's return as the
value target of its decisions (discounted by ``gamma`` from the game's last learner step). The policy is then
fit by masked cross-entropy (the logits of illegal actions are masked out, as when it acts) with Adam over
``pretrain_epochs`` passes of minibatches, and, with ``pretrain_value``, its value head by squared error to
those returns. PPO continues from the fitted weights. The demonstrations, their split and the minibatches come
from generators seeded by the run's seed (the global RNGs are not touched), so the same seed gives the same
weights, and a run without pretraining is unchanged. One game in ten is held out: its decisions give the
held-out accuracy (the share of decisions where the greedy policy takes the demonstrator's action).

Imitation alone drifts: one choice unlike the demonstrator's leads to positions it never showed, where the
policy errs more. ``pretrain_rounds > 1`` adds DAgger rounds (Ross, Gordon and Bagnell, 2011): each plays
``pretrain_games`` more games with the fitted policy in the learner's seat (greedy), the demonstrator naming
its own choice at every decision the policy meets; the policy is then fit again on all decisions so far.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..agents import make_agent
from ..agents.view import view_for
from .config import TrainConfig
from .pool import OpponentPool
from .single_agent import SingleAgentEnv

#: every ``HOLDOUT``-th demonstration game is held out of the fit (its decisions measure the accuracy)
HOLDOUT = 10
#: weight of the value loss beside the cross-entropy (sb3's ``vf_coef`` default)
VALUE_WEIGHT = 0.5


@dataclass
class Demonstrations:
    """Decisions of the demonstrator in the learner's seat, one row each."""

    observations: np.ndarray  #: float32, (n, obs size)
    masks: np.ndarray  #: bool, (n, actions)
    actions: np.ndarray  #: int64, (n,)
    returns: np.ndarray  #: float32, (n,): the game's return, discounted to the decision
    games: np.ndarray  #: int64, (n,): the game each decision comes from
    game_returns: list[float]  #: the learner seat's return of each game

    def __len__(self) -> int:
        return len(self.actions)


def collect(
    game: str,
    config: TrainConfig,
    pool: Any,
    games: int,
    seed: int,
    agent: str | None = None,
    policy: Any = None,
    round_: int = 0,
) -> Demonstrations:
    """``games`` games of ``agent`` (default ``config.pretrain_agent``) in the learner's seat of a
    :class:`SingleAgentEnv` with the run's opponents ``pool`` and reward mode; seeded by ``seed`` and
    ``round_``. With ``policy`` (a MaskablePPO policy) the policy plays the seat, greedily, and ``agent`` only
    labels each decision with its own choice (a DAgger round: the decisions the policy itself meets)."""
    env = SingleAgentEnv(
        game, opponent=pool, reward_mode=config.reward_mode, env_kwargs=config.env, advisor=config.advisor
    )
    rng = np.random.default_rng([seed, 0x5EED] if round_ == 0 else [seed, 0x5EED, round_])
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    game_ids: list[int] = []
    game_returns: list[float] = []
    for g in range(games):
        demonstrator = make_agent(agent or config.pretrain_agent, game, seed=int(rng.integers(2**31)))
        obs, _ = env.reset(seed=int(rng.integers(2**31)))
        start = len(actions)
        while True:
            label = int(demonstrator.act(view_for(env.aec, env.learner, demonstrator)))
            mask = env.action_masks()
            obs_rows.append(np.asarray(obs, np.float32))
            mask_rows.append(mask)
            actions.append(label)
            game_ids.append(round_ * games + g)
            action = label if policy is None else greedy(policy, obs, mask)
            obs, reward, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
        n = len(actions) - start
        returns += [reward * config.gamma ** (n - 1 - t) for t in range(n)]
        game_returns.append(float(reward))
    env.close()
    return Demonstrations(
        np.stack(obs_rows),
        np.stack(mask_rows),
        np.asarray(actions, np.int64),
        np.asarray(returns, np.float32),
        np.asarray(game_ids, np.int64),
        game_returns,
    )


def most_likely(policy: Any, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The most likely legal action of ``policy`` for each row (as the ``ppo`` agent plays by default)."""
    import torch

    with torch.no_grad():
        obs = torch.as_tensor(observations, dtype=torch.float32)
        return policy.get_distribution(obs, action_masks=masks).distribution.logits.argmax(dim=1).numpy()


def greedy(policy: Any, obs: np.ndarray, mask: np.ndarray) -> int:
    """The most likely legal action of ``policy`` at one decision."""
    return int(most_likely(policy, obs[None], mask[None])[0])


def merge(parts: list[Demonstrations]) -> Demonstrations:
    """The decisions of ``parts``, one after the other."""
    return Demonstrations(
        *(
            np.concatenate([getattr(p, k) for p in parts])
            for k in ("observations", "masks", "actions", "returns", "games")
        ),
        [r for p in parts for r in p.game_returns],
    )


def agreement(policy: Any, demos: Demonstrations, rows: np.ndarray | None = None, batch: int = 4096) -> float:
    """The share of ``demos``' decisions (those of ``rows``, default all) where ``policy``'s most likely legal
    action is the demonstrator's. Rows are read in batches, never copied whole."""
    rows = np.arange(len(demos)) if rows is None else rows
    if not len(rows):
        return float("nan")
    hits = 0
    for i in range(0, len(rows), batch):
        part = rows[i : i + batch]
        chosen = most_likely(policy, demos.observations[part], demos.masks[part])
        hits += int((chosen == demos.actions[part]).sum())
    return hits / len(rows)


def fit(
    policy: Any,
    demos: Demonstrations,
    config: TrainConfig,
    seed: int,
    on_epoch: Callable[[int, dict[str, float]], None] | None = None,
    round_: int = 0,
) -> dict[str, float]:
    """Fit ``policy`` (a MaskablePPO policy) to ``demos``: masked cross-entropy (plus the value loss with
    ``pretrain_value``), Adam at ``pretrain_lr``, ``pretrain_epochs`` passes of ``batch_size`` minibatches over
    the games not held out. ``on_epoch(epoch, figures)`` after each pass; returns the last figures (``loss``,
    ``value_loss``, ``accuracy`` on the fitted decisions, ``heldout_accuracy``)."""
    import torch

    held = demos.games % HOLDOUT == HOLDOUT - 1
    # row indices into ``demos``, not copies: an observation matrix can be gigabytes (Resafa's 9,774 floats)
    train, heldout = np.flatnonzero(~held), np.flatnonzero(held)
    if not len(train):
        train = np.arange(len(demos))
    optimizer = torch.optim.Adam(policy.parameters(), lr=config.pretrain_lr)
    rng = np.random.default_rng([seed, 0xF17] if round_ == 0 else [seed, 0xF17, round_])
    obs_all = torch.as_tensor(demos.observations)  # shares the array's memory
    act_all = torch.as_tensor(demos.actions)
    ret_all = torch.as_tensor(demos.returns)
    figures: dict[str, float] = {}
    policy.set_training_mode(True)
    for epoch in range(config.pretrain_epochs):
        order = rng.permutation(len(train))
        total = value_total = 0.0
        for i in range(0, len(order), config.batch_size):
            rows = train[order[i : i + config.batch_size]]
            values, log_prob, _ = policy.evaluate_actions(obs_all[rows], act_all[rows], action_masks=demos.masks[rows])
            loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), ret_all[rows])
            total += float(loss.detach()) * len(rows)
            value_total += float(value_loss.detach()) * len(rows)
            if config.pretrain_value:
                loss = loss + VALUE_WEIGHT * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
        policy.set_training_mode(False)
        figures = {
            "loss": total / len(train),
            "value_loss": value_total / len(train),
            "accuracy": agreement(policy, demos, train),
            "heldout_accuracy": agreement(policy, demos, heldout),
        }
        policy.set_training_mode(True)
        if on_epoch is not None:
            on_epoch(epoch, figures)
    policy.set_training_mode(False)
    return figures


def pretrain(
    model: Any,
    game: str,
    config: TrainConfig,
    pool: OpponentPool,
    log: Callable[[str], None] = print,
    record: Callable[[str, float, int], None] | None = None,
) -> dict[str, float]:
    """``config.pretrain_rounds`` rounds of ``config.pretrain_games`` games each (the first played by the
    demonstrator, the others by the policy and labelled by the demonstrator), each followed by :func:`fit` of
    ``model.policy`` on every decision so far; logged through ``log`` (a line per round and per epoch) and
    ``record(tag, value, epoch)`` (``pretrain/loss``, ``pretrain/accuracy``, ..., epochs counted across
    rounds)."""
    import time

    cpu = {"collect": 0.0, "fit": 0.0}
    demos: Demonstrations | None = None  # every decision so far (one array per field: merged once per round)
    figures: dict[str, float] = {}
    epochs = 0  # fitted so far, over all rounds

    def on_epoch(epoch: int, figures: dict[str, float]) -> None:
        if record is not None:
            for key, value in figures.items():
                record(f"pretrain/{key}", value, epochs + epoch)
        log(
            f"pretrain epoch {epochs + epoch + 1}/{config.pretrain_epochs * config.pretrain_rounds}: loss "
            f"{figures['loss']:.4f}, value loss {figures['value_loss']:.4f}, accuracy "
            f"{100 * figures['accuracy']:.1f}%, held-out accuracy {100 * figures['heldout_accuracy']:.1f}%"
        )

    for round_ in range(config.pretrain_rounds):
        start = time.process_time()
        policy = model.policy if round_ else None
        part = collect(game, config, pool, config.pretrain_games, config.seed, policy=policy, round_=round_)
        cpu["collect"] += time.process_time() - start
        positive = sum(r > 0 for r in part.game_returns)
        who = f"the policy, labelled by {config.pretrain_agent}," if round_ else config.pretrain_agent
        line = (
            f"Pretraining round {round_ + 1}/{config.pretrain_rounds}: {config.pretrain_games} games of {who} in "
            f"the learner's seat, {len(part)} decisions, mean return {np.mean(part.game_returns):.3f} "
            f"({positive} games above 0), {time.process_time() - start:.1f} CPU s"
        )
        if round_:  # how often the policy already chose as the demonstrator would, on its own games
            on_own = agreement(model.policy, part)
            line += f"; the policy agreed with {config.pretrain_agent} on {100 * on_own:.1f}% of them"
            if record is not None:
                record("pretrain/on_policy_accuracy", on_own, epochs)
        log(line)
        demos = part if demos is None else merge([demos, part])
        del part

        start = time.process_time()
        figures = fit(model.policy, demos, config, config.seed, on_epoch, round_=round_)
        cpu["fit"] += time.process_time() - start
        epochs += config.pretrain_epochs
    figures.update(decisions=float(len(demos)), collect_cpu_s=cpu["collect"], fit_cpu_s=cpu["fit"])
    log(f"Pretraining took {cpu['collect'] + cpu['fit']:.1f} CPU s ({cpu['fit']:.1f} of them fitting)")
    return figures
