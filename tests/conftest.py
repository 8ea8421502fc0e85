"""Shared by every test folder: pytest puts the folder of a root ``conftest.py`` on ``sys.path`` (its default
``prepend`` import mode), so the helper modules beside it (``played_games``) import by name from any test."""
