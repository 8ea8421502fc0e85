"""One game played from a browser: the true state, the bots of the other seats, the human seat's token.

Each bot runs in its own OS process for the table's life (``isolation="process"``, the default: an
:class:`~meeplezoo.agents.isolation.IsolatedAgent` whose budget gives it ``think_seconds`` of wall time per
decision), closed when the game ends, when the session expires or is dropped, or when the server shuts down
(:meth:`Session.close`). Bots move in a background thread that waits on them outside the session lock; a bot
forfeits (ranked last, the others share first place, as in the arena) if it raises, exits, crashes, answers
anything but a legal action id, or overruns its budget (its process is killed at the deadline). With
``isolation="none"`` (trusted bots only) they run in the server's process, as they did before processes: an MCTS
search is stopped at its next iteration past the deadline, any other bot is judged when it answers. A finished
game is stored in the arena database. The game's seed stays on the server until the game is over (the page
learns only whether the player fixed it).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from types import SimpleNamespace
from typing import Any

import numpy as np

from .. import games
from ..agents import make_agent
from ..agents.budget import Budget
from ..agents.faults import CRASHED, ILLEGAL, RAISED, TIMEOUT, Fault, Forfeit
from ..agents.match import action_id
from ..agents.view import SeatView, view_of_state
from ..envs.core.errors import ActionTypeError
from ..envs.core.moves import distinct_moves
from .security import RequestError
from .tables import table_of

__all__ = ["RequestError", "Session", "automa_entries", "table_of"]

log = logging.getLogger(__name__)
#: a bot's think time per decision unless the server says otherwise
THINK_SECONDS = 30.0
_move = threading.local()  # the bot thread's deadline for the decision it is thinking on


class ThinkTimeout(Exception):
    """A bot thought past its deadline on one decision."""


class TimedView(SeatView):
    """A bot's view whose ``determinize`` (called once per MCTS iteration) stops a search past the deadline of
    the decision (:data:`_move`)."""

    __slots__ = ()

    def determinize(self, rng: np.random.Generator, copy: bool = True) -> Any:
        if time.monotonic() > getattr(_move, "deadline", float("inf")):
            raise ThinkTimeout
        return super().determinize(rng, copy)


def automa_entries(state: Any, before: Any) -> list[dict[str, Any]]:
    """Log entries of a solo automa's turns since ``before`` (None: the setup); they belong to no seat."""
    return [{"seat": None, "pending": None, "action": None, "name": t} for t in state.automa_turns(before)]


