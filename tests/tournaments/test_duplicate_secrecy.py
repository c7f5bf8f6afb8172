"""A duplicate round where one table runs ahead: nothing of a deal leaks before every table has played it.

Game n of every table of a duplicate round is dealt the same cards. When a fast table finishes its
game 2 before a slow table has even created its own, that game — its play, replay, review, export,
comments, result and rating — must stay as secret as a live game until the slow table has played
the deal too. Checked through every path a spectator or another player could take.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from games.computers import autoplay
from games.eventlog import store
from games.eventlog.tables import load_table
from games.live import publish
from replay import frames
from replay.export import Refused, export_game
from replay.frames import ALL
from tests.replay.sockets import connect, load, session_of, until
from tournaments import deals, projection, service, simulate
from tournaments.models import Entry, Match, RatingHistory, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def play_out(game_id: int) -> None:
    """Play a game of computer seats to its end (no worker runs in tests)."""
    for _ in range(5000):
        table = load_table(game_id)
        if table.outcome() is not None:
            return
        assert autoplay.play_bot_turn(game_id, table.seq, table.to_act()[0]) == "played"
    raise AssertionError(f"game {game_id} did not end")


def play_some(game_id: int, moves: int) -> None:
    for _ in range(moves):
        table = load_table(game_id)
        assert table.outcome() is None
        autoplay.play_bot_turn(game_id, table.seq, table.to_act()[0])


def tables(row: Tournament) -> dict[str, list[int]]:
    """Each table's games, in order (game index 0, 1, …)."""
    t = projection.load(row.stream_id)
    return {table.key: [g.game_id for g in table.games] for table in t.rounds[-1].tables}


def decided(row: Tournament, key: str) -> bool:
    return projection.load(row.stream_id).table(key).result is not None


def opening_end(game_id: int) -> int:
    return max(e.seq for e in store.load(game_id) if e.command_id == "opening")


def engine_deal(game_id: int) -> list[Any]:
    """The deal a game was dealt: its opening's engine events (commitments are salted per table)."""
    return [
        e.data for e in store.load(game_id) if e.command_id == "opening" and not e.type.startswith("fair.")
    ]


@database_sync_to_async
def _close() -> None:
    connections.close_all()


async def _sockets(game_id: int, watcher: Any) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """What someone who may watch the table but holds no seat of it gets: the table socket's state,
    the replay socket's offer and its answers to asking for all cards and for seat 0."""
    session = await session_of(watcher)
    table_ws = await connect(f"/ws/tables/{game_id}/", session)
    state = await until(table_ws, "state")
    await table_ws.disconnect()
    replay_ws = await connect(f"/ws/replays/{game_id}/", session)
    ready = await until(replay_ws, "ready")
    asked = [*(await load(replay_ws, ALL, 1)), *(await load(replay_ws, 0, 1))]
    await replay_ws.disconnect()
    await _close()
    return state, ready, asked


def assert_secret(game_id: int, stranger: Client) -> None:
    """Every path shows nothing of the game past its opening, and no result: to a stranger not even
    that it exists (tests/tournaments/test_secret_tables.py has every path); to staff, who may watch
    it, its opening only."""
    assert stranger.get(f"/api/games/{game_id}/state").json()["error"]["code"] == "unknown_game"
    assert stranger.get(f"/games/{game_id}/replay/").status_code == 404
    staff = get_user_model().objects.get_or_create(username="staff", defaults={"is_staff": True})[0]
    watcher = Client()
    watcher.force_login(staff)
    table = load_table(game_id)
    assert table.outcome() is not None, "the game itself is over"
    cut = opening_end(game_id)
    # The table socket (spectators) and the public state API: the opening only.
    assert publish.spectator_cut(table) == cut
    state, ready, asked = async_to_sync(_sockets)(game_id, staff)
    assert state["seq"] == cut and not state["finished"]
    api = watcher.get(f"/api/games/{game_id}/state").json()
    assert api["seq"] == cut and not api["finished"]
    # The replay socket: neither all cards nor a seat that is not yours.
    assert ready["perspectives"] == ["public"] and not ready["finished"]
    assert [m["type"] for m in asked] == ["error", "error"]
    # The replay page: spectators' picture only, the fair-deal check still pending.
    replay = frames.load(game_id)
    assert not replay.finished
    page = watcher.get(f"/games/{game_id}/replay/").content.decode()
    config = json.loads(
        page.split('id="replay-config" type="application/json">', 1)[1].split("</script>", 1)[0]
    )
    assert config["perspectives"] == ["public"] and not config["finished"] and config["review"] is None
    assert 'data-status="pending"' in page
    # Review, export, comments.
    review = watcher.get(f"/games/{game_id}/replay/review/")
    assert review.status_code >= 400 and review.json()["error"]["code"] == "not_finished"
    with pytest.raises(Refused):
        export_game(game_id, "all")
    with pytest.raises(Refused):
        export_game(game_id, 0)
    public = export_game(game_id, "public")
    assert max(m["seq"] for m in public["moments"]) <= cut
    assert public["fair"]["status"] == "pending" and public["fair"]["hands"] == 0
    said = watcher.post(f"/games/{game_id}/replay/comments/", {"seq": cut, "text": "I saw it"})
    assert said.status_code == 403
    # No rating moved on it.
    assert not RatingHistory.objects.filter(game_id=game_id).exists()


