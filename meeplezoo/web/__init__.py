"""``meeplezoo serve``: play any game against any bot in the browser, and watch stored arena games."""

from .app import create_app

__all__ = ["create_app"]
