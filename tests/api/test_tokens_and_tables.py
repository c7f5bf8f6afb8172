"""Personal tokens, and the public API's tables: create, join, state, act, honest errors."""

from __future__ import annotations

import pytest

from games.access import tokens
from games.eventlog import store
from games.models import ApiToken, Game, Seat

from .helpers import Api, token_for, user

pytestmark = pytest.mark.django_db

TINY = {"game": "tiny", "options": {"goal": 50}, "seats": [{"kind": "me"}, {"kind": "open"}]}


def test_a_token_is_kept_as_a_digest_and_authenticates_its_player():
    ada = user()
    row, token = tokens.create(ada, "bot", ["play"])
    assert token.startswith("th_") and token not in {row.digest, row.prefix}
    assert ApiToken.objects.filter(digest=tokens.digest(token)).exists()
    assert not ApiToken.objects.filter(digest=token).exists()
    answer = Api(token).get("/me")
    assert answer.status_code == 200
    assert answer.json() == {"username": "ada", "token": "bot", "scopes": ["play"]}


@pytest.mark.parametrize("header", ["Bearer th_nope", "Bearer ", "Basic abc", "th_nope"])
def test_a_wrong_token_is_an_error_not_an_anonymous_caller(client, header):
    game_id = _table(Api(token_for(user())))["table"]
    for path in ("/lobby", f"/tables/{game_id}/state", "/me"):
        answer = client.get(f"/api/v1{path}", HTTP_AUTHORIZATION=header)
        assert answer.status_code == 401, path
        assert answer.json()["error"]["code"] == "bad_token"


def test_a_revoked_token_opens_nothing():
    ada = user()
    row, token = tokens.create(ada, "bot", ["play"])
    assert Api(token).get("/me").status_code == 200
    assert tokens.revoke(ada, row.pk)
    answer = Api(token).get("/me")
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "bad_token"
    assert not tokens.revoke(user("eve"), row.pk)


def test_scopes_are_checked():
    reader = Api(token_for(user(), ("read",)))
    answer = reader.post("/tables", TINY)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "missing_scope"
    assert Game.objects.count() == 0


def _table(api: Api, body: dict | None = None) -> dict:
    answer = api.post("/tables", body or TINY)
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_create_join_state_and_act():
    ada, bob = Api(token_for(user("ada"))), Api(token_for(user("bob")))
    made = _table(ada)
    game_id = made["table"]
    assert [c["seat"] for c in made["credentials"]] == [0]
    lobby = Api().get("/lobby").json()
    listed = next(t for t in lobby["tables"] if t["id"] == game_id)
    assert [s["joinable"] for s in listed["seats"]] == [False, True]
    joined = bob.post(f"/tables/{game_id}/join", {})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert Seat.objects.get(game_id=game_id, number=1).token == joined.json()["credential"]
    # Taken: nobody else joins.
    again = Api(token_for(user("cy"))).post(f"/tables/{game_id}/join", {})
    assert again.status_code == 410 and again.json()["error"]["code"] == "seat_taken"
    # No seq, no command id: applied to the table as it is, an id given by the server.
    moved = ada.post(f"/tables/{game_id}/actions", {"action": {"type": "add", "n": 2}})
    assert moved.status_code == 200, moved.content
    assert moved.json()["command_id"].startswith("api:")
    # Bob's seat credential alone plays his seat.
    seat_api = Api(seat_token=joined.json()["credential"])
    state = seat_api.get(f"/tables/{game_id}/state", seat=1).json()
    assert state["seat"] == 1 and state["to_act"] == [1] and state["legal_actions"]
    stale = seat_api.post(
        f"/tables/{game_id}/actions",
        {"seat": 1, "action": {"type": "add", "n": 1}, "expected_seq": 1, "command_id": "b1"},
    )
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_seq"
    ok = seat_api.post(
        f"/tables/{game_id}/actions",
        {"seat": 1, "action": {"type": "add", "n": 1}, "expected_seq": state["seq"], "command_id": "b1"},
    )
    assert ok.status_code == 200 and not ok.json()["duplicate"]
    retried = seat_api.post(
        f"/tables/{game_id}/actions",
        {"seat": 1, "action": {"type": "add", "n": 1}, "expected_seq": state["seq"], "command_id": "b1"},
    )
    assert retried.json()["duplicate"] and retried.json()["seq"] == ok.json()["seq"]


def test_a_missing_field_is_a_bad_request_that_names_it():
    ada = Api(token_for(user()))
    game_id = _table(ada)["table"]
    seq = store.head(game_id)[0]
    answer = ada.post(f"/tables/{game_id}/actions", {"seat": 0})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_request" and error["fields"] == ["action"] and "action" in error["message"]
    no_seats = ada.post("/tables", {"game": "tiny"})
    assert no_seats.status_code == 400 and no_seats.json()["error"]["fields"] == ["seats"]
    not_json = ada.post(f"/tables/{game_id}/actions", "{nope")
    assert not_json.status_code == 400 and not_json.json()["error"]["code"] in ("bad_json", "bad_request")
    assert store.head(game_id)[0] == seq


def test_unknown_tables_are_404():
    ada = Api(token_for(user()))
    for path in ("/tables/999999/state", "/tables/99999999999999999999/state", "/tables/999999/history"):
        answer = ada.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"]["code"] == "unknown_game"
    answer = ada.post("/tables/999999/actions", {"action": {"type": "add", "n": 1}})
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_game"


