"""The rules pages' pictures (frontend/rules_pictures.py): every example position is played through its
engine move by move, so a picture can never show a position the rules forbid, and every rules page
carries its pictures, captioned in the reader's language, in English, Haitian Creole and Tagalog."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.utils import translation

from frontend import rules_pictures
from frontend.rules_pictures import PICTURES, Picture
from games import engines

GAMES = ["skyjo", "dominoes", "kazino", "pitch"]
FIGURE = re.compile(
    r'<figure class="rules-picture" data-picture="([\w-]+)" data-engine="(\w+)">\s*'
    r'<script type="application/json">(.*?)</script>.*?<figcaption>(.*?)</figcaption>',
    re.S,
)


@pytest.mark.parametrize("picture", PICTURES, ids=lambda p: p.slug)
def test_every_picture_replays_legally_through_its_engine(picture: Picture):
    engine = engines.get(picture.engine)
    state = engine.replay(engine.start(engine.validate_config(picture.config), picture.seed))
    for seat, action in picture.moves:
        # The very action the engine offers that seat, as it writes it, at a moment that seat must act.
        assert seat in engine.to_act(state), (picture.slug, seat, action)
        assert action in engine.legal_actions(state, seat), (picture.slug, action)
        for event in engine.decide(state, seat, action):
            state = engine.apply(state, event)
    assert engine.outcome(state) is None  # every example is a game in progress
    assert rules_pictures.position(picture.slug)["view"] == engine.view(state, picture.seat)


def test_a_script_with_an_illegal_move_is_refused():
    kazino = next(p for p in PICTURES if p.slug == "kazino-build")
    # The build of 13 without a K in hand (the K of clubs and the Q of hearts change places): the rule
    # the example is about.
    deck = ["QH" if c == "KC" else "KC" if c == "QH" else c for c in kazino.config["deck"]]
    wrong = Picture("wrong", "kazino", {**kazino.config, "deck": deck}, kazino.moves, "", seat=0)
    with pytest.raises(ValueError, match="not a legal move"):
        rules_pictures.replay(wrong)


def test_a_spectator_picture_shows_no_hidden_card():
    for picture in PICTURES:
        if picture.seat is None:
            position = rules_pictures.position(picture.slug)
            assert position["legal_actions"] == []
            engine = engines.get(picture.engine)
            assert position["view"] == engine.view(rules_pictures.replay(picture), None)


@pytest.mark.parametrize("language", ["en", "ht", "tl"])
@pytest.mark.parametrize("game", GAMES)
def test_each_rules_page_carries_its_pictures_in_every_language(client, game, language):
    client.cookies["django_language"] = language
    page = client.get(f"/rules/{game}/").content.decode()
    assert f'<html lang="{language}">' in page
    assert "frontend/rules/pictures.js" in page
    found = FIGURE.findall(page)
    expected = [p for p in PICTURES if p.engine == game]
    assert [slug for slug, *_ in found] == [p.slug for p in expected]
    assert len(expected) >= 2
    for (slug, engine, data, caption), picture in zip(found, expected, strict=True):
        assert engine == game
        position = json.loads(html.unescape(data))
        assert position["engine"] == game and position["view"]
        with translation.override(language):
            assert html.unescape(caption) == translation.gettext(picture.caption)
        if language != "en":
            assert html.unescape(caption) != picture.caption, (slug, language)  # translated
