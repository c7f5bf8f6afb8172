"""The read side is read from games.eventlog.queries and games.eventlog.tables, never through the command
modules (#32): a module that only reads a table need not import the module that changes it."""

from __future__ import annotations

import ast
from pathlib import Path

from games.commands import controls, create, deals, moves, resignation, runner
from games.eventlog import queries

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "frontend", "replay", "tournaments", "seasons", "infra", "tests")
READS = {name for name in vars(queries) if not name.startswith("_")} | {"load_table", "get_game", "Table"}
COMMANDS = (controls, create, deals, moves, resignation, runner)


def _command_imports(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The names a module gives the command modules, and the names it imports from them."""
    aliases: set[str] = set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        if node.module == "games.commands":
            aliases |= {alias.asname or alias.name for alias in node.names}
        elif node.module.startswith("games.commands."):
            names |= {alias.name for alias in node.names}
    return aliases, names


def test_no_module_reads_a_table_through_the_commands():
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if ".venv" in path.parts or path.name == "test_queries.py":
                continue
            tree = ast.parse(path.read_text())
            aliases, names = _command_imports(tree)
            found += [
                f"{path.relative_to(ROOT)}: from games.commands.… import {name}" for name in names & READS
            ]
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in aliases
                    and node.attr in READS
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value.id}.{node.attr}")
    assert found == []


def test_the_commands_define_no_query():
    defined = {n for n, v in vars(queries).items() if getattr(v, "__module__", None) == queries.__name__}
    assert {"result", "seating", "played_games", "hint"} <= defined
    for module in COMMANDS:
        assert not defined & set(vars(module)), module.__name__
    assert {m.__name__.rpartition(".")[2] for m in COMMANDS} == {
        path.stem for path in (ROOT / "games" / "commands").glob("*.py") if path.stem != "__init__"
    }, "every command module is checked"
