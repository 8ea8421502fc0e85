"""Structural checks over the shipped source (issue 38): no import cycle inside a package, layers that import
downward, no function too long to hold in one head, no game named outside its own package.

The source is every ``.py`` file under the folders pyproject's ``package-dir`` installs (``meeplezoo/``,
``envs/``, ``agents/``, ``training/``, ``arena/``; not tests, docs, scripts or notebooks), read with :mod:`ast`
and never imported. Each check keeps its known offenders in an EXCEPTIONS table with the reason; an entry that
no longer matches anything fails the check too, so the tables only shrink.
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent

#: the longest function (``def`` line to its last line, nested functions counted on their own)
MAX_FUNCTION_LINES = 120

#: package -> the packages it must not import (its modules and subpackages included, imports inside functions too):
#: the engines know nothing of agents, agents nothing of the tools that run them
LAYERS: dict[str, tuple[str, ...]] = {
    "meeplezoo.envs": ("meeplezoo.agents", "meeplezoo.training", "meeplezoo.arena", "meeplezoo.web"),
    "meeplezoo.agents": ("meeplezoo.training", "meeplezoo.arena", "meeplezoo.web"),
    "meeplezoo.arena": ("meeplezoo.training", "meeplezoo.web"),
}

#: (importing module, imported module) -> why this edge of an import cycle inside a package is still there
CYCLE_EXCEPTIONS: dict[tuple[str, str], str] = {}

#: (importing module, imported module) -> why this import against LAYERS is still there
LAYER_EXCEPTIONS: dict[tuple[str, str], str] = {}

#: "path:qualified.name" -> why this function is longer than MAX_FUNCTION_LINES
LONG_FUNCTION_EXCEPTIONS: dict[str, str] = {}

#: source file -> why it still spells a built-in game's name outside that game's package
GAME_NAME_EXCEPTIONS: dict[str, str] = {}

#: module path -> why a module outside envs/<game>/ is still named after a game
GAME_MODULE_EXCEPTIONS: dict[str, str] = {}


# --- the source, its modules and their imports -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Module:
    """One source file: its dotted name (a package's ``__init__`` is named after the package), the package
    holding it and its path relative to the source root."""

    name: str
    package: str
    path: str


@dataclass(frozen=True, slots=True)
class Import:
    """One edge of the import graph: ``source`` imports ``target`` (dotted names) at ``path:line``."""

    source: str
    target: str
    path: str
    line: int
    function: str | None  # the enclosing function: the import runs at call time

    def where(self) -> str:
        place = f" (inside {self.function})" if self.function else ""
        return f"{self.path}:{self.line} {self.source} imports {self.target}{place}"


def _is_type_checking(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:``."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(
    nodes: list[ast.AST], function: str | None = None
) -> Iterator[tuple[ast.Import | ast.ImportFrom, str | None]]:
    """Every import statement under ``nodes`` with its enclosing function, skipping ``if TYPE_CHECKING:`` bodies."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, function
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _import_nodes(node.orelse, function)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _import_nodes(
                list(ast.iter_child_nodes(node)), f"{function}.{node.name}" if function else node.name
            )
        else:
            yield from _import_nodes(list(ast.iter_child_nodes(node)), function)


class Source:
    """The Python files under ``root``'s source folders, each folder installed as a dotted package."""

    def __init__(self, root: Path, folders: dict[str, str]) -> None:
        self.root = root
        self.folders = folders  # folder -> dotted package
        self._trees: dict[str, ast.Module] = {}

    def files(self) -> list[Path]:
        """Every ``.py`` file of the source folders, in packages or not."""
        return sorted(path for folder in self.folders for path in (self.root / folder).rglob("*.py"))

    def relative(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def tree(self, path: str) -> ast.Module:
        """The parsed file (each file parsed once)."""
        if path not in self._trees:
            self._trees[path] = ast.parse((self.root / path).read_text(encoding="utf-8"), filename=path)
        return self._trees[path]

    @cached_property
    def modules(self) -> dict[str, Module]:
        """Every module in a package (a folder with ``__init__.py``, its parents too), by dotted name."""
        found: dict[str, Module] = {}
        for folder, dotted in self.folders.items():
            base = self.root / folder
            for path in sorted(base.rglob("*.py")):
                parts = path.relative_to(base).parts
                if not all(base.joinpath(*parts[:i], "__init__.py").is_file() for i in range(len(parts))):
                    continue
                package = ".".join([dotted, *parts[:-1]])
                name = package if path.name == "__init__.py" else f"{package}.{path.stem}"
                found[name] = Module(name, package, self.relative(path))
        return found

    def _targets(self, module: Module, node: ast.Import | ast.ImportFrom) -> list[str]:
        """What an import statement loads: ``from P import x`` names submodule ``P.x`` when there is one, else
        ``P``; relative imports are resolved against the importing module's package."""
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        if node.level:
            parts = module.package.split(".")
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join([*parts, node.module] if node.module else parts)
        else:
            base = node.module or ""
        return [f"{base}.{a.name}" if f"{base}.{a.name}" in self.modules else base for a in node.names]

    @cached_property
    def imports(self) -> list[Import]:
        """Every import edge, module-level and inside functions (``if TYPE_CHECKING:`` blocks aside)."""
        out = []
        for module in self.modules.values():
            for node, function in _import_nodes(self.tree(module.path).body):
                for target in dict.fromkeys(self._targets(module, node)):
                    out.append(Import(module.name, target, module.path, node.lineno, function))
        return out

    def package_edges(self) -> dict[tuple[str, str], list[Import]]:
        """Imports between two modules of the same package (a subpackage's modules belong to the subpackage)."""
        edges: dict[tuple[str, str], list[Import]] = {}
        for edge in self.imports:
            target = self.modules.get(edge.target)
            if target and edge.target != edge.source and target.package == self.modules[edge.source].package:
                edges.setdefault((edge.source, edge.target), []).append(edge)
        return edges


@cache
def shipped() -> Source:
    """The repository's shipped source, its folders from pyproject's ``[tool.setuptools] package-dir``."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_dir = pyproject["tool"]["setuptools"]["package-dir"]
    folders = {folder: package for package, folder in package_dir.items() if "/" not in folder}
    assert set(folders) >= {"meeplezoo", "envs", "agents", "training", "arena", "benchmark", "openspiel"}, folders
    return Source(ROOT, folders)


# --- import cycles ------------------------------------------------------------------------------------------------


def strongly_connected(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each holds a cycle), by Tarjan's algorithm."""
    graph: dict[str, list[str]] = {}
    for a, b in sorted(edges):
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = stack[stack.index(node) :]
            del stack[stack.index(node) :]
            if len(component) > 1:
                components.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return sorted(components)


def shortest_cycle(component: list[str], edges: set[tuple[str, str]]) -> list[str]:
    """A shortest cycle through the component's first module, closed: ``[a, b, a]``."""
    start, members = component[0], set(component)
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(b for a, b in edges if a == node and b in members):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [*reversed(path), start]
                if nxt not in parent:
                    parent[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{start} is in no cycle")  # a strongly connected component always has one


def cycle_report(source: Source, excepted: dict[tuple[str, str], str]) -> list[str]:
    """One block per import cycle left once the excepted edges go: its members, a shortest cycle and every import
    between its members with file:line; then every excepted edge that is no longer part of a cycle."""
    edges = source.package_edges()
    everything = strongly_connected(set(edges))
    problems = []
    kept = set(edges) - set(excepted)
    for component in strongly_connected(kept):
        lines = [f"import cycle among {', '.join(component)}; e.g. {' -> '.join(shortest_cycle(component, kept))}"]
        for (a, b), found in sorted(edges.items()):
            if a in component and b in component and (a, b) in kept:
                lines += [f"    {edge.where()}" for edge in found]
        problems.append("\n".join(lines))
    for a, b in sorted(excepted):
        if not any(a in component and b in component for component in everything) or (a, b) not in edges:
            problems.append(f"CYCLE_EXCEPTIONS entry {(a, b)} is no longer an edge of a cycle: delete it")
    return problems


def test_no_import_cycle_inside_a_package():
    problems = cycle_report(shipped(), CYCLE_EXCEPTIONS)
    assert not problems, "\n".join(problems)


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_packages_import_only_downward():
    imports = shipped().imports
    problems = []
    for edge in imports:
        for package, forbidden in LAYERS.items():
            bad = [f for f in forbidden if _under(edge.source, package) and _under(edge.target, f)]
            if bad and (edge.source, edge.target) not in LAYER_EXCEPTIONS:
                problems.append(f"{edge.where()}: {package} must not import {bad[0]}")
    found = {(edge.source, edge.target) for edge in imports}
    problems += [
        f"LAYER_EXCEPTIONS entry {key} no longer imports: delete it" for key in LAYER_EXCEPTIONS if key not in found
    ]
    assert not problems, "\n".join(problems)


def test_the_graph_builder_sees_function_imports_and_skips_type_checking(tmp_path):
    """The builder on a made-up package: ``a`` and ``b`` import each other (``b`` inside a function), ``c`` imports
    ``a`` only for type checking, ``a`` imports subpackage ``sub`` whose ``__init__`` imports ``a`` back (another
    package, so no cycle of ``pkg``)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "from . import b, c\nfrom .sub import thing\n",
        "pkg/b.py": "def late():\n    from .a import x\n",
        "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\nelse:\n    import os\n",
        "pkg/sub/__init__.py": "from ..a import x\nthing = 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    source = Source(tmp_path, {"pkg": "top.pkg"})
    assert set(source.package_edges()) == {
        ("top.pkg.a", "top.pkg.b"),
        ("top.pkg.a", "top.pkg.c"),
        ("top.pkg.b", "top.pkg.a"),
    }
    report = cycle_report(source, {})
    assert len(report) == 1 and "top.pkg.a -> top.pkg.b -> top.pkg.a" in report[0], report
    assert "pkg/b.py:2 top.pkg.b imports top.pkg.a (inside late)" in report[0], report
    assert cycle_report(source, {("top.pkg.b", "top.pkg.a"): "test"}) == []
    assert "no longer" in cycle_report(source, {("top.pkg.a", "top.pkg.c"): "test"})[-1]


# --- long functions -----------------------------------------------------------------------------------------------


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method with its qualified name (``Class.method``, ``outer.inner``), nested ones too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}.{node.name}" if prefix else node.name
            if not isinstance(node, ast.ClassDef):
                yield name, node
            yield from functions(node, name)
        else:
            yield from functions(node, prefix)


def test_no_function_is_too_long():
    source = shipped()
    problems, seen = [], set()
    for path in source.files():
        rel = source.relative(path)
        for name, node in functions(source.tree(rel)):
            length = node.end_lineno - node.lineno + 1
            key = f"{rel}:{name}"
            if length > MAX_FUNCTION_LINES:
                seen.add(key)
                if key not in LONG_FUNCTION_EXCEPTIONS:
                    problems.append(f"{rel}:{node.lineno} {name} is {length} lines (at most {MAX_FUNCTION_LINES})")
    problems += [
        f"LONG_FUNCTION_EXCEPTIONS entry {key} is no longer too long: delete it"
        for key in LONG_FUNCTION_EXCEPTIONS
        if key not in seen
    ]
    assert not problems, "\n".join(problems)


# --- game names outside their game's package ----------------------------------------------------------------------


def builtin_games() -> dict[str, list[str]]:
    """Each built-in game (a registered game whose package is ``envs/<name>/``) -> its name and title spellings."""
    from meeplezoo import games

    manifest = getattr(games, "manifest", None)  # the game's title, once the registry has manifests
    out = {}
    for name in games.game_names():
        if (ROOT / "envs" / name / "__init__.py").is_file():
            title = getattr(manifest(name), "title", None) if manifest else None
            out[name] = [name, *([title] if title else [])]
    assert out, "the registry lists no built-in game"
    return out


def spelling_pattern(spellings: list[str]) -> re.Pattern[str]:
    """A case-insensitive whole-word match of any spelling, its words joined by a space, ``_``, ``-`` or nothing:
    ``board_royale`` matches ``Board Royale``, ``meeplezoo/board_royale-v1`` and ``board_royale_heuristic``."""
    words = ["[ _-]?".join(map(re.escape, re.split(r"[\s_-]+", s.strip().lower()))) for s in spellings]
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(sorted(set(words))) + r")(?![a-z0-9])", re.IGNORECASE)


def string_constants(tree: ast.Module) -> Iterator[ast.Constant]:
    """Every ``str`` constant that is not a docstring (nor any other bare string statement)."""
    bare = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    found = [
        n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in bare
    ]
    yield from sorted(found, key=lambda n: (n.lineno, n.col_offset))


def own_game(rel: str) -> str | None:
    """The game whose package holds a file: ``envs/seastead/dive.py`` -> ``seastead``."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "envs" else None


def game_name_offenders(source: Source, games: dict[str, list[str]]) -> dict[str, list[str]]:
    """File -> each string constant spelling another game's name, as ``path:line game 'text'``."""
    patterns = {game: spelling_pattern(spellings) for game, spellings in games.items()}
    out: dict[str, list[str]] = {}
    for path in source.files():
        rel = source.relative(path)
        for node in string_constants(source.tree(rel)):
            for game, pattern in patterns.items():
                if game != own_game(rel) and pattern.search(node.value):
                    out.setdefault(rel, []).append(f"{rel}:{node.lineno} {game}: {node.value[:60]!r}")
    return out


def test_no_game_is_named_outside_its_package():
    offenders = game_name_offenders(shipped(), builtin_games())
    problems = [line for rel, lines in offenders.items() if rel not in GAME_NAME_EXCEPTIONS for line in lines]
    problems += [
        f"GAME_NAME_EXCEPTIONS entry {rel} names no game: delete it"
        for rel in GAME_NAME_EXCEPTIONS
        if rel not in offenders
    ]
    assert not problems, "a game's name outside envs/<game>/ (ask its manifest instead):\n" + "\n".join(problems)


#: the PettingZoo-style env module beside the game packages, the one module named after a game outside it
ALIAS = re.compile(r"^envs/(?P<game>\w+)_v\d+\.py$")


def game_module_offenders(source: Source, games: dict[str, list[str]]) -> dict[str, str]:
    """File -> the game its name (or a folder's on its path) spells, outside that game's package."""
    out = {}
    for path in source.files():
        rel = source.relative(path)
        alias = ALIAS.match(rel)
        names = [*rel.split("/")[:-1], path.stem]
        for game, spellings in games.items():
            if game == own_game(rel) or (alias and alias["game"] == game):
                continue
            if any(spelling_pattern(spellings).search(part) for part in names):
                out[rel] = game
    return out


def test_no_module_is_named_after_a_game_outside_its_package():
    offenders = game_module_offenders(shipped(), builtin_games())
    problems = [
        f"{rel}:1 is named after {game}: move it into envs/{game}/"
        for rel, game in offenders.items()
        if rel not in GAME_MODULE_EXCEPTIONS
    ]
    problems += [
        f"GAME_MODULE_EXCEPTIONS entry {rel} is gone: delete it"
        for rel in GAME_MODULE_EXCEPTIONS
        if rel not in offenders
    ]
    assert not problems, "\n".join(problems)


def test_the_name_scans_skip_docstrings_the_games_own_package_and_its_alias(tmp_path):
    (tmp_path / "envs" / "duel").mkdir(parents=True)
    (tmp_path / "agents").mkdir()
    (tmp_path / "envs" / "duel" / "rules.py").write_text('"""Duel."""\nNAME = "duel"\n')
    (tmp_path / "agents" / "bot.py").write_text(
        textwrap.dedent(
            '''
            """Plays Grand Duel."""
            def f(game):
                """For grand_duel only."""
                return f"meeplezoo/grand-duel-v{game}", "duelist", "grandduel"
            '''
        )
    )
    offenders = game_name_offenders(
        Source(tmp_path, {"envs": "x.envs", "agents": "x.agents"}), {"duel": ["duel", "Grand Duel"]}
    )
    assert offenders == {
        "agents/bot.py": ["agents/bot.py:5 duel: 'meeplezoo/grand-duel-v'", "agents/bot.py:5 duel: 'grandduel'"]
    }
