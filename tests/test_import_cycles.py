"""No import cycle among the project's modules, counting the imports inside functions: an import moved
into a function to break a cycle hides it (the module still needs the other, which needs it back), and
it fails only at run time, in the order modules happen to load.

Both cycles of #36 are gone: ``tournaments.service`` ↔ ``tournaments.tasks`` and ``replay.review`` ↔
``replay.tasks`` (background jobs are named, games/background/jobs.py: the module that schedules a job never
imports the module that defines it). Two cycles are older and known, each named below with why it is
left; the test fails on any other, and on a known one once it is gone (so that the list shrinks).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "tournaments", "replay", "seasons", "chat", "frontend", "infra")

KNOWN = {
    # The package's __init__ lists the lessons (an import inside _registry) that its modules define
    # with the __init__'s own classes.
    frozenset(
        {
            "games.lessons",
            "games.lessons.dominoes",
            "games.lessons.kazino",
            "games.lessons.pitch",
            "games.lessons.skyjo",
        }
    ),
    # Bound.form_field builds the pages' form field (games/formfields.py), which reads the bound.
    frozenset({"games.bounds", "games.formfields"}),
}


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that ``name`` imports, anywhere in it (functions included)."""

    def resolve(target: str) -> str | None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        return target or None

    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {r for alias in node.names if (r := resolve(alias.name))}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                # ``from games.background import jobs`` imports the module games.background.jobs;
                # ``from games.background.jobs import x`` imports games.background.jobs.
                target = resolve(f"{base}.{alias.name}")
                if target is None or not target.startswith(base) or target == base:
                    target = resolve(base)
                if target:
                    found.add(target)
    found.discard(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_cycle_finder_finds_a_cycle_hidden_in_a_function(tmp_path):
    review = tmp_path / "review.py"
    review.write_text(
        "from games.background import jobs\n\n\ndef later():\n    from replay.tasks import review_game\n"
    )
    tasks = tmp_path / "tasks.py"
    tasks.write_text("from replay import review\n")
    known = {
        "games.background.jobs": tmp_path,
        "replay": tmp_path,
        "replay.review": review,
        "replay.tasks": tasks,
    }
    edges = {
        "replay.review": imports("replay.review", review, known),
        "replay.tasks": imports("replay.tasks", tasks, known),
    }
    assert edges == {
        "replay.review": {"games.background.jobs", "replay.tasks"},
        "replay.tasks": {"replay.review"},
    }
    assert cycles(edges) == [frozenset({"replay.review", "replay.tasks"})]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]


def test_the_two_cycles_of_issue_36_are_gone():
    edges = graph()
    assert "replay.tasks" not in edges["replay.review"]
    assert "tournaments.tasks" not in edges["tournaments.service"]
    assert not any("tasks" in name for name in edges["tournaments.commands.progress"])


def test_no_import_cycle_among_the_project_s_modules():
    found = set(cycles(graph()))
    assert found - KNOWN == set(), sorted(sorted(c) for c in found - KNOWN)
    assert KNOWN - found == set(), (
        f"a known cycle is gone: take it off KNOWN {sorted(map(sorted, KNOWN - found))}"
    )
