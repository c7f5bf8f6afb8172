"""Hand histories over the API: who may read which perspective, and when."""

from __future__ import annotations

import pytest

from games.access import tokens
from games.commands import moves
from games.commands.create import SeatSpec, create_game
from games.eventlog.tables import load_table
from games.models import DealGroup

from .helpers import Api, token_for, user

pytestmark = pytest.mark.django_db


def _finished_duplicate(organiser, players):
    """A tiny game of a duplicate deal group (its deal still played elsewhere), played to its end."""
    seats = [SeatSpec(p.username, user=p) for p in players]
    game = create_game("tiny", {"players": 2, "goal": 3}, seats, created_by=organiser, deal=("grp", 0))
    while (table := load_table(game.pk)).outcome() is None:
        moves.submit(game.pk, table.to_act()[0], {"type": "add", "n": 1}, f"m{table.seq}", table.seq)
    return game


def test_a_secret_deal_is_read_by_its_players_and_the_organiser_only():
    organiser, ada, bob = user("org"), user("ada"), user("bob")
    game = _finished_duplicate(organiser, [ada, bob])
    path = f"/tables/{game.pk}/history"
    # Whoever may not see the table is told there is none (games.access.seats.may_see; tests/tournaments/
    # test_secret_tables.py has every path); its other player, that it is not theirs to read yet.
    public = Api().get(path, perspective="public")
    assert public.status_code == 404 and public.json()["error"]["code"] == "unknown_game"
    other = Api(token_for(bob)).get(path, perspective="0")
    assert other.status_code == 403 and other.json()["error"]["code"] == "deal_secret"
    own = Api(token_for(ada)).get(path, perspective="0")
    assert own.status_code == 200 and own.json()["perspective"] == 0
    everything = Api(tokens.create(organiser, "org", ["organise"])[1]).get(path, perspective="all")
    assert everything.status_code == 200 and everything.json()["head"]
    # Released: anyone reads any perspective but "all".
    DealGroup.objects.filter(key="grp").update(closed=True)
    assert Api().get(path, perspective="public").status_code == 200
    assert Api().get(path, perspective="1").status_code == 200
    assert Api(token_for(bob)).get(path, perspective="all").json()["error"]["code"] == "missing_scope"


def test_views_on_demand_and_bad_perspectives():
    organiser, ada, bob = user("org"), user("ada"), user("bob")
    game = _finished_duplicate(organiser, [ada, bob])
    DealGroup.objects.filter(key="grp").update(closed=True)
    path = f"/tables/{game.pk}/history"
    none = Api().get(path, views="none").json()
    assert none["views"] == {}
    last = Api().get(path).json()
    assert list(last["views"]) == [str(max(h["last"] for h in last["hands"]))]
    for bad in ({"perspective": "7"}, {"perspective": "nobody"}, {"at": "1,x"}, {"views": "every"}):
        answer = Api().get(path, **bad)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request", bad
        assert answer.json()["error"]["fields"]
