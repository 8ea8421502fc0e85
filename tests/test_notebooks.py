"""The notebooks run from top to bottom in a fresh kernel, in CI mode, and are committed without bulky outputs.

Each notebook has one config cell that shrinks its budgets when the environment variable ``CI`` is set; the
kernels here run with ``CI=1`` (``MEEPLEZOO_NOTEBOOKS=full`` runs them in full mode instead, minutes each).
``python scripts/notebooks.py run [--full]`` times them; ``python scripts/notebooks.py strip`` clears outputs.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
#: committed notebooks stay small: outputs of a few hundred KB at most (ours are committed without any)
MAX_BYTES = 300_000


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_executes(path, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    if os.environ.get("MEEPLEZOO_NOTEBOOKS") == "full":
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", "1")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError naming the failing cell
    outputs = [o for c in notebook.cells for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "Traceback" not in text
    if os.environ.get("MEEPLEZOO_NOTEBOOKS") != "full":
        assert "CI mode" in text  # the config cell saw CI=1
    assert not list(tmp_path.iterdir())  # runs and databases go to temporary folders, not the working folder


def test_the_three_notebooks_are_there():
    assert [p.name for p in NOTEBOOKS] == ["01_quickstart.ipynb", "02_train.ipynb", "03_tournament.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_committed_small_with_a_ci_switch(path):
    assert path.stat().st_size < MAX_BYTES
    doc = json.loads(path.read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in doc["cells"] if c["cell_type"] == "code"]
    switch = [i for i, src in enumerate(code) if re.search(r"^CI = bool\(os\.environ\.get\(\"CI\"\)\)", src, re.M)]
    assert switch and switch[0] <= 1, "one config cell near the top reads the CI variable"
    assert doc["cells"][0]["cell_type"] == "markdown"  # each notebook opens by saying what it shows
