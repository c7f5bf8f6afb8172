"""#30 defect 10: a knockout's match scores ("2–1" in a best of 3) on the bracket (its SVG and the
PDF), the round cards, the pairings sheet and the score sheet, which has a row per game of the
match; no internal key ("W1-1", "3P", "GF1") anywhere a person reads."""

from __future__ import annotations

import re

import pytest

from frontend.match_names import match_title, winners_rounds
from tests.frontend.test_printables import NAMES, fetch
from tournaments import projection, service
from tournaments.models import Match, MatchGame

pytestmark = pytest.mark.django_db


KEYS = re.compile(r"(?<![\w-])(?:[WL]\d+-\d+|GF\d|3P)(?![\w-])")


def knockout(by, players=4, **options):
    options.setdefault("game_config", {"match": "single"})
    row = service.create("Cup night", "kazino", "single_elimination", {"best_of": 3, **options}, by=by)
    for name in NAMES[:players]:
        service.register(row, name, by=by)
    service.set_over_the_board(row, True, by=by)
    service.seed(row, "manual", list(range(1, players + 1)), by=by)
    service.start(row, by=by)
    row.refresh_from_db()
    return row


def play(by, row, key: str, winners: list[int]) -> None:
    """The organiser records each game of ``key`` with real cards: each named entrant takes 30 cards."""
    match = Match.objects.get(tournament=row, key=key)
    for number, winner in enumerate(winners, start=1):
        loser = next(e for e in match.entrants if e != winner)
        hands = [{"cards": {str(winner): 30, str(loser): 22}}]
        service.resolve_result(row, key, number, hands, by=by)


