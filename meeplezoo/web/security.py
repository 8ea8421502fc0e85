"""The checks every request to ``meeplezoo serve`` passes before any route sees it, and the JSON body reader.

A web page the user visits elsewhere can send requests to a server on this machine: a form post to
``http://127.0.0.1:8765/api/play`` (CSRF), or a script on a name it controls that it re-points at 127.0.0.1
(DNS rebinding). :class:`RequestChecks` refuses, with a one-line JSON error:

- a ``Host`` that is not one of the server's own names (403): a rebinding page still sends its own name;
- an ``Origin``, when the browser sends one, that is not the server's own (403): a foreign page's request;
- a request body that is not ``application/json`` (415): a form or a ``text/plain`` post needs no CORS
  preflight, a JSON one does, and this server answers no preflight;
- a body over :data:`MAX_BODY` bytes (413), read as sent, whatever ``Content-Length`` claims.

:func:`read_json_object` refuses a body nested deeper than :data:`MAX_DEPTH` (400).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the largest request body accepted: an export of a long game is ~100 kB
MAX_BODY = 1 << 20
#: the deepest nesting of arrays and objects in a request body (an export nests 3 deep)
MAX_DEPTH = 32
#: the names of this machine's loopback interface, as a browser writes them in ``Host``
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
#: methods whose body the checks read (the routes take GET and POST only; others get a 405 from them)
_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


class RequestError(Exception):
    """A bad request: ``status`` and a one-line reason; nothing was changed."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def own_hosts(host: str, port: int, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The ``Host`` values a server bound to ``host:port`` answers to: that address and the loopback names
    with that port, and ``extra`` (``NAME`` for any port, or ``NAME:PORT``).

    >>> own_hosts("127.0.0.1", 8765)
    ('127.0.0.1:8765', 'localhost:8765', '[::1]:8765')
    """
    bound = f"[{host}]" if ":" in host and not host.startswith("[") else host
    names = dict.fromkeys(f"{name}:{port}" for name in (bound.lower(), *LOOPBACK))
    return tuple(names) + tuple(x.strip().lower() for x in extra)


def split_host(value: str, default_port: str | None) -> tuple[str, str | None]:
    """``"name:port"`` (or ``"[v6]:port"``) as (name, port); ``default_port`` when it has none."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value.partition("]")
        name += "]"
        port = rest[1:] if rest.startswith(":") else None
    else:
        name, sep, port = value.rpartition(":")
        if not sep:
            name, port = port, None
    return name, port or default_port


class HostSet:
    """Host names with a port (``name:port``) or with any port (``name``); None: the loopback names."""

    def __init__(self, hosts: Iterable[str] | None) -> None:
        self.entries = {split_host(h, None) for h in (LOOPBACK if hosts is None else hosts)}

    def __contains__(self, pair: tuple[str, str | None]) -> bool:
        name, port = pair
        return (name, port) in self.entries or (name, None) in self.entries

    def host_ok(self, host: str) -> bool:
        return bool(host) and split_host(host, "80") in self

    def origin_ok(self, origin: str) -> bool:
        try:
            url = urlsplit(origin)
        except ValueError:
            return False
        default = {"http": "80", "https": "443"}.get(url.scheme)
        return default is not None and bool(url.netloc) and split_host(url.netloc, default) in self


class RequestChecks:
    """ASGI middleware: the checks of the module docstring on every HTTP request, before any route."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] | None = None, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.hosts = HostSet(hosts)
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # lifespan
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host, origin = headers.get("host", ""), headers.get("origin")
        if not self.hosts.host_ok(host):
            return await _refuse(scope, receive, send, 403, f"this server does not answer to host {host[:80]!r}")
        if origin is not None and not self.hosts.origin_ok(origin):
            return await _refuse(scope, receive, send, 403, f"requests from {origin[:80]!r} are refused")
        if scope["type"] != "http" or scope["method"] not in _WITH_BODY:
            await self.app(scope, receive, send)
            return
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media != "application/json":
            return await _refuse(scope, receive, send, 415, "send the request body as application/json")
        length = headers.get("content-length")
        if length is not None and not (length.isascii() and length.isdigit()):
            return await _refuse(scope, receive, send, 400, "a bad Content-Length")
        if length is not None and int(length) > self.max_body:
            return await _refuse(scope, receive, send, 413, f"the request body is over {self.max_body} bytes")
        chunks, size = [], 0
        while True:  # read as sent: a body may come in chunks, or be longer than its Content-Length said
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return await _refuse(scope, receive, send, 413, f"the request body is over {self.max_body} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body, given = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal given
            if given:
                return await receive()
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, reason: str) -> None:
    if scope["type"] == "websocket":  # no route takes one; close it before it opens
        await send({"type": "websocket.close", "code": 1008})
        return
    await JSONResponse({"error": reason}, status_code=status)(scope, receive, send)


def nesting_depth(value: Any, limit: int) -> int:
    """How deep arrays and objects nest in ``value`` (a scalar: 0), counted up to just past ``limit``."""
    deepest, stack = 0, [(value, 1)]
    while stack and deepest <= limit:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def read_json_object(raw: bytes) -> dict[str, Any]:
    """A request body as a JSON object; :class:`RequestError` (400) if it is no JSON, no object, or nested
    deeper than :data:`MAX_DEPTH`."""
    try:
        body = json.loads(raw)
    except RecursionError:  # nested deeper than the parser's own recursion limit
        raise RequestError(400, f"the request body nests deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(400, "the request body is not JSON") from exc
    if not isinstance(body, dict):
        raise RequestError(400, "the request body must be a JSON object")
    if nesting_depth(body, MAX_DEPTH) > MAX_DEPTH:
        raise RequestError(400, f"the request body nests deeper than {MAX_DEPTH} levels")
    return body
