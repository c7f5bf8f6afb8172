"""Printable sheets (frontend/printables.py): each one page from the browser's print and as a PDF
(WeasyPrint), read back with pypdf: page count and the names on it."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from frontend.printables import render_pdf, table_label
from tournaments import board, projection, service
from tournaments.models import Match

pytestmark = pytest.mark.django_db

NAMES = [
    "Anaïse Jean-Baptiste",
    "Ti Jo",
    "Marisol Dela Cruz",
    "Bong Reyes",
    "Wilner",
    "Mirlande",
    "Dado",
    "Nene",
]


def tournament(organiser, game="kazino", fmt="swiss", players=8, board=True, **options):
    options.setdefault("game_config", {"match": "single"} if game == "kazino" else {})
    row = service.create("Friday at the club", game, fmt, options, by=organiser)
    for name in NAMES[:players]:
        service.register(row, name, by=organiser)
    if board:
        service.set_over_the_board(row, True, by=organiser)
    service.seed(row, "manual", list(range(1, players + 1)), by=organiser)
    service.start(row, by=organiser)
    row.refresh_from_db()
    return row


def pdf_text(content: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def fetch(client, row, sheet: str, query: str = "") -> tuple[str, int, str]:
    page = client.get(f"/tournaments/{row.pk}/print/{sheet}/{query}")
    assert page.status_code == 200, sheet
    pdf = client.get(f"/tournaments/{row.pk}/print/{sheet}.pdf{query}")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf", sheet
    assert pdf.content.startswith(b"%PDF")
    pages, text = pdf_text(pdf.content)
    return page.content.decode(), pages, text


def test_the_pairings_of_a_round_on_one_page_with_every_name(client, organiser):
    row = tournament(organiser)
    html, pages, text = fetch(client, row, "pairings")
    assert pages == 1
    for name in NAMES:
        assert name in html and name.split()[0] in text
    assert "Who plays where" not in html  # eight players: no index needed
    assert '<nav class="nav"' not in html and 'class="print-tools"' in html  # no site navigation
    assert "@media print" in html and "@page" in html


def test_a_large_field_gets_an_index_of_who_plays_where(client, organiser):
    row = service.create("Big night", "kazino", "swiss", {"game_config": {"match": "single"}}, by=organiser)
    for n in range(24):
        service.register(row, f"Player {n + 1:02d}", by=organiser)
    service.start(row, by=organiser)
    html, pages, text = fetch(client, row, "pairings")
    assert "Who plays where" in html and pages == 1
    assert "Player 24" in text


def test_table_cards_two_to_a_page_with_the_code_for_the_organiser_only(client, organiser):
    row = tournament(organiser)
    t = projection.load(row.stream_id)
    codes = [board.code_of(t, m.key) for m in Match.objects.filter(tournament=row)]
    html, pages, text = fetch(client, row, "tables")
    assert pages == 2  # four tables, two cards a page
    assert all(code in html for code in codes) and all(code in text.replace(" ", "") for code in codes)
    for name in NAMES:
        assert name in html
    client.logout()
    html, _pages, text = fetch(client, row, "tables")
    assert not any(code in html or code in text.replace(" ", "") for code in codes)
    assert NAMES[0] in html


def test_standings_with_their_tie_breaks(client, organiser):
    row = tournament(organiser)
    table = Match.objects.filter(tournament=row).first()
    a, b = table.entrants
    service.resolve_result(row, table.key, 1, [{"cards": {str(a): 30, str(b): 22}}], by=organiser)
    html, pages, text = fetch(client, row, "standings")
    assert pages == 1
    for header in ("Points", "Buchholz cut 1", "Sonneborn-Berger", "Wins", "Game points"):
        assert header in html
    assert NAMES[a - 1] in text and NAMES[b - 1] in text


def test_the_bracket_on_a_landscape_page(client, organiser):
    row = tournament(organiser, fmt="single_elimination", board=False)
    html, pages, text = fetch(client, row, "bracket")
    assert pages == 1 and "<svg" in html and "landscape" in html
    assert "Anaïse" in text and "Nene" in text
    swiss = tournament(organiser, players=4, board=False)
    assert client.get(f"/tournaments/{swiss.pk}/print/bracket/").status_code == 404
    assert client.get(f"/tournaments/{swiss.pk}/print/menu/").status_code == 404


@pytest.mark.parametrize(
    ("game", "options", "expected"),
    [
        ("skyjo", {"table_size": 4, "game_config": {}}, ["Round", "closed the round", "100 points"]),
        (
            "dominoes",
            {"game_config": {"variant": "all_fives"}},
            ["in play", "bonus", "Round winner", "All Fives"],
        ),
        ("dominoes", {"game_config": {"variant": "block"}}, ["Block:", "Round winner", "100 points"]),
        ("kazino", {"game_config": {"match": "single", "kings_aces_bonus": True}}, ["Kings", "Aces", "52"]),
        ("pitch", {"table_size": 4, "game_config": {}}, ["Pitcher", "Bid", "High", "Low", "Jack", "Game"]),
    ],
)
def test_a_blank_score_sheet_per_game_on_one_page(client, organiser, game, options, expected):
    row = tournament(organiser, game=game, players=8, **options)
    html, pages, text = fetch(client, row, "score-sheet")
    assert pages == 1, game
    for word in expected:
        assert word in html, word
    match = Match.objects.filter(tournament=row).first()
    html, pages, text = fetch(client, row, "score-sheet", f"?table={match.key}")
    assert pages == 1
    names = [NAMES[e - 1] for e in match.entrants]
    assert all(name in html for name in names)
    assert all(name.split()[0] in text for name in names)
    assert f"Table {table_label(match.key)}" in html


def test_the_sheets_follow_the_readers_language(client, organiser):
    row = tournament(organiser, game="pitch", table_size=4, game_config={})
    page = client.get(f"/tournaments/{row.pk}/print/score-sheet/", HTTP_ACCEPT_LANGUAGE="ht").content.decode()
    body = page.split("<body", 1)[1]
    assert 'lang="ht"' in page and "Fèy pwen" in body and "Score sheet" not in body
    assert "Lansè" in body and "Siyati jwè yo" in body
    page = client.get(f"/tournaments/{row.pk}/print/pairings/", HTTP_ACCEPT_LANGUAGE="tl").content.decode()
    body = page.split("<body", 1)[1]
    assert 'lang="tl"' in page and "Pagpapares" in body and "Pairings" not in body


def test_letter_paper_on_request():
    html = "<html><head><style>@page { size: letter }</style></head><body><p>Ti Jo</p></body></html>"
    pages, text = pdf_text(render_pdf(html))
    reader = PdfReader(io.BytesIO(render_pdf(html)))
    width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
    assert (round(float(width)), round(float(height))) == (612, 792) and "Ti Jo" in text


def test_a_sheet_fetches_nothing_from_outside():
    html = '<html><body><img src="http://127.0.0.1:9/x.png"><img src="file:///etc/passwd"><p>Wilner</p></body></html>'
    pages, text = pdf_text(render_pdf(html))
    assert pages == 1 and "Wilner" in text


@pytest.mark.parametrize("entrants", [16, 32])
def test_a_large_bracket_still_fits_one_page(client, organiser, entrants):
    row = service.create("Big knockout", "kazino", "double_elimination", {}, by=organiser)
    for n in range(entrants):
        service.register(row, f"Player {n + 1:02d}", by=organiser)
    service.seed(row, "manual", list(range(1, entrants + 1)), by=organiser)
    html, pages, text = fetch(client, row, "bracket")
    assert pages == 1 and "Player 01" in text


def test_qr_codes_on_table_cards_and_the_pairings_sheet_carry_no_secret(client, organiser):
    """#30 deliver 4: a table card's QR code opens the table's result entry, the pairings sheet's the
    tournament's page; the table's code stays printed beside it, never in the address."""
    from frontend.qr import qr_svg

    row = tournament(organiser)
    t = projection.load(row.stream_id)
    html, pages, _text = fetch(client, row, "tables")
    assert pages == 2, "the codes fit on the cards: still two cards a page"
    for match in Match.objects.filter(tournament=row):
        url = f"http://testserver/tournaments/{row.pk}/score/{match.key}/"
        label = "Table " + match.key.split("-T")[-1]
        # The same URL drawn again gives the same picture: the code on the card is this address.
        assert str(qr_svg(url, label)) in html
        assert board.code_of(t, match.key) not in url
    assert html.count('<svg role="img" aria-label="Table ') == 4
    html, pages, _text = fetch(client, row, "pairings")
    assert (
        pages == 1
        and str(qr_svg(f"http://testserver/tournaments/{row.pk}/", "The tournament's page")) in html
    )


def test_pitchs_game_point_and_a_finishing_place_have_their_own_words(client, organiser):
    """#30 defect 12: in Kreyòl and Tagalog the Pitch "Game" point is not the word for a game, and a
    finishing place is not the word for a seat (docs/glossary.md)."""
    row = tournament(organiser, game="pitch", players=4, table_size=4, board=False)
    sheet = {
        lang: client.get(
            f"/tournaments/{row.pk}/print/score-sheet/", HTTP_ACCEPT_LANGUAGE=lang
        ).content.decode()
        for lang in ("ht", "tl")
    }
    assert (
        '<th class="small">Pwen Game</th>' in sheet["ht"]
        and '<th class="small">Puntos na Game</th>' in sheet["tl"]
    )


def test_a_pdf_is_rendered_once_and_new_ones_are_limited_per_address(client, organiser, monkeypatch):
    """#37: PDFs cost 0.4-1.3 s each, uncached and unlimited."""
    from django.core.cache import cache

    from frontend import printables

    cache.clear()
    row = tournament(organiser)
    rendered: list[int] = []
    real = printables.render_pdf
    monkeypatch.setattr(printables, "render_pdf", lambda html: rendered.append(1) or real(html))
    path = f"/tournaments/{row.pk}/print/standings.pdf"
    first, again = client.get(path), client.get(path)
    assert first.status_code == again.status_code == 200 and first.content == again.content
    assert len(rendered) == 1, "the same sheet is rendered once"
    monkeypatch.setattr(printables, "PDF_RATE", "2/m")
    keys = iter(range(100))
    monkeypatch.setattr(printables, "_pdf_key", lambda html: f"test-pdf-{next(keys)}")  # every one new
    answers = [client.get(path).status_code for _n in range(4)]
    assert answers[-1] == 429 and len(rendered) <= 3
    cache.clear()
