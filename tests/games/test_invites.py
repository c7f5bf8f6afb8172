"""Invites (games/access/invites.py): one per open seat, claimed once, expiring, renewed for the players."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.access import invites, seats
from games.commands import controls
from games.commands.create import SeatSpec, create_game
from games.models import Game, Invite, Seat
from tests.frontend.catalogues import english_on_page, english_only_phrases

pytestmark = pytest.mark.django_db


def _table(open_seats: int = 1, owner: object = None) -> Game:
    specs = [SeatSpec("owner", user=owner)] + [
        SeatSpec("Open seat", awaiting_player=True) for _ in range(open_seats)
    ]
    return create_game("tiny", {"players": len(specs), "goal": 50}, specs)


def _code(game: Game, number: int = 1) -> str:
    return Invite.objects.get(seat__game=game, seat__number=number, used_at__isnull=True).code


def test_every_open_seat_gets_an_invite_of_its_own_and_no_other_seat_does():
    game = _table(open_seats=2)
    rows = Invite.objects.filter(seat__game=game).select_related("seat")
    assert sorted(i.seat.number for i in rows) == [1, 2]
    codes = {i.code for i in rows}
    assert len(codes) == 2 and not codes & {s.token for s in Seat.objects.filter(game=game)}
    assert all(i.expires_at - i.created_at == invites.LIFETIME and i.used_at is None for i in rows)


def test_a_claim_gives_the_browser_a_new_session_key():
    """A key planted in the browser before the claim (session fixation) must not get the seat."""
    game = _table()
    friend = Client()
    friend.get("/")
    session = friend.session
    session["planted"] = True
    session.save()
    planted = friend.cookies["sessionid"].value
    assert friend.post(f"/tables/{game.pk}/invite/{_code(game)}/").status_code == 302
    assert friend.cookies["sessionid"].value != planted and friend.session.get("planted")
    other = Client()
    other.cookies["sessionid"] = planted
    assert other.get(f"/tables/{game.pk}/").context["client"]["seats"] == []


def test_a_signed_in_claimer_takes_the_seat_for_the_account():
    ana = get_user_model().objects.create_user("ana")
    game = _table()
    before = Seat.objects.get(game=game, number=1).token
    seat = invites.claim(game.pk, _code(game), user=ana)
    row = Seat.objects.get(game=game, number=1)
    assert (row.user, row.display_name, row.awaiting_player) == (ana, "ana", False)
    assert row.token == seat.token != before
    assert seats.holds(seats.Requester(user=ana), game, 1) == row


@pytest.mark.parametrize(
    ("spoil", "code", "status"),
    [
        ("expire", "invite_expired", 410),
        ("finish", "game_over", 410),
        ("abandon", "game_over", 410),
        ("take", "seat_taken", 410),
    ],
)
def test_an_invite_that_cannot_be_claimed_grants_nothing(spoil: str, code: str, status: int):
    game = _table()
    invite = Invite.objects.get(seat__game=game)
    if spoil == "expire":
        Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    elif spoil == "finish":
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    elif spoil == "abandon":
        controls.abandon(game.pk, "abandon-1", reason="test", by="system")
    else:
        invites.claim(game.pk, invite.code, user=None)
    before = Seat.objects.filter(game=game).values_list("awaiting_player", "user", "display_name", "token")
    before = list(before)
    client = Client()
    for method in (client.get, client.post):
        response = method(f"/tables/{game.pk}/invite/{invite.code}/")
        assert response.status_code == status and response.context["message"]
    with pytest.raises(invites.Gone) as refused:
        invites.claim(game.pk, invite.code, user=None)
    assert refused.value.code == code
    after = Seat.objects.filter(game=game).values_list("awaiting_player", "user", "display_name", "token")
    assert list(after) == before and not client.session.get(seats.SESSION_KEY)


@pytest.mark.parametrize("table", ["unknown", "other", "huge"])
def test_an_invite_is_unknown_at_another_table(table: str):
    game, other = _table(), _table()
    game_id = {"unknown": 999_999_999, "other": other.pk, "huge": 10**20}[table]
    response = Client().post(f"/tables/{game_id}/invite/{_code(game)}/")
    assert response.status_code == 404
    if table != "huge":  # an id past 64 bits matches no route at all (games/ids.py): Django's own 404
        assert response.context["message"] == "There is no such invite."
    assert Seat.objects.get(game=game, number=1).awaiting_player


def test_an_expired_invite_is_renewed_for_the_players_at_the_table():
    owner = get_user_model().objects.create_user("owner")
    game = _table(owner=owner)
    old = Invite.objects.get(seat__game=game)
    Invite.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    client = Client()
    client.force_login(owner)
    [link] = client.get(f"/tables/{game.pk}/").context["invites"]
    fresh = Invite.objects.get(seat__game=game, expires_at__gt=timezone.now())
    assert fresh.code != old.code and link["url"].endswith(f"/tables/{game.pk}/invite/{fresh.code}/")
    assert client.get(f"/tables/{game.pk}/").context["invites"] == [link]  # the same one, not another
    # A spectator's page shows no invite (and makes none).
    assert not Client().get(f"/tables/{game.pk}/").context["invites"]
    assert Invite.objects.filter(seat__game=game).count() == 2
    # The claim spends every invite of the seat.
    invites.claim(game.pk, fresh.code, user=None)
    assert not Invite.objects.filter(seat__game=game, used_at__isnull=True).exists()
    assert not client.get(f"/tables/{game.pk}/").context["invites"]


def test_a_finished_table_shows_no_invite():
    owner = get_user_model().objects.create_user("owner")
    game = _table(owner=owner)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    client = Client()
    client.force_login(owner)
    assert not client.get(f"/tables/{game.pk}/").context["invites"]


@pytest.mark.parametrize("language", ["ht", "tl"])
def test_the_invite_pages_speak_the_readers_language(language: str):
    game = _table(open_seats=2)
    spent = _code(game, 2)
    invites.claim(game.pk, spent, user=None)
    phrases = english_only_phrases(language)
    for url, status in (
        (f"/tables/{game.pk}/invite/{_code(game)}/", 200),
        (f"/tables/{game.pk}/invite/{spent}/", 410),
        (f"/tables/{game.pk}/invite/no-such-code/", 404),
        (f"/tables/{game.pk}/join/an-old-link/", 410),
    ):
        page = Client().get(url, HTTP_ACCEPT_LANGUAGE=language)
        main = re.search(r"<main>(.*)</main>", page.content.decode(), re.S).group(1)  # type: ignore[union-attr]
        text = html.unescape(re.sub(r"<[^>]+>", " ", main))
        assert page.status_code == status and not english_on_page(text, phrases), (url, text)
