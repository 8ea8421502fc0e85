"""Playing games between agents: one game (:func:`play_game`) or a match with seat rotation (:func:`play_match`).

Both drive the ordinary PettingZoo AEC loop (``agent_iter``, ``last``, ``step``) and hand each agent the
:class:`~meeplezoo.agents.view.SeatView` of its seat, never the env, so they work on any masked AEC env; on
a MeepleZoo env the final scores and ranks come from the engine state, elsewhere from the rewards.

Conventions (the same in records, the CLI and the arena): ranks are 0-based (0 = winner, tied seats share
a rank); a player is labelled by the spec string it was made from (``"heuristic"``, ``"mcts:iters=400"``);
``GameRecord.tie_break`` says when the winner's score was equalled and the game's tie-break decided.

>>> record = play_match("seastead", ["random", "random"], games=2, seed=3).records[0]
>>> record.steps > 0 and sorted(record.ranks.values())[0] == 0
True
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..envs.core.errors import ActionTypeError
from ..games import make_env, resolve
from .base import Agent
from .budget import Budget
from .faults import Fault, Forfeit
from .registry import make_agent
from .view import view_for

#: called before each decision is applied: ``on_decision(env, agent_name, action)``
DecisionHook = Callable[[Any, str, int], None]
#: builds an agent from a seed
AgentFactory = Callable[[int], Agent]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a recorded game."""

    index: int
    agent: str
    action: int
    name: str


@dataclass
class GameRecord:
    """The outcome of one game. Dicts are keyed by AEC agent name (``player_0``, ...)."""

    env_name: str
    seed: int | None
    players: dict[str, str]  # agent name -> label of who played it ("random", "heuristic", ...)
    scores: dict[str, float]
    ranks: dict[str, int]  # 0 = winner; tied seats share a rank
    rewards: dict[str, float]  # total AEC reward of each agent
    steps: int  # decisions taken
    truncated: bool = False
    illegal_action: dict | None = None  # the adapter's info if the game ended on an illegal action
    decisions: list[Decision] | None = None  # with record_actions=True
    tie_break: bool = False  # a sole winner whose score another seat equalled: the tie-break decided
    forfeit: Fault | None = None  # the fault that ended the game (``play_game(..., forfeits=True)``)

    @property
    def winners(self) -> list[str]:
        """Agent names with rank 0 (several on a shared win)."""
        return [a for a, r in self.ranks.items() if r == 0]


def _label(agent: Any) -> str:
    """How a player is called: the spec it was made from, else its ``name``, else its class name."""
    return getattr(agent, "spec", None) or getattr(agent, "name", None) or type(agent).__name__


def action_id(action: Any, agent: str) -> int:
    """``action`` as the int it stands for (a numpy integer too); :class:`ActionTypeError` for anything else:
    ``True`` is an int to Python, a float rounds, and neither is an action id.

    >>> action_id(np.int64(3), "player_0")
    3
    """
    try:
        if isinstance(action, bool):
            raise TypeError
        return operator.index(action)
    except TypeError:
        raise ActionTypeError(
            f"the agent of {agent} returned {action!r} ({type(action).__name__}), not an action id (an int)"
        ) from None


