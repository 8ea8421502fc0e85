"""``meeplezoo train GAME --algo az --out runs/NAME``: expert iteration for the ``az`` agent's network.

Each iteration plays ``games`` self-play games in which every seat searches with the current network
(:class:`~meeplezoo.agents.az.PUCTSearch` over determinizations of its own view: the search never sees the true
state; ``sims`` simulations, with the ``search`` settings of an ``az`` spec such as leaf rollouts, Dirichlet noise
``noise_alpha``/``noise_fraction`` at the root, the move drawn from the visits for the first ``temp_moves``
searched decisions of a game and the most visited one after). Every searched decision stores the seat's
observation, its legal mask, the root's visit distribution and, once the game ends, the seat-relative final returns
(``win`` mode; a game stopped at the engine's decision cap is adjudicated).
The positions go to a replay buffer of the last ``buffer`` positions, and the network is fitted to them
(``train_steps`` minibatches of ``batch_size``: cross-entropy to the visits, squared error to the returns; AdamW).
Every ``eval_every`` iterations it plays ``eval_games`` seat-rotated games against each of ``opponents``.

The run folder holds::

    OUT/config.json                  the run's settings (``--resume`` reads them)
    OUT/checkpoints/iter_K.pt        the network after iteration K, with its optimiser state (an ``az:path``)
    OUT/checkpoints/latest.pt        the same, for the last iteration
    OUT/checkpoints/buffer.npz       the replay buffer at the last checkpoint
    OUT/checkpoints/latest.json      the trainer's state: iteration, figures, time spent, generator states
                                     (written last: the checkpoint is complete once it names it)
    OUT/tb/                          tensorboard logs (loss/, selfplay/, time/, eval/)
    OUT/final.pt                     the network at the end (no optimiser state): ``az:path=OUT/final.pt``

The games (self-play, the warm start's, the value games) are played by ``workers`` processes
(:class:`~.az_games.GamePool`); their rows enter the buffer in game order, so the number of workers does not
change the weights. Self-play game ``g`` of iteration ``K`` is seeded by ``(seed, K, g)`` alone and the
minibatches by the trainer's generator (saved), so ``--resume`` continues bit for bit: a run stopped after
iteration K and resumed ends with the weights of the run that was never stopped
(``tests/training/test_az_train.py``). The budgets (``time_limit`` wall seconds, ``cpu_limit`` CPU seconds of
this process and its workers) count the whole run, resumed parts included; past one, the self-play of the
iteration under way stops after its current game (the games not started are dropped), the network is fitted on
what the buffer holds and the run checkpoints and ends.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..envs.core.errors import MeepleZooError
from ..envs.core.params import Param, ParamError, bind_keywords
from .az_games import GamePool, Job, SelfPlayGame, run_agent, self_play_game
from .az_net import DEFAULT_HIDDEN, AZNet, fit, load_net


class AZTrainError(MeepleZooError):
    """An expert-iteration run that cannot start or resume (one line)."""


#: every setting of a run, typed and checked by the parameter system (``--config FILE`` holds any of them)
SETTINGS: tuple[Param, ...] = (
    Param("iterations", int, 100, "expert-iteration rounds (self-play, fit, checkpoint)", minimum=1),
    Param("games", int, 16, "self-play games per iteration", minimum=1),
    Param("sims", int, 100, "search simulations per self-play decision", minimum=1),
    Param("c_puct", float, 1.5, "PUCT exploration constant", minimum=0.0),
    Param("batch", int, 8, "leaf evaluations per network call in the search", minimum=1),
    Param(
        "search",
        str,
        "",
        "more az search settings for the self-play and evaluation searches, as an az spec writes them "
        "(mix, estimate, rollout, cutoff, mast, qnorm, ptemp, first, vloss, prior, deepen, value, reuse, repeat; "
        "e.g. mix=1,rollout=random,cutoff=20)",
    ),
    Param("noise_alpha", float, 0.3, "Dirichlet concentration of the root noise", minimum=0.0),
    Param("noise_fraction", float, 0.25, "share of the root prior replaced by noise", minimum=0.0, maximum=1.0),
    Param("temp_moves", int, 20, "searched decisions per game whose move is drawn from the visits", minimum=0),
    Param("buffer", int, 20_000, "positions the replay buffer keeps (the newest; float32 observations)", minimum=1),
    Param("train_steps", int, 200, "minibatches fitted per iteration", minimum=0),
    Param("batch_size", int, 256, "positions per minibatch", minimum=1),
    Param("lr", float, 1e-3, "AdamW learning rate", minimum=0.0),
    Param("weight_decay", float, 1e-4, "AdamW weight decay", minimum=0.0),
    Param("hidden", list, list(DEFAULT_HIDDEN), "hidden layer sizes of the network", element=int),
    Param(
        "value",
        str,
        "win",
        "the return the value head learns: win, or margin (tanh of the score margin)",
        choices=("win", "margin"),
    ),
    Param("warm_games", int, 0, "warm start: games of warm_agent in every seat imitated before iteration 1", minimum=0),
    Param("warm_agent", str, "", "the agent imitated (default: the game's baseline; ppo, a heuristic...)"),
    Param(
        "warm_against",
        list,
        [],
        "warm start: the agents in the other seats of every imitation game, in seat order after the warm agent's "
        "seat, which moves round with the game (game g: seat g mod players); default: the warm agent in every seat",
        element=str,
    ),
    Param("warm_steps", int, 500, "minibatches fitted on the warm start's games", minimum=0),
    Param(
        "warm_soft",
        bool,
        True,
        "warm start: fit the agent's whole action distribution where it gives one (a policy's, or a search's visit "
        "shares at the root), else its move",
    ),
    Param(
        "value_games",
        int,
        0,
        "warm start: games whose sampled positions teach the value head only (their seats from value_agents)",
        minimum=0,
    ),
    Param(
        "value_agents",
        list,
        [],
        "the agents a value game's seats are drawn from, one per seat per game (default: the warm agent)",
        element=str,
    ),
    Param("value_positions", int, 8, "positions drawn from each value game's real choices", minimum=1),
    Param("eval_every", int, 5, "evaluation games every this many iterations (0: none)", minimum=0),
    Param("eval_games", int, 20, "seat-rotated games against each opponent per evaluation", minimum=1),
    Param("eval_sims", int, 100, "simulations per decision of the evaluated agent", minimum=0),
    Param(
        "opponents", list, [], "agent specs evaluated against (default: the game's baseline and random)", element=str
    ),
    Param("seed", int, 0, "seed of the network, the self-play games and the minibatches", minimum=0),
    Param(
        "workers",
        int,
        1,
        "processes that play the run's games (self-play, warm start, value games); the weights do not depend on it",
        minimum=1,
    ),
    Param("time_limit", float, 0.0, "wall seconds for the whole run (0: none)", minimum=0.0),
    Param("cpu_limit", float, 0.0, "CPU seconds of the trainer process for the whole run (0: none)", minimum=0.0),
    Param("env", None, None, "the game's config (a table of its keys; default: its defaults)"),
)


def settings(values: Mapping[str, Any] | None = None, where: str = "az training") -> dict[str, Any]:
    """Every setting: the defaults with ``values`` checked over them (a one-line :class:`ParamError`)."""
    from ..agents.az import search_settings

    out = bind_keywords(where, SETTINGS, dict(values or {}))
    out["env"] = dict(out["env"] or {})
    search_settings(out["search"], f"{where}: search")
    if not out["hidden"] or min(out["hidden"]) < 1:
        raise ParamError(f"{where}: hidden takes a list of layer sizes of at least 1, not {out['hidden']!r}")
    return out


class ReplayBuffer:
    """The newest ``capacity`` searched positions: observation, legal mask, visit distribution, returns."""

    def __init__(self, capacity: int, observation_size: int, num_actions: int, num_players: int) -> None:
        self.capacity, self.size, self.pos = capacity, 0, 0
        self.obs = np.zeros((capacity, observation_size), np.float32)
        self.mask = np.zeros((capacity, num_actions), bool)
        self.pi = np.zeros((capacity, num_actions), np.float32)
        self.z = np.zeros((capacity, num_players), np.float32)

    def add(self, obs: np.ndarray, mask: np.ndarray, pi: np.ndarray, z: np.ndarray) -> None:
        i = self.pos
        self.obs[i], self.mask[i], self.pi[i], self.z[i] = obs, mask, pi, z
        self.pos = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def arrays(self) -> dict[str, np.ndarray]:
        """The filled rows (in storage order)."""
        n = self.size
        return {"obs": self.obs[:n], "mask": self.mask[:n], "pi": self.pi[:n], "z": self.z[:n]}

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, pos=np.int64(self.pos), **self.arrays())
        tmp.replace(path)

    def load(self, path: Path) -> None:
        with np.load(path) as data:
            n = len(data["obs"])
            if n > self.capacity or data["obs"].shape[1:] != self.obs.shape[1:]:
                raise AZTrainError(f"{path} does not fit a buffer of {self.capacity} x {self.obs.shape[1]}")
            for key in ("obs", "mask", "pi", "z"):
                getattr(self, key)[:n] = data[key]
            self.size, self.pos = n, int(data["pos"])


def _rng_state(rng: np.random.Generator) -> dict[str, Any]:
    return rng.bit_generator.state


def _optimizer(net: AZNet, config: Mapping[str, Any]) -> Any:
    import torch

    return torch.optim.AdamW(net.module.parameters(), lr=config["lr"], weight_decay=config["weight_decay"])


class AZRun:
    """One expert-iteration run in a folder, as named steps: :meth:`prepare`, :meth:`build`, :meth:`learn`,
    :meth:`finish` (what :func:`train_az` calls in order)."""

    def __init__(
        self,
        game: str,
        out: str | Path,
        values: Mapping[str, Any] | None = None,
        resume: bool = False,
        log: Callable[[str], None] = print,
    ) -> None:
        from ..games import resolve

        self.game, self.out, self.resume, self.log = resolve(game), Path(out), resume, log
        file = self.out / "checkpoints" / "latest.json"
        self.latest: dict[str, Any] | None = json.loads(file.read_text()) if file.is_file() else None
        self.config = self._settings(dict(values or {}))
        self._check_search()
        self.engine_game = self._engine_game()
        if self.config["warm_against"] and self.engine_game.num_players == 1:
            raise AZTrainError("warm_against needs other seats, and a solo game has none")
        self.iteration = 0
        self.spent = {
            "wall": 0.0,
            "cpu": 0.0,  # this process's and its workers'
            "workers": 0.0,  # the workers' part
            "search": 0.0,
            "network": 0.0,
            "engine": 0.0,
            "fit": 0.0,
            "eval": 0.0,
        }
        self.totals = {"games": 0, "positions": 0}
        self.evals: list[dict[str, Any]] = []
        self.net: AZNet | None = None
        self.optimizer: Any = None
        self.buffer: ReplayBuffer | None = None
        self.rng = np.random.default_rng(np.random.SeedSequence([self.config["seed"], 1]))
        self.writer: Any = None
        self.pool: GamePool | None = None
        self.bar: Any = None
        self.stopped = ""  # why the run stopped before its last iteration ("" : it did not)
        self._wall0 = self._cpu0 = 0.0

    #: what ``--resume`` may change: how long the run goes on
    RESUMABLE = frozenset({"iterations", "time_limit", "cpu_limit", "workers"})

    def _settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """The run's settings: its own ``config.json`` when resumed (only :attr:`RESUMABLE` keys may change),
        else ``values`` over the defaults."""
        out = self.out
        if not self.resume:
            if self.latest is not None:
                raise AZTrainError(f"{out} already holds a run; add --resume to continue it or choose another --out")
            return settings(values)
        if self.latest is None:
            raise AZTrainError(f"no checkpoint to resume in {out} (no {out / 'checkpoints' / 'latest.json'})")
        if self.latest.get("game") != self.game:
            raise AZTrainError(f"{out} is a run of {self.latest.get('game')}, not {self.game}")
        changed = sorted(set(values) - self.RESUMABLE)
        if changed:
            raise AZTrainError(
                f"--resume keeps the run's own settings; only {', '.join(sorted(self.RESUMABLE))} "
                f"may change, not {', '.join(changed)}"
            )
        return settings({**json.loads((out / "config.json").read_text()), **values}, where=str(out / "config.json"))

    def _check_search(self) -> None:
        """Raise :class:`~meeplezoo.agents.spec.AgentSpecError` before any game if the ``search`` settings do not
        make an agent of this game (its own checks: an estimate the game lacks, a rollout or estimate
        without ``mix``)."""
        from ..agents.az import AZAgent, search_settings

        AZAgent(seed=0, **search_settings(self.config["search"])).check_game(self.game)

    def _engine_game(self) -> Any:
        from ..envs.core.errors import ConfigError
        from ..games import manifest

        found = manifest(self.game)
        if found.engine is None:
            raise AZTrainError(f"{self.game} has no MeepleZoo engine: az searches engine states")
        try:
            return found.engine_class()(**self.config["env"])
        except ConfigError as exc:
            raise AZTrainError(str(exc)) from None

    # --- the steps, in order -------------------------------------------------------------------------------
    def prepare(self) -> None:
        """Check the opponents, write ``config.json``, compute on one torch thread."""
        import torch

        from ..agents import make_agent
        from ..games import manifest

        config = self.config
        if not config["opponents"]:
            baseline = manifest(self.game).baseline_agent
            config["opponents"] = [baseline] if baseline == "random" else [baseline, "random"]
        warm = [config["warm_agent"]] if config["warm_agent"] else []
        for spec in [*config["opponents"], *warm, *config["value_agents"], *config["warm_against"]]:
            make_agent(spec, self.game, seed=0)  # a bad spec: one line before anything is written or played
        try:
            (self.out / "checkpoints").mkdir(parents=True, exist_ok=True)
            (self.out / "config.json").write_text(json.dumps(config, indent=1, sort_keys=True) + "\n")
        except OSError as exc:
            raise AZTrainError(f"cannot write the run folder {self.out}: {exc.strerror or exc}") from None
        torch.set_num_threads(1)  # small MLPs, batches of a few positions: one thread, no idle spinning

    def build(self) -> None:
        """A new network (seeded), or the last checkpoint's with its optimiser, buffer, generator and figures."""
        import torch

        config, game = self.config, self.engine_game
        self.buffer = ReplayBuffer(config["buffer"], game.observation_size, game.num_actions, game.num_players)
        if not self.resume:
            # the run owns its process's torch generator (its checkpoints save it, --resume restores it): a fresh
            # run starts it from the run's seed, whatever the process drew before, and draws the weights from it
            torch.manual_seed(config["seed"])
            self.net = AZNet.for_game(game, config["hidden"], value=config["value"])
            self.optimizer = _optimizer(self.net, config)
            return
        latest, out = self.latest, self.out
        assert latest is not None
        net_file = out / latest["net"]
        self.net = load_net(net_file, self.game, game.observation_size, game.num_actions, game.num_players)
        self.optimizer = _optimizer(self.net, config)
        self.optimizer.load_state_dict(torch.load(net_file, map_location="cpu", weights_only=True)["optimizer"])
        self.buffer.load(out / latest["buffer"])
        self.rng.bit_generator.state = latest["rng"]
        torch.set_rng_state(torch.tensor(latest["torch_rng"], dtype=torch.uint8))
        self.iteration, self.spent, self.totals, self.evals = (
            latest["iteration"],
            latest["spent"],
            latest["totals"],
            latest["evals"],
        )
        self.log(f"Resumed {out} after iteration {self.iteration} ({self.totals['games']} self-play games)")

    def learn(self, progress: bool = False) -> None:
        """Iterations on to ``iterations``, or until a budget is spent."""
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(str(self.out / "tb"))
        self.spent.setdefault("workers", 0.0)  # a run checkpointed before the setting existed
        self._wall0 = time.perf_counter() - self.spent["wall"]
        self._cpu0 = time.process_time() - (self.spent["cpu"] - self.spent["workers"])
        self.pool = GamePool(self.game, self.engine_game, self.config, self.config["workers"])
        if progress:
            self.bar = _IterationBar(self.iteration, self.config["iterations"], self.config["time_limit"])
        if not self.resume and (self.config["warm_games"] or self.config["value_games"]):
            self.warm_start()
            self._clock()
            self.checkpoint()  # iteration 0: a run that fails after its warm start resumes from here
        while self.iteration < self.config["iterations"]:
            if self.iteration and self._out_of_budget():  # a new run plays one game at least
                break
            self.step()
            if self.bar is not None:
                self.bar.update(self.iteration, self.spent["wall"])
            if self.stopped:
                break
        if self.iteration >= self.config["iterations"]:
            self.stopped = ""  # a budget spent by the last iteration did not cut the run short

    def warm_start(self) -> None:
        """Imitate ``warm_agent``'s games before iteration 1: the value games' positions (:func:`.value_game`), then
        the agent's moves and results fill the buffer, the network is fitted ``warm_steps`` minibatches on them
        (logged at iteration 0); the positions stay in the buffer."""
        config = self.config
        began, workers_before = time.process_time(), self.spent["workers"]
        if config["value_games"]:
            valued = self._add_games([("value", g) for g in range(config["value_games"])])
            self.log(f"value games: {config['value_games']} games, {valued} positions for the value head")
        added = self._add_games([("imitation", g) for g in range(config["warm_games"])])
        fitted = fit(
            self.net, self.optimizer, self.buffer.arrays(), config["warm_steps"], config["batch_size"], self.rng
        )
        for key, value in fitted.items():
            self.writer.add_scalar(f"warm/{key}", value, 0)
        self.spent["warm"] = time.process_time() - began + self.spent["workers"] - workers_before
        self.log(
            f"warm start: {config['warm_games']} games, {added} positions imitated"
            + (f", loss {fitted['loss']:.3f} after {config['warm_steps']} steps" if fitted else "")
            + f" ({self.spent['warm']:.1f} s)"
        )

    def _add_games(self, jobs: list[Job]) -> int:
        """Play ``jobs`` (imitation or value games) on the pool and add their rows to the buffer in the jobs' order;
        the number of rows added."""
        assert self.pool is not None
        added = 0
        for rows, worker_cpu in self.pool.play(None, jobs):
            self.spent["workers"] += worker_cpu
            for row in rows:
                self.buffer.add(*row)
            added += len(rows)
        return added

    def _clock(self) -> None:
        """The run's wall and CPU time so far (its workers' included) into :attr:`spent`."""
        self.spent["wall"] = time.perf_counter() - self._wall0
        self.spent["cpu"] = time.process_time() - self._cpu0 + self.spent["workers"]

    def _out_of_budget(self) -> bool:
        """Past ``time_limit`` or ``cpu_limit`` (the whole run's); notes why in :attr:`stopped`."""
        config = self.config
        self._clock()
        if config["time_limit"] and self.spent["wall"] >= config["time_limit"]:
            self.stopped = f"the time limit ({config['time_limit']:g} s)"
        elif config["cpu_limit"] and self.spent["cpu"] >= config["cpu_limit"]:
            self.stopped = f"the CPU budget ({config['cpu_limit']:g} s)"
        return bool(self.stopped)

    def step(self) -> None:
        """One iteration: self-play, fit, evaluation when due, checkpoint, logs."""
        config = self.config
        k = self.iteration + 1
        began = time.perf_counter()
        played = SelfPlayGame()
        games = 0
        assert self.pool is not None
        jobs: list[Job] = [("selfplay", (config["seed"], k, g)) for g in range(config["games"])]
        results = self.pool.play(self.net, jobs)
        for (rows, figures), worker_cpu in results:
            self.spent["workers"] += worker_cpu
            for row in rows:
                self.buffer.add(*row)
            games += 1
            played.add(figures)
            if self._out_of_budget():
                results.close()  # the games not started are dropped
                break
        play_seconds = time.perf_counter() - began
        t = time.process_time()
        fitted = fit(
            self.net, self.optimizer, self.buffer.arrays(), config["train_steps"], config["batch_size"], self.rng
        )
        fit_seconds = time.process_time() - t
        self.iteration = k
        for key in ("search", "network", "engine"):
            self.spent[key] += getattr(played, key)
        self.spent["fit"] += fit_seconds
        self.totals["games"] += games
        self.totals["positions"] += played.searched
        self._record(k, fitted, played, games, play_seconds, fit_seconds)
        if config["eval_every"] and k % config["eval_every"] == 0:
            self.evaluation()
        self._out_of_budget()
        self.checkpoint()

    def _record(
        self, k: int, fitted: dict[str, float], played: SelfPlayGame, games: int, seconds: float, fit_seconds: float
    ) -> None:
        """The iteration's figures into tensorboard and one log line."""
        w = self.writer
        for key, value in fitted.items():
            w.add_scalar(f"loss/{key}" if key.endswith("loss") else f"train/{key}", value, k)
        searched = played.search + played.network + played.engine
        for key in ("search", "network", "engine"):
            w.add_scalar(f"time/{key}_share", getattr(played, key) / searched if searched else 0.0, k)
        w.add_scalar("time/fit_seconds", fit_seconds, k)
        w.add_scalar("selfplay/games_per_s", games / seconds if seconds else 0.0, k)
        w.add_scalar("selfplay/positions_per_s", played.searched / seconds if seconds else 0.0, k)
        w.add_scalar("selfplay/decisions_per_game", played.decisions / games if games else 0.0, k)
        w.add_scalar("selfplay/buffer", self.buffer.size, k)
        w.flush()
        loss = ""  # no fit (train_steps = 0): no loss to report
        if fitted:
            loss = f", loss {fitted['loss']:.3f} (policy {fitted['policy_loss']:.3f}, value {fitted['value_loss']:.3f})"
        self.log(
            f"iteration {k}: {games} games, {played.searched} positions in {seconds:.1f} s"
            + loss
            + f"; search/network/engine {played.search:.1f}/{played.network:.1f}/{played.engine:.1f} s"
        )

    def evaluation(self) -> None:
        """``eval_games`` seat-rotated games of the current network's search against each opponent (a solo game:
        the network alone at the table); win rates logged and kept."""
        from ..agents import play_match
        from ..agents.az import AZAgent

        config, n = self.config, self.engine_game.num_players
        began = time.process_time()
        net = self.net

        def az(seed: int) -> AZAgent:
            return run_agent(config, net, seed, config["eval_sims"])

        for opponent in config["opponents"] if n > 1 else ["solo"]:
            entrants: list[Any] = [az] + [opponent] * (n - 1)
            seed = 1_000_000 + 10_000 * config["seed"] + config["eval_games"] * self.iteration
            result = play_match(
                self.game,
                entrants,
                config["eval_games"],
                seed,
                env_kwargs=config["env"],
                labels=["az"] + [opponent] * (n - 1),
            )
            standing = next(s for s in result.standings() if s.label == "az")
            rate = standing.wins / standing.games
            self.evals.append(
                {
                    "iteration": self.iteration,
                    "opponent": opponent,
                    "games": standing.games,
                    "wins": standing.wins,
                    "draws": standing.draws,
                    "mean_score": standing.mean_score,
                }
            )
            self.writer.add_scalar(f"eval/win_rate_vs_{opponent}", rate, self.iteration)
            self.writer.add_scalar(f"eval/mean_score_vs_{opponent}", standing.mean_score, self.iteration)
            self.log(
                f"iteration {self.iteration}: az won {standing.wins} of {standing.games} against {opponent} "
                f"(mean score {standing.mean_score:.1f})"
            )
        self.spent["eval"] += time.process_time() - began

    def checkpoint(self) -> None:
        """``iter_K.pt`` and ``latest.pt`` (network and optimiser), the buffer, then ``latest.json`` (``iter_0``:
        after the warm start)."""
        import torch

        folder = self.out / "checkpoints"
        k = self.iteration
        name = f"iter_{k}.pt"
        self.net.save(folder / name, optimizer=self.optimizer.state_dict())
        (folder / "latest.pt").write_bytes((folder / name).read_bytes())
        self.buffer.save(folder / "buffer.npz")
        info = {
            "game": self.game,
            "iteration": k,
            "net": f"checkpoints/{name}",
            "buffer": "checkpoints/buffer.npz",
            "rng": _rng_state(self.rng),
            "torch_rng": torch.get_rng_state().tolist(),
            "spent": self.spent,
            "totals": self.totals,
            "evals": self.evals,
        }
        tmp = folder / "latest.json.tmp"
        tmp.write_text(json.dumps(info))
        tmp.replace(folder / "latest.json")

    def finish(self) -> None:
        """``final.pt`` (no optimiser state) and the run's figures."""
        self.net.save(self.out / "final.pt")
        spent = self.spent
        searched = spent["search"] + spent["network"] + spent["engine"]
        split = (
            "/".join(f"{100 * spent[k] / searched:.0f}" for k in ("search", "network", "engine")) if searched else "-"
        )
        why = f"; stopped by {self.stopped}" if self.stopped else ""
        self.log(
            f"Trained {self.iteration} iterations, {self.totals['games']} self-play games, "
            f"{self.totals['positions']} positions in {spent['wall']:.1f} s wall, {spent['cpu']:.1f} s CPU "
            f"(self-play search/network/engine {split} %){why}"
        )
        self.log(f"Saved {self.out / 'final.pt'} (agent spec: az:path={self.out / 'final.pt'})")

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
        if self.bar is not None:
            self.bar.stop()
        if self.writer is not None:
            self.writer.close()


