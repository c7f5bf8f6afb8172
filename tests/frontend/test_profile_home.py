"""The profile as a player's home (#33): their games in play first, their turn marked; their finished
games with opponents and result, checked against each game's own outcome; their ratings."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games.eventlog.tables import load_table
from games.models import Game
from tests.replay.play import new_game, play
from tournaments.models import Rating

pytestmark = pytest.mark.django_db(transaction=True)


def _section(html: str, ident: str) -> str:
    found = re.search(rf'<section[^>]*id="{ident}">(.*?)</section>', html, re.S)
    return found.group(1) if found else ""


def test_the_profile_lists_games_in_play_first_then_finished_ones_with_their_result(client):
    ana = get_user_model().objects.create_user("ana", password="pw-home-1")
    other = get_user_model().objects.create_user("ben", password="pw-home-2")
    waiting = new_game("kazino", 2, options={"match": "single"}, humans={0: ana}, seed=1)
    finished = [new_game("kazino", 2, options={"match": "single"}, humans={0: ana}, seed=s) for s in (2, 3)]
    for game in finished:
        play(game)
    not_mine = new_game("kazino", 2, options={"match": "single"}, humans={0: other}, seed=4)
    Rating.objects.create(player=f"user:{ana.pk}", name="ana", game="kazino", mu=27.0, sigma=2.0, games=3)
    client.force_login(ana)
    html = client.get("/accounts/profile/").content.decode()
    live = _section(html, "my-live")
    assert f'data-table="{waiting.pk}"' in live and f'data-table="{not_mine.pk}"' not in live
    to_act = load_table(waiting).to_act()
    assert ("Your turn" in live) == (0 in to_act)
    done = _section(html, "my-finished")
    for game in finished:
        assert f'data-table="{game.pk}"' in done
        place = load_table(Game.objects.get(pk=game.pk)).outcome()["places"][0]
        row = re.search(rf'<li data-table="{game.pk}">(.*?)</li>', done, re.S).group(1)
        assert ("won" in row) == (place == 1), row
    assert "Kazino" in _section(html, "my-ratings") and "21.0" in _section(html, "my-ratings")
