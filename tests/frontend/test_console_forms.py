"""The tournament console's actions as forms (#32.3, #30 defect 7): one address per action, bad input
answered 4xx with what was typed and nothing changed, a confirmation near the top saying what
changed, pairing warnings before the change, several computers and a pasted list of names at once."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games.eventlog import streams
from tests.tournaments.test_absence import finish_round, play_out
from tournaments import projection, service
from tournaments.models import Entry, Match, MatchGame

pytestmark = pytest.mark.django_db(transaction=True)  # games end on commit


def do(client, row, action, **data):
    return client.post(f"/tournaments/{row.pk}/do/{action}", data, follow=True)


def status_line(html: str) -> str:
    found = re.search(r'<p class="done" role="status">([^<]*)</p>', html)
    return found.group(1) if found else ""


def _swiss(organiser, players=4, **options):
    options = {"game_config": {"match": "single"}, "auto_start": False, **options}
    return service.create("Console Cup", "kazino", "swiss", options, by=organiser)


def test_several_computers_at_once_within_their_bound(client, organiser):
    row = _swiss(organiser)
    page = do(client, row, "add_bot", level="strong", count="5")
    assert Entry.objects.filter(tournament=row).count() == 5
    assert status_line(page.content.decode()) == "5 computer players (Strong) added."
    stored = len(streams.read(row.stream_id))
    for junk in ("33", "0", "-1", "²", "1e3", "9" * 30):
        response = do(client, row, "add_bot", level="strong", count=junk)
        assert response.status_code == 400, junk
        assert "How many must be a whole number from 1 to 32." in response.content.decode()
    response = do(client, row, "add_bot", level="godlike")
    assert response.status_code == 400
    assert Entry.objects.filter(tournament=row).count() == 5, "nothing was added by a refused form"
    assert len(streams.read(row.stream_id)) == stored


def test_a_pasted_list_registers_one_entrant_a_line(client, organiser):
    row = _swiss(organiser)
    page = do(client, row, "paste_names", names="Ana\n\n  Bo Li  \r\nCé\n")
    assert sorted(Entry.objects.filter(tournament=row).values_list("name", flat=True)) == [
        "Ana",
        "Bo Li",
        "Cé",
    ]
    assert status_line(page.content.decode()) == "3 entrants added."
    response = do(client, row, "paste_names", names="\n".join(f"P{n}" for n in range(201)))
    assert response.status_code == 400 and "At most 200 names at once." in response.content.decode()
    too_long = "x" * 151
    response = do(client, row, "paste_names", names=f"Dee\n{too_long}")
    html = response.content.decode()
    assert response.status_code == 400 and too_long in html, "what was typed comes back to be fixed"
    assert Entry.objects.filter(tournament=row).count() == 3


def test_only_the_organiser_and_no_one_signed_out(client, organiser):
    row = _swiss(organiser)
    client.logout()
    response = do(client, row, "add_bot", level="random")
    assert response.status_code == 403 and "Sign in first." in response.content.decode()
    other = get_user_model().objects.create_user("other")
    client.force_login(other)
    response = do(client, row, "paste_names", names="Mallory")
    assert response.status_code == 403 and "Only the organiser can do this." in response.content.decode()
    assert not Entry.objects.filter(tournament=row).exists()
    assert client.post(f"/tournaments/{row.pk}/do/teleport").status_code == 404
    assert client.get(f"/tournaments/{row.pk}/do/start").status_code == 405


def test_the_former_address_still_takes_the_same_forms(client, organiser):
    row = _swiss(organiser)
    response = client.post(
        f"/tournaments/{row.pk}/act", {"action": "add_bot", "level": "random", "count": "2"}
    )
    assert response.status_code == 302 and Entry.objects.filter(tournament=row).count() == 2
    assert client.post(f"/tournaments/{row.pk}/act", {"action": "nope"}).status_code == 404


def _started(client, organiser, players=4):
    row = _swiss(organiser)
    do(client, row, "add_bot", level="random", count=str(players))
    do(client, row, "start")
    return row


def test_a_swap_that_brings_a_warning_asks_first_and_is_made_on_the_second_press(client, organiser):
    row = _started(client, organiser, players=6)
    service.start_round(row, by=organiser)
    finish_round(row)  # a match still in play is not corrected (#37 item 3): played out first
    for match in Match.objects.filter(tournament=row, round=1):
        places = {str(e): k + 1 for k, e in enumerate(match.entrants)}
        service.override(row, match.key, places, None, "played", by=organiser)
    t = projection.load(row.stream_id)
    assert t.current.number == 2 and not t.current.started
    tables = [tb.entrants for tb in t.current.tables]
    (a, _x), (c, _y) = tables[0], tables[1]
    before = [tb.entrants for tb in t.current.tables]
    page = do(client, row, "edit_pairing", edit="swap", a=str(a), b=str(c), reason="friends")
    html = page.content.decode()
    # Nothing changed yet: the warnings come first, with a button that makes the change.
    assert [tb.entrants for tb in projection.load(row.stream_id).rounds[1].tables] == before
    assert "Make it anyway?" in html and 'data-form="confirm-change"' in html
    assert re.search(
        r'<p class="notice" role="alert">Table \d+: .*(have met before|do not share a score)', html
    )
    assert 'name="confirmed" value="1"' in html and 'name="reason" value="friends"' in html
    page = do(client, row, "edit_pairing", edit="swap", a=str(a), b=str(c), reason="friends", confirmed="1")
    after = [tb.entrants for tb in projection.load(row.stream_id).rounds[1].tables]
    assert after != before
    html = page.content.decode()
    assert "swapped places." in status_line(html)
    # The warnings stay on the console until the round starts (not only after the change).
    assert 'id="pairing-warnings"' in html


def test_a_correction_without_a_reason_is_refused_with_the_places_typed(client, organiser):
    row = _started(client, organiser)
    service.start_round(row, by=organiser)
    match = Match.objects.filter(tournament=row, round=1).first()
    for game in MatchGame.objects.filter(match=match):  # corrected once played (#37 item 3)
        play_out(game.game_id)
    a, b = match.entrants
    service.override(row, match.key, {str(a): 1, str(b): 2}, None, "played", by=organiser)
    response = do(
        client, row, "override", match=match.key, **{f"place-{a}": "2", f"place-{b}": "1"}, reason=""
    )
    html = response.content.decode()
    assert response.status_code == 400 and "A reason is needed" in html
    assert f'name="place-{a}" value="2"' in html and f'name="place-{b}" value="1"' in html
    assert Match.objects.get(tournament=row, key=match.key).result["places"] == {str(a): 1, str(b): 2}
    response = do(
        client, row, "override", match=match.key, **{f"place-{a}": "9", f"place-{b}": "1"}, reason="x"
    )
    assert response.status_code == 400
    page = do(
        client, row, "override", match=match.key, **{f"place-{a}": "2", f"place-{b}": "1"}, reason="slip"
    )
    assert Match.objects.get(tournament=row, key=match.key).result["places"] == {str(a): 2, str(b): 1}
    assert status_line(page.content.decode()) == "The result of Table 1 is corrected."


def test_a_forfeit_names_the_player_before_and_after(client, organiser):
    row = _started(client, organiser)
    service.start_round(row, by=organiser)
    match = Match.objects.filter(tournament=row, round=1).first()
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert "Record a forfeit at Table 1 against {name}? {name} loses the match" in page
    absent = match.entrants[0]
    name = Entry.objects.get(tournament=row, number=absent).shown_name
    page = do(client, row, "forfeit", match=match.key, entrant=str(absent), reason="")
    assert status_line(page.content.decode()) == f"Forfeit recorded at Table 1: {name} did not come."


def test_a_dispute_needs_a_reason_and_reaches_the_console_with_the_entry():
    from tests.frontend.test_over_the_board_pages import as_user, entered

    found = entered()
    row, match, url, a, b = found.row, found.match, found.url, found.a, found.b
    organiser = as_user(found.people[0])
    console = organiser.get(f"/tournaments/{row.pk}/").content.decode()
    assert "entered, waiting for confirmation" in console and "Not confirmed by:" in console
    refused = found.dispute("  ")
    assert refused.status_code == 400 and "Give a reason" in refused.content.decode()
    assert not Match.objects.get(tournament=row, key=match.key).board[0].get("disputes")
    found.dispute()
    console = organiser.get(f"/tournaments/{row.pk}/").content.decode()
    # The console, not only the real-cards page, says the table is disputed, by whom and why, with
    # who entered what, and the way to settle it.
    block = re.search(rf'<div class="dispute" id="dispute-{match.key}">(.*?)</div>', console, re.S).group(1)
    names = {e.number: e.shown_name for e in Entry.objects.filter(tournament=row)}
    assert f"Entered by {names[a]}" in block and f"<strong>{names[b]}</strong>: «I had 27»" in block
    assert f'href="/tournaments/{row.pk}/score/{match.key}/"' in block and "Settle it" in block
    assert "state-disputed" in console and "waiting for its result" not in block
    # The results desk: the round at a glance, and the tables with no result yet.
    summary = re.search(r'<p class="desk-summary".*?</p>', console, re.S).group(0)
    assert "waiting for a result: <strong>1</strong>" in summary and "disputed: <strong>1</strong>" in summary
    unreported = re.search(r'<p class="desk-unreported" id="desk-unreported">([^<]*)</p>', console).group(1)
    assert unreported == "No result yet: Table 1, Table 2"
    # Recording the entry as it is also needs a reason; without one nothing is recorded.
    refused = organiser.post(url, {"action": "accept", "game": 1, "reason": ""})
    assert refused.status_code == 400
    assert Match.objects.get(tournament=row, key=match.key).result is None
    organiser.post(url, {"action": "accept", "game": 1, "reason": "the card count was right"})
    assert Match.objects.get(tournament=row, key=match.key).result is not None


def test_a_player_plays_their_live_game_and_a_held_table_is_not_also_playing(client, organiser):
    from tournaments.models import MatchGame

    player = get_user_model().objects.create_user("player")
    row = service.create("Held Cup", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser)
    service.register(row, "player", user=player)
    service.register(row, "", bot_level="greedy", by=organiser)
    service.start(row, by=organiser)
    game_id = MatchGame.objects.get(match__tournament=row).game_id
    client.force_login(player)
    rounds = re.search(r'id="rounds-part".*', client.get(f"/tournaments/{row.pk}/").content.decode(), re.S)
    assert f'href="/tables/{game_id}/">Play now</a>' in rounds.group(0)
    client.force_login(organiser)
    html = do(client, row, "pause_table", game=str(game_id)).content.decode()
    assert status_line(html) == "The table is held."
    table = re.search(r'<li class="console-table.*?</li>', html, re.S).group(0)
    assert "held by the organiser" in table and "playing now" not in table
    assert f'href="/tables/{game_id}/">Watch</a>' in html, "the organiser watches"


def test_no_internal_key_is_shown_for_a_knockout_match(client, organiser):
    """#30 defect 10: "W1-1" and "3P" are keys of the log, not names for the room."""
    from frontend.match_names import match_title

    assert [match_title(k) for k in ("R2-T3", "W1-2", "L2-1", "3P", "GF1", "GF2")] == [
        "Table 3",
        "Round 1, match 2",
        "Losers' round 2, match 1",
        "Third-place match",
        "Grand final",
        "Grand final, deciding match",
    ]
    row = service.create(
        "Knock",
        "kazino",
        "single_elimination",
        {"game_config": {"match": "single"}, "third_place": True},
        by=organiser,
    )
    do(client, row, "add_bot", level="random", count="4")
    do(client, row, "start")
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    console = re.search(r'<ul class="console-tables">.*?</ul>', html, re.S).group(0)
    # Four entrants: round 1 is the semi-finals.
    assert "Semi-final 1" in console and ">W1-1<" not in console and "at W1-1" not in html
    cards = client.get(f"/tournaments/{row.pk}/print/tables/").content.decode()
    assert '<p class="card-table">Semi-final 1</p>' in cards and "Table W1-1" not in cards


