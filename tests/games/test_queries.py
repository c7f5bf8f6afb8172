"""The read side is read from games.queries and games.tables, never through the command service (#32):
a module that only reads a table need not import the module that changes it."""

from __future__ import annotations

import ast
from pathlib import Path

from games import queries, service

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "frontend", "replay", "tournaments", "seasons", "infra", "tests")
READS = {name for name in vars(queries) if not name.startswith("_")} | {"load_table", "get_game", "Table"}


def _service_aliases(tree: ast.AST) -> set[str]:
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "games"
        for alias in node.names
        if alias.name == "service"
    }


def test_no_module_reads_a_table_through_the_service():
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if ".venv" in path.parts or path.name == "test_queries.py":
                continue
            tree = ast.parse(path.read_text())
            aliases = _service_aliases(tree)
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in aliases
                    and node.attr in READS
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value.id}.{node.attr}")
    assert found == []


def test_the_service_defines_no_query():
    defined = {n for n, v in vars(queries).items() if getattr(v, "__module__", None) == queries.__name__}
    assert {"result", "seating", "played_games", "hint"} <= defined
    assert not defined & set(vars(service))