def assert_open(game_id: int, stranger: Client) -> None:
    table = load_table(game_id)
    assert publish.spectator_cut(table) == table.seq
    assert frames.load(game_id).finished
    assert export_game(game_id, "all")["events"]
    assert stranger.get(f"/api/games/{game_id}/state").json()["finished"]
    assert RatingHistory.objects.filter(game_id=game_id).exists(), "rated once its deal is out"


def log_events(client: Client, row: Tournament) -> list[dict[str, Any]]:
    return client.get(f"/tournaments/{row.pk}/log.json").json()["events"]


def two_tables_of_best_of_3():  # type: ignore[no-untyped-def]
    """A duplicate Swiss of four computers, best of 3, started: (its row, each table's key and games in
    key order, a signed-in stranger's client)."""
    row = simulate.setup(
        "kazino",
        "swiss",
        4,
        {"duplicate": True, "best_of": 3, "rounds": 1, "game_config": {"match": "single"}},
        "random",
    )
    service.start(row)
    first, second = sorted(tables(row).items())
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("stranger"))
    return row, first, second, stranger


def test_a_table_that_runs_ahead_shows_nothing_of_deals_the_others_have_not_played() -> None:
    row, (fast, fast_games), (slow, slow_games), stranger = two_tables_of_best_of_3()

    # The fast table plays its whole match (two games at least); the slow one a few moves of its first.
    while not decided(row, fast):
        play_out(tables(row)[fast][-1])
    play_some(slow_games[0], 3)
    ahead = tables(row)[fast]
    assert len(ahead) >= 2 and len(tables(row)[slow]) == 1, "the slow table has not created game 2"
    for game_id in ahead:
        assert_secret(game_id, stranger)

    # Nothing of the fast table's results: match lines, standings, log.json (no hash on a part).
    assert Match.objects.get(tournament=row, key=fast).result is None
    assert all(not any(float(v) for v in e.values.values()) for e in Entry.objects.filter(tournament=row))
    page = stranger.get(f"/tournaments/{row.pk}/").content.decode()
    assert "(1)" not in page and "(2)" not in page
    events = log_events(stranger, row)
    # The log stops before the first withheld result (#37: what followed it told the result).
    assert not [e for e in events if e["type"] in ("game.finished", "match.decided")]
    assert all(not any(k.startswith("secret_") for k in e["data"]) for e in events)
    stripped = [e for e in events if e["type"] in ("tournament.created", "round.started")]
    assert stripped and all("hash" not in e for e in stripped), "a hash of a part would not check"

    # The slow table finishes its first game: deal 1 is out everywhere, deal 2 still is not — the
    # slow table will be dealt it, though its game 2 does not exist yet.
    play_out(slow_games[0])
    assert not decided(row, slow)
    assert_open(ahead[0], stranger)
    assert_open(slow_games[0], stranger)
    for game_id in ahead[1:]:
        assert_secret(game_id, stranger)
    shown = {e["data"].get("game_id"): e for e in log_events(stranger, row) if e["type"] == "game.finished"}
    assert "places" in shown[ahead[0]]["data"] and "hash" in shown[ahead[0]]
    assert ahead[1] not in shown

    # The slow table is dealt exactly the cards the fast one played: that was the secret.
    slow_games = tables(row)[slow]
    assert engine_deal(slow_games[1]) == engine_deal(ahead[1])

    # Once the round is over, everything is out: games, results, ratings, the log with its hashes.
    row = simulate.drive(row, timeout=600)
    for game_id in [*tables(row)[fast], *tables(row)[slow]]:
        assert_open(game_id, stranger)
    assert Match.objects.get(tournament=row, key=fast).result is not None
    assert all(
        "withheld" not in e["data"] and "hash" in e
        for e in log_events(stranger, row)
        if e["type"] in ("game.finished", "match.decided")
    )