def readable(html: str) -> str:
    """What a person reads of a page: its text and the labels and titles read aloud, without the
    attributes that only the page's code reads (data-match) and without scripts and styles."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    said = " ".join(re.findall(r'(?:aria-label|title|alt|placeholder|data-confirm)="([^"]*)"', html))
    return re.sub(r"<[^>]+>", " ", html) + " " + said


def test_knockout_matches_are_named_for_the_room():
    rounds = winners_rounds("single_elimination", 8)
    assert rounds == 3 and winners_rounds("single_elimination", 5) == 3 and winners_rounds("swiss", 8) == 0
    assert [match_title(k, rounds) for k in ("W1-4", "W2-1", "W3-1", "3P")] == [
        "Quarter-final 4",
        "Semi-final 1",
        "Final",
        "Third-place match",
    ]
    assert match_title("W3-2", 6) == "Round 3, match 2" and match_title("W4-2", 6) == "Quarter-final 2"
    assert match_title("W3-1", 3, double=True) == "Winners' final"
    assert match_title("W1-1", 3, double=True) == "Round 1, match 1"


def test_a_match_won_2_1_shows_its_score_everywhere_with_a_row_per_game(client, organiser):
    row = knockout(organiser)
    first = Match.objects.get(tournament=row, key="W1-1")
    a, b = first.entrants
    play(organiser, row, "W1-1", [a, b, a])
    first = Match.objects.get(tournament=row, key="W1-1")  # the projection writes its rows anew
    assert first.result["places"] == {str(a): 1, str(b): 2}
    winner, loser = NAMES[a - 1], NAMES[b - 1]

    # The bracket on the page: each side's games won by its name, the score in the box's label.
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    svg = re.search(r"<svg class=\"bracket\".*?</svg>", page, re.S).group(0)
    box = re.search(r'<g class="match decided" data-match="W1-1".*?</g></g>', svg, re.S).group(0)
    assert re.findall(r'class="score"[^>]*>(\d)</text>', box) == ["2", "1"]
    assert f"Semi-final 1: {winner} (seed {a}) beat {loser} (seed {b}) 2–1" in box
    # The round card and the console.
    card = re.search(r'<li class="match-card[^"]*" data-match="W1-1">.*?</li>\s*</ul>', page, re.S).group(0)
    assert "Semi-final 1" in card and '<span class="match-score">' in card and "2–1" in card
    console = re.search(r'<ul class="console-tables">.*?</ul>', page, re.S)
    assert console is None or "W1-1</" not in console.group(0)

    # The bracket sheet and its PDF.
    html, pages, text = fetch(client, row, "bracket")
    assert pages == 1 and re.findall(r'class="score"[^>]*>(\d)</text>', html).count("2") == 1
    # The PDF's text runs seed, name, games won, row by row.
    assert f"{winner}\n2\n" in text and f"{loser}\n1\n" in text and not KEYS.findall(text)
    # The pairings sheet.
    html, pages, text = fetch(client, row, "pairings")
    assert "Games won: 2–1" in html and "Games won: 2–1" in text
    # The score sheet of the match: a row per game, each game's winner, the score; and its PDF.
    html, pages, text = fetch(client, row, "score-sheet", "?table=W1-1")
    assert pages == 1
    games = re.findall(r'<th class="num" data-game="(\d)">', html)
    assert games == ["1", "2", "3"]
    rows = dict(re.findall(r'<tr data-side="(\d)">(.*?)</tr>', html))
    cells = {k: re.findall(r'<td class="cell" data-game="\d">(\w*)</td>', row) for k, row in rows.items()}
    order = Match.objects.get(tournament=row, key="W1-1").entrants
    assert cells["1"] == ["won" if w == order[0] else "lost" for w in (a, b, a)]
    assert cells["2"] == ["won" if w == order[1] else "lost" for w in (a, b, a)]
    assert '<span class="match-score">2–1</span>' in html and "2–1" in text
    assert "best of 3" in html and "Semi-final 1" in html and "W1-1" not in readable(html)

    # A blank best-of-3 sheet: three rows to fill in (Kazino single games had one).
    html, pages, _text = fetch(client, row, "score-sheet")
    assert re.findall(r'<th class="num" data-game="(\d)">', html) == ["1", "2", "3"] and pages == 1
    assert len(re.findall(r"<tbody><tr><td class=\"num\">\d</td>|<tr><td class=\"num\">\d</td>", html)) >= 3


def test_no_internal_key_on_any_page_or_sheet_of_a_knockout(client, organiser):
    """Every page and printable of a knockout with a third-place match, after its semi-finals, read as
    a person reads it: no "W2-1", "3P" or the like."""
    row = knockout(organiser, third_place=True)
    for key in ("W1-1", "W1-2"):
        a, b = Match.objects.get(tournament=row, key=key).entrants
        play(organiser, row, key, [a, a])
    # Round 2 (the final and the third-place match) starts by itself (auto_start).
    keys = set(Match.objects.filter(tournament=row).values_list("key", flat=True))
    assert {"W2-1", "3P"} <= keys
    base = f"/tournaments/{row.pk}"
    pages = [f"{base}/", f"{base}/?round=1", f"{base}/board/", f"{base}/score/", f"{base}/standings.csv"]
    pages += [f"{base}/score/{key}/" for key in sorted(keys)]
    for sheet in ("pairings", "tables", "standings", "bracket", "score-sheet"):
        pages += [f"{base}/print/{sheet}/", f"{base}/print/{sheet}/?round=1"]
    pages += [f"{base}/print/score-sheet/?table={key}" for key in sorted(keys)]
    for lang in ("en", "ht", "tl"):
        for url in pages:
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
            assert response.status_code == 200, url
            assert not KEYS.findall(readable(response.content.decode())), (lang, url)
    for sheet in ("pairings", "tables", "bracket", "score-sheet"):
        for query in ("", "?table=3P"):
            _html, _pages, text = fetch(client, row, sheet, query)
            assert not KEYS.findall(text), (sheet, query)
    assert "Third-place match" in client.get(f"{base}/print/tables/").content.decode()
    assert "Final" in client.get(f"{base}/print/pairings/").content.decode()


def test_a_withheld_game_gives_no_score(organiser):
    """A game whose result is withheld (duplicate deals still in play) is not counted in a score: the
    projection keeps its places out of the rows everyone reads."""
    from tournaments import deals, log
    from tournaments.commands import progress  # noqa: F401 - the real fold below

    row = knockout(organiser)
    a, b = Match.objects.get(tournament=row, key="W1-1").entrants
    t = projection.load(row.stream_id)
    table = t.table("W1-1")
    table.games = [
        log.GameRecord(901, 1, [a, b], {a: 1, b: 2}, {a: 30, b: 22}),
        log.GameRecord(902, 2, [b, a], {a: 1, b: 2}, {a: 30, b: 22}),
    ]
    original = deals.withheld
    try:
        deals.withheld = lambda _t: ({902}, set())
        projection.write(row.stream_id, t)
    finally:
        deals.withheld = original
    places = dict(
        MatchGame.objects.filter(match__tournament=row, match__key="W1-1").values_list("number", "places")
    )
    assert places == {1: {str(a): 1, str(b): 2}, 2: None}
    from frontend.match_scores import score

    found = score(Match.objects.get(tournament=row, key="W1-1"), 3)
    assert found is not None and found.wins == [1, 0] and found.text() == "1–0"


def test_a_large_knockouts_index_names_the_matches(client, organiser):
    row = service.create(
        "Big cup", "kazino", "single_elimination", {"game_config": {"match": "single"}}, by=organiser
    )
    for n in range(16):
        service.register(row, f"Player {n + 1:02d}", by=organiser)
    service.seed(row, "manual", list(range(1, 17)), by=organiser)
    service.start(row, by=organiser)
    html = client.get(f"/tournaments/{row.pk}/print/pairings/").content.decode()
    index = re.search(r'<ul class="index">.*?</ul>', html, re.S).group(0)
    assert "Round 1, match 1 · Seat 1" in index and not KEYS.findall(readable(html))


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("skyjo", {"table_size": 2, "game_config": {}}),
        ("dominoes", {"game_config": {"variant": "all_fives"}}),
        ("pitch", {"game_config": {}}),
    ],
)
def test_a_blank_best_of_3_score_sheet_has_a_row_per_game_on_one_page(client, organiser, game, options):
    row = service.create("Cup", game, "single_elimination", {"best_of": 3, **options}, by=organiser)
    for name in NAMES[:4]:
        service.register(row, name, by=organiser)
    html, pages, text = fetch(client, row, "score-sheet")
    assert pages == 1, game
    assert re.findall(r'<th class="num" data-game="(\d)">', html) == ["1", "2", "3"] and "best of 3" in text


def test_an_online_best_of_3_shows_the_scores_its_games_made(client):
    """Computers play a best-of-3 knockout online; each match's score on the bracket and the round card
    is the count of its games' winners read from the log's game.finished events (not from the
    project's code that writes the scores)."""
    from games.eventlog import streams
    from tournaments import simulate

    options = {"best_of": 3, "game_config": {"match": "single"}}
    row = simulate.drive(simulate.setup("kazino", "single_elimination", 4, options, "greedy"), timeout=600)
    assert row.status == "finished"
    wins: dict[str, dict[str, int]] = {}
    for event in streams.read(row.stream_id):
        e = event.as_dict()
        if e["type"] == "game.finished":
            places = e["places"]
            best = min(places.values())
            firsts = [who for who, p in places.items() if p == best]
            table = wins.setdefault(e["table"], {})
            if len(firsts) == 1:
                table[firsts[0]] = table.get(firsts[0], 0) + 1
    html = client.get(f"/tournaments/{row.pk}/").content.decode()
    for match in Match.objects.filter(tournament=row):
        counts = sorted(wins.get(match.key, {}).values(), reverse=True) + [0, 0]
        expected = f"{counts[0]}–{counts[1]}"
        card = re.search(
            rf'<li class="match-card[^"]*" data-match="{match.key}">.*?</li>\s*</ul>', html, re.S
        )
        assert f"</span> {expected}</span>" in card.group(0), (match.key, expected)
        box = re.search(rf'<g class="match decided" data-match="{match.key}".*?</g></g>', html, re.S).group(0)
        shown = sorted(map(int, re.findall(r'class="score"[^>]*>(\d)</text>', box)), reverse=True)
        assert shown == counts[:2], match.key
