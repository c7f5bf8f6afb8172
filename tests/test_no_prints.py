"""No module of the apps writes to standard output behind the logging's back: a stray ``print`` on the
path of a table's updates wrote seats' views (their hidden cards) to the server's output, which log
collectors keep. Command-line entry points print what their user asked for, and are listed."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("games", "tournaments", "replay", "seasons", "chat", "frontend", "infra")
# Command lines: what they print is their answer to the person who ran them.
ENTRY_POINTS = {"infra/edge/server.py", "infra/health.py"}


def test_no_module_of_the_apps_prints():
    found = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            where = str(path.relative_to(ROOT))
            if "management" in path.parts or "migrations" in path.parts or where in ENTRY_POINTS:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                    found.append(f"{where}:{node.lineno}")
    assert not found, found
