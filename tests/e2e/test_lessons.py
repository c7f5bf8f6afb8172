"""Lessons in a real browser: each game's lesson played to its end by clicking (a wrong move explained
and tried again), the two ways to play offered at the end, in the three languages on a desktop and a
phone, with no axe violation."""

from __future__ import annotations

import json

import pytest

from games import lessons
from games.lessons import Learn

from .axe import count, report, run_axe
from .conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

OFFERED = """(want) => {
  const canon = (v) => Array.isArray(v) ? "[" + v.map(canon).sort().join(",") + "]"
    : v && typeof v === "object" ? "{" + Object.keys(v).sort().map((k) => k + ":" + canon(v[k])).join(",") + "}"
    : JSON.stringify(v);
  const snap = window.tableClient && window.tableClient.snap;
  return !!snap && (snap.legal_actions || []).some((a) => canon(a) === canon(want));
}"""

PENDING = """(want) => {
  const canon = (v) => Array.isArray(v) ? "[" + v.map(canon).sort().join(",") + "]"
    : v && typeof v === "object" ? "{" + Object.keys(v).sort().map((k) => k + ":" + canon(v[k])).join(",") + "}"
    : JSON.stringify(v);
  const pending = window.tableClient && window.tableClient.pending;
  return !!pending && canon(pending) === canon(want);
}"""


def context_for(browser, server, language: str, viewport: dict, touch: bool):
    options = {"viewport": viewport, "base_url": server}
    if touch:
        options.update(device_scale_factor=2, is_mobile=True, has_touch=True)
    context = browser.new_context(**options)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    return context


def press(page, selector: str, touch: bool) -> None:
    target = page.locator(selector).first
    target.tap() if touch else target.click()


def choose(page, engine: str, action: dict, touch: bool) -> None:
    """Click the table as a player would until ``action`` is the previewed move."""
    kind = action["type"]
    if engine == "kazino":
        press(page, f'.kz-hand-card[data-card="{action["card"]}"]', touch)
        if page.locator("#preview").is_hidden():
            # The card can do several things: the options list them in the legal actions' order.
            legal = page.evaluate("() => window.tableClient.snap.legal_actions")
            mine = [a for a in legal if a["card"] == action["card"]]
            index = next(i for i, a in enumerate(mine) if lessons.same_action(a, action))
            press(page, f'.kz-options [data-option="{index}"]', touch)
    elif engine == "skyjo":
        if kind == "draw":
            press(page, '[data-pile="draw"]', touch)
        else:
            if kind in ("take_discard", "discard"):
                press(page, '[data-pile="discard"]', touch)
            press(page, f'button.sk-cell[data-cell="{action["cell"]}"]', touch)
    elif engine == "dominoes":
        if kind == "draw":
            press(page, '[data-action="draw"]', touch)
        else:
            press(page, f'[data-tile="{action["tile"]}"]', touch)
            press(page, f'[data-end="{action["end"]}"]', touch)
    elif engine == "pitch":
        if kind == "bid":
            press(page, f'[data-bid="{action["amount"]}"]', touch)
        elif kind == "pass":
            press(page, '[data-bid="0"]', touch)
        else:
            press(page, f'.pt-hand-card[data-card="{action["card"]}"]', touch)
            if page.locator("#preview").is_hidden():
                press(page, f'.pt-hand-card[data-card="{action["card"]}"]', touch)
    page.wait_for_selector("#preview:not([hidden])")
    assert page.evaluate(PENDING, action), f"the preview is not {action}"


def wait_step(page, index: int) -> None:
    page.wait_for_selector(f'#lesson-panel[data-step="{index}"] #lesson-step:not([hidden])', timeout=20000)


def check_axe(page, name: str) -> None:
    found = run_axe(page)["violations"]
    assert count(found) == 0, f"{name}: {report(found)}"