def test_each_deal_of_a_round_has_its_own_seed_that_tells_nothing_of_the_others() -> None:
    secret = 0x1234_5678_9ABC_DEF0
    seeds = [deals.deal_seed(secret, n) for n in range(4)]
    assert len(set(seeds)) == 4 and all(0 <= s < 2**63 for s in seeds)
    assert all(b - a != 1 for a, b in zip(seeds, seeds[1:], strict=False)), "not S, S+1, S+2…"
    assert deals.deal_seed(secret, 1) == seeds[1], "the same secret and index give the same deal"
    assert deals.group_key(secret) != deals.group_key(secret + 1)
    assert str(secret) not in deals.group_key(secret)


def public_view(stranger: Client, row: Tournament, key: str) -> dict[str, Any]:
    """What a stranger can learn of table ``key``: the public log, its match line on the page, and
    which of its games the lobby (page and API) lists."""
    body = stranger.get(f"/tournaments/{row.pk}/log.json").json()
    page = stranger.get(f"/tournaments/{row.pk}/").content.decode()
    games = [g for g in tables(row)[key]]
    card = (
        page.split(f'data-match="{key}"', 1)[1].split("</li>", 1)[0] if f'data-match="{key}"' in page else ""
    )
    lobby = {t["id"] for t in stranger.get("/api/v1/lobby").json()["tables"]}
    lobby_page = stranger.get("/").content.decode()
    return {
        "seq": page.split('data-seq="', 1)[1].split('"', 1)[0],  # what the page's socket compares
        "log": [(e["seq"], e["type"], e["data"]) for e in body["events"]],
        "partial": body.get("partial"),
        "card": card,
        "links": [g for g in games if f"/tables/{g}/" in page],
        "lobby": [g for g in games if g in lobby or f"/tables/{g}/" in lobby_page],
    }


def test_whether_a_withheld_best_of_3_needed_a_third_game_is_not_public(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """#37: the public log showed a withheld best-of-3 decided after two games (or a third started).
    While the fast table's results are withheld, nothing public changes as it plays on: not the log,
    the page and its seq, the lobbies, nor a nudge on the tournament's socket."""
    from tournaments import publish as tournament_publish

    nudges: list[int] = []
    monkeypatch.setattr(tournament_publish, "changed", lambda tournament_id, seq: nudges.append(seq))
    row, (fast, fast_games), (slow, slow_games), stranger = two_tables_of_best_of_3()
    play_some(slow_games[0], 3)
    play_out(fast_games[0])
    before = public_view(stranger, row, fast)
    nudges.clear()
    # The fast table plays its second game: decided 2-0, or a third game started at 1-1.
    play_out(tables(row)[fast][1])
    assert nudges == [], "the socket told of the fast table's second game"
    assert decided(row, fast) or len(tables(row)[fast]) == 3
    after = public_view(stranger, row, fast)
    assert after == before, "the public saw the fast table play on"
    assert before["partial"], "the log stops at the withheld game"
    assert not any(t == "match.decided" for _, t, _d in after["log"])
    assert tables(row)[fast][1:] and not set(tables(row)[fast][1:]) & set(after["links"] + after["lobby"])
    # Once every table has played the deals, the whole log is out, with its hashes.
    row = simulate.drive(row, timeout=600)
    body = stranger.get(f"/tournaments/{row.pk}/log.json").json()
    assert not body["partial"]
    assert sum(1 for e in body["events"] if e["type"] == "match.decided") == 2