def play_game(
    env: Any,
    agents: Mapping[str, Agent],
    seed: int | None = None,
    *,
    record_actions: bool = False,
    on_decision: DecisionHook | None = None,
    labels: Mapping[str, str] | None = None,
    max_steps: int | None = None,
    forfeits: bool = False,
) -> GameRecord:
    """Reset ``env`` with ``seed`` and play it to the end with ``agents`` (AEC agent name -> agent).

    Each agent is called as ``agent.act(view)`` with the :class:`~meeplezoo.agents.view.SeatView` of its seat
    and returns an action id, an int (:func:`action_id`: a bool or a float raises :class:`ActionTypeError`).

    Args:
        record_actions: keep every decision with its name (``env.describe_action``) in the record.
        on_decision: called before each decision is applied (e.g. to print it).
        labels: how to call each player in the record (default: the agent's ``name`` attribute).
        max_steps: stop (``truncated=True``) after this many decisions; by default the engine's
            ``max_decisions`` bound (a MeepleZoo env), else no limit.
        forfeits: a :class:`~.faults.Forfeit` raised by an agent (an isolated one's fault) ends the game and the
            record says so (``forfeit``; the faulty seat last, the others share first place); by default it
            propagates (the arena stores the fault itself).
    """
    missing = [a for a in env.possible_agents if a not in agents]
    if missing:
        raise ValueError(f"no agent given for {missing}; the env's agents are {env.possible_agents}")
    if max_steps is None:
        game = getattr(env.unwrapped, "game", None)
        max_steps = getattr(game, "max_decisions", None)
    env.reset(seed=seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    decisions: list[Decision] | None = [] if record_actions else None
    illegal = None
    truncated = False
    fault: Fault | None = None
    steps = 0
    describe = getattr(env.unwrapped, "describe_action", None)
    for name in env.agent_iter():
        _, reward, terminated, trunc, info = env.last(observe=False)
        rewards[name] += float(reward)
        if "illegal_action" in info:
            illegal = info["illegal_action"]
        if terminated or trunc:
            truncated = truncated or (trunc and not terminated)
            env.step(None)
            continue
        if max_steps is not None and steps >= max_steps:
            truncated = True
            break
        agent = agents[name]
        try:
            action = action_id(agent.act(view_for(env, name, agent)), name)
        except Forfeit as exc:
            if not forfeits:
                raise
            fault = replace(exc.fault, decision=steps)  # the game's decision index, whoever counted it
            break
        if on_decision is not None:
            on_decision(env, name, action)
        if decisions is not None:
            text = describe(action) if describe is not None else str(action)
            decisions.append(Decision(steps, name, action, text))
        env.step(action)
        steps += 1
    scores, ranks = _outcome(env, rewards)
    if fault is not None:  # as in the arena: the faulty seat last, every other seat shares first place
        ranks = {a: len(env.possible_agents) - 1 if i == fault.seat else 0 for i, a in enumerate(env.possible_agents)}
    winners = [a for a, r in ranks.items() if r == 0]
    tie_break = len(winners) == 1 and sum(1 for v in scores.values() if v == scores[winners[0]]) > 1
    players = {a: (labels[a] if labels and a in labels else _label(agents[a])) for a in env.possible_agents}
    return GameRecord(
        env_name=str(env.unwrapped.metadata.get("name", env)),
        seed=seed,
        players=players,
        scores=scores,
        ranks=ranks,
        rewards=rewards,
        steps=steps,
        truncated=truncated,
        illegal_action=illegal,
        decisions=decisions,
        tie_break=tie_break,
        forfeit=fault,
    )


def _outcome(env: Any, rewards: dict[str, float]) -> tuple[dict[str, float], dict[str, int]]:
    """Scores and ranks per agent: from the engine state if there is one, else from the rewards."""
    state = getattr(env.unwrapped, "state_obj", None)
    names = env.possible_agents
    if state is not None:  # a game stopped before its end is ranked by its standing (adjudicated_ranks)
        s, r = state.scores(), (state.ranks() if state.is_terminal() else state.adjudicated_ranks())
        return {a: float(s[i]) for i, a in enumerate(names)}, {a: int(r[i]) for i, a in enumerate(names)}
    values = [rewards[a] for a in names]
    return dict(rewards), {a: sum(1 for v in values if v > rewards[a]) for a in names}


# --- matches ---------------------------------------------------------------------------------------------


@dataclass
class Standing:
    """How one entrant of a match did over all its games."""

    label: str
    games: int = 0
    wins: int = 0  # sole rank 0
    draws: int = 0  # shared rank 0
    losses: int = 0
    unfinished: int = 0  # truncated games: neither won nor lost
    forfeits: int = 0  # games this entrant's agent lost by a fault (counted among the losses)
    score_sum: float = 0.0
    reward_sum: float = 0.0
    rank_sum: int = 0

    @property
    def win_rate(self) -> float:
        """Wins plus half the shared wins, per finished game."""
        finished = self.games - self.unfinished
        return (self.wins + 0.5 * self.draws) / finished if finished else 0.0

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

    @property
    def mean_reward(self) -> float:
        return self.reward_sum / self.games if self.games else 0.0

    @property
    def mean_rank(self) -> float:
        return self.rank_sum / self.games if self.games else 0.0


@dataclass
class MatchResult:
    """Every game of a match and the entrants' labels (unique: a repeated name gets ``#2``, ``#3``...)."""

    game: str
    labels: list[str]
    records: list[GameRecord] = field(default_factory=list)

    def standings(self) -> list[Standing]:
        table = {label: Standing(label) for label in self.labels}
        for rec in self.records:
            sharing = len(rec.winners)
            for seat, (agent, label) in enumerate(rec.players.items()):
                st = table[label]
                st.games += 1
                st.forfeits += rec.forfeit is not None and rec.forfeit.seat == seat
                rank = rec.ranks[agent]
                if rec.truncated or rec.illegal_action:
                    st.unfinished += 1
                elif rank == 0 and sharing == 1:
                    st.wins += 1
                elif rank == 0:
                    st.draws += 1
                else:
                    st.losses += 1
                st.score_sum += rec.scores[agent]
                st.reward_sum += rec.rewards[agent]
                st.rank_sum += rank
        return list(table.values())


def unique_labels(names: Sequence[str]) -> list[str]:
    """``["random", "random"]`` -> ``["random", "random#2"]``."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` for the game seeded ``game_seed`` (so each game replays alone)."""
    return int(np.random.SeedSequence([game_seed, seat]).generate_state(1, np.uint32)[0])


def seat_order(num_entrants: int, game_index: int) -> list[int]:
    """Entrant index in each seat for game ``game_index``: seats rotate by one each game."""
    return [(seat + game_index) % num_entrants for seat in range(num_entrants)]


def play_match(
    game: str,
    entrants: Sequence[str | AgentFactory],
    games: int,
    seed: int = 0,
    *,
    env_kwargs: Mapping[str, Any] | None = None,
    labels: Sequence[str] | None = None,
    on_game: Callable[[int, GameRecord], None] | None = None,
    isolation: str = "none",
    budget: Budget | None = None,
    imports: Sequence[str] = (),
) -> MatchResult:
    """Play ``games`` games of ``game`` between ``entrants``, one per seat, rotating seats every game.

    An entrant is an agent name of the registry or a factory ``seed -> agent``. Game ``g`` uses env seed
    ``seed + g`` and fresh agents seeded by :func:`agent_seed` from it, so every game can be replayed
    alone: ``play_game(env, agents, seed + g)`` with the same seating.

    ``isolation="process"`` runs every agent in its own process under ``budget``
    (:mod:`~meeplezoo.agents.isolation`; ``imports``: modules that register agents, imported there first): a
    fault forfeits that game (``GameRecord.forfeit``) and the match goes on; entrants must then be spec strings.
    The default ``"none"`` plays in this process: a library call from a notebook or a test stays cheap (no
    process per seat and game), takes factories and agents registered at run time, and gives the same games;
    the CLI asks for ``"process"``.
    """
    if isolation not in ("process", "none"):
        raise ValueError(f"isolation must be 'process' or 'none', not {isolation!r}")
    if isolation == "process" and not all(isinstance(e, str) for e in entrants):
        raise ValueError("isolation='process' needs agent specs (strings): a factory makes its agent in this process")
    game = resolve(game)
    env = make_env(game, **dict(env_kwargs or {}))
    n = len(env.possible_agents)
    if len(entrants) != n:
        raise ValueError(f"{game} has {n} seats ({', '.join(env.possible_agents)}); got {len(entrants)} entrants")
    if labels is None:
        labels = [e if isinstance(e, str) else _label(e) for e in entrants]
    labels = unique_labels(list(labels))
    result = MatchResult(game, labels)
    for g in range(games):
        game_seed = seed + g
        order = seat_order(n, g)
        seated = [entrants[order[seat]] for seat in range(n)]
        who = {name: labels[order[seat]] for seat, name in enumerate(env.possible_agents)}
        seeds = [agent_seed(game_seed, seat) for seat in range(n)]
        if isolation == "process":
            record = _play_isolated(env, game, [str(e) for e in seated], seeds, game_seed, who, budget, imports)
        else:
            agents = {
                name: make_agent(e, game, seed=s) if isinstance(e, str) else e(s)
                for name, e, s in zip(env.possible_agents, seated, seeds, strict=True)
            }
            record = play_game(env, agents, game_seed, labels=who)
        result.records.append(record)
        if on_game is not None:
            on_game(g, record)
    env.close()
    return result


def _play_isolated(
    env: Any,
    game: str,
    specs: list[str],
    seeds: list[int],
    game_seed: int,
    labels: dict[str, str],
    budget: Budget | None,
    imports: Sequence[str],
) -> GameRecord:
    """One game of a match with every agent but a human in its own process; an agent that cannot even start
    forfeits the game at its opening position."""
    with contextlib.ExitStack() as stack:
        try:
            agents = seat_agents(stack, env, game, specs, seeds, budget=budget, imports=imports)
        except Forfeit as exc:  # raised while the agents were made
            return forfeit_record(env, labels, game_seed, exc.fault)
        return play_game(env, agents, game_seed, labels=labels, forfeits=True)


#: agents that stay in the referee's process under isolation: the person at the keyboard
IN_PROCESS = ("human",)


def seat_agents(
    stack: contextlib.ExitStack,
    env: Any,
    game: str,
    specs: Sequence[str],
    seeds: Sequence[int],
    *,
    isolation: str = "process",
    budget: Budget | None = None,
    imports: Sequence[str] = (),
) -> dict[str, Any]:
    """The agent of every seat of ``env`` (AEC name -> agent): with ``isolation="process"`` each in its own process
    (an :class:`~.isolation.IsolatedAgent`, closed with ``stack``) but a ``human``, who is the user at the keyboard;
    with ``"none"`` every one in this process. An agent process that cannot start raises its
    :class:`~.faults.Forfeit` (those already started are closed with ``stack``)."""
    if isolation == "none":
        return {
            name: make_agent(spec, game, seed=seed)
            for name, spec, seed in zip(env.possible_agents, specs, seeds, strict=True)
        }
    from .isolation import isolated_seats

    seats = isolated_seats(env, specs, game, seeds=seeds, budget=budget, imports=imports, in_process=IN_PROCESS)
    return stack.enter_context(seats)


def forfeit_record(env: Any, labels: Mapping[str, str], seed: int | None, fault: Fault) -> GameRecord:
    """The record of a game of ``env`` that ``fault`` ended before it began (an agent that could not be made):
    the opening position's scores, the faulty seat last and the others sharing first place."""
    env.reset(seed=seed)
    names = env.possible_agents
    scores, _ = _outcome(env, dict.fromkeys(names, 0.0))
    ranks = {a: len(names) - 1 if i == fault.seat else 0 for i, a in enumerate(names)}
    return GameRecord(
        env_name=str(env.unwrapped.metadata.get("name", env)),
        seed=seed,
        players=dict(labels),
        scores=scores,
        ranks=ranks,
        rewards=dict.fromkeys(names, 0.0),
        steps=0,
        forfeit=fault,
    )


__all__ = [
    "AgentFactory",
    "Decision",
    "DecisionHook",
    "GameRecord",
    "MatchResult",
    "Standing",
    "action_id",
    "agent_seed",
    "forfeit_record",
    "play_game",
    "play_match",
    "seat_agents",
    "seat_order",
    "unique_labels",
]
