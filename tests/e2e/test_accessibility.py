"""Every page through axe-core (WCAG 2.1 A and AA), in English, Kreyòl and Tagalog, on a desktop
(1280 × 800) and on a phone (390 × 844): no violation anywhere.

The pages: the lobby, the new-table forms, each game's table (a seat at its turn, the same seat with a
card or tile selected, its score sheet open, a spectator, pass-and-play), the rules, a replay of each
game, the tournament list, a finished tournament's page, the new-tournament form, the leaderboards,
a player's page, the sign-in and sign-up pages, and the profile page (its API tokens). What is guaranteed and how: docs/accessibility.md.

``AXE_REPORT=DIR`` also writes each language's counts per page to DIR/axe-LANG.json (the numbers
in docs/accessibility.md), whether the test passes or not.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.words import computers
from replay import frames
from tests.replay.play import new_game, play
from tournaments import simulate

from .axe import count, report, run_axe
from .conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "ht", "tl"]
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
GAMES = ["skyjo", "dominoes", "kazino", "pitch"]
PASSWORD = "pw-axe-audit-1"
TIMEOUT = 60_000  # ms for a page or a table to be ready: the audit runs many, on a shared machine

# What to tap on each table to select something (a card, a tile, a bid), at the seat's turn.
ENABLED = ":not([disabled]):not([aria-disabled=true])"
SELECTABLE = {
    "kazino": f".kz-hand-card{ENABLED}",
    "pitch": f".pt-bid{ENABLED}, .pt-hand-card{ENABLED}",
    # A hand with no tile that fits offers Draw or Pass instead (the deal is the form's, at random).
    "dominoes": f".dom-tile{ENABLED}, .dom-button[data-action=draw], .dom-button[data-action=pass]",
    "skyjo": "button.sk-target",
}
# Extra choices on the new-table form, so that the table shows more of what it can show.
FORM = {"dominoes": {"variant": "all_fives"}, "kazino": {"match": "single"}}

DRAWN = "() => { const b = document.querySelector('#board'); return !!(b && b.firstElementChild) || !document.querySelector('#curtain').hidden; }"
MY_TURN = "() => document.querySelector('#turn').classList.contains('mine')"
SELECTED = """() => !document.querySelector('#preview').hidden
  || !!document.querySelector('#board [aria-pressed=true], #board .kz-options, #board .dom-ends')"""
REPLAY_DRAWN = """() => { const r = document.querySelector('#replay');
  return r && r.dataset.index !== undefined && !r.dataset.loading && document.querySelector('#board').firstElementChild; }"""
# The rules pages' worked examples, each drawn by its renderer (rules/pictures.js).
RULES_DRAWN = "() => [...document.querySelectorAll('figure.rules-picture')].every((f) => f.dataset.drawn)"


@pytest.fixture
def site() -> dict[str, Any]:
    """A finished round robin (leaderboards, a player, a tournament page), a finished game of each kind
    for the replays, and a signed-in player."""
    get_user_model().objects.create_user("ana", password=PASSWORD)
    row = simulate.setup(
        "kazino", "round_robin", 3, {"game_config": {"match": "single"}}, "greedy", name="Club night"
    )
    row = simulate.drive(row, timeout=300)
    options = {
        "skyjo": {"target": 40},
        "dominoes": {"variant": "all_fives", "target": 30},
        "kazino": {"match": "single"},
        "pitch": {"target": 7, "max_hands": 12},
    }
    replays = {}
    for game in GAMES:
        finished = new_game(game, 2, options=options[game], seed=7)
        play(finished)
        moments = frames.load(finished.pk).moments
        replays[game] = (finished.pk, moments[len(moments) // 2].seq)  # a moment in the middle
    return {"tournament": row.pk, "player": computers.rating_key("greedy", 1), "replays": replays}


def new_table(page: Any, game: str, pass_and_play: bool) -> str:
    """A table made through the form (a guest against the easy computer, or two players on this
    device); returns its path."""
    page.goto(f"/new/{game}/")
    if pass_and_play:
        page.select_option("select[name=players]", "2")
        page.select_option("select[name=seat1]", "local")
    for name, value in FORM.get(game, {}).items():
        page.select_option(f"select[name={name}]", value)
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#status[data-status=open]")
    page.wait_for_function(DRAWN)
    return "/tables/" + page.url.split("/tables/")[1]


class Audit:
    """Runs axe on pages and keeps what it found, per page."""

    def __init__(self, language: str, size: str) -> None:
        self.language = language
        self.size = size
        self.found: dict[str, dict[str, Any]] = {}

    def check(self, page: Any, name: str) -> None:
        results = run_axe(page)
        entry = self.found.setdefault(name, {"violations": [], "incomplete": []})
        entry["violations"] += results["violations"]
        entry["incomplete"] += results["incomplete"]

    def failures(self) -> list[str]:
        return [
            f"{name} [{self.language}, {self.size}]: {count(entry['violations'])} violation(s)\n{report(entry['violations'])}"
            for name, entry in self.found.items()
            if entry["violations"]
        ]

    def counts(self) -> dict[str, Any]:
        """Per page: the elements in violation (each counted once, however many of the page's states
        showed it), per rule, and the text whose contrast axe could not measure."""
        out = {}
        for name, entry in self.found.items():
            rules: dict[str, set[str]] = {}
            for rule in entry["violations"]:
                rules.setdefault(rule["id"], set()).update(node["target"] for node in rule["nodes"])
            unmeasured = {
                n["target"] for r in entry["incomplete"] if r["id"] == "color-contrast" for n in r["nodes"]
            }
            out[name] = {
                "violations": sum(len(targets) for targets in rules.values()),
                "rules": {rule: len(targets) for rule, targets in rules.items()},
                "contrast_unmeasured": len(unmeasured),
            }
        return out


def visit(page: Any, path: str, ready: str | None = None) -> None:
    page.goto(path)
    if ready:
        page.wait_for_function(ready)


def static_pages(site: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    pages: list[tuple[str, str, str | None]] = [
        ("lobby", "/", None),
        ("new table: choose a game", "/new/", None),
    ]
    pages += [(f"new table: {game}", f"/new/{game}/", None) for game in GAMES]
    pages += [(f"rules: {game}", f"/rules/{game}/", RULES_DRAWN) for game in GAMES]
    pages += [("lessons", "/learn/", None)] + [(f"lesson: {game}", f"/learn/{game}/", None) for game in GAMES]
    pages += [
        (f"replay: {game}", f"/games/{pk}/replay/?at={seq}", REPLAY_DRAWN)
        for game, (pk, seq) in site["replays"].items()
    ]
    pages += [
        ("tournament list", "/tournaments/", None),
        ("tournament page", f"/tournaments/{site['tournament']}/", None),
        ("leaderboards", "/ratings/", None),
        ("player page", f"/players/{site['player']}/", None),
        ("sign in", "/accounts/login/", None),
        ("sign up", "/accounts/signup/", None),
    ]
    return pages


def audit_tables(
    browser: Any, server: str, audit: Audit, language: str, viewport: dict[str, int], tables: dict[str, Any]
) -> None:
    """Each game's table: the seat (at its turn, a selection made, the score sheet open), a spectator
    and pass-and-play. ``tables`` keeps the tables and the guest's session for the next size."""
    for game in GAMES:
        context = browser.new_context(viewport=viewport, base_url=server, storage_state=tables.get("state"))
        context.set_default_timeout(TIMEOUT)
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
        page = context.new_page()
        if game not in tables:
            tables[game] = new_table(page, game, pass_and_play=False)
            tables[f"{game}/local"] = new_table(page, game, pass_and_play=True)
            tables["state"] = context.storage_state()
        visit(page, tables[game], DRAWN)
        page.wait_for_function(MY_TURN)
        audit.check(page, f"table: {game}, seat")
        page.locator(SELECTABLE[game]).first.click()
        page.wait_for_function(SELECTED)
        audit.check(page, f"table: {game}, seat")
        screenshot(page, f"a11y-{game}-{language}-{viewport['width']}")
        page.keyboard.press("Escape")
        page.click("#show-scores")
        page.wait_for_selector("#score-dialog[open]")
        audit.check(page, f"table: {game}, seat")
        page.keyboard.press("Escape")

        visit(page, tables[f"{game}/local"], DRAWN)
        audit.check(page, f"table: {game}, pass-and-play")
        if page.locator("#curtain").is_visible():
            page.click("#curtain-show")
            page.wait_for_function("() => document.querySelector('#curtain').hidden")
            page.wait_for_function(DRAWN)
            audit.check(page, f"table: {game}, pass-and-play")
        context.close()

        watcher = browser.new_context(viewport=viewport, base_url=server)
        watcher.set_default_timeout(TIMEOUT)
        watcher.add_cookies([{"name": "django_language", "value": language, "url": server}])
        spectator = watcher.new_page()
        visit(spectator, tables[game], DRAWN)
        audit.check(spectator, f"table: {game}, spectator")
        watcher.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_axe_violation_on_any_page(site: dict[str, Any], browser: Any, server: str, language: str) -> None:
    audits: list[Audit] = []
    tables: dict[str, Any] = {}
    for size, viewport in SIZES.items():
        audit = Audit(language, size)
        audits.append(audit)
        context = browser.new_context(viewport=viewport, base_url=server)
        context.set_default_timeout(TIMEOUT)
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
        page = context.new_page()
        for name, path, ready in static_pages(site):
            visit(page, path, ready)
            assert page.evaluate("document.documentElement.lang") == language, f"{name} is not in {language}"
            audit.check(page, name)
        # Signed in: the new-tournament form (and the menu with the sign-out button).
        visit(page, "/accounts/login/")
        page.fill("input[name=username]", "ana")
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit], main form input[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        visit(page, "/tournaments/new/")
        audit.check(page, "new tournament (signed in)")
        visit(page, "/accounts/profile/")
        audit.check(page, "profile and API tokens (signed in)")
        context.close()
        audit_tables(browser, server, audit, language, viewport, tables)

    target = os.environ.get("AXE_REPORT")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        data = {a.size: a.counts() for a in audits}
        (Path(target) / f"axe-{language}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False))
    failures = [f for a in audits for f in a.failures()]
    assert not failures, "axe-core found WCAG 2.1 A/AA violations:\n\n" + "\n\n".join(failures)
