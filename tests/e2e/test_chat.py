"""#33 "Talking at the table": two players of two languages chat. A Kreyòl reader on a phone says "Good
game" with a phrase and reads it in Kreyòl; a Tagalog reader on a laptop reads the same message in
Tagalog. A free text arrives as text (never as markup); a muted seat's messages are hidden, and stay
hidden after a reload; a report reaches the staff. Every wait is for a state the page shows."""

from __future__ import annotations

from typing import Any

import pytest

from chat.models import Message, Report
from games.commands.create import SeatSpec, create_game
from games.models import Invite

from .axe import report as axe_report
from .axe import run_axe
from .conftest import SHOTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
HOSTILE = '<img src=x onerror="window.__pwned=1"><b>bold</b> & co'


def seated(browser: Any, server: str, game: Any, seat: int, language: str, viewport: dict[str, int]) -> Any:
    """A page in ``language`` that claimed ``seat`` through its invite, its chat loaded."""
    context = browser.new_context(viewport=viewport, base_url=server)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = context.new_page()
    code = Invite.objects.get(seat__game=game, seat__number=seat).code
    page.goto(f"/tables/{game.pk}/invite/{code}/")
    page.click("#take-seat")
    page.wait_for_function(
        f"window.tableClient && window.tableClient.snap && window.tableClient.snap.seat === {seat}"
    )
    page.wait_for_selector("#chat-list[data-loaded='1']", state="attached")
    return page


def lines(page: Any) -> list[str]:
    return page.locator("#chat-list li .chat-said").all_inner_texts()


def test_two_players_chat_each_in_their_own_language(browser: Any, server: str) -> None:
    seats = [SeatSpec("Open seat", awaiting_player=True) for _ in range(2)]
    game = create_game("tiny", {"players": 2, "goal": 10}, seats)
    kreyol = seated(browser, server, game, 0, "ht", PHONE)
    tagalog = seated(browser, server, game, 1, "tl", LAPTOP)
    try:
        # The phrase's button is in the reader's language; the server is sent its key only.
        button = kreyol.locator("#chat-phrases [data-phrase='good_game']")
        assert button.inner_text() == "Bon jwèt"
        button.click()
        kreyol.wait_for_selector("#chat-list [data-phrase='good_game']")
        tagalog.wait_for_selector("#chat-list [data-phrase='good_game']")
        assert lines(kreyol)[-1].endswith(": Bon jwèt")
        assert lines(tagalog)[-1].endswith(": Magandang laro")
        assert Message.objects.get().phrase == "good_game"
        assert kreyol.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # A free text, typed and sent with the keyboard: the other page shows it as text.
        tagalog.focus("#chat-text")
        tagalog.keyboard.type(HOSTILE)
        tagalog.keyboard.press("Enter")
        kreyol.wait_for_selector("#chat-list li[data-seat='1']")
        assert lines(kreyol)[-1].endswith(HOSTILE)
        assert kreyol.locator("#chat-list img, #chat-list b").count() == 0
        assert kreyol.evaluate("window.__pwned") is None
        assert tagalog.input_value("#chat-text") == ""
        report_button = kreyol.locator("#chat-list li[data-seat='1'] .chat-report")
        assert report_button.is_visible() and report_button.inner_text() == "Siyale"
        for page in (kreyol, tagalog):
            # The chat panel's own elements (the tiny engine's debug board and the invite link are not
            # the chat's, and are not what this test is about).
            rules = [
                {**r, "nodes": [n for n in r["nodes"] if "chat" in n["target"]]}
                for r in run_axe(page)["violations"]
            ]
            found = [r for r in rules if r["nodes"]]
            assert not found, axe_report(found)
        SHOTS.mkdir(parents=True, exist_ok=True)
        kreyol.screenshot(path=str(SHOTS / "chat-ht-phone.png"), full_page=True)
        tagalog.screenshot(path=str(SHOTS / "chat-tl-laptop.png"), full_page=True)

        # Muted: the seat's messages leave this page (only this page), then and after.
        kreyol.check("#chat-mute-list input[data-seat='1']")
        kreyol.wait_for_function("document.querySelectorAll(\"#chat-list li[data-seat='1']\").length === 0")
        tagalog.click("#chat-phrases [data-phrase='thanks']")
        kreyol.wait_for_function("window.tableClient.chat.messages.length === 3")
        assert kreyol.locator("#chat-list li[data-seat='1']").count() == 0
        assert kreyol.locator("#chat-hidden").is_visible()
        tagalog.wait_for_selector("#chat-list [data-phrase='thanks']")
        assert tagalog.locator("#chat-list li").count() == 3
        kreyol.reload()
        kreyol.wait_for_selector("#chat-list[data-loaded='1']", state="attached")
        assert kreyol.is_checked("#chat-mute-list input[data-seat='1']")
        assert kreyol.locator("#chat-list li[data-seat='1']").count() == 0
        assert lines(kreyol) and lines(kreyol)[0].endswith(": Bon jwèt")

        # A report reaches the staff, with who and when.
        tagalog.once("dialog", lambda dialog: dialog.accept())
        tagalog.click("#chat-list li[data-seat='0'] .chat-report")
        tagalog.wait_for_selector("#chat-list li[data-seat='0'] .chat-report:disabled")
        report = Report.objects.get()
        assert (report.message.phrase, report.seat) == ("good_game", 1)
    finally:
        kreyol.context.close()
        tagalog.context.close()


def test_a_spectator_has_no_chat(browser: Any, server: str) -> None:
    game = create_game("tiny", {"players": 2, "goal": 10}, [SeatSpec("P0"), SeatSpec("P1")])
    context = browser.new_context(viewport=PHONE, base_url=server)
    page = context.new_page()
    try:
        page.goto(f"/tables/{game.pk}/")
        page.wait_for_function("window.tableClient && window.tableClient.snap")
        assert page.locator("#chat").count() == 0
    finally:
        context.close()
