"""The replay in a real browser: step forward and back, land on a link, change perspective, follow a room."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Game
from replay import frames
from replay.frames import ALL, PUBLIC
from tests.replay.play import new_game, play

from .conftest import COUNT_SENDS, PASSWORD, screenshot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def finished_dominoes() -> tuple[Game, frames.Replay]:
    game = new_game("dominoes", 2, options={"variant": "block", "target": 10})
    play(game)
    return game, frames.load(game.pk)


def at(page: Any, index: int, perspective: Any) -> None:
    """Wait until the replay shows this moment from this perspective, drawn by the table's renderer."""
    page.wait_for_function(
        """([index, perspective]) => {
          const root = document.querySelector('#replay');
          const drawn = document.querySelector('#board .dom-table');
          return root && drawn && !root.dataset.loading && root.dataset.index === String(index)
            && root.dataset.perspective === String(perspective) && drawn.dataset.seq === root.dataset.seq;
        }""",
        arg=[index, perspective],
    )


def tiles(page: Any, selector: str, attribute: str) -> list[str]:
    return list(page.eval_on_selector_all(selector, f"els => els.map(e => e.getAttribute('{attribute}'))"))


def mid_round(replay: frames.Replay) -> int:
    """A moment in the middle of a round, where the hands are still hidden from spectators."""
    for moment in replay.moments[len(replay.moments) // 3 :]:
        if moment.command_end and replay.picture(moment.index, PUBLIC)["hands"] == [None, None]:
            return moment.index
    raise AssertionError("no moment with hidden hands")


def test_stepping_through_a_finished_game_links_and_perspectives(page: Any) -> None:
    game, replay = finished_dominoes()
    page.goto(f"/games/{game.pk}/replay/")
    at(page, 0, PUBLIC)
    assert page.eval_on_selector("#board .dom-table", "e => e.dataset.seq") == str(replay.moments[0].seq)
    # Before the first deal there is no round to name (it said "Round 0").
    assert "Round" not in page.inner_text("#board .dom-info")
    assert page.locator("#moments .moment").count() > 3
    assert page.locator("#perspective option").all_inner_texts() == [
        "Computer 1 (Beginner)",
        "Computer 2 (Beginner)",
        "Spectators",
        "All cards open",
    ]

    page.click("#forward")
    at(page, 1, PUBLIC)
    assert "Round 1" in page.inner_text("#board .dom-info")
    page.keyboard.press("ArrowRight")
    at(page, 2, PUBLIC)
    page.click("#back")
    at(page, 1, PUBLIC)
    assert page.eval_on_selector("#board .dom-table", "e => e.dataset.seq") == str(replay.moments[1].seq)
    assert page.get_attribute("#forward", "disabled") is None

    # A link names the game, the moment and the perspective: opening it lands there.
    index = mid_round(replay)
    seq = replay.moments[index].seq
    page.goto(f"/games/{game.pk}/replay/?at={seq}&as=1")
    at(page, index, 1)
    hand = replay.picture(index, 1)["hands"][1]
    assert tiles(page, ".dom-hand[data-hand='1'] [data-tile]", "data-tile") == hand
    assert tiles(page, ".dom-seat [data-shown]", "data-shown") == [], "seat 1 does not see seat 0's tiles"
    assert page.input_value("#perspective") == "1"
    screenshot(page, "replay-seat")

    # The spectators saw no hand; all cards open shows both.
    page.select_option("#perspective", PUBLIC)
    at(page, index, PUBLIC)
    assert page.locator(".dom-hand").count() == 0 and page.locator("[data-shown]").count() == 0
    page.select_option("#perspective", ALL)
    at(page, index, ALL)
    everything = replay.picture(index, ALL)["hands"]
    assert tiles(page, ".dom-seat[data-seat='0'] [data-shown]", "data-shown") == everything[0]
    assert tiles(page, ".dom-seat[data-seat='1'] [data-shown]", "data-shown") == everything[1]
    assert f"at={seq}" in page.url and "as=all" in page.url, "the address is a link to this moment"
    screenshot(page, "replay-all-open")

    # A moment in the list jumps there.
    target = page.locator("#moments .moment").nth(2)
    jump = int(target.get_attribute("data-index") or "0")
    target.click()
    at(page, jump, ALL)
    assert page.eval_on_selector("#moments .moment.current", "e => e.dataset.index") == str(jump)


def test_autoplay_moves_on_by_itself_and_stops_when_asked(page: Any) -> None:
    game, _replay = finished_dominoes()
    page.clock.install()  # the page's timers on a clock the test can run forward (time flows meanwhile)
    page.goto(f"/games/{game.pk}/replay/")
    at(page, 0, PUBLIC)
    page.select_option("#speed", "400")
    page.click("#play")
    page.wait_for_function("() => Number(document.querySelector('#replay').dataset.index) >= 3")
    page.click("#play")
    stopped = page.eval_on_selector("#replay", "e => e.dataset.index")
    # Ten steps' time at once on the page's clock: a timer left running would have moved the replay.
    page.clock.run_for(4000)
    assert page.eval_on_selector("#replay", "e => e.dataset.index") == stopped
    assert page.get_attribute("#play", "aria-pressed") == "false"


def test_on_a_phone_a_link_to_a_moment_and_a_tap_forward(phone: Any) -> None:
    game, replay = finished_dominoes()
    index = mid_round(replay)
    phone.goto(f"/games/{game.pk}/replay/?at={replay.moments[index].seq}&as=0")
    at(phone, index, 0)
    phone.tap("#forward")
    at(phone, index + 1, 0)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, "nothing wider than the phone"
    screenshot(phone, "replay-phone")


def new_user_signed_in(page: Any, name: str) -> None:
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(name, password=PASSWORD)
    sign_in(page, name)


def test_a_room_member_follows_the_driver_looks_around_alone_and_rejoins(browser: Any, server: str) -> None:
    game, replay = finished_dominoes()
    coach_context = browser.new_context(viewport={"width": 1100, "height": 900}, base_url=server)
    viewer_context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server)
    for context in (coach_context, viewer_context):
        context.add_init_script(COUNT_SENDS)  # the frames each page receives, and its sockets
    coach, viewer = coach_context.new_page(), viewer_context.new_page()
    try:
        new_user_signed_in(coach, "coach")
        coach.goto(f"/games/{game.pk}/replay/?at={replay.moments[2].seq}&as=public")
        at(coach, 2, PUBLIC)
        coach.click("#open-room button[type=submit]")
        coach.wait_for_url("**/replays/rooms/*/")
        at(coach, 2, PUBLIC)
        coach.wait_for_selector("#room[data-drive='1']")
        viewer.goto(coach.url)
        at(viewer, 2, PUBLIC)
        assert viewer.get_attribute("#room", "data-following") == "1"

        coach.click("#forward")
        at(viewer, 3, PUBLIC)
        coach.select_option("#perspective", ALL)
        at(viewer, 3, ALL)

        # The viewer steps on alone: the driver's moves no longer move them, until they rejoin.
        viewer.click("#back")
        at(viewer, 2, ALL)
        assert viewer.get_attribute("#room", "data-following") == "0"
        coach.evaluate("window.__frames = []")
        viewer.evaluate("window.__frames = []")
        coach.click("#forward")
        coach.click("#forward")
        at(coach, 5, ALL)
        # The room was told both moves (the driver hears each back from the room's group, every member's
        # copy sent in the same group send); then the viewer's socket answers a question of its own, so
        # a position the server had sent the viewer would have arrived before that answer.
        coach.wait_for_function("window.__frames.filter((f) => f.startsWith('position')).length >= 2")
        viewer.evaluate(
            """() => window.__sockets.filter((s) => s.url.includes('/ws/replays/')).at(-1)
                .send(JSON.stringify({type: 'follow', on: false}))"""
        )
        viewer.wait_for_function("window.__frames.includes('following')")
        assert not [f for f in viewer.evaluate("window.__frames") if f.startswith("position")]
        assert viewer.eval_on_selector("#replay", "e => e.dataset.index") == "2"
        at(viewer, 2, ALL)
        viewer.click("#rejoin")
        at(viewer, 5, ALL)
        assert viewer.get_attribute("#room", "data-following") == "1"
        screenshot(viewer, "replay-room-viewer")
    finally:
        coach_context.close()
        viewer_context.close()