def test_a_seat_not_yours_is_refused_and_nothing_changes():
    ada, eve = Api(token_for(user("ada"))), Api(token_for(user("eve")))
    game_id = _table(ada)["table"]
    seq = store.head(game_id)[0]
    for who, body in ((eve, {"seat": 0}), (eve, {}), (Api(seat_token="nope"), {"seat": 0})):
        answer = who.post(f"/tables/{game_id}/actions", {**body, "action": {"type": "add", "n": 1}})
        assert answer.status_code in (400, 403), answer.content
        assert answer.json()["error"]["code"] in ("not_your_seat", "bad_request")
    spectator = Api(seat_token="nope").get(f"/tables/{game_id}/state")
    assert spectator.status_code == 403 and spectator.json()["error"]["code"] == "not_your_seat"
    assert store.head(game_id)[0] == seq


def test_the_schema_is_generated():
    schema = Api().get("/schema").json()
    assert {"/api/v1/tables", "/api/v1/tables/{table}/actions", "/api/v1/lobby"} <= set(schema["paths"])


def test_tables_made_per_token_are_limited(settings):
    settings.API_TABLES_RATE_LIMIT = "2/m"
    ada = Api(token_for(user()))
    assert [ada.post("/tables", TINY).status_code for _ in range(2)] == [201, 201]
    refused = ada.post("/tables", TINY)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert refused["Retry-After"] == "1"
    assert Game.objects.count() == 2


def test_updates_since_a_seq_are_what_the_socket_sent():
    ada = Api(token_for(user()))
    made = _table(ada)
    game_id, start = made["table"], made["seq"]
    bob = Api(token_for(user("bob")))
    assert bob.post(f"/tables/{game_id}/join", {}).status_code == 200
    for n in range(3):
        who = ada if n % 2 == 0 else bob
        assert who.post(f"/tables/{game_id}/actions", {"action": {"type": "add", "n": 1}}).status_code == 200
    answer = ada.get(f"/tables/{game_id}/updates", since=start, seat=0).json()
    assert answer["state"] is None
    seqs = [u["seq"] for u in answer["updates"]]
    assert len(seqs) == 3 and [u["since"] for u in answer["updates"]] == [start, *seqs[:-1]]
    assert all(u["seat"] == 0 for u in answer["updates"])
    public = Api().get(f"/tables/{game_id}/updates", since=start).json()
    assert [u["seat"] for u in public["updates"]] == [None] * 3
    too_old = Api().get(f"/tables/{game_id}/updates", since=start + 1000).json()
    assert too_old["updates"] is None and too_old["state"]["seq"] == seqs[-1]
    missing = Api().get(f"/tables/{game_id}/updates")
    assert missing.status_code == 400 and missing.json()["error"]["fields"] == ["since"]


def test_register_for_a_tournament_and_read_its_standings():
    from tournaments import service as tournaments

    organiser = user("org")
    cup = tournaments.create("API Cup", "kazino", "swiss", {}, by=organiser)
    ada = Api(token_for(user("ada")))
    first = ada.post(f"/tournaments/{cup.pk}/register", {})
    assert first.status_code == 200 and first.json()["entrant"] == 1
    again = ada.post(f"/tournaments/{cup.pk}/register", {})
    assert again.status_code == 400 and again.json()["error"]["code"] == "already_registered"
    read = Api().get(f"/tournaments/{cup.pk}").json()
    assert read["name"] == "API Cup" and [s["name"] for s in read["standings"]] == ["ada"]
    assert Api().get("/tournaments/99999999999999999999").json()["error"]["code"] == "unknown_tournament"


@pytest.mark.parametrize("game", ["kazino", "dominoes", "skyjo", "pitch"])
def test_nobody_may_stack_the_deal_of_a_table(game):
    """The engines take a stacked deck for lessons and the rules' pictures; a table asked for over
    the API is always shuffled, rated or casual (else its maker knows every hand)."""
    ada = Api(token_for(user()))
    before = Game.objects.count()
    for kind in ("rated", "casual"):
        body = {
            "game": game,
            "kind": kind,
            "options": {"deck": ["AS"]},
            "seats": [{"kind": "me"}, {"kind": "open"}],
        }
        answer = ada.post("/tables", body)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "unknown_option", (
            answer.content
        )
    assert Game.objects.count() == before


def test_an_unknown_address_and_a_wrong_method_answer_in_the_api_s_shape(client):
    """A client switches on the code: no HTML page, in the reader's language."""
    answer = client.get("/api/v1/no-such-thing")
    assert answer.status_code == 404 and answer["Content-Type"].startswith("application/json")
    assert answer.json()["error"]["code"] == "not_found"
    answer = client.delete("/api/v1/tables")
    assert answer.status_code == 405 and answer["Allow"] == "POST"
    error = answer.json()["error"]
    assert (
        error["code"] == "method_not_allowed" and "DELETE" in error["message"] and "POST" in error["message"]
    )
    kreyol = client.delete("/api/v1/tables", headers={"accept-language": "ht"}).json()["error"]["message"]
    assert kreyol != error["message"] and "DELETE" in kreyol
    # Pages outside the API keep the site's own 404 page.
    assert client.get("/no-such-page/")["Content-Type"].startswith("text/html")
