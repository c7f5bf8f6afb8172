"""#37 item 6: a losing player escaped a rated loss by stopping (no resignation, no claim, no clock).
Now a seat resigns, and the others claim the game of a seat that LEFT (no connection to the table for
the table's ``absent_after`` seconds); either is rated as a loss for that side. A connected seat is
never claimed against, however long it thinks (games/commands/resignation.py, games/live/presence.py). The
clock is injected: ``now``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connections

from games import bounds
from games.commands import moves, resignation
from games.commands.create import SeatSpec, create_game
from games.errors import Forbidden, ServiceError
from games.eventlog import queries, store
from games.eventlog.tables import load_table
from games.live import presence
from games.models import Game
from tests.api.helpers import Api, token_for
from tests.replay.sockets import connect, session_of, until
from tournaments.models import RatingHistory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_presence_of_earlier_runs():  # type: ignore[no-untyped-def]
    cache.clear()  # counts are keyed by game id, which a fresh test database gives out again
    yield
    cache.clear()


def _users() -> list:  # type: ignore[type-arg]
    model = get_user_model()
    return [model.objects.create_user(name) for name in ("ana", "ben")]


def rated(kind: str = Game.Kind.RATED, **kwargs) -> tuple[Game, list]:  # type: ignore[no-untyped-def,type-arg]
    people = _users()
    specs = [SeatSpec(p.username, user=p) for p in people]
    return create_game("tiny", {"players": 2, "goal": 10}, specs, kind=kind, **kwargs), people


def places(game: Game) -> dict[str, int]:
    return dict(RatingHistory.objects.filter(game_id=game.pk).values_list("rating__name", "place"))


def test_a_resignation_ends_a_rated_game_as_a_loss_and_it_is_rated():
    game, _people = rated()
    resignation.resign(game.pk, "gg", by="seat:1")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    outcome = queries.result(game.pk)
    assert outcome is not None and outcome["places"] == [1, 2] and outcome["reason"] == "resigned"
    assert places(game) == {"ana": 1, "ben": 2}
    with pytest.raises(ServiceError) as refused:
        moves.submit(game.pk, 0, {"type": "add", "n": 1}, "late", store.head(game.pk)[0])
    assert refused.value.code == "game_over"
    # The same command id again is the same resignation, not a second one.
    assert resignation.resign(game.pk, "gg", by="seat:1").duplicate


def test_a_claim_against_a_player_who_left_is_rated_as_their_loss_after_the_set_time():
    game, _people = rated(absent_after=300)
    start = game.created_at
    presence.joined(game.pk, 1)
    # Connected: never claimable, however long it thinks (no clock).
    with pytest.raises(ServiceError) as refused:
        resignation.claim(game.pk, "c1", by="seat:0", now=start + timedelta(days=1))
    assert refused.value.code == "not_absent"
    left_at = start + timedelta(hours=2)
    presence.left(game.pk, 1, now=left_at)
    with pytest.raises(ServiceError) as refused:
        resignation.claim(game.pk, "c2", by="seat:0", now=left_at + timedelta(seconds=299))
    assert refused.value.code == "not_absent"
    resignation.claim(game.pk, "c3", by="seat:0", now=left_at + timedelta(seconds=300))
    outcome = queries.result(game.pk)
    assert outcome is not None and outcome["places"] == [1, 2] and outcome["reason"] == "left"
    assert places(game) == {"ana": 1, "ben": 2}


def test_a_seat_that_never_connected_is_gone_since_the_table_was_made_or_its_last_move():
    game, _people = rated(absent_after=bounds.ABSENT_AFTER.low)
    moves.submit(game.pk, 0, {"type": "add", "n": 1}, "m0", store.head(game.pk)[0])
    moves.submit(game.pk, 1, {"type": "add", "n": 1}, "m1", store.head(game.pk)[0])
    moved = load_table(game.pk).events[-1].created_at
    with pytest.raises(ServiceError):
        resignation.claim(game.pk, "early", by="seat:0", now=moved + timedelta(seconds=59))
    resignation.claim(game.pk, "late", by="seat:0", now=moved + timedelta(seconds=60))
    assert queries.result(game.pk)["places"] == [1, 2]  # type: ignore[index]


def test_claims_are_for_rated_tables_and_never_against_ones_own_side_or_a_computer():
    game, _people = rated(kind=Game.Kind.CASUAL)
    with pytest.raises(Forbidden) as refused:
        resignation.claim(game.pk, "x", by="seat:0", now=game.created_at + timedelta(days=1))
    assert refused.value.code == "not_rated"
    ana = _users_named("cat")
    bot = create_game(
        "tiny",
        {"players": 2, "goal": 10},
        [SeatSpec("cat", user=ana), SeatSpec.computer(1, "random")],
        kind=Game.Kind.RATED,
    )
    with pytest.raises(ServiceError) as refused:
        resignation.claim(bot.pk, "y", by="seat:0", now=bot.created_at + timedelta(days=1))
    assert refused.value.code == "not_absent"


def _users_named(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(name)


def test_the_absent_time_is_bounded_in_the_api_and_the_new_table_form():
    ana = _users_named("dee")
    api = Api(token_for(ana))
    for hostile in (10**12, -5, 59, 3601, "120", 1.5, True):
        response = api.post(
            "/tables",
            {
                "game": "skyjo",
                "seats": [{"kind": "me"}, {"kind": "computer"}],
                "kind": "rated",
                "absent_after": hostile,
            },
        )
        assert response.status_code in (400, 422), (hostile, response.content)
    assert not Game.objects.exists()
    made = api.post(
        "/tables",
        {
            "game": "skyjo",
            "seats": [{"kind": "me"}, {"kind": "computer"}],
            "kind": "rated",
            "absent_after": 600,
        },
    )
    assert made.status_code == 201, made.content
    assert Game.objects.get().absent_after == 600


def test_resign_and_claim_through_the_api():
    people = _users()
    game = create_game(
        "tiny",
        {"players": 2, "goal": 10},
        [SeatSpec(p.username, user=p) for p in people],
        kind="rated",
    )
    ana = Api(token_for(people[0]))
    claimed = ana.post(f"/tables/{game.pk}/claim", {})
    assert claimed.status_code == 400 and claimed.json()["error"]["code"] == "not_absent"
    done = Api(token_for(people[1])).post(f"/tables/{game.pk}/resign", {"command_id": "bye"})
    assert done.status_code == 200, done.content
    state = ana.get(f"/tables/{game.pk}/state").json()
    assert state["finished"] and state["resigned"] == {"seat": 1, "reason": "resigned"}
    assert state["legal_actions"] == []


async def _table_and_session() -> tuple[Game, str]:
    game, people = await database_sync_to_async(rated)()
    return game, await session_of(people[1])


@pytest.mark.asyncio
async def test_a_seats_socket_counts_as_its_presence_and_resigns():
    game, session = await _table_and_session()
    connected = database_sync_to_async(presence.connected)
    ws = await connect(f"/ws/tables/{game.pk}/", session=session)
    await until(ws, "state")
    assert await connected(game.pk, 1)
    await ws.send_json_to({"type": "resign", "command_id": "ws-bye"})
    assert (await until(ws, "ack"))["command_id"] == "ws-bye"
    await ws.disconnect()
    assert not await connected(game.pk, 1)
    result = await database_sync_to_async(queries.result)(game.pk)
    assert result is not None and result["places"] == [1, 2]
    await database_sync_to_async(connections.close_all)()
