"""Comments pinned to a moment: written, listed, pushed live, hidden by a moderator, refused when bad."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import Client

from games.models import Game
from replay import frames
from replay.models import Annotation

from .play import new_game, play
from .sockets import connect, drain, session_of, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people(django_user_model: Any) -> dict[str, Any]:
    return {
        name: django_user_model.objects.create_user(name, is_staff=name == "staff")
        for name in ("owner", "ann", "ben", "staff")
    }


@pytest.fixture
def finished(people: dict[str, Any]) -> Game:
    game = new_game("dominoes", 2, options={"target": 10}, created_by=people["owner"])
    play(game)
    return game


def client_for(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def url(game: Game, note: int | None = None) -> str:
    return f"/games/{game.pk}/replay/comments/" + (f"{note}/" if note else "")


def seq_of(game: Game, index: int) -> int:
    return frames.load(game.pk).moments[index].seq


def listed(game: Game, user: Any = None) -> list[dict[str, Any]]:
    response = client_for(user).get(url(game))
    assert response.status_code == 200
    return list(response.json()["comments"])


def test_a_comment_is_pinned_to_a_moment_and_listed_for_everyone(
    finished: Game, people: dict[str, Any]
) -> None:
    seq = seq_of(finished, 3)
    response = client_for(people["ann"]).post(
        url(finished), {"seq": seq, "text": "  Why not the 6-6 here?  "}
    )
    assert response.status_code == 201
    note = response.json()["comment"]
    assert (note["seq"], note["text"], note["author"], note["hidden"]) == (
        seq,
        "Why not the 6-6 here?",
        "ann",
        False,
    )
    for reader in (None, people["ben"], people["owner"]):
        assert [n["id"] for n in listed(finished, reader)] == [note["id"]]
    assert Annotation.objects.get(pk=note["id"]).author == people["ann"]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"seq": "3", "text": ""}, "empty_comment"),
        ({"seq": "3", "text": "   \n "}, "empty_comment"),
        ({"seq": "3"}, "empty_comment"),
        ({"seq": "3", "text": "x" * 1001}, "comment_too_long"),
        ({"seq": "soon", "text": "hi"}, "bad_seq"),
        ({"text": "hi"}, "bad_seq"),
        ({"seq": "99999", "text": "hi"}, "no_such_moment"),
        ({"seq": "-1", "text": "hi"}, "no_such_moment"),
    ],
)
def test_bad_comments_are_refused_with_a_code_and_store_nothing(
    finished: Game, people: dict[str, Any], fields: dict[str, str], code: str
) -> None:
    response = client_for(people["ann"]).post(url(finished), fields)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert not Annotation.objects.exists()


def test_a_thousand_characters_is_the_most(finished: Game, people: dict[str, Any]) -> None:
    response = client_for(people["ann"]).post(url(finished), {"seq": seq_of(finished, 1), "text": "x" * 1000})
    assert response.status_code == 201


def test_signing_in_is_needed_to_comment(finished: Game) -> None:
    response = client_for().post(url(finished), {"seq": seq_of(finished, 1), "text": "hi"})
    assert response.status_code == 403 and response.json()["error"]["code"] == "sign_in"
    assert not Annotation.objects.exists()


def test_the_organiser_hides_a_comment_for_everyone_else_and_the_row_stays(
    finished: Game, people: dict[str, Any]
) -> None:
    note = (
        client_for(people["ann"])
        .post(url(finished), {"seq": seq_of(finished, 2), "text": "rude"})
        .json()["comment"]
    )
    response = client_for(people["owner"]).post(url(finished, note["id"]), {"hidden": "1"})
    assert response.status_code == 200 and response.json()["comment"]["hidden"] is True
    assert listed(finished, None) == [] and listed(finished, people["ben"]) == []
    assert [n["hidden"] for n in listed(finished, people["owner"])] == [True], "moderators still see it"
    assert [n["id"] for n in listed(finished, people["ann"])] == [note["id"]], "its author still sees it"
    row = Annotation.objects.get(pk=note["id"])
    assert row.text == "rude" and row.hidden and row.hidden_by == people["owner"] and row.hidden_at
    # Staff may show it again.
    response = client_for(people["staff"]).post(url(finished, note["id"]), {"hidden": "0"})
    assert response.status_code == 200
    assert [n["id"] for n in listed(finished, None)] == [note["id"]]
    assert Annotation.objects.get(pk=note["id"]).hidden_by is None


def test_others_cannot_hide_and_bad_moderation_is_refused(finished: Game, people: dict[str, Any]) -> None:
    note = (
        client_for(people["ann"])
        .post(url(finished), {"seq": seq_of(finished, 2), "text": "fine"})
        .json()["comment"]
    )
    for user in (people["ann"], people["ben"], None):
        response = client_for(user).post(url(finished, note["id"]), {"hidden": "1"})
        assert response.status_code == 403 and response.json()["error"]["code"] == "not_moderator"
    owner = client_for(people["owner"])
    response = owner.post(url(finished, note["id"]), {"hidden": "maybe"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_hidden"
    response = owner.post(url(finished, 999999), {"hidden": "1"})
    assert response.status_code == 404 and response.json()["error"]["code"] == "no_such_comment"
    assert owner.get(url(finished, note["id"])).status_code == 405
    assert not Annotation.objects.get(pk=note["id"]).hidden


def test_during_a_game_only_its_players_comment_and_only_for_themselves(people: dict[str, Any]) -> None:
    game = new_game("dominoes", 2, options={"target": 1000}, humans={0: people["ann"]})
    play(game, moves=6)
    seq = seq_of(game, 2)
    response = client_for(people["ben"]).post(url(game), {"seq": seq, "text": "I think she holds 6-6"})
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_a_player"
    response = client_for(people["ann"]).post(url(game), {"seq": seq, "text": "I hold the 6-6"})
    assert response.status_code == 201
    assert len(listed(game, people["ann"])) == 1
    assert listed(game, people["ben"]) == [] and listed(game, None) == []
    assert listed(game, people["staff"]) == [], "not even moderators read a player's notes during the game"


@pytest.mark.asyncio
async def test_a_new_or_hidden_comment_is_pushed_to_everyone_watching(
    finished: Game, people: dict[str, Any]
) -> None:
    watchers = [
        await connect(f"/ws/replays/{finished.pk}/", await session_of(user))
        for user in (None, people["owner"])
    ]
    for ws in watchers:
        await until(ws, "ready")
        await drain(ws)
    post = database_sync_to_async(lambda user, path, data: client_for(user).post(path, data).json())
    seq = await database_sync_to_async(seq_of)(finished, 4)
    note = (await post(people["ann"], url(finished), {"seq": seq, "text": "nice block"}))["comment"]
    for ws in watchers:
        pushed = await until(ws, "comment")
        assert pushed["comment"]["id"] == note["id"] and pushed["comment"]["text"] == "nice block"
    await post(people["owner"], url(finished, note["id"]), {"hidden": "1"})
    assert (await until(watchers[0], "comment_removed"))["id"] == note["id"]
    assert (await until(watchers[1], "comment"))["comment"]["hidden"] is True
    for ws in watchers:
        await ws.disconnect()
    await database_sync_to_async(connections.close_all)()
