"""Which socket the table page opens: spectators watch through the edge when there is one
(SPECTATOR_SOCKET, infra/edge/); players always play through Daphne's table socket."""

from __future__ import annotations

import pytest

from games.live import publish
from games.models import Game

pytestmark = pytest.mark.django_db


def test_spectators_are_sent_to_the_edge_and_players_to_daphne(client, settings):
    settings.SPECTATOR_SOCKET = "/ws/watch/"
    response = client.post(
        "/new/pitch/", {"players": "2", "target": "7", "seat0": "me", "seat1": "bot:greedy"}
    )
    game = Game.objects.get()
    assert client.get(response["Location"]).context["client"]["socket"] == f"/ws/tables/{game.pk}/"
    client.cookies.clear()  # another browser: holds no seat, watches
    assert client.get(f"/tables/{game.pk}/").context["client"]["socket"] == f"/ws/watch/{game.pk}/"


def test_without_an_edge_spectators_watch_through_daphne(client, settings):
    settings.SPECTATOR_SOCKET = ""
    client.post("/new/pitch/", {"players": "2", "target": "7", "seat0": "me", "seat1": "bot:greedy"})
    game = Game.objects.get()
    client.cookies.clear()
    assert client.get(f"/tables/{game.pk}/").context["client"]["socket"] == f"/ws/tables/{game.pk}/"


def test_the_embedded_mode_publishes_nothing_for_an_edge(settings):
    """The in-memory layer has no Redis: nothing is published for an edge even if one is named."""
    from channels.layers import InMemoryChannelLayer

    settings.SPECTATOR_SOCKET = "/ws/watch/"
    assert not publish.edge_enabled(InMemoryChannelLayer())