def play_lesson(page, slug: str, touch: bool, shots: str, wrong: dict | None = None) -> None:
    lesson = lessons.get(slug)
    page.goto(f"/learn/{slug}/")
    check_axe(page, f"lesson page {slug}")
    screenshot(page, f"{shots}-start")
    press(page, "#start-lesson", touch)
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("#status[data-status=open]")
    for index, step in enumerate(lesson.steps):
        wait_step(page, index)
        if not isinstance(step, Learn):
            if index == 0:
                check_axe(page, f"lesson table {slug}")
                screenshot(page, f"{shots}-first-step")
            press(page, "#lesson-next", touch)
            continue
        page.wait_for_function(OFFERED, arg=step.action, timeout=20000)
        # The step marks what to tap on the board (#33: the learner counted cells from the text).
        page.wait_for_selector("#board .lesson-mark")
        if wrong is not None and index == wrong["step"]:
            # Another legal move: the step explains, nothing is played, its preview closes (#33: it
            # stayed open with Confirm), and the learner tries again.
            choose(page, lesson.engine, wrong["action"], touch)
            press(page, "#confirm", touch)
            page.wait_for_selector("#lesson-wrong:not([hidden])")
            assert page.inner_text("#lesson-wrong").strip()
            page.wait_for_selector("#preview", state="hidden")
            screenshot(page, f"{shots}-wrong-move")
            wait_step(page, index)
        choose(page, lesson.engine, step.action, touch)
        press(page, "#confirm", touch)
    page.wait_for_selector("#lesson-end:not([hidden])", timeout=20000)
    page.locator("#lesson-end").scroll_into_view_if_needed()
    check_axe(page, f"lesson end {slug}")
    screenshot(page, f"{shots}-end")
    assert page.get_attribute("#lesson-computer", "href") == f"/new/{lesson.engine}/"
    friends = page.get_attribute("#lesson-friends", "href")
    assert friends.startswith(f"/new/{lesson.engine}/?with=friend")
    # With friends, the form starts as the rules play online (Kazino: one game, a match of its own).
    press(page, "#lesson-friends", touch)
    page.wait_for_url(f"**/new/{lesson.engine}/**")
    assert page.locator("select[name=seat1]").input_value() == "friend"
    for key, value in lesson.friends_options.items():
        assert page.locator(f"[name={key}]").input_value() == value


KAZINO_WRONG = {"step": 2, "action": {"type": "trail", "card": "KC"}}

# Each lesson played to its end in each language, on a desktop and on a phone by turns: every lesson
# and every language is seen at both sizes.
PLAYS = [
    (slug, language, *((DESKTOP, False) if (g + i) % 2 == 0 else (PHONE, True)))
    for g, slug in enumerate(["kazino", "skyjo", "dominoes", "pitch"])
    for i, language in enumerate(["en", "ht", "tl"])
]


@pytest.mark.parametrize(("slug", "language", "viewport", "touch"), PLAYS)
def test_a_lesson_is_played_to_its_end_by_clicking(browser, server, slug, language, viewport, touch):
    context = context_for(browser, server, language, viewport, touch)
    page = context.new_page()
    try:
        shots = f"lesson-{slug}-{language}-{viewport['width']}"
        play_lesson(page, slug, touch, shots, KAZINO_WRONG if slug == "kazino" else None)
        assert page.evaluate("document.documentElement.lang") == language
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
def test_the_lesson_pages_in_every_language_and_size(browser, server, language):
    for viewport, touch in ((DESKTOP, False), (PHONE, True)):
        context = context_for(browser, server, language, viewport, touch)
        page = context.new_page()
        try:
            # Where a newcomer finds the lessons: the lobby and every rules page.
            page.goto("/")
            assert (
                page.locator('a[href="/learn/"]').count() and page.locator('a[href="/learn/kazino/"]').count()
            )
            screenshot(page, f"lessons-lobby-{language}-{viewport['width']}")
            page.goto("/rules/kazino/")
            assert page.locator('#learn-link[href="/learn/kazino/"]').is_visible()
            page.goto("/learn/")
            check_axe(page, "lessons index")
            screenshot(page, f"lessons-index-{language}-{viewport['width']}")
            page.goto("/learn/kazino/")
            press(page, "#start-lesson", touch)
            page.wait_for_url("**/tables/*/")
            wait_step(page, 0)
            press(page, "#lesson-next", touch)
            wait_step(page, 1)
            press(page, "#lesson-next", touch)
            wait_step(page, 2)
            page.wait_for_function(OFFERED, arg=lessons.get("kazino").steps[2].action)  # type: ignore[union-attr]
            check_axe(page, "lesson table")
            screenshot(page, f"lesson-table-{language}-{viewport['width']}")
            text = json.dumps(page.inner_text("#lesson-panel"))
            if language != "en":
                assert "Capturing" not in text and "Step" not in text
        finally:
            context.close()
