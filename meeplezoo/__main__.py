"""``python -m meeplezoo ARGS`` runs the ``meeplezoo`` command (notebooks use it: it needs no script on PATH)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