class Session:
    """A game between one human seat (holding ``token``) and bots in the other seats."""

    def __init__(
        self,
        gid: str,
        game: str,
        config: dict[str, Any],
        seat: int,
        bots: list[str],
        seed: int,
        *,
        fixed_seed: bool = True,
        think_seconds: float = THINK_SECONDS,
        store_path: Any = None,
        isolation: str = "process",
        imports: tuple[str, ...] = (),
    ) -> None:
        env = games.make_env(game, **config)
        env.reset(seed=seed)
        self.env = env
        self.state = env.unwrapped.state_obj
        n = self.state.game.num_players
        if not 0 <= seat < n:
            raise RequestError(400, f"seat must be 0..{n - 1}, got {seat}")
        if len(bots) != n - 1:
            raise RequestError(400, f"{game} with this config has {n} seats: give {n - 1} bots, got {len(bots)}")
        self.id, self.game, self.seed, self.seat = gid, games.resolve(game), seed, seat
        self.fixed_seed = fixed_seed  # the player chose the seed (else a secret one from ``secrets``)
        self.think_seconds = think_seconds
        self.store_path = store_path  # the arena database a finished game goes to (None: not stored)
        self.last_active = time.monotonic()  # the last request or bot move (idle sessions expire)
        self.config = dict(self.state.game.config)
        self.token = secrets.token_urlsafe(16)
        self.key = f"web-{secrets.token_hex(8)}-{gid}"  # its key in the arena database: unique across restarts
        self.specs: list[str] = list(bots)
        self.specs.insert(seat, "human")
        self.isolation = isolation
        self.budget = Budget(decision_seconds=think_seconds)  # the server's think time is the decision's budget
        self.agents: dict[int, Any] = {}
        self.agent_seeds = [seed * 1000 + s for s in range(n)]
        self.log: list[dict[str, Any]] = automa_entries(self.state, None)
        self.actions: list[int] = []
        self.forfeit: dict[str, Any] | None = None
        self.thinking = False
        self.closed = False
        self.stored_id: int | None = None
        self.store_error: str | None = None
        self.lock = threading.Lock()
        try:
            for s, spec in enumerate(self.specs):
                if s != seat:
                    self.agents[s] = self._make_bot(s, spec, imports)
        except BaseException:
            self.close()  # the bots already started
            raise

    def _make_bot(self, s: int, spec: str, imports: tuple[str, ...]) -> Any:
        """The bot of seat ``s``: in a process of its own (``isolation="process"``) or here; 400 if it cannot be
        made."""
        if self.isolation == "none":
            try:
                return make_agent(spec, self.game, seed=self.agent_seeds[s])
            except Exception as exc:
                raise RequestError(400, f"bot {spec!r} for seat {s}: {exc}".splitlines()[0]) from exc
        from ..agents.isolation import IsolatedAgent

        try:
            return IsolatedAgent(
                spec,
                self.game,
                seed=self.agent_seeds[s],
                seat=s,
                engine_config=self.config,
                budget=self.budget,
                imports=imports,
                decision_index=self.actions.__len__,
            )
        except Forfeit as exc:
            raise RequestError(400, f"bot {spec!r} for seat {s}: {exc.fault.detail}".splitlines()[0]) from None

    def close(self) -> None:
        """End the bots' processes (the game is over, the session expired or the server stops); idempotent. A bot
        thinking now is killed: its thread then stops without a verdict."""
        self.closed = True
        for agent in list(self.agents.values()):
            close = getattr(agent, "close", None)
            if self.isolation != "none" and callable(close):
                close()

    def bot_pids(self) -> list[int]:
        """The process ids of the bots running in processes of their own (none after :meth:`close`)."""
        return [a.process.pid for a in self.agents.values() if hasattr(a, "process") and a.process.is_alive()]

    @property
    def over(self) -> bool:
        return self.forfeit is not None or self.state.is_terminal()

    def ranks(self) -> list[int]:
        """The final ranks: the game's own, or after a forfeit the faulty seat last and the others first."""
        if self.forfeit is None:
            return [int(r) for r in self.state.ranks()]
        return [len(self.specs) - 1 if s == self.forfeit["seat"] else 0 for s in range(len(self.specs))]

    def _apply(self, action: int) -> None:
        """Apply and log ``action``: named as the human seat may read it (``State.public_action_name``); another
        seat's action id is not kept in the log, it may tell what the name leaves out."""
        st = self.state
        s = st.current_player()
        before = st.clone()
        mine = s == self.seat
        name = st.public_action_name(action, self.seat)
        self.log.append({"seat": s, "pending": st.pending(), "action": action if mine else None, "name": name})
        self.actions.append(action)
        st.apply(action)
        self.log += automa_entries(st, before)

    def _check_token(self, token: Any) -> None:
        """403 unless ``token`` is this game's (compared in constant time)."""
        if not isinstance(token, str) or not secrets.compare_digest(token.encode(), self.token.encode()):
            raise RequestError(403, "this token does not hold a seat in this game")

    def act(self, token: Any, action: Any) -> None:
        """The human's move: checked (token, turn, legality) before anything changes."""
        self._check_token(token)
        if not isinstance(action, int) or isinstance(action, bool):
            raise RequestError(400, f"action must be an integer, got {action!r}")
        with self.lock:
            if self.over:
                raise RequestError(409, "the game is over")
            if self.thinking or self.state.current_player() != self.seat:
                raise RequestError(409, f"not your turn: seat {self.state.current_player()} is to act")
            if not 0 <= action < self.state.game.num_actions or not self.state.is_legal(action):
                raise RequestError(409, f"illegal action {action} for {self.state.pending()!r}")
            self._apply(action)
            self.thinking = not self.over
        self.start_bots()

    def start_bots(self) -> None:
        """Let the bots move (in a thread) until the human's turn or the end."""
        with self.lock:
            idle = self.over or self.state.current_player() == self.seat
            self.thinking = not idle
        if idle:
            self.finish()
            return
        threading.Thread(target=self.run_bots, daemon=True).start()

    def run_bots(self) -> None:
        """Bots think outside the lock (on their own view, a copy), so the page stays answered meanwhile."""
        while True:
            with self.lock:
                if self.closed or self.over or self.state.current_player() == self.seat:
                    break
                s = self.state.current_player()
                agent = self.agents[s]
                try:
                    view = view_of_state(self.state, s, determinize=getattr(agent, "uses_determinize", True))
                except Exception as exc:
                    self.forfeit = self._fault(s, RAISED, f"{type(exc).__name__}: {exc}")
                    break
            action, reason, detail = self._decide(agent, view)
            with self.lock:
                if self.closed:  # closed while it thought: no verdict, nothing stored
                    break
                if action is not None and not (
                    0 <= action < self.state.game.num_actions and self.state.is_legal(action)
                ):
                    action, reason, detail = None, ILLEGAL, f"illegal action {action} for {self.state.pending()!r}"
                if action is None:
                    self.forfeit = self._fault(s, reason, detail)
                    break
                self._apply(action)
                self.last_active = time.monotonic()
        try:
            self.finish()
        finally:
            self.thinking = False  # only now: a finished game is stored before the page sees it over
            self.last_active = time.monotonic()

    def _fault(self, seat: int, reason: str, detail: str) -> dict[str, Any]:
        """A forfeit as the arena stores one (``arena show`` and the ratings read its ``reason`` and ``detail``)."""
        return Fault(seat, reason, detail, len(self.actions)).to_dict()

    def _decide(self, agent: Any, view: SeatView) -> tuple[int | None, str, str]:
        """The bot's action id, or None and why it forfeits (an arena fault reason and the detail)."""
        if self.isolation == "none":
            return self._decide_here(agent, view)
        try:
            return agent.act(view), "", ""
        except Forfeit as exc:  # its process is killed already
            return None, exc.fault.reason, exc.fault.detail
        except Exception as exc:  # its process was closed under it (the session is closing)
            return None, CRASHED, f"{type(exc).__name__}: {exc}"

    def _decide_here(self, agent: Any, view: SeatView) -> tuple[int | None, str, str]:
        """An in-process bot's action id, or None and why it forfeits: it raised, thought too long, or answered no
        int."""
        view.__class__ = TimedView  # the same object and slots; its determinize now watches the deadline
        start = time.monotonic()
        _move.deadline = start + self.think_seconds
        try:
            answer = agent.act(view)
        except ThinkTimeout:
            return None, TIMEOUT, f"thought over {self.think_seconds:g} s on one decision (this server's limit)"
        except BaseException as exc:  # SystemExit too: else it ends the bot thread and the game thinks forever
            return None, RAISED, f"{type(exc).__name__}: {exc}"
        finally:
            _move.deadline = float("inf")
        spent = time.monotonic() - start
        if spent > self.think_seconds:
            detail = f"took {spent:.1f} s on one decision, over this server's limit of {self.think_seconds:g} s"
            return None, TIMEOUT, detail
        try:
            return action_id(answer, "bot"), "", ""
        except ActionTypeError:
            return None, ILLEGAL, f"answered {answer!r:.60}, not an action id"

    def finish(self) -> None:
        """Store the finished game in the arena database (once). A store that fails (the server checked the
        database at start, so this is a disk gone bad) is logged and told on the page; it raises nothing."""
        if not self.over:
            return
        self.close()  # the bots are done
        if self.stored_id is not None or self.store_error is not None or self.store_path is None:
            return
        try:
            self._store(self.store_path)
        except Exception as exc:
            self.store_error = f"the game could not be stored: {type(exc).__name__}: {exc}".splitlines()[0]
            log.error("game %s (%s): %s", self.id, self.key, self.store_error)

    def _store(self, store: Any) -> None:
        from ..arena.store import Store

        n = len(self.specs)
        task = SimpleNamespace(
            key=self.key,
            game=self.game,
            config=self.config,
            seed=self.seed,
            deal=0,
            seats=self.specs,
            agent_seeds=self.agent_seeds,
            time_limit=self.think_seconds,
        )
        result = {
            "scores": [float(x) for x in self.state.scores()],
            "ranks": self.ranks(),
            "decisions": len(self.actions),
            "truncated": False,
            "forfeit": self.forfeit,
            "duration": 0.0,
            "seat_time": [self._seat_time(s) for s in range(n)],
            "actions": self.actions,
            "isolation": self.isolation,
            "budget": self.budget.to_dict() if self.isolation != "none" else {"decision_seconds": self.think_seconds},
        }
        with Store(store) as db:
            if not db.add(task, result, "web"):
                raise RuntimeError(f"the arena database already holds a game {task.key!r}")
            self.stored_id = db.con.execute("SELECT id FROM games WHERE key = ?", (task.key,)).fetchone()[0]

    def _seat_time(self, seat: int) -> list[float]:
        """What a seat's bot spent, as the arena stores it: wall seconds (total, longest), decisions, CPU seconds
        (an isolated bot's; zeros for the human and an in-process bot)."""
        usage = getattr(self.agents.get(seat), "usage", None)
        return [0.0, 0.0, 0, 0.0] if usage is None else [usage.total, usage.longest, usage.decisions, usage.cpu]

    def view(self, token: Any) -> dict[str, Any]:
        """What the human seat may see: its table, its legal actions, the log (others' choices as public names)."""
        self._check_token(token)
        with self.lock:
            st = self.state
            mine = not self.over and not self.thinking and st.current_player() == self.seat
            # one button per distinct move: identical cards are one, same-named moves that differ are numbered
            legal = [{"id": a, "name": name} for a, name in distinct_moves(st)] if mine else []
            log = list(self.log)
            result = None
            if self.over:
                result = {
                    "scores": [float(x) for x in st.scores()],
                    "ranks": self.ranks(),
                    "forfeit": self.forfeit,
                    "stored_id": self.stored_id,
                    "store_error": self.store_error,
                    "seed": self.seed,  # the game is over: what it hid may be told
                    "agent_seeds": self.agent_seeds,
                }
            return {
                "id": self.id,
                "game": self.game,
                "config": self.config,
                "seat": self.seat,
                "seats": self.specs,
                "table": table_of(st, self.seat),
                "your_turn": mine,
                "thinking": self.thinking,
                "legal": legal,
                "log": log,
                "over": self.over,
                "fixed_seed": self.fixed_seed,
                "result": result,
            }
