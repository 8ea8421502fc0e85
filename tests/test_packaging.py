"""How MeepleZoo is installed: one top-level package ``meeplezoo``, envs registered with PettingZoo.

The import checks run in a fresh interpreter in an empty folder, so the repository root (which holds
folders named ``envs``, ``agents``, ``training``) is not on ``sys.path``: they see what is installed.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import textwrap

import pytest


def run_python(code: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_pettingzoo_make_finds_the_registered_envs(tmp_path):
    done = run_python(
        """
        import meeplezoo, pettingzoo
        for env_id in meeplezoo.ENV_IDS:
            env = pettingzoo.make("aec", env_id)
            env.reset(seed=0)
            assert env.agent_selection in env.possible_agents, env_id
        print("ok", len(meeplezoo.ENV_IDS))
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")


@pytest.mark.parametrize("bare", ["envs", "agents", "training", "arena"])
def test_nothing_is_installed_as_a_bare_top_level_package(tmp_path, bare):
    done = run_python(
        f"""
        import importlib.util, sys
        sys.exit(0 if importlib.util.find_spec({bare!r}) is None else 1)
        """,
        tmp_path,
    )
    assert done.returncode == 0, f"'import {bare}' works outside the repository: it is installed as a bare package"


def test_subpackages_live_under_meeplezoo(tmp_path):
    done = run_python(
        """
        import pettingzoo.utils
        from meeplezoo.envs import seastead_v0
        import meeplezoo.agents, meeplezoo.training
        assert callable(seastead_v0.env) and callable(seastead_v0.raw_env)
        env = seastead_v0.env()
        assert isinstance(env, pettingzoo.AECEnv)
        raw = seastead_v0.raw_env()
        assert isinstance(raw, pettingzoo.AECEnv)
        print(meeplezoo.agents.__file__)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr


def test_the_meeplezoo_command_is_declared():
    scripts = {e.name: e.value for e in importlib.metadata.entry_points(group="console_scripts")}
    assert scripts.get("meeplezoo") == "meeplezoo.cli:main"


def test_package_data_is_installed(tmp_path):
    done = run_python(
        """
        from importlib.resources import files
        data = files("meeplezoo.envs.seastead") / "data" / "seastead.json"
        assert data.is_file(), data
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr


def test_every_package_folder_is_listed_for_the_wheel():
    """An engine folder missing from pyproject's packages (or its data from package-data) works in an
    editable install but not in a built wheel: catch it here."""
    tomllib = pytest.importorskip("tomllib")
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    data = config.get("package-data", {})
    for top, name in config["package-dir"].items():
        for init in (root / name).rglob("__init__.py"):
            rel = init.parent.relative_to(root / name)
            package = ".".join([top, *rel.parts])
            assert package in listed, f"{package} ({init.parent}) is not in [tool.setuptools] packages"
            files = [p for p in init.parent.glob("data/*") if p.is_file()]
            if files:
                assert package in data, f"{package} has data files but no [tool.setuptools.package-data] entry"
            for shipped in ("rules.md", "view.js"):  # the rules page; the browser's table view
                if (init.parent / shipped).is_file():
                    assert shipped in data.get(package, []), f"{package}/{shipped} is not in its package-data"


def test_gymnasium_ids_are_registered_on_import_without_torch(tmp_path):
    done = run_python(
        """
        import sys
        import gymnasium, meeplezoo
        from meeplezoo.games import entries
        ids = [meeplezoo.single_agent_id(e.env_id) for e in entries()]
        assert ids and all(i in gymnasium.registry for i in ids), ids
        assert "torch" not in sys.modules, "import meeplezoo imported torch"
        for i in ids:
            env = gymnasium.make(i, opponent="random")
            obs, info = env.reset(seed=0)
            assert env.observation_space.contains(obs), i
            assert bool(env.unwrapped.action_masks().any()), i
        assert "torch" not in sys.modules, "making a single-agent env imported torch"
        print("ok", ids)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "meeplezoo/seastead-single-v0" in done.stdout and "meeplezoo/board_royale-single-v0" in done.stdout


def test_ci_runs_the_readmes_test_command_word_for_word():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    commands = [block.split("```", 1)[0].strip() for block in readme.split("```sh\n")[1:]]
    two = readme[readme.index("## Two commands") : readme.index("## From Python")]
    assert two.count("```sh") == 2, "the README's 'Two commands' section holds exactly two commands"
    ci = (root / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci in commands and "pytest" in ci and "-n auto" in ci and "--durations=" in ci