def test_the_podium_at_the_end_and_options_only_where_they_apply(client, organiser):
    from tests.frontend.test_over_the_board_pages import as_user
    from tournaments import simulate

    row = simulate.setup("kazino", "round_robin", 3, {"game_config": {"match": "single"}}, "greedy")
    row = simulate.drive(row, timeout=300)
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    podium = re.search(r'<ol class="podium-steps">(.*?)</ol>', html, re.S).group(1)
    # Three wins in a circle share first place: the first step shows each who shares it.
    firsts = [e.shown_name for e in Entry.objects.filter(tournament=row, rank=1)]
    assert podium.count('class="step ') == 3 and firsts
    assert all(name in podium.split("step-2")[0] for name in firsts)
    # Each step's medal is drawn with its place (no emoji: a room screen may have no font for them).
    medals = re.findall(r'<span class="medal medal-(\d)" aria-hidden="true">(\d)</span>', podium)
    assert medals and all(kind == place for kind, place in medals), podium
    assert not re.search("[\U0001f947-\U0001f949]", podium)
    # A two-round event with real cards: no computer players offered, no round 3 to mark.
    board = service.create("Real", "skyjo", "swiss", {"table_size": 3, "rounds": 2}, by=organiser)
    service.set_round_over_the_board(board, 1, True, by=organiser)
    page = client.get(f"/tournaments/{board.pk}/").content.decode()
    assert "Add a computer player" not in page and "Add people from a list" in page
    marks = as_user(organiser).get(f"/tournaments/{board.pk}/board/").content.decode()
    rounds = re.search(r'<select name="round">(.*?)</select>', marks, re.S).group(1)
    assert re.findall(r"<option>(\d+)</option>", rounds) == ["1", "2"]


