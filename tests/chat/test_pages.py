"""The chat on the pages: the table page offers it to the players of a table that allows it (never to a
spectator), the tournament form's "Chat at the tables" sets the option, and the staff read reports in
the admin."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.http import QueryDict

from chat import service
from chat.models import Report
from frontend.tournament_new import _posted
from games.commands.create import SeatSpec, create_game
from games.live.consumers import Speaker
from games.models import Seat

from .test_service import tournament_table

pytestmark = pytest.mark.django_db


def config(client, game_id: int) -> dict:  # type: ignore[no-untyped-def,type-arg]
    page = client.get(f"/tables/{game_id}/").content.decode()
    found = re.search(r'<script id="table-config" type="application/json">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


def test_the_table_page_offers_the_chat_to_its_players_only(client):
    user = get_user_model().objects.create_user("ana")
    game = create_game("tiny", {"players": 2, "goal": 10}, [SeatSpec("ana", user=user), SeatSpec("P1")])
    assert config(client, game.pk)["chat"] is False  # a spectator
    assert 'id="chat"' not in client.get(f"/tables/{game.pk}/").content.decode()
    client.force_login(user)
    assert config(client, game.pk)["chat"] is True
    page = client.get(f"/tables/{game.pk}/").content.decode()
    assert 'id="chat"' in page and 'maxlength="200"' in page and 'aria-live="polite"' in page


def test_a_tournament_table_offers_it_only_when_the_organiser_allows_it(client):
    user = get_user_model().objects.create_user("ben")
    closed, opened = tournament_table({}), tournament_table({"chat": True})
    Seat.objects.filter(game__in=[closed, opened], number=0).update(user=user)
    client.force_login(user)
    assert config(client, closed.pk)["chat"] is False
    assert config(client, opened.pk)["chat"] is True


def test_the_tournament_form_sets_the_option_only_when_ticked():
    assert _posted(QueryDict("game=pitch&format=swiss&chat=on"))[2]["chat"] is True
    assert "chat" not in _posted(QueryDict("game=pitch&format=swiss"))[2]


def test_the_staff_read_the_reports_in_the_admin(client):
    game = create_game("tiny", {"players": 2, "goal": 10}, [SeatSpec("P0"), SeatSpec("P1")])
    tokens = {s.number: s.token for s in Seat.objects.filter(game=game)}
    message = service.say(Speaker(game.pk, 0, tokens[0], None), {"text": "rude words"})
    service.report(Speaker(game.pk, 1, tokens[1], None), {"id": message.pk})
    assert Report.objects.count() == 1
    staff = get_user_model().objects.create_user("staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    page = client.get("/admin/chat/report/")
    assert page.status_code == 200 and "rude words" in page.content.decode()
