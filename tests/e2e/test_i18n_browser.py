"""The table in Kreyòl and in Tagalog, in a real browser: a Kazino game against the computer with the
interface in Kreyòl (chosen by the browser's language), a dominoes game in Tagalog (chosen with the
switcher). After every move, no English of the interface may show on the table screen: its visible
text, its accessible labels, the move log, the score sheet and the rules."""

from __future__ import annotations

import re

import pytest

from tests.frontend.catalogues import english_on_page, english_only_phrases
from tests.frontend.test_translation_corrections import DECIDED_AGAINST, english_words

from .conftest import WAIT, new_table, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MOVES = 6  # moves of mine in each game (the computer's replies come in between)

TABLE_TEXT = """() => {
  const main = document.querySelector("main");
  const parts = [main.innerText];
  for (const node of main.querySelectorAll("[aria-label], [title]")) {
    parts.push(node.getAttribute("aria-label") || "", node.getAttribute("title") || "");
  }
  for (const node of main.querySelectorAll("svg title, svg text")) parts.push(node.textContent);
  return parts.join("\\n");
}"""
SEQ = "() => Number((document.querySelector('[data-seq]') || {dataset: {}}).dataset.seq || 0)"
MY_TURN_OR_OVER = """() => {
  const snap = window.tableClient && window.tableClient.snap;
  return !!snap && (snap.finished || document.querySelector('#turn').classList.contains('mine'));
}"""
NUMBERS = """() => import('/static/frontend/table/numbers.js').then(
  (m) => [m.number(1250), m.points(15, 2), m.points(-1, 2), m.points(2501, 2), m.number(-3)])"""


def no_english(page, phrases: set[tuple[str, ...]], where: str) -> None:
    text = page.evaluate(TABLE_TEXT)
    found = english_on_page(text, phrases)
    # And the words the glossary decided against, built by the page's JavaScript or not (#23).
    language = page.evaluate("document.documentElement.lang")
    found += english_words(text, language) if language in DECIDED_AGAINST else []
    assert not found, f"English on the table screen ({where}): {found}\n---\n{text}"


def wait_my_turn(page) -> bool:
    """True when it is my turn, False when the game is over."""
    page.wait_for_function(MY_TURN_OR_OVER, timeout=WAIT)
    return not page.evaluate("window.tableClient.snap.finished")


def confirm(page) -> None:
    """Confirm the previewed move; wait until it is on the table (a stale refusal is confirmed again)."""
    page.wait_for_selector("#preview:not([hidden])")
    for _attempt in range(3):
        before = page.evaluate(SEQ)
        page.click("#confirm")
        page.wait_for_function(
            f"() => ({SEQ})() > {before} || !document.querySelector('#error').hidden", timeout=WAIT
        )
        if page.evaluate(SEQ) > before:
            return
        # The refusal is shown by the same handler that settles the preview: nothing more to wait for.
        if page.locator("#preview").is_hidden():
            return
    raise AssertionError("the move was not played")


def table_tools(page, phrases: set[tuple[str, ...]], rules_id: str) -> None:
    """The score sheet and the rules, opened from the table: in the language too."""
    page.click("#show-scores")
    page.wait_for_selector("#score-dialog[open]")
    no_english(page, phrases, "score sheet")
    page.keyboard.press("Escape")
    page.click("#show-rules")
    page.wait_for_selector(f"#rules-body #{rules_id}")
    no_english(page, phrases, "rules")
    page.keyboard.press("Escape")


def a_refusal_comes_in_the_language(page, expected: str) -> None:
    page.evaluate("window.tableClient.connection.send({type: 'nonsense'})")
    page.wait_for_function("() => !document.querySelector('#error').hidden")
    assert page.inner_text("#error") == expected


def spaces(values: list[str]) -> list[str]:
    return [re.sub(r"\s", " ", v) for v in values]