def test_the_podium_keeps_a_leader_who_withdrew(client):
    """Found by tests/e2e/test_whole_evening.py: the leader withdrew before the last round, and the
    podium (which left withdrawn entrants out) had no first step. The place is the standings'."""
    from tournaments import simulate

    row = simulate.setup("kazino", "round_robin", 3, {"game_config": {"match": "single"}}, "greedy")
    row = simulate.drive(row, timeout=300)
    # The read model as a leader's withdrawal leaves it: ranked first, marked withdrawn.
    Entry.objects.filter(tournament=row, rank=1).update(withdrawn=True)
    firsts = [e.shown_name for e in Entry.objects.filter(tournament=row, rank=1)]  # may be shared
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    podium = re.search(r'<ol class="podium-steps">(.*?)</ol>', html, re.S).group(1)
    step = podium.split("step-2")[0]
    assert "step-1" in step and firsts and all(name in step for name in firsts) and "withdrawn" in step


def test_no_online_round_estimate_for_an_event_with_real_cards(client, organiser):
    online = service.create("Online", "pitch", "swiss", {"table_size": 4, "rounds": 2}, by=organiser)
    page = client.get(f"/tournaments/{online.pk}/").content.decode()
    assert 'id="round-estimate"' in page and "A round with real cards" not in page
    real = service.create("Real", "pitch", "swiss", {"table_size": 4, "rounds": 2}, by=organiser)
    service.set_over_the_board(real, True, by=organiser)
    page = client.get(f"/tournaments/{real.pk}/").content.decode()
    # The real-card pace (tournaments/board_pace.py, #30): Pitch's first guess, not the online pace.
    assert "A round with real cards takes about 25 minutes (a first guess of 25 minutes a game" in page


