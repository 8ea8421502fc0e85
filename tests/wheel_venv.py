"""A test venv with MeepleZoo installed from its built wheel (not the source tree), and the plugin fixture.

Built once per test session (shared by pytest-xdist workers through a file lock): the project and
``tests/plugins/nim`` are copied to a temporary folder (so no build files land in the checkout), built
into wheels with the running interpreter's setuptools (``--no-build-isolation``: offline), and installed
with ``--no-deps`` into a venv made with ``--system-site-packages``. The dependencies (numpy, gymnasium,
pettingzoo, rich) come from the running environment: its site-packages folder is added to the test venv
by a ``.pth`` path line, which does not run the editable install's import hook, so ``import meeplezoo``
in the test venv finds the installed wheel only.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "tests" / "plugins" / "nim"


def _sources() -> tuple[str, ...]:
    """What the wheel is built from: the metadata files and every folder of ``[tool.setuptools] package-dir``
    (read from pyproject.toml, so a new top-level package needs no edit here)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python 3.10: the one-line inline table's values
        line = next(x for x in text.splitlines() if x.startswith("package-dir"))
        folders = re.findall(r'=\s*"([^"]+)"', line.split("=", 1)[1])
    else:
        folders = list(tomllib.loads(text)["tool"]["setuptools"]["package-dir"].values())
    return ("pyproject.toml", "README.md", *dict.fromkeys(folders))


SOURCES = _sources()


@dataclass(frozen=True)
class InstalledVenv:
    root: Path
    python: Path
    meeplezoo: Path  # the console script
    site: Path

    def run(self, *argv: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.meeplezoo), *argv], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )

    def python_c(self, code: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.python), "-c", code], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )


def _check(cmd: list[str], cwd: Path) -> None:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def _wheel(source: Path, work: Path, out: Path) -> Path:
    # offline with the running setuptools; a venv without setuptools (Python 3.12+) builds in isolation
    offline = ["--no-build-isolation", "--no-index"] if importlib.util.find_spec("setuptools") else []
    _check([sys.executable, "-m", "pip", "wheel", "--no-deps", *offline, "-q", "-w", str(out), str(source)], cwd=work)
    return out


def build(base: Path) -> InstalledVenv:
    """Build both wheels and the venv under ``base`` (made afresh)."""
    shutil.rmtree(base, ignore_errors=True)  # what a failed build of another worker left
    src = base / "src"
    src.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        else:
            shutil.copy2(path, src / name)
    shutil.copytree(PLUGIN, base / "plugin", ignore=ignore)
    wheels = base / "wheels"
    _wheel(src, base, wheels)
    _wheel(base / "plugin", base, wheels)

    root = base / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(root)
    bindir = "Scripts" if sys.platform == "win32" else "bin"
    python = root / bindir / ("python.exe" if sys.platform == "win32" else "python")
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    here = sysconfig.get_paths()["purelib"]
    (site / "_meeplezoo_test_deps.pth").write_text(here + "\n", encoding="utf-8")
    _check(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "-q",
         *map(str, sorted(wheels.glob("*.whl")))],
        cwd=base,
    )  # fmt: skip
    return InstalledVenv(root, python, root / bindir / "meeplezoo", site)