@pytest.mark.parametrize("engine", ["kazino", "skyjo"])
def test_all_cards_open_lists_what_the_table_drawing_keeps_face_down(page: Any, engine: str) -> None:
    options = {"match": "single"} if engine == "kazino" else {"target": 10}
    game = new_game(engine, 2, options=options)
    play(game)
    replay = frames.load(game.pk)
    index = next(m.index for m in replay.moments[len(replay.moments) // 2 :] if m.command_end)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/games/{game.pk}/replay/?at={replay.moments[index].seq}&as=all")
    page.wait_for_function(
        "(i) => { const r = document.querySelector('#replay'); return r && !r.dataset.loading && r.dataset.index === String(i) && r.dataset.perspective === 'all'; }",
        arg=index,
    )
    picture = replay.picture(index, ALL)
    if engine == "kazino":
        expected = [len(cards) for cards in picture["hands"]]
    else:
        expected = [sum(1 for c in grid if c["status"] == "hidden") for grid in picture["grids"]]
    shown = page.eval_on_selector_all(
        "#open-hands-list li",
        "els => els.map(e => e.textContent.split(': ')[1].split(' ').filter(w => w && w !== '–').length)",
    )
    assert not errors
    assert not page.locator("#open-hands").is_hidden()
    assert shown == expected
    page.select_option("#perspective", PUBLIC)
    page.wait_for_function("() => document.querySelector('#replay').dataset.perspective === 'public'")
    assert page.locator("#open-hands").is_hidden()


def test_the_review_is_asked_for_and_shown_beside_the_replay(page: Any, django_user_model: Any) -> None:
    from replay import review
    from replay.models import Review

    game = new_game("dominoes", 2, options={"variant": "all_fives", "target": 60})
    play(game)
    django_user_model.objects.create_user("coach", password="a long pass phrase")
    sign_in(page, "coach", "a long pass phrase")
    page.goto(f"/games/{game.pk}/replay/")
    page.wait_for_selector("#review:not([hidden]) #review-request")
    page.click("#review-request")
    # The server's in-process worker reviews it; the page polls until the figures are there.
    page.wait_for_selector("#review-body[data-status=done] .review-summary li", timeout=90000)
    assert Review.objects.get(game=game).status == "done"
    assert page.locator(".review-summary li").count() == 2
    replay = frames.load(game.pk)
    hand_of = {m.seq: max(m.hand, 1) for m in replay.moments}  # the setup belongs to hand 1
    flagged = {d["seq"] for d in review.timeline(game.pk) if d["label"] and hand_of[d["seq"]] == 1}
    assert flagged, "random play makes mistakes in the first hand"
    marks = page.locator("#moments .moment-review")
    assert marks.count() == len(flagged), "every flagged decision of the hand is marked on the timeline"
    # On every flagged move, the review says what was better, on the board its player faced (#33: the
    # "Better" line was described on the board after the move played: "on the 4" named an end that
    # only the played tile had made). The expected end and count come from the engine's state before.
    # The replay shows a command at its last event; the review names a decision by its first.
    by_end = {}
    for d in review.timeline(game.pk):
        if d["seq"] in flagged:
            k = replay.index_of(d["seq"])
            while not replay.moments[k].command_end:
                k += 1
            by_end[replay.moments[k].seq] = d
    checked = 0
    for k in range(marks.count()):
        button = marks.nth(k).locator("xpath=..").locator("button.moment")
        target = button.get_attribute("data-index")
        button.click()
        page.wait_for_function("i => document.querySelector('#replay').dataset.index === i", arg=target)
        page.wait_for_selector("#review-body .review-here")
        shown = int(page.get_attribute("#replay", "data-seq") or 0)
        text = page.inner_text("#review-body .review-here")
        assert "Better:" in text
        expected = better_line(replay, by_end[shown])
        for part in expected:
            assert part in text, (part, text)
        checked += bool(expected)
        if k == 0:
            screenshot(page, "replay-review")
    assert checked, "at least one better move is a tile played on an end"


def better_line(replay: frames.Replay, decision: dict[str, Any]) -> list[str]:
    """What an All Fives 'Better' line must say, worked out on the state before the decision: the
    number its end shows, and what the ends count once the better tile is on it."""
    best = decision["best"]
    if best.get("type") != "play" or best.get("end") == "center":
        return []
    first = replay.index_of(decision["seq"])
    state = replay.states[first - 1]
    engine = replay.engine
    ends = {e["end"]: e for e in engine.view(state, decision["seat"])["layout"]["ends"]}
    after = state
    for event in engine.decide(state, decision["seat"], best):
        after = engine.apply(after, event)
        if event["type"] == "play":
            break
    counted = sum(e["counts"] or 0 for e in engine.view(after, decision["seat"])["layout"]["ends"])
    return [f"on the {ends[best['end']]['shows']} at", f"The ends will count {counted}"]


def test_a_skyjo_replay_opens_on_the_moment_before_the_deal(page: Any) -> None:
    """The first moment of a Skyjo game has no grids yet: the renderer says so instead of failing
    (which left the replay loading for ever)."""
    game = new_game("skyjo", 2, options={"target": 40})
    play(game)
    page.goto(f"/games/{game.pk}/replay/")
    page.wait_for_function(
        """() => { const r = document.querySelector('#replay');
          return r.dataset.index === '0' && !r.dataset.loading && document.querySelector('#board .sk-table'); }"""
    )
    assert page.inner_text("#board") == "The cards are about to be dealt."
    page.click("#forward")
    page.wait_for_function("() => document.querySelector('#replay').dataset.index === '1'")
    page.wait_for_selector("#board .sk-grid")


@pytest.mark.parametrize(
    ("engine", "options", "language", "word", "first"),
    [
        ("skyjo", {"target": 40}, "ht", "Manch", "Manch 1"),
        ("dominoes", {"variant": "block", "target": 10}, "ht", "Men", "Men 1"),
        ("pitch", {"max_hands": 2}, "en", "Hand", "Hand 1"),
        ("kazino", {}, "tl", "Laro", "Laro 1"),
    ],
)
def test_the_first_moment_and_the_menu_name_a_deal_as_the_game_does(
    page: Any, server: str, engine: str, options: dict[str, Any], language: str, word: str, first: str
) -> None:
    """#33: the first moment said "hand 0" / "game 0" and "setup" (untranslated), and the menu said
    "Hand" where Skyjo and dominoes play rounds (ht *manch*, *men*) and Kazino games (*laro*)."""
    game = new_game(engine, 2, options=options)
    play(game)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page.goto(f"/games/{game.pk}/replay/")
    page.wait_for_function(
        "() => { const r = document.querySelector('#replay'); return r && !r.dataset.loading && r.dataset.index === '0'; }"
    )
    page.wait_for_selector("#moments .moment")
    assert page.inner_text("#hand-word") == word
    assert page.eval_on_selector("#hand option", "o => o.textContent") == first
    board, opening = page.inner_text("#board"), page.inner_text("#moments .moment")
    for text in (board, opening):
        assert "setup" not in text.lower(), text
        assert not re.search(r"\b(Hand|Game|Round|Manch|Men|Pati|Laro|Kamay|Ikot) 0\b", text), text


def test_a_four_player_pitch_replay_fits_a_phone(phone: Any) -> None:
    """#33 defect 5: the 4-player Pitch replay's score table was 861 px wide on a 390 px screen."""
    game = new_game("pitch", 4, options={"max_hands": 3})
    play(game)
    phone.goto(f"/games/{game.pk}/replay/?at=999999")
    phone.wait_for_function(
        "() => { const r = document.querySelector('#replay'); return r && !r.dataset.loading; }"
    )
    phone.wait_for_selector("#score-table tr")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "replay-pitch-4-phone")