def test_the_organisers_correction_starts_from_what_was_entered():
    """#30 defect 5: correcting a recorded real-card game starts from its entry, not a blank form;
    a disputed entry, too, opens filled in for the organiser."""
    from tests.frontend.test_over_the_board_pages import as_user, entered

    found = entered()
    row, match, url, a, b = found.row, found.match, found.url, found.a, found.b
    organiser = as_user(found.people[0])
    found.dispute()
    settle = organiser.get(url).content.decode()
    assert f'name="h0-cards-{a}"' in settle
    assert re.search(rf'name="h0-cards-{a}"[^>]*value="30"', settle), "the dispute opens on the entry"
    organiser.post(url, {"action": "accept", "game": 1, "reason": "counted again: right"})
    assert Match.objects.get(tournament=row, key=match.key).result is not None
    page = organiser.get(url + "?correct=1").content.decode()
    assert re.search(rf'name="h0-cards-{a}"[^>]*value="30"', page)
    assert re.search(rf'name="h0-cards-{b}"[^>]*value="22"', page)


def test_a_knockout_player_is_offered_play_now_and_sees_a_held_table_as_held(client, organiser):
    """#30 defect 9: the bracket's line for the reader's own live match said "Watch", the top of the
    page offered nothing, whichever round tab was open; a held table read "playing now" to players."""
    player = get_user_model().objects.create_user("ko-player")
    row = service.create(
        "Held Knockout", "kazino", "single_elimination", {"game_config": {"match": "single"}}, by=organiser
    )
    service.register(row, "ko-player", user=player)
    service.register(row, "", bot_level="greedy", by=organiser)
    service.start(row, by=organiser)
    game_id = MatchGame.objects.get(match__tournament=row).game_id
    client.force_login(player)
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    you = re.search(r'<section class="t-card you".*?</section>', html, re.S).group(0)
    assert f'href="/tables/{game_id}/">Play now</a>' in you
    details = re.search(r'<ul id="bracket-details".*?</ul>', html, re.S).group(0)
    assert "Play now" in details and "Watch" not in details
    client.force_login(organiser)
    do(client, row, "pause_table", game=str(game_id))
    client.force_login(player)
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    card = re.search(r'<li class="match-card.*?</li>\s*</ul>', html, re.S).group(0)
    assert "held by the organiser" in card and "playing now" not in card
