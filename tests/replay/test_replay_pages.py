"""The replay page, its links to a moment, and opening a room: what the page says and promises."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games.eventlog.streams import open_stream
from games.models import Event, Game
from replay import access, frames
from replay.frames import ALL, PUBLIC
from replay.models import Room

from .play import new_game, play

pytestmark = pytest.mark.django_db

CONFIG = re.compile(r'<script id="replay-config" type="application/json">(.*?)</script>', re.S)


def config_of(response: Any) -> dict[str, Any]:
    assert response.status_code == 200
    found = CONFIG.search(response.content.decode())
    assert found, "the page carries its client config"
    return dict(json.loads(found.group(1)))


def test_a_finished_game_offers_every_seat_the_spectators_and_all_cards(finished_kazino: Game) -> None:
    response = Client().get(f"/games/{finished_kazino.pk}/replay/")
    config = config_of(response)
    replay = frames.load(finished_kazino.pk)
    assert config["perspectives"] == [0, 1, PUBLIC, ALL]
    assert config["finished"] is True and config["engine"] == "kazino"
    assert config["socket"] == f"/ws/replays/{finished_kazino.pk}/"
    assert config["position"] == {"index": 0, "seq": replay.moments[0].seq, "hand": 1, "perspective": PUBLIC}
    assert config["hands"] == [list(h) for h in access.hand_spans(replay)]
    assert config["hands"][0][:2] == [1, 0], "the setup is shown with the first hand, not as a hand 0"
    assert [s["name"] for s in config["seats"]] == ["Computer 1 (Beginner)", "Computer 2 (Beginner)"]
    assert config["can_comment"] is False and config["open_room"] is None
    seed = str(Event.objects.get(game=finished_kazino, seq=1).data["seed"])
    assert seed not in response.content.decode(), "the page holds no picture and no seed"


def test_a_link_lands_on_that_moment_from_that_perspective(finished_kazino: Game) -> None:
    replay = frames.load(finished_kazino.pk)
    moment = replay.moments[17]
    config = config_of(Client().get(f"/games/{finished_kazino.pk}/replay/?at={moment.seq}&as=1"))
    assert config["position"] == {
        "index": 17,
        "seq": moment.seq,
        "hand": access.hand_at(replay, 17),
        "perspective": 1,
    }
    assert config["notice"] == ""
    config = config_of(Client().get(f"/games/{finished_kazino.pk}/replay/?at={moment.seq}&as=all"))
    assert config["position"]["perspective"] == ALL


def test_a_link_to_what_the_viewer_may_not_see_opens_the_spectators_view_with_a_notice(
    django_user_model: Any,
) -> None:
    ann = django_user_model.objects.create_user("ann")
    game = new_game("pitch", 2, humans={0: ann})
    play(game, moves=8)
    replay = frames.load(game.pk)
    seq = replay.moments[4].seq
    for as_ in ("0", "1", "all"):
        config = config_of(Client().get(f"/games/{game.pk}/replay/?at={seq}&as={as_}"))
        assert config["position"]["perspective"] == PUBLIC and config["position"]["seq"] == seq
        assert "You see what spectators saw." in config["notice"]
        assert config["perspectives"] == [PUBLIC]
    player = Client()
    player.force_login(ann)
    config = config_of(player.get(f"/games/{game.pk}/replay/?at={seq}&as=0"))
    assert config["position"]["perspective"] == 0 and config["notice"] == ""
    assert config["perspectives"] == [0, PUBLIC] and config["mine"] == [0]
    assert config["can_comment"] is True
    config = config_of(player.get(f"/games/{game.pk}/replay/"))
    assert config["position"]["index"] == len(replay.moments) - 1, "a live game opens at now"


@pytest.mark.parametrize("query", ["?at=soon", "?as=everyone", "?at=&as=", "?at=99999999&as=0"])
def test_a_bad_link_still_opens_the_replay(finished_kazino: Game, query: str) -> None:
    config = config_of(Client().get(f"/games/{finished_kazino.pk}/replay/{query}"))
    assert 0 <= config["position"]["index"] < len(frames.load(finished_kazino.pk).moments)


@pytest.mark.parametrize("query", ["?at=" + "9" * 5000, "?as=" + "x" * 100])
def test_a_link_past_its_bound_is_read_by_its_form_as_a_bad_link(finished_kazino: Game, query: str) -> None:
    """#32: ``at``/``as`` are cut at their bound by PositionForm before anything reads them."""
    response = Client().get(f"/games/{finished_kazino.pk}/replay/{query}", HTTP_ACCEPT_LANGUAGE="en")
    config = config_of(response)
    assert 0 <= config["position"]["index"] < len(frames.load(finished_kazino.pk).moments)
    assert config["notice"], "the page says the link was not understood"


