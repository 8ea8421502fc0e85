"""``meeplezoo serve``: play any game against the server's bots in the browser, and watch stored arena games.

``create_app`` is imported when first asked for: the ``serve`` command's parser (:mod:`.command`) loads without
the web extra (starlette, uvicorn).
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
