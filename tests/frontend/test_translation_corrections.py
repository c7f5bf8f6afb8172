"""The editor's translation corrections (#23) and the English words the glossary decided against.

docs/glossary.md decides each term once. Here: no Kreyòl or Tagalog string of either catalogue (the
pages' and the one the table's JavaScript builds its sentences from) and no rendered page keeps an
English word the glossary replaced, and the corrections that changed a rule or a meaning stay made.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.utils import translation

from games.commands.create import SeatSpec
from tests.frontend.catalogues import catalogue, read_po
from tests.replay.play import new_game, play

LANGUAGES = ("ht", "tl")
GAMES = ("skyjo", "dominoes", "kazino", "pitch")

# English words with a Tagalog or Kreyòl word of their own in the glossary. Kreyòl keeps *total* and
# *final* (words of its own); Tagalog says *ikot*, *triunfo*, *kompyuter*, *teklado*…
DECIDED_AGAINST = {
    "tl": (
        "round",
        "rounds",
        "trump",
        "computer",
        "keyboard",
        "seeding",
        "organiser",
        "organizer",
        "final",
        "finals",
        "total",
    ),
    "ht": ("round", "rounds", "trump", "computer", "keyboard", "seeding"),
}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")


def english_words(text: str, language: str) -> list[str]:
    text = PLACEHOLDER.sub(" ", text)
    return sorted(
        {w.lower() for w in re.findall(r"[^\W\d_]+", text) if w.lower() in DECIDED_AGAINST[language]}
    )


def page_text(content: bytes) -> str:
    page = content.decode()
    main = re.search(r"<main>(.*)</main>", page, re.S)
    body = main.group(1) if main else page
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_no_string_keeps_an_english_word_the_glossary_replaced(language, domain):
    found = {}
    for entry in read_po(catalogue(language, domain))[1:]:
        for text in entry.msgstrs:
            words = english_words(text, language)
            if words:
                found[entry.msgid] = (text, words)
    assert not found, found


def test_the_scan_sees_the_words_it_is_for():
    assert english_words("Round 1 · laro hanggang 100 puntos", "tl") == ["round"]
    assert english_words("Computer (madali)", "tl") == ["computer"]
    assert english_words("Keyboard: ← → pumili ng tira", "tl") == ["keyboard"]
    assert english_words("%(round)s · {round}", "tl") == []  # placeholders are code
    assert english_words("total kat yo", "ht") == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_keeps_an_english_word_the_glossary_replaced(client, language):
    game = new_game("dominoes", 2, options={"variant": "all_fives"})
    play(game, moves=4)
    urls = ["/", "/new/", "/tournaments/", "/ratings/", f"/tables/{game.pk}/", f"/games/{game.pk}/replay/"]
    urls += [f"/rules/{g}/" for g in GAMES] + [f"/new/{g}/" for g in GAMES]
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, url
        assert not english_words(page_text(response.content), language), (
            url,
            english_words(page_text(response.content), language),
        )
    # The strings the table's JavaScript builds its sentences from, as the browser gets them.
    catalog = js_catalogue(client, language)
    values = [v for value in catalog.values() for v in (value if isinstance(value, list) else [value])]
    assert not [v for v in values if english_words(v, language)]


def js_catalogue(client, language: str) -> dict[str, str | list[str]]:  # type: ignore[no-untyped-def]
    script = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    found = re.search(r"const newcatalog = (\{.*?\});\n", script, re.S)
    assert found, script[:200]
    return dict(json.loads(found.group(1)))


# The corrections that changed a rule or a meaning (#23 "Translation corrections").
RULES_PAGES = [
    # Scores go below zero, not down to it.
    ("tl", "pitch", ["sa ilalim ng zero ang puntos (negatibo)"], ["Puwedeng bumaba sa zero ang puntos."]),
    # One at a time, not "at the same time".
    ("ht", "dominoes", ["youn pa youn", "Pwen yo konte otomatikman"], ["alafwa", "Pwen yo kont otomatikman"]),
    ("ht", "pitch", ["15 oswa 21"], ["15 ou 21"]),
    ("ht", "kazino", ["Se tout mare a yo pran ansanm"], ["Mare a pran nèt"]),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "game", "present", "absent"), RULES_PAGES)
def test_the_rules_pages_say_the_corrected_rule(client, language, game, present, absent):
    text = " ".join(page_text(client.get(f"/rules/{game}/", HTTP_ACCEPT_LANGUAGE=language).content).split())
    for words in present:
        assert words in text, words
    for words in absent:
        assert words not in text, words


STRINGS = [
    ("tl", "Final", "Pangwakas na laban"),
    ("ht", "Round %(n)s", "Wonn %(n)s"),
    (
        "ht",
        "A build is taken whole, by a card of its value ({value}).",
        "Se yon kat ki gen valè mare a ({value}) ki pran l, toutantye.",
    ),
]
JS_STRINGS = [
    ("tl", "led %(tile)s", "inuna ang %(tile)s"),
    ("tl", "Final", "Pangwakas na laban"),
    (
        "ht",
        "Bid 4 by pitching %(card)s: %(suit)s will be trump",
        "Òf 4 lè w lanse %(card)s : %(suit)s ap vin atou",
    ),
    (
        "tl",
        "face-up total %(showing)s · %(hidden)s hidden · game score %(score)s",
        "kabuuang bukas %(showing)s · %(hidden)s nakataob · puntos sa laro %(score)s",
    ),
    (
        "ht",
        "face-up total %(showing)s · %(hidden)s hidden · game score %(score)s",
        "total fas anlè %(showing)s · %(hidden)s kache · pwen pati a %(score)s",
    ),
]


@pytest.mark.parametrize(("language", "msgid", "expected"), STRINGS)
def test_the_corrected_strings_are_what_pages_get(language, msgid, expected):
    with translation.override(language):
        assert translation.gettext(msgid) == expected


@pytest.mark.parametrize(("language", "msgid", "expected"), JS_STRINGS)
def test_the_corrected_strings_are_what_the_table_script_gets(client, language, msgid, expected):
    assert js_catalogue(client, language)[msgid] == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "label", "wrong"),
    [
        ("ht", "Dènye jou pou enskri", "Enskripsyon fèmen (kite"),
        ("tl", "Huling araw ng pagpapalista", "Sarado ang pagpapalista"),
    ],
)
def test_the_registration_date_field_reads_as_a_deadline(client, django_user_model, language, label, wrong):
    user = django_user_model.objects.create_user("org", password="pw-org-123456")
    client.force_login(user)
    text = page_text(client.get("/tournaments/new/", HTTP_ACCEPT_LANGUAGE=language).content)
    assert label in text and wrong not in text


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "never"), [("ht", "(0 : pa janm)"), ("tl", None)])
def test_the_forfeit_timer_says_never(client, django_user_model, language, never):
    user = django_user_model.objects.create_user("org", password="pw-org-123456")
    client.force_login(user)
    text = page_text(client.get("/tournaments/new/", HTTP_ACCEPT_LANGUAGE=language).content)
    if never:
        assert never in text and "(0: janm)" not in text


def test_a_computer_seat_choice_is_named_in_tagalog():
    from games.words import computers

    with translation.override("tl"):
        assert computers.name(2, "greedy") == "Kompyuter 2 (madali)"
    assert SeatSpec.computer(2, "greedy").display_name == "Computer 2 (Easy)"  # logs, exports


TIGHT_COLON = re.compile(r"[^\W_)]:(?=\s|$)|\):(?=\s|$)")


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_kreyol_puts_a_space_before_a_colon_in_every_string(domain):
    """One typography in Kreyòl (docs/glossary.md): « Men 3 : … », as the rules pages write it."""
    tight = {
        entry.msgid: text
        for entry in read_po(catalogue("ht", domain))[1:]
        for text in entry.msgstrs
        if TIGHT_COLON.search(PLACEHOLDER.sub("x", text))
    }
    assert not tight, tight


@pytest.mark.parametrize("game", GAMES)
def test_kreyol_rules_pages_put_a_space_before_a_colon(game):
    from pathlib import Path

    body = Path(__file__).resolve().parents[2] / f"frontend/templates/frontend/rules/{game}_body.ht.html"
    text = re.sub(r"<[^>]+>", " ", body.read_text())
    assert not TIGHT_COLON.findall(text)


# The glossary's words for a score sheet's lines (docs/glossary.md, "A Skyjo round is *manch*..."): in
# Kreyòl a tournament's round is *wonn*, so a line called "Wonn 3" on a sheet or the entry form of
# "Rezilta wonn 1" read as a round of the tournament (it was so for Skyjo and dominoes).
LINE_NAMES = [
    ("ht", "Skyjo", "Round %(n)s", "Manch 3"),
    ("ht", "dominoes", "Round %(n)s", "Men 3"),
    ("ht", "Kazino", "Game %(n)s", "Pati 3"),
    ("tl", "Skyjo", "Round %(n)s", "Ikot 3"),
    ("tl", "dominoes", "Round %(n)s", "Ikot 3"),
    ("tl", "Kazino", "Game %(n)s", "Laro 3"),
]


@pytest.mark.parametrize(("language", "context", "message", "expected"), LINE_NAMES)
def test_a_score_sheets_lines_are_named_as_the_glossary_says(language, context, message, expected):
    with translation.override(language):
        assert translation.pgettext(context, message) % {"n": 3} == expected
        heading = translation.pgettext(context, message.replace(" %(n)s", ""))
        assert heading == expected.split()[0]
