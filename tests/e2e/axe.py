"""axe-core in the browser tests: the accessibility engine injected into a page and run on WCAG 2.1 A and AA.

axe-core comes from the ``axe-playwright-python`` package (the ``test`` extra in pyproject.toml, so
``bin/setup`` installs it with the other test tools): it ships Deque's ``axe.min.js``, which is all we
use of it. The rules run are those tagged WCAG 2.0/2.1 A and AA, experimental ones included (WCAG
2.5.3 "label in name" is an experimental axe rule, ``label-content-name-mismatch``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_source() -> str:
    """The text of axe.min.js; ImportError (with the reason) when the package is not installed."""
    try:
        from axe_playwright_python.base import AXE_FILE_PATH
    except ImportError as exc:  # pragma: no cover - bin/setup installs it with the test extra
        raise ImportError(
            "axe-core is missing: install the test extra (bin/setup, or pip install -e '.[test]')"
        ) from exc
    return Path(AXE_FILE_PATH).read_text(encoding="utf-8")


RUN = """async (tags) => {
  const results = await axe.run(document, {
    runOnly: { type: "tag", values: [...tags, "experimental"] },
    resultTypes: ["violations", "incomplete"],
  });
  const wcag = (rule) => rule.tags.some((t) => tags.includes(t));
  const slim = (rule) => ({
    id: rule.id,
    impact: rule.impact,
    help: rule.help,
    nodes: rule.nodes.map((n) => ({
      target: n.target.join(" "),
      html: n.html.slice(0, 300),
      summary: (n.failureSummary || "").slice(0, 400),
      messages: [...n.any, ...n.all, ...n.none].map((c) => c.message).filter(Boolean).slice(0, 3),
    })),
  });
  return {
    violations: results.violations.filter(wcag).map(slim),
    incomplete: results.incomplete.filter(wcag).map(slim),
  };
}"""


def run_axe(page: Any) -> dict[str, list[dict[str, Any]]]:
    """Violations and incomplete results (what axe could not decide) of the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    return page.evaluate(RUN, WCAG_TAGS)


def count(rules: list[dict[str, Any]]) -> int:
    """How many elements break a rule, all rules together (the number axe's reports give)."""
    return sum(len(rule["nodes"]) for rule in rules)


def report(rules: list[dict[str, Any]]) -> str:
    lines = []
    for rule in rules:
        lines.append(f"- {rule['id']} ({rule['impact']}): {rule['help']} — {len(rule['nodes'])} element(s)")
        for node in rule["nodes"][:6]:
            lines.append(f"    {node['target']}: {node['html'][:160]}")
            for message in node["messages"][:1]:
                lines.append(f"      {message}")
    return "\n".join(lines)
