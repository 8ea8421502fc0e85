"""Run the notebooks and time them, or strip their outputs before a commit.

::

    python scripts/notebooks.py run                 # every notebook in CI mode (CI=1): wall and CPU seconds
    python scripts/notebooks.py run --full 02       # full mode (CI unset), notebooks whose name holds "02"
    python scripts/notebooks.py run --save out/     # also keep the executed copies (with outputs) in out/
    python scripts/notebooks.py strip               # clear outputs and execution counts in notebooks/*.ipynb
    python scripts/notebooks.py strip --check       # exit 1 if a notebook holds outputs (what CI could check)

Each notebook runs in a fresh kernel with a temporary working folder. CPU seconds are user + system time of
the kernel and every process it started and waited for (training workers, arena workers, subprocesses),
read from ``getrusage(RUSAGE_CHILDREN)``: on a machine shared with other jobs they are the figure to
compare; wall seconds depend on the load.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def notebooks(names: list[str]) -> list[Path]:
    paths = sorted(NOTEBOOKS.glob("*.ipynb"))
    return [p for p in paths if not names or any(n in p.name for n in names)]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def execute(path: Path, full: bool, timeout: int = 900) -> tuple[nbformat.NotebookNode, float, float]:
    """Execute ``path`` in a fresh kernel: (the executed notebook, wall seconds, CPU seconds)."""
    from nbclient import NotebookClient

    env = dict(os.environ)
    if full:
        env.pop("CI", None)
    else:
        env["CI"] = "1"
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as work:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": work}})
        cpu, wall = _children_cpu(), time.perf_counter()
        client.execute(env=env)
        return nb, time.perf_counter() - wall, _children_cpu() - cpu


def strip(nb: nbformat.NotebookNode) -> bool:
    """Clear outputs and execution counts in place; whether anything changed."""
    changed = False
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if cell.get("outputs") or cell.get("execution_count") is not None:
            changed = True
        cell.outputs, cell.execution_count = [], None
        for key in ("execution", "collapsed", "scrolled"):
            changed |= cell.metadata.pop(key, None) is not None
    return changed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="execute notebooks and print their wall and CPU seconds")
    r.add_argument("names", nargs="*", help="parts of notebook names (default: every notebook)")
    r.add_argument("--full", action="store_true", help="full mode: CI unset (default: CI=1)")
    r.add_argument("--save", metavar="DIR", help="write the executed notebooks (with outputs) to DIR")
    s = sub.add_parser("strip", help="clear the outputs of notebooks/*.ipynb")
    s.add_argument("--check", action="store_true", help="change nothing; exit 1 if a notebook has outputs")
    args = p.parse_args(argv)

    if args.command == "strip":
        dirty = []
        for path in notebooks([]):
            nb = nbformat.read(path, as_version=4)
            if strip(nb):
                dirty.append(path.name)
                if not args.check:
                    nbformat.write(nb, path)
        verb = "hold outputs" if args.check else "stripped"
        print(f"{verb}: {', '.join(dirty)}" if dirty else "no outputs in any notebook")
        return 1 if args.check and dirty else 0

    mode = "full" if args.full else "CI"
    for path in notebooks(args.names):
        nb, wall, cpu = execute(path, args.full)
        print(f"{path.name}: {mode} mode, {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
        if args.save:
            out = Path(args.save)
            out.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, out / path.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
