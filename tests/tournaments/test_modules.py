"""The shape of ``tournaments/`` (#32): modules of one concern, imports one way, no cycle hidden in a
function, and the ``service`` names only commands (the read side is ``projection``)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tournaments"
#: The pairing algorithms are another change's (#31); their size is theirs to mend.
NOT_MINE = ("pairing/", "migrations/")
MOST_LINES = 600


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts)
        out[name.removesuffix(".__init__")] = path
    return out


def _top_level_imports(path: Path) -> set[str]:
    names: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.If):  # ``if TYPE_CHECKING:`` names types, it imports nothing at run time
            continue
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _function_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("tournaments"):
                    found.append(f"{path.relative_to(ROOT)}:{inner.lineno} {inner.module}")
    return found


def test_no_module_of_tournaments_is_over_600_lines():
    long = {
        str(path.relative_to(ROOT)): n
        for path in PACKAGE.rglob("*.py")
        if not any(part in str(path.relative_to(PACKAGE)) for part in NOT_MINE)
        and (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, long


def test_the_imports_of_tournaments_go_one_way():
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        for imported in _top_level_imports(path):
            if imported in modules and imported != name:
                graph.add_edge(name, imported)
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, cycles


def test_no_tournaments_import_is_hidden_in_a_function():
    """A function-level import of a sibling is how a cycle hides; ``apps.ready`` is where the app is wired."""
    hidden = [
        found
        for name, path in _modules().items()
        if name != "tournaments.apps" and "migrations" not in name
        for found in _function_imports(path)
    ]
    assert not hidden, hidden


def test_the_service_names_commands_only():
    imported = _top_level_imports(PACKAGE / "service.py")
    read_side = {"tournaments.projection", "tournaments.log", "tournaments.models", "tournaments.formats"}
    assert not {m for m in imported if m.split(".")[0:2] and ".".join(m.split(".")[:2]) in read_side}
    assert {m for m in imported if m.startswith("tournaments.")} <= {
        m for m in imported if m.startswith(("tournaments.commands", "tournaments.options"))
    }
