"""The one-way arrows of ARCHITECTURE.md: the screens (``frontend``) sit on top, and nothing below them
imports them. Who holds which seat, for instance, is decided in games/access/seats.py for the table, the
sockets, the API and replays alike, not by a page's module that a replay would have to reach up to."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BELOW_THE_SCREENS = ("games", "tournaments", "replay", "seasons", "chat")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", BELOW_THE_SCREENS)
def test_nothing_below_the_screens_imports_them(package: str):
    upward = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in (ROOT / package).rglob("*.py")
        for name in _imports(path)
        if name == "frontend" or name.startswith("frontend.")
    }
    assert not upward, sorted(upward)


# The arrows below the screens (ARCHITECTURE.md): seasons sit on tournaments, tournaments and replay on
# games, the table chat on games and tournaments (an option of theirs), and games on no other app.
MAY_IMPORT = {
    "games": set(),
    "tournaments": {"games"},
    "replay": {"games"},
    "seasons": {"games", "tournaments"},
    "chat": {"games", "tournaments"},
}
APPS = ("games", "tournaments", "replay", "seasons", "chat", "frontend", "infra")


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_each_app_imports_only_the_apps_below_it(package: str):
    allowed = MAY_IMPORT[package] | {package}
    against = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        for name in _imports(path)
        if name.split(".")[0] in APPS and name.split(".")[0] not in allowed
    }
    assert not against, sorted(against)
