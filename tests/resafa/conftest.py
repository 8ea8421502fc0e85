"""Make the conformance helpers (``save_mutations``) importable whatever pytest's import mode."""

import sys
from pathlib import Path

CONFORMANCE = str(Path(__file__).parents[1] / "conformance")
if CONFORMANCE not in sys.path:
    sys.path.insert(0, CONFORMANCE)
