"""Shared fixtures: :func:`installed_venv`, MeepleZoo and the plugin fixture installed from wheels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from filelock import FileLock
from wheel_venv import InstalledVenv, build


@pytest.fixture(scope="session")
def installed_venv(tmp_path_factory, worker_id) -> InstalledVenv:
    """One test venv per session, shared by every pytest-xdist worker (built by the first to ask)."""
    if worker_id == "master":  # not under xdist
        return build(tmp_path_factory.mktemp("installed"))
    shared = tmp_path_factory.getbasetemp().parent  # the same folder for every worker of this session
    with FileLock(str(shared / "installed.lock")):
        marker = shared / "installed.json"
        if marker.is_file():
            return InstalledVenv(**{k: Path(v) for k, v in json.loads(marker.read_text()).items()})
        venv = build(shared / "installed")
        marker.write_text(json.dumps({k: str(v) for k, v in vars(venv).items()}))
        return venv
