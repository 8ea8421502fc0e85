"""The ``meeplezoo serve`` command (wired into :mod:`meeplezoo.cli` by its ``add_parser`` and ``run``).

::

    meeplezoo serve                                        # http://127.0.0.1:8765/ on this machine only
    meeplezoo serve --db results.sqlite                    # store web games there; Watch its arena games
    meeplezoo serve --allow-agent ppo:runs/x/final.zip     # also seat a policy trained here (a policy is code)
    meeplezoo serve --import mybots --allow-agent mybot    # seat a bot a module registers (in its own process)

Everything is checked before the banner: the ``--allow-agent`` specs, the database (an arena database this
process can write, or a new one it can create) and the port (bound here, then handed to uvicorn). A problem
is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import re
import socket
from typing import Any

from .. import options
from ..agents.registry import import_agent_modules
from ..agents.run_options import ISOLATION_MODES, add_import_option
from ..envs.core.errors import MeepleZooError


class ServeError(MeepleZooError):
    """``meeplezoo serve`` cannot start: one line naming why."""


#: a host name, an IPv4 address or a bracketed IPv6 one, as a ``Host`` header names it
HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9._-]*[a-z0-9])?|\[[0-9a-f:.]+\]")


def allow_host(text: str) -> str:
    """``--allow-host``'s argparse ``type``: ``NAME`` or ``NAME:PORT`` (port 1..65535), nothing else."""
    from .security import split_host

    name, port = split_host(text, None)
    if not HOST_NAME.fullmatch(name) or (port is not None and not (port.isdecimal() and 0 < int(port) < 65536)):
        raise argparse.ArgumentTypeError(f"takes a host NAME or NAME:PORT (port 1..65535), not {text!r}")
    return text


def add_parser(sub: Any, game_help: str = "") -> argparse.ArgumentParser:
    """The ``serve`` sub-command's parser, on ``sub`` (the CLI's sub-parsers)."""
    sv = sub.add_parser("serve", help="play and watch games in the browser", description=cmd_serve.__doc__)
    sv.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    sv.add_argument("--port", type=options.bounded_int("--port", 1, 65535), default=8765)
    sv.add_argument(
        "--db", default="meeplezoo_web.sqlite", help="arena database: finished games go there, Watch reads it"
    )
    sv.add_argument(
        "--allow-agent",
        action="append",
        default=[],
        metavar="SPEC",
        help="also let web games seat this bot, exactly as written (repeatable): a policy file "
        "(ppo:runs/x/final.zip), a plugin agent, bigger budgets (mcts:iters=10000). A policy file is code: an SB3 "
        ".zip holds pickles that run when it loads, so allow only files you trained or trust. Without this option "
        "the server seats random, heuristic, valued, the shipped ppo policies and mcts with bounded budgets",
    )
    sv.add_argument(
        "--allow-host",
        action="append",
        type=allow_host,
        default=[],
        metavar="NAME[:PORT]",
        help="also answer requests addressed to this host name (repeatable; NAME alone: any port), e.g. the "
        "machine's name with --host 0.0.0.0; by default only the bound address and localhost",
    )
    sv.add_argument(
        "--think-seconds",
        type=options.bounded_float("--think-seconds", 0.0, 3600.0),
        default=30.0,
        metavar="S",
        help="a bot's time per decision; a bot over it forfeits (default 30)",
    )
    sv.add_argument(
        "--isolation",
        choices=ISOLATION_MODES,
        default="process",
        help="process (default): each bot of a game in its own OS process for the game's life, killed past its "
        "think time; none: in the server's process (trusted bots only)",
    )
    add_import_option(sv, "seat them with --allow-agent")
    sv.set_defaults(func=cmd_serve)
    return sv


add_serve_parser = add_parser


def check_agent_spec(spec: str) -> None:
    """Raise :class:`ServeError` unless ``spec`` names an agent registered for some game with parameters it
    takes (nothing is loaded: a policy file is read when a game seats it)."""
    from .. import games
    from ..agents.registry import agent_params, available_agents
    from ..agents.spec import AgentSpecError, bind_params, parse_spec

    try:
        name, raw = parse_spec(spec)
        where = [g for g in games.game_names() if name in available_agents(g)]
        if not where:
            raise ServeError(f"--allow-agent {spec!r}: no game has an agent {name!r}")
        bind_params(name, agent_params(name, where[0]), raw)
    except AgentSpecError as exc:
        raise ServeError(f"--allow-agent {spec!r}: {exc}") from None


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening; :class:`ServeError` if the address is taken or unknown."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a restart need not wait
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
    """Start the local web app: the Play page (a game against the server's bots) and the Watch page (stored
    games). It answers only requests addressed to it (its own Host and Origin), JSON bodies up to 1 MB, and
    seats only bots from its own list (see --allow-agent); docs/security.md says what it trusts."""
    try:
        import uvicorn

        from .app import create_app
        from .security import own_hosts
    except ImportError as exc:
        raise ServeError(f"serve needs the web extra: pip install 'meeplezoo[web]' ({exc})") from exc
    import_agent_modules(args.imports)
    for spec in args.allow_agent:
        check_agent_spec(spec)
    hosts = own_hosts(args.host, args.port, args.allow_host)
    app = create_app(
        args.db,
        hosts=hosts,
        allow_agents=args.allow_agent,
        think_seconds=args.think_seconds,
        isolation=args.isolation,
        imports=args.imports,
    )
    sock = listen(args.host, args.port)
    try:
        print(f"MeepleZoo at http://{hosts[0]}/  (games stored in {args.db})", flush=True)
        if args.host.lower() not in ("127.0.0.1", "localhost", "::1"):
            print(f"It answers requests addressed to {', '.join(hosts)}: --allow-host NAME adds a name", flush=True)
        # log_config=None: uvicorn leaves the process's logging alone (its dictConfig would shut down every
        # handler already installed, those of a program that runs this command in-process too)
        uvicorn.Server(uvicorn.Config(app, log_level="warning", log_config=None)).run(sockets=[sock])
    finally:
        sock.close()
    return 0


#: the command, as every command module names it (:mod:`meeplezoo.commands`)
run = cmd_serve