def test_unknown_games_and_streams_have_no_replay(finished_kazino: Game) -> None:
    assert Client().get("/games/999999/replay/").status_code == 404
    stream = open_stream("tests")
    assert Client().get(f"/games/{stream}/replay/").status_code == 404
    assert Client().get("/replays/rooms/nothing-here/").status_code == 404


def test_opening_a_room_needs_an_account_and_lands_in_the_room(
    finished_kazino: Game, django_user_model: Any
) -> None:
    response = Client().post(f"/games/{finished_kazino.pk}/replay/rooms/", {"at": "", "as": ""})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Room.objects.exists()
    coach = django_user_model.objects.create_user("coach")
    client = Client()
    client.force_login(coach)
    assert client.get(f"/games/{finished_kazino.pk}/replay/rooms/").status_code == 405
    replay = frames.load(finished_kazino.pk)
    seq = replay.moments[9].seq
    response = client.post(f"/games/{finished_kazino.pk}/replay/rooms/", {"at": seq, "as": "all"})
    room = Room.objects.get()
    assert response["Location"] == f"/replays/rooms/{room.key}/"
    assert (room.driver, room.created_by, room.seq, room.perspective) == (coach, coach, seq, "all")
    config = config_of(client.get(response["Location"]))
    assert config["socket"] == f"/ws/replays/rooms/{room.key}/"
    assert config["room"]["key"] == room.key
    assert config["position"]["seq"] == seq and config["position"]["perspective"] == ALL
    # Anyone with the link may watch: as spectators where the driver's perspective is closed to them.
    assert config_of(Client().get(response["Location"]))["position"]["seq"] == seq


def test_the_table_of_a_finished_game_links_to_its_replay(finished_kazino: Game) -> None:
    page = Client().get(f"/tables/{finished_kazino.pk}/").content.decode()
    assert f'href="/games/{finished_kazino.pk}/replay/"' in page
    live = new_game("kazino", 2, options={"match": "single"})
    assert f'href="/games/{live.pk}/replay/"' not in Client().get(f"/tables/{live.pk}/").content.decode()


def test_a_replay_page_asked_again_does_not_fold_its_game_again(
    finished_kazino: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#37: the page folded the whole log at every request (its fair-deal check: 16,000 events,
    1.3 s). A finished game's log never changes: asked again, the page reads no log and applies no
    event; a move stored since is a new head and is checked again."""
    from games import engines
    from games.eventlog import store

    engine = engines.get("kazino")  # a module: the folds call its functions by name
    counted = {"apply": 0, "replay": 0, "store.load": 0}

    def counting(name: str, real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(engine, "apply", counting("apply", engine.apply))
    monkeypatch.setattr(engine, "replay", counting("replay", engine.replay))
    monkeypatch.setattr(store, "load", counting("store.load", store.load))
    frames.forget_all()  # (a new game: no verdict of it is kept either)
    first = Client().get(f"/games/{finished_kazino.pk}/replay/")
    assert counted["store.load"] >= 1 and counted["apply"] + counted["replay"] >= 1, "the first one folds"
    status = re.search(r'data-status="(\w+)"', first.content.decode())
    assert status and status.group(1) == "verified"
    counted.update({k: 0 for k in counted})
    second = Client().get(f"/games/{finished_kazino.pk}/replay/")
    assert counted == {"apply": 0, "replay": 0, "store.load": 0}
    assert {**config_of(second), "csrf": ""} == {**config_of(first), "csrf": ""}
    assert re.search(r'data-status="(\w+)"', second.content.decode()).group(1) == "verified"  # type: ignore[union-attr]
    # Another language is checked in its own words, once.
    Client().get(f"/games/{finished_kazino.pk}/replay/", HTTP_ACCEPT_LANGUAGE="tl")
    counted.update({k: 0 for k in counted})
    Client().get(f"/games/{finished_kazino.pk}/replay/", HTTP_ACCEPT_LANGUAGE="tl")
    assert counted == {"apply": 0, "replay": 0, "store.load": 0}
