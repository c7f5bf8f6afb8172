"""Issue #20 deliverable 1 in Chromium: the organiser's whole flow on the redesigned tournament page, on a
desktop with a player following on a phone, and every tournament page at 390 px in three languages.

- A Kazino knockout made from the form with its options; a player registers from a phone, the organiser
  adds computer players, seeds and starts it; the standings and the bracket change live as games end (no
  reload); every console control of a knockout is used (hold and release a table, a forfeit, a correction
  with its reason); each sheet is printed (page count, names).
- A Swiss whose rounds the organiser starts: the pairing edits (swap, lock), pairing again, starting a
  round, pausing and resuming the tournament, the number of rounds, withdrawing an entrant; the
  tie-break headers explain themselves; round tabs; what the organiser typed survives a live update.
- Every tournament page (list, form, page at each stage, real cards, score entry, sheets) at 390×844 in
  English, Kreyòl and Tagalog: nothing wider than the screen; screenshots at 1280×800 and 390×844.

Nothing waits for a fixed time: every step waits for what it expects on the page.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Error as PageError
from playwright.sync_api import TimeoutError as PageTimeout

from tournaments import service, simulate
from tournaments.models import Entry, Match, Tournament

from .conftest import PASSWORD, answering, phone_device, screenshot, sign_in, why_no_page_came
from .test_over_the_board import print_sheet

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = phone_device(2)
FITS = "document.documentElement.scrollWidth <= 390"
LIVE_TIMEOUT = 180_000


def context(browser, server, size, language="en"):  # type: ignore[no-untyped-def]
    made = browser.new_context(base_url=server, **size)
    made.add_cookies([{"name": "django_language", "value": language, "url": server}])
    return made


ASKED: list[str] = []  # the confirmations the pages asked for, answered yes


def post_and_wait(page, button: str, asks: str | None = None) -> None:
    """Click a console button and wait for the page it posts to; ``asks``: words of the confirmation
    it must ask for first."""
    ASKED.clear()
    try:
        with page.expect_navigation():
            page.click(button)
    except PageTimeout as error:
        raise AssertionError(why_no_page_came(page, button)) from error
    if asks is not None:
        assert any(asks in question for question in ASKED), (asks, ASKED)


def press_across_a_swap(page, button: str) -> None:
    """Click a console button whose press spans a live swap of the console (the page fetched itself
    again between the press and the release): the click still posts."""
    pressed = page.locator(button)
    box = None
    while box is None:  # None while a swap has the button out of the page
        pressed.wait_for(state="visible")
        # The mouse presses only what is on the screen: the confirmation at the top of the page
        # (role=status) may have moved the button below the fold.
        try:
            pressed.scroll_into_view_if_needed()
            box = pressed.bounding_box()
        except PageError:  # a live swap took the button out between the wait and the scroll: again
            box = None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # The part under the button is made to differ from the server's, so the fetch swaps it.
    pressed.evaluate("(b) => { b.closest('[data-part]').dataset.outOfDate = 'yes'; }")
    page.evaluate("() => { window.tournamentPage.refresh(); }")
    # A fetched page is read and held for the release: this fetch's, or that of a live update already
    # under way (the page fetches one at a time; a refresh meanwhile only asks for one more after it,
    # so waiting for this refresh's own response waited for ever once a live update was held first).
    page.wait_for_function("() => window.tournamentPage.heldForPress > 0")
    with page.expect_navigation():
        page.mouse.up()


def standings_text(page) -> str:
    return page.inner_text("#standings tbody")


def test_an_organiser_runs_a_knockout_from_the_console_while_a_player_follows_on_a_phone(browser, server):
    users = get_user_model().objects
    users.create_user("organiser", password=PASSWORD)
    users.create_user("Marie-Claude", password=PASSWORD)
    desk = context(browser, server, DESKTOP)
    hand = context(browser, server, PHONE)
    try:
        page, phone = answering(desk.new_page(), ASKED), hand.new_page()
        sign_in(page, "organiser")
        # The form, with options: the game's own (one game), a third-place match, no no-show clock.
        page.goto("/tournaments/new/")
        page.fill("input[name=name]", "Kazino knockout")
        page.select_option("select[name=game]", "kazino")
        page.select_option("select[name=format]", "single_elimination")
        page.select_option("select[name=kazino-match]", "single")
        page.check("input[name=third_place]")
        page.fill("input[name=no_show_minutes]", "0")
        screenshot(page, "console-new-desktop")
        # The form's estimate arrives after each change and moves the button: a click while it
        # moves can miss it (the POST was never sent). Wait, as a person does, for it to settle: the
        # estimate is busy from a change until its answer is shown ("networkidle" had long been reached).
        page.wait_for_selector("#estimate:not([aria-busy])", state="attached")
        page.click("#new-tournament button[type=submit]")
        # The console, or the form again with what it refused (said, so a failure says why).
        try:
            page.wait_for_selector("#console, p.error")
        except PageTimeout:
            where = page.evaluate(
                "() => [location.pathname, document.title,"
                " [...document.querySelectorAll(':invalid')].map((e) => e.name || e.id),"
                " [...document.querySelectorAll('.errorlist, .error, [role=alert]')].map((e) => e.textContent.trim())]"
            )
            raise AssertionError(
                f"the new-tournament POST shows neither the console nor a refusal: {where}"
            ) from None
        assert page.locator("#console").count(), page.inner_text("p.error")
        row = Tournament.objects.get(name="Kazino knockout")
        assert row.options["third_place"] and row.options["game_config"]["match"] == "single"
        url = f"/tournaments/{row.pk}/"

        # A player registers from a phone.
        sign_in(phone, "Marie-Claude")
        phone.goto(url)
        with phone.expect_navigation():
            phone.click("button[value=register]")
        phone.wait_for_selector("#you .you-line strong")
        assert phone.evaluate(FITS)

        # The organiser adds three computer players, one of each level, and seeds by hand.
        page.goto(url)
        for level in ("random", "greedy", "strong"):
            page.select_option("[data-form=add-bot] select[name=level]", level)
            post_and_wait(page, "[data-form=add-bot] button[value=add_bot]")
        assert page.locator("#standings tbody tr").count() == 4
        numbers = {e.name: e.number for e in Entry.objects.filter(tournament=row)}
        person = numbers["Marie-Claude"]
        page.select_option("[data-form=seed] select[name=method]", "manual")
        page.fill(
            "[data-form=seed] input[name=order]",
            " ".join(map(str, [person, *sorted(set(numbers.values()) - {person})])),
        )
        post_and_wait(page, "[data-form=seed] button[value=seed]")
        page.wait_for_selector("svg.bracket")  # seeded: the bracket is drawn
        screenshot(page, "console-registration-desktop")
        phone.goto(url)
        screenshot(phone, "console-registration-phone")

        # Start: the computers' match plays out while the page stays as it is.
        before = standings_text(page)
        post_and_wait(page, "button[value=start]")
        page.wait_for_selector("#status[data-status=running]")
        page.evaluate("window.stillTheSamePage = true")
        page.wait_for_selector('svg.bracket [data-match="W1-1"].live')  # the person has not moved
        screenshot(page, "console-running-desktop")
        page.wait_for_selector(
            'svg.bracket [data-match="W1-2"].decided', state="attached", timeout=LIVE_TIMEOUT
        )
        page.wait_for_function(
            "(before) => document.querySelector('#standings tbody').innerText !== before", arg=before
        )
        page.wait_for_selector('.match-card[data-match="W1-2"] .side.won .result')
        assert page.evaluate("window.stillTheSamePage === true"), "the page was reloaded"
        won = page.inner_text('.match-card[data-match="W1-2"] .side.won .result')
        assert won == "won" and page.inner_text('.match-card[data-match="W1-2"] .side.lost .result') == "lost"
        # The phone follows too, without a reload, and still fits.
        phone.wait_for_selector(
            'svg.bracket [data-match="W1-2"].decided', state="attached", timeout=LIVE_TIMEOUT
        )
        assert phone.locator("#standings tr.mine .you-tag").count() == 1
        assert phone.evaluate(FITS)
        screenshot(phone, "console-running-phone")

        # A tap on a match reads its names out in full.
        page.click('svg.bracket [data-match="W1-1"]')
        assert "Marie-Claude" in page.inner_text("#bracket-detail")

        # Hold the person's table, then let it go on.
        table = '.console-table[data-match="W1-1"]'
        post_and_wait(page, f"{table} button[value=pause_table]")
        page.wait_for_selector(f"{table} button[value=resume_table]")
        screenshot(page, "console-table-held-desktop")
        post_and_wait(page, f"{table} button[value=resume_table]")
        page.wait_for_selector(f"{table} button[value=pause_table]")

        # The person did not come: a forfeit, with its reason.
        page.select_option('[data-form="forfeit-W1-1"] select[name=entrant]', str(person))
        page.fill('[data-form="forfeit-W1-1"] input[name=reason]', "did not come")
        # The question names the player chosen (#30 defect 7), and so does the confirmation after it.
        who = Entry.objects.get(tournament=row, number=person).shown_name
        post_and_wait(
            page,
            '[data-form="forfeit-W1-1"] button[value=forfeit]',
            asks=f"Record a forfeit at Semi-final 1 against {who}? {who} loses the match",
        )
        assert page.inner_text("[role=status]") == f"Forfeit recorded at Semi-final 1: {who} did not come."
        page.wait_for_selector('svg.bracket [data-match="W1-1"].decided', state="attached")
        assert Match.objects.get(tournament=row, key="W1-1").forfeit == [person]
        page.click('#round-tabs [data-round-tab="1"]')
        assert "absent (forfeit)" in page.inner_text('.match-card[data-match="W1-1"]')

        # Round 2: the final plays out live; the organiser corrects its result, with a reason.
        page.evaluate("window.stillTheSamePage = true")
        page.wait_for_selector(
            'svg.bracket [data-match="W2-1"].decided', state="attached", timeout=LIVE_TIMEOUT
        )
        assert page.evaluate("window.stillTheSamePage === true")
        final = Match.objects.get(tournament=row, key="W2-1")
        first = min(final.entrants, key=lambda e: final.result["places"][str(e)])
        second = next(e for e in final.entrants if e != first)
        page.click("#console-correct-W2-1 summary")
        form = '[data-form="correct-W2-1"]'
        page.fill(f"{form} input[name=place-{first}]", "2")
        page.fill(f"{form} input[name=place-{second}]", "1")
        page.fill(f"{form} input[name=reason]", "the score sheet was read wrong")
        screenshot(page, "console-correcting-desktop")
        post_and_wait(page, f"{form} button[value=override]", asks="Correct the result of Final?")
        names = {e.number: e.shown_name for e in Entry.objects.filter(tournament=row)}
        winner = page.locator('svg.bracket [data-match="W2-1"] .slot.won title')
        assert winner.text_content() == names[second]
        assert "the score sheet was read wrong" in page.inner_text("#rounds-part")

        # The person does not come to the third-place match either: the tournament ends.
        page.select_option('[data-form="forfeit-3P"] select[name=entrant]', str(person))
        post_and_wait(page, '[data-form="forfeit-3P"] button[value=forfeit]')
        page.wait_for_selector("#status[data-status=finished]")
        assert page.locator("#console").is_hidden()
        ranks = page.locator("#standings tbody tr td:first-child").all_inner_texts()
        assert ranks == ["1", "2", "3", "4"]
        assert page.inner_text("#standings tbody tr:first-child .name") == names[second]
        screenshot(page, "console-finished-desktop")
        phone.wait_for_selector("#status[data-status=finished]", timeout=LIVE_TIMEOUT)
        assert phone.evaluate(FITS)
        screenshot(phone, "console-finished-phone")

        # Every sheet, printed from the browser and downloaded as a PDF: page counts and names.
        everyone = list(names.values())
        base = f"/tournaments/{row.pk}/print"
        print_sheet(page, f"{base}/pairings/?round=1", "console-pairings", everyone)
        print_sheet(page, f"{base}/tables/?round=1", "console-table-cards", everyone)
        print_sheet(page, f"{base}/standings/", "console-standings", everyone)
        print_sheet(page, f"{base}/bracket/", "console-bracket", everyone)
        print_sheet(
            page, f"{base}/score-sheet/?table=W2-1", "console-score-sheet", [names[first], names[second]]
        )
    finally:
        desk.close()
        hand.close()


def test_the_console_between_rounds_and_what_a_live_update_keeps(browser, server):
    organiser = get_user_model().objects.create_user("organiser", password=PASSWORD)
    row = service.create(
        "Club Swiss",
        "kazino",
        "swiss",
        {"game_config": {"match": "single"}, "auto_start": False, "rounds": 2},
        by=organiser,
    )
    for level in ("greedy", "greedy", "random", "strong", "random"):
        service.register(row, "", bot_level=level, by=organiser)
    desk = context(browser, server, DESKTOP)
    try:
        page = answering(desk.new_page(), ASKED)
        sign_in(page, "organiser")
        url = f"/tournaments/{row.pk}/"
        page.goto(url)
        post_and_wait(page, "button[value=start]")
        page.wait_for_selector("#group-between")
        screenshot(page, "console-between-desktop")
        # A fetch that finds nothing changed swaps nothing: the reader's page is left alone, and the
        # forms' tokens, masked anew on every page, do not count as a change. (The fetch is answered
        # with this very page under other tokens: a real one may differ by the platform's pace, which
        # every finished game of the other tests moves.)
        page.evaluate("window.tournamentPage.refresh()")  # what the socket's opening fetched is in
        same_page = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+', r"\1another-mask", page.content())
        assert "another-mask" in same_page

        def same(route):  # type: ignore[no-untyped-def]
            if route.request.headers.get("x-requested-with") == "fetch":
                route.fulfill(status=200, content_type="text/html; charset=utf-8", body=same_page)
            else:
                route.continue_()

        page.route(f"**/tournaments/{row.pk}/", same)
        page.evaluate("window.partsBefore = [...document.querySelectorAll('[data-part]')]")
        page.evaluate("window.tournamentPage.refresh()")
        assert page.evaluate(
            "[...document.querySelectorAll('[data-part]')].every((p, i) => p === window.partsBefore[i])"
        )
        page.unroute(f"**/tournaments/{row.pk}/", same)

        # Swap two players of different tables, with a reason.
        (t1, t2) = Match.objects.filter(tournament=row, round=1).order_by("key")
        a, b = t1.entrants[1], t2.entrants[0]
        form = "[data-form=edit-pairing]"
        page.select_option(f"{form} select[name=edit]", "swap")
        page.select_option(f"{form} select[name=a]", str(a))
        page.select_option(f"{form} select[name=b]", str(b))
        page.fill(f"{form} input[name=reason]", "asked to")
        post_and_wait(page, f"{form} button[value=edit_pairing]")
        assert b in Match.objects.get(tournament=row, key=t1.key).entrants
        # Lock the first table, pair the round again: the locked table stays.
        kept = Match.objects.get(tournament=row, key=t1.key).entrants
        page.select_option(f"{form} select[name=edit]", "lock")
        page.select_option(f"{form} select[name=table]", t1.key)
        page.fill(f"{form} input[name=reason]", "keep this one")
        post_and_wait(page, f"{form} button[value=edit_pairing]")
        page.wait_for_selector(f'.match-card[data-match="{t1.key}"] .tag')
        post_and_wait(page, "button[value=repair]", asks="Pair round 1 again?")
        assert Match.objects.get(tournament=row, key=t1.key).entrants == kept

        # Three rounds instead of two, with a reason.
        page.fill("[data-form=set-rounds] input[name=rounds]", "3")
        page.fill("[data-form=set-rounds] input[name=reason]", "we have time")
        post_and_wait(page, "[data-form=set-rounds] button[value=set_rounds]")
        page.wait_for_selector("text=Round 1 of 3")

        # A tie-break header explains itself (a tap, or the keyboard).
        page.click('th[data-criterion="buchholz_cut1"] .why')
        page.wait_for_selector("#why-buchholz_cut1:popover-open")
        assert "weakest opponent" in page.inner_text("#why-buchholz_cut1")
        page.keyboard.press("Escape")
        page.wait_for_selector("#why-buchholz_cut1", state="hidden")

        # Withdraw an entrant from the standings (it asks first), then start the round.
        post_and_wait(
            page, '#standings tr[data-entrant="5"] button[value=withdraw]', asks="Withdraw Computer 5"
        )
        page.wait_for_selector('#standings tr.withdrawn[data-entrant="5"] .tag')
        assert Entry.objects.get(tournament=row, number=5).withdrawn
        post_and_wait(page, "button[value=start_round]")
        page.wait_for_selector("#group-during")

        # Pause the tournament (a live update arrives while the button is held) and resume it.
        press_across_a_swap(page, "button[value=pause]:not([name=clock])")
        page.wait_for_selector("#status[data-status=paused]")
        post_and_wait(page, "button[value=resume]")
        page.wait_for_selector("#status[data-status=running]")

        # The organiser is typing a reason when the tournament changes (the number of rounds, changed
        # elsewhere): the console is swapped under it, and the text typed is still there, in the field
        # that had the focus. (The swap a nudge starts, started by hand: this process's changes do not
        # reach the server's socket group.)
        page.fill("[data-form=set-rounds] input[name=reason]", "half typed")
        page.focus("[data-form=set-rounds] input[name=reason]")
        page.evaluate("window.stillTheSamePage = true")
        service.set_rounds(Tournament.objects.get(pk=row.pk), 4, "one more", by=organiser)
        page.evaluate("window.tournamentPage.refresh()")
        page.wait_for_function("document.getElementById('t-head').innerText.includes('1 of 4')")
        assert page.input_value("[data-form=set-rounds] input[name=rounds]") == "4"
        assert page.input_value("[data-form=set-rounds] input[name=reason]") == "half typed"
        assert page.evaluate("document.activeElement.name") == "reason"
        # A number chosen whole (as a person does before typing over it, and as Playwright's fill does
        # before it types) is typed over whole even when a swap comes between the choosing and the key:
        # a number field has no selection a copy could be given, so the field must be the same one.
        rounds = "[data-form=set-rounds] input[name=rounds]"
        page.focus(rounds)
        page.evaluate(f"document.querySelector('{rounds}').select()")
        page.evaluate("document.getElementById('console').dataset.outOfDate = 'yes'")
        page.evaluate("window.tournamentPage.refresh()")
        assert page.evaluate("document.getElementById('console').dataset.outOfDate") is None  # swapped
        page.keyboard.type("5")
        assert page.input_value(rounds) == "5"
        assert page.input_value("[data-form=set-rounds] input[name=reason]") == "half typed"
        # Round 1 ends: the console offers round 2, live.
        page.wait_for_selector("button[value=start_round]", timeout=LIVE_TIMEOUT)
        assert page.evaluate("window.stillTheSamePage === true")
        # The tabs: round 2 is open; round 1 is a tap away and stays chosen through updates.
        assert page.get_attribute('[data-round-tab="2"]', "aria-selected") == "true"
        page.click('[data-round-tab="1"]')
        assert page.locator("#round-1").is_visible() and page.locator("#round-2").is_hidden()
        screenshot(page, "console-round-tabs-desktop")
        page.evaluate("window.tournamentPage.refresh()")
        assert page.locator("#round-1").is_visible()
    finally:
        desk.close()


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
def test_every_tournament_page_fits_a_phone_in_every_language(browser, server, language):
    """List, form, the page at each stage, real cards, score entry and every sheet: at 390 px nothing is
    wider than the screen. Screenshots at both sizes (English) and on the phone (Kreyòl, Tagalog)."""
    users = get_user_model().objects
    organiser = users.create_user("organiser", password=PASSWORD)
    long_name = "Jean-Baptiste Marie-Claude Desrosiers-Lamothe"
    player = users.create_user(long_name[:30], password=PASSWORD)
    waiting = service.create(
        "Registration open, a long name for a tournament", "kazino", "swiss", {}, by=organiser
    )
    service.register(waiting, player.username, user=player)
    for _n in range(3):
        service.register(waiting, "", bot_level="strong", by=organiser)
    # Seeded, not started: the bracket is drawn (a double elimination of six, wider than a phone).
    knockout = simulate.setup(
        "kazino", "double_elimination", 6, {"game_config": {"match": "single"}}, "greedy"
    )
    knockout.created_by = organiser
    knockout.save()
    swiss = simulate.setup("skyjo", "swiss", 7, {"table_size": 3, "rounds": 3}, "random")
    pages = [
        ("list", "/tournaments/"),
        ("new", "/tournaments/new/"),
        ("registration", f"/tournaments/{waiting.pk}/"),
        ("knockout", f"/tournaments/{knockout.pk}/"),
        ("swiss", f"/tournaments/{swiss.pk}/"),
        ("board", f"/tournaments/{waiting.pk}/board/"),
        ("score", f"/tournaments/{waiting.pk}/score/"),
        ("print-pairings", f"/tournaments/{knockout.pk}/print/pairings/"),
        ("print-tables", f"/tournaments/{knockout.pk}/print/tables/"),
        ("print-standings", f"/tournaments/{knockout.pk}/print/standings/"),
        ("print-bracket", f"/tournaments/{knockout.pk}/print/bracket/"),
        ("print-score-sheet", f"/tournaments/{swiss.pk}/print/score-sheet/"),
    ]
    sizes = {"phone": PHONE, "desktop": DESKTOP} if language == "en" else {"phone": PHONE}
    for size, spec in sizes.items():
        made = context(browser, server, spec, language)
        try:
            page = made.new_page()
            sign_in(page, "organiser")
            for name, path in pages:
                page.goto(path)
                page.wait_for_selector("main, .sheet-head")
                screenshot(page, f"tournament-{name}-{size}-{language}")
                if size == "phone":
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= 390, f"{name} in {language} is {width} px wide on a 390 px phone"
        finally:
            made.close()
