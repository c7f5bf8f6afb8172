"""The review on the replay page: asked for by a signed-in viewer of a finished game, then shown."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game
from replay import review
from replay.models import Review

from .play import new_game, play

pytestmark = pytest.mark.django_db


def url(game: Game) -> str:
    return f"/games/{game.pk}/replay/review/"


def test_nobody_has_asked_yet(finished_kazino: Game) -> None:
    body = Client().get(url(finished_kazino)).json()
    assert body == {"summary": None, "decisions": [], "graph": ""}


def test_asking_needs_an_account_and_changes_nothing_without_one(finished_kazino: Game) -> None:
    response = Client().post(url(finished_kazino))
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "sign_in"
    assert not Review.objects.exists()


def test_a_signed_in_viewer_asks_once_and_then_sees_each_players_figures(finished_kazino: Game) -> None:
    client = Client()
    client.force_login(get_user_model().objects.create_user("coach", password="x"))
    first = client.post(url(finished_kazino)).json()
    assert first["summary"]["status"] == "queued"
    assert client.post(url(finished_kazino)).json()["summary"]["status"] == "queued"
    assert Review.objects.filter(game=finished_kazino).count() == 1
    assert review.run(finished_kazino.pk) == "done"  # what the worker does
    body = client.get(url(finished_kazino)).json()
    assert body["summary"]["status"] == "done"
    assert [s["seat"] for s in body["summary"]["seats"]] == [0, 1]
    assert body["decisions"], "a whole game has decisions"
    assert all({"seq", "seat", "label", "loss", "best", "played"} <= set(d) for d in body["decisions"])
    # The page's client learns where to ask.
    assert f'"review": "/games/{finished_kazino.pk}/replay/review/"' in Client().get(
        f"/games/{finished_kazino.pk}/replay/"
    ).content.decode().replace("\\u0022", '"')


def test_a_game_still_being_played_has_no_review() -> None:
    game = new_game("kazino", 2, options={"match": "single"})
    play(game, moves=3)
    client = Client()
    client.force_login(get_user_model().objects.create_user("early", password="x"))
    response = client.post(url(game))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "not_finished"
    assert not Review.objects.exists()


def test_the_replay_page_says_whether_the_deals_were_the_ones_committed_to(finished_kazino: Game) -> None:
    from replay import fair

    verdict = fair.verify(finished_kazino.pk)
    assert verdict.ok
    html = Client().get(f"/games/{finished_kazino.pk}/replay/").content.decode()
    assert 'data-status="verified"' in html
    assert verdict.roots[0] in html
    live = new_game("kazino", 2, options={"match": "single"})
    html = Client().get(f"/games/{live.pk}/replay/").content.decode()
    assert 'data-status="pending"' in html