def test_kazino_in_kreyol_chosen_by_the_browser(browser, server):
    context = browser.new_context(viewport={"width": 1100, "height": 900}, base_url=server, locale="ht")
    page = context.new_page()
    phrases = english_only_phrases("ht")
    page.goto("/new/kazino/")
    assert page.get_attribute("html", "lang") == "ht"
    new_table(page, "kazino", ready=".kz[data-seq]", match="single")
    assert page.inner_text("#status") == "Konekte"
    no_english(page, phrases, "start")

    moves = 0
    while moves < MOVES and wait_my_turn(page):
        cards = page.locator(".kz-hand-card:not([aria-disabled=true])")
        cards.nth(moves % cards.count()).click()
        if page.locator("#preview").is_hidden():
            page.wait_for_selector(".kz-options [data-kind]")
            no_english(page, phrases, "choices")
            options = page.locator(".kz-options [data-kind]")
            kinds = [options.nth(i).get_attribute("data-kind") for i in range(options.count())]
            options.nth(kinds.index("capture") if "capture" in kinds else 0).click()
        page.wait_for_selector("#preview:not([hidden])")
        no_english(page, phrases, f"preview {moves}")
        confirm(page)
        moves += 1
        page.wait_for_function(f"document.querySelectorAll('#log-list li').length >= {moves}")
        no_english(page, phrases, f"after move {moves}")
    assert moves == MOVES
    assert page.locator("#log-list li").count() >= MOVES
    screenshot(page, "i18n-kazino-ht")
    table_tools(page, phrases, "kazino-rules")
    assert "tripe" in page.inner_text("#rules-body")
    a_refusal_comes_in_the_language(page, "Tab la pa konprann mesaj sa a.")
    # Numbers the Haitian way (French grouping), half-points with ½.
    assert spaces(page.evaluate(NUMBERS)) == ["1 250", "7½", "−½", "1 250½", "−3"]
    context.close()


def test_dominoes_in_tagalog_chosen_with_the_switcher(page):
    phrases = english_only_phrases("tl")
    page.goto("/")
    assert page.get_attribute("html", "lang") == "en"
    with page.expect_navigation():
        page.select_option("#lang-select", "tl")
    assert page.get_attribute("html", "lang") == "tl"
    new_table(page, "dominoes", ready=".dom-table", players="2", variant="all_fives")
    assert page.inner_text("#status") == "Konektado"
    assert page.inner_text(".dom-info .dom-chip >> nth=0") == "Lahat Lima"
    no_english(page, phrases, "start")

    moves = 0
    while moves < MOVES and wait_my_turn(page):
        if page.locator("[data-action=next_round]").count():
            page.click("[data-action=next_round]")
        elif page.locator(".dom-hand [data-tile]:not([aria-disabled=true])").count():
            page.locator(".dom-hand [data-tile]:not([aria-disabled=true])").first.click()
            page.wait_for_selector(".dom-ends [data-end]")
            no_english(page, phrases, "where to play")
            ends = page.locator(".dom-ends [data-end]")
            if ends.count() == 1:
                page.click(".dom-hand [data-tile].selected")
            else:
                ends.last.click()
            page.wait_for_selector("[data-ghost]")
        else:
            page.locator("[data-action=draw], [data-action=pass]").first.click()
        page.wait_for_selector("#preview:not([hidden])")
        no_english(page, phrases, f"preview {moves}")
        confirm(page)
        moves += 1
        no_english(page, phrases, f"after move {moves}")
    assert moves == MOVES
    page.wait_for_function("document.querySelectorAll('#log-list li').length >= 2")
    screenshot(page, "i18n-dominoes-tl")
    table_tools(page, phrases, "dominoes-rules")
    assert "sangahan" in page.inner_text("#rules-body")
    a_refusal_comes_in_the_language(page, "Hindi naiintindihan ng mesa ang mensaheng ito.")
    assert spaces(page.evaluate(NUMBERS)) == ["1,250", "7½", "−½", "1,250½", "−3"]
