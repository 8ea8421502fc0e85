"""Resafa's modules import downward (issue 38): content, board and state, the paying and effect primitives, the
rule modules, the turn, then the engine and its views. Every import counts, those inside functions included
(``if TYPE_CHECKING:`` aside), so no module reaches up to a later layer at call time either."""

from __future__ import annotations

import ast
from pathlib import Path

import meeplezoo.envs.resafa as package

PACKAGE = Path(package.__file__).parent
NAME = package.__name__
#: the layers, lowest first; a module imports only modules of its own layer or below (within a layer the
#: imports must not form a cycle: tests/test_source_structure.py). Modules not listed form the top layer.
LAYERS = (
    ("content", "reader", "steps"),  # the box as data, and the turn machine's step names
    ("geometry", "state", "actions"),  # the board's shapes, the record of a position, the action codes
    ("economy", "effects", "hand"),  # paying and gaining, printed effects, the cards a player holds
    ("tracks", "workshops", "gardens", "canals", "trade", "scoring", "solo"),  # the rules of each part
    ("cards", "extras", "bot", "turn"),  # the turn: a card's main and colour actions, Resafabot's turn
)


def _layer(module: str) -> int:
    return next((i for i, names in enumerate(LAYERS) if module in names), len(LAYERS))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, module)`` of every import of a sibling module, at any depth, ``TYPE_CHECKING`` blocks skipped."""
    siblings = {p.stem for p in PACKAGE.glob("*.py")}
    out = []
    todo = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                todo.extend(child.orelse)
                continue
            todo.append(child)
            if isinstance(child, ast.ImportFrom) and child.level == 1:
                names = [a.name for a in child.names] if child.module is None else [child.module.split(".")[0]]
                out += [(child.lineno, n) for n in names if n in siblings]
            elif isinstance(child, ast.ImportFrom) and (child.module or "").startswith(NAME + "."):
                out.append((child.lineno, child.module[len(NAME) + 1 :].split(".")[0]))
    return out


def test_every_listed_layer_module_exists():
    missing = [m for names in LAYERS for m in names if not (PACKAGE / f"{m}.py").is_file()]
    assert not missing, f"LAYERS names modules that are gone: {missing}"


def test_modules_import_only_their_own_layer_or_below():
    upward = []
    for path in sorted(PACKAGE.glob("*.py")):
        source = path.stem
        for line, target in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if _layer(target) > _layer(source):
                upward.append(f"envs/resafa/{path.name}:{line} {source} (layer {_layer(source)}) imports {target}")
    assert not upward, "imports reaching up a layer:\n" + "\n".join(upward)


def test_the_check_sees_imports_inside_functions():
    """The knot issue 38 found (effects importing the main actions at call time) would be caught."""
    tree = ast.parse("def legal(d):\n    from .cards import main_possible\n    from . import canals, nowhere\n")
    assert sorted(_imports(tree)) == [(2, "cards"), (3, "canals")]
    assert _layer("effects") < _layer("canals") < _layer("cards")