class _IterationBar:
    """The run's progress bar (``rich``): iterations done, filled and timed by the iterations or the wall budget,
    whichever ends the run first."""

    def __init__(self, done: int, total: int, time_limit: float) -> None:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.first, self.total, self.time_limit = done, total, time_limit
        self.bar = Progress(
            TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), TextColumn("{task.fields[left]}")
        )
        self.task = self.bar.add_task(f"iteration {done}/{total}", total=1.0, left="")
        self.began = time.perf_counter()
        self.bar.start()

    def update(self, done: int, wall: float) -> None:
        from .trainer import progress_figures

        elapsed = time.perf_counter() - self.began
        share, left = progress_figures(
            done - self.first,
            self.total - self.first,
            elapsed,
            max(self.time_limit - (wall - elapsed), 0.0) if self.time_limit else 0.0,
        )
        eta = "" if left is None else f"{int(left) // 3600}:{int(left) // 60 % 60:02d}:{int(left) % 60:02d} left"
        self.bar.update(self.task, completed=share, description=f"iteration {done}/{self.total}", left=eta)

    def stop(self) -> None:
        self.bar.stop()


def train_az(
    game: str,
    out: str | Path,
    values: Mapping[str, Any] | None = None,
    resume: bool = False,
    progress: bool = False,
    log: Callable[[str], None] = print,
) -> AZNet:
    """Run (or resume) expert iteration in ``out`` with the settings ``values`` (:data:`SETTINGS`; on resume only
    ``iterations`` and the budgets); return the network."""
    run = AZRun(game, out, values, resume=resume, log=log)
    run.prepare()
    run.build()
    try:
        run.learn(progress)
        run.finish()
    finally:
        run.close()
    assert run.net is not None
    return run.net


__all__ = ["SETTINGS", "AZRun", "AZTrainError", "ReplayBuffer", "self_play_game", "settings", "train_az"]
