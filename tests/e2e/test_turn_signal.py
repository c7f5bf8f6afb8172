"""#33: knowing it is your turn when the tab is in the background. The title says it; a player who
turned the alerts on gets a notification when their turn comes while the tab is hidden (the browser's
Notification is recorded, the page's visibility set by the test: nothing waits for a fixed time)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import COUNT_SENDS, WAIT
from .test_kazino import play_one_move, start_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The tab's visibility as the test sets it, and every notification the page makes.
HIDDEN_TAB = """
window.__visible = 'visible';
Object.defineProperty(document, 'visibilityState', { get: () => window.__visible });
window.__notes = [];
window.Notification = class { constructor(title, options) { window.__notes.push({ title, ...options }); } };
window.Notification.permission = 'granted';
window.Notification.requestPermission = async () => 'granted';
"""


def test_the_title_and_a_notification_say_it_is_your_turn(browser: Any, server: str) -> None:
    context = browser.new_context(base_url=server)
    context.add_init_script(COUNT_SENDS)
    context.add_init_script(HIDDEN_TAB)
    page = context.new_page()
    try:
        start_table(page)
        page.wait_for_function("() => document.querySelector('#turn').classList.contains('mine')")
        assert page.title().startswith("▶ Your turn · ")
        page.click("#turn-alerts")
        page.wait_for_function(
            "() => document.querySelector('#turn-alerts').getAttribute('aria-pressed') === 'true'"
        )
        # Hide the tab and play a card: the computer replies, and the turn comes back to a hidden tab.
        page.evaluate("() => { window.__visible = 'hidden'; }")
        play_one_move(page, 0)
        page.wait_for_function("() => window.__notes.length > 0", timeout=WAIT)
        note = page.evaluate("() => window.__notes[0]")
        assert note["title"] == "Your turn" and "Kazino" in note["body"]
        assert page.title().startswith("▶ Your turn")
    finally:
        context.close()
