"""The end of the round clock (#34): "a game unfinished at the end of the clock is scored as it stands",
only for games whose rules allow a partial score (the engine's PARTIAL_SCORE), only when the organiser
chose it and ends the round at time (an event), only once the time is up by the server's clock. The
scores the tournament records are checked against a computation written here from the games' own
events (replayed through the engine, ranked here), not against the code under test."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model

from games import engines
from games.errors import ServiceError
from games.eventlog import streams
from games.eventlog.tables import load_table
from games.models import Event
from tournaments import clock, projection, simulate
from tournaments import service as tournaments
from tournaments.commands import clock as clock_commands
from tournaments.models import Match, MatchGame

T0 = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def _director():
    return get_user_model().objects.create_user("director", is_staff=True)


def _standing_by_hand(game_id: int) -> tuple[dict[int, int], dict[int, Fraction]]:
    """Each seat's place and points in a dominoes game now, from its events replayed: the sides' points
    so far (half-points), the higher the better, equal points sharing a place."""
    engine = engines.get("dominoes")
    events = [
        e.data | {"type": e.type}
        for e in Event.objects.filter(game_id=game_id).order_by("seq")
        if not e.type.startswith("table.")
    ]
    state = engine.replay(events)
    n = state.config["players"]
    points = {s: Fraction(state.scores[s], 2) for s in range(n)}  # two players: a side is a seat
    places = {s: 1 + sum(1 for o in range(n) if points[o] > points[s]) for s in range(n)}
    return places, points


@pytest.fixture()
def dominoes(db):
    row = simulate.setup(
        "dominoes", "swiss", 4, {"game_config": {"variant": "all_fives"}, "rounds": 2}, "greedy", seed=11
    )
    tournaments.start(row)
    row.refresh_from_db()
    return row


@pytest.mark.django_db(transaction=True)
def test_unfinished_games_are_scored_as_they_stand_when_the_organiser_ends_the_round_at_time(dominoes):
    row, user = dominoes, _director()
    # Some moves at every table, the games far from their end (All Fives to 250).
    for _ in range(30):
        simulate._play_one_round_of_moves(row)
    games = list(MatchGame.objects.filter(match__tournament=row, match__round=1).select_related("match"))
    assert len(games) == 2 and all(load_table(g.game_id).outcome() is None for g in games)
    before = projection.load(row.stream_id)
    # The entrant at each seat of each game, as paired; each seat's standing computed here.
    expected = {
        g.match.key: (_standing_by_hand(g.game_id), before.table(g.match.key).games[0].seats, g)
        for g in games
    }
    assert any(any(points.values()) for (_p, points), _s, _g in expected.values()), "no point scored yet"

    clock_commands.act(row, "set", 60, by=user, now=T0)
    clock_commands.act(row, "start", by=user, now=T0)
    # The rule is the director's until the organiser chooses otherwise: ending at time is refused.
    with pytest.raises(ServiceError) as refused:
        clock_commands.end_at_time(row, by=user, now=T0 + timedelta(minutes=2))
    assert refused.value.code == "rule_is_director"
    clock_commands.set_rule(row, "score", by=user)
    with pytest.raises(ServiceError) as refused:
        clock_commands.end_at_time(row, by=user, now=T0 + timedelta(seconds=59))
    assert refused.value.code == "time_not_up"
    with pytest.raises(ServiceError) as refused:
        stranger = get_user_model().objects.create_user("stranger")
        clock_commands.end_at_time(row, by=stranger, now=T0 + timedelta(minutes=2))
    assert refused.value.code in ("sign_in", "not_organiser")
    seq_before = streams.read(row.stream_id)[-1].seq
    assert seq_before == projection.load(row.stream_id).seq

    scored = clock_commands.end_at_time(row, by=user, now=T0 + timedelta(seconds=61))
    assert sorted(scored) == sorted(expected)

    kinds = [e.type for e in streams.read(row.stream_id) if e.seq > seq_before]
    assert kinds[0] == clock.TIME_CALLED
    assert kinds.count("game.finished") == 2 and kinds.count("match.decided") == 2
    for key, ((places, points), seats, g) in expected.items():
        assert load_table(g.game_id).timeline.abandoned, "the game is stopped for good"
        match = Match.objects.get(tournament=row, key=key)
        entrant_at = dict(enumerate(seats))
        assert {int(k): v for k, v in match.result["places"].items()} == {
            entrant_at[s]: places[s] for s in places
        }
        got = {int(k): Fraction(v) for k, v in match.result["scores"].items()}
        assert got == {entrant_at[s]: points[s] for s in points}
    # The round is over: the next one is paired from standings the partial scores decided.
    t = projection.load(row.stream_id)
    assert t.rounds[0].complete() and t.rounds[0].time_called
    assert len(t.rounds) == 2
    # Ending the round at time again changes nothing.
    with pytest.raises(ServiceError):
        clock_commands.end_at_time(row, by=user, now=T0 + timedelta(minutes=5))


@pytest.mark.django_db(transaction=True)
def test_a_game_without_a_partial_score_is_the_director_s_to_decide(db):
    row = simulate.setup("pitch", "swiss", 4, {"rounds": 2}, "greedy", seed=3)
    tournaments.start(row)
    row.refresh_from_db()
    user = _director()
    assert not clock_commands.partial_allowed("pitch") and not clock_commands.partial_allowed("kazino")
    assert clock_commands.partial_allowed("skyjo") and clock_commands.partial_allowed("dominoes")
    before = streams.read(row.stream_id)[-1].seq
    with pytest.raises(ServiceError) as refused:
        clock_commands.set_rule(row, "score", by=user)
    assert refused.value.code == "no_partial_score"
    with pytest.raises(ServiceError) as refused:
        clock_commands.set_rule(row, "whenever", by=user)
    assert refused.value.code == "bad_rule"
    clock_commands.act(row, "set", 60, by=user, now=T0)
    clock_commands.act(row, "start", by=user, now=T0)
    after_clock = streams.read(row.stream_id)[-1].seq
    with pytest.raises(ServiceError) as refused:
        clock_commands.end_at_time(row, by=user, now=T0 + timedelta(minutes=5))
    assert refused.value.code == "rule_is_director"
    assert streams.read(row.stream_id)[-1].seq == after_clock > before
    for game_id in MatchGame.objects.filter(match__tournament=row).values_list("game_id", flat=True):
        assert load_table(game_id).outcome() is None and not load_table(game_id).timeline.abandoned


@pytest.mark.django_db(transaction=True)
def test_the_screen_s_languages_are_an_event_of_the_tournament(dominoes):
    row, user = dominoes, _director()
    assert clock_commands.held(row).room.languages == []
    for bad in ([], ["fr"], ["en", "ht", "tl", "en2"], ["en", "ht", "tl", "xx"]):
        with pytest.raises(ServiceError):
            clock_commands.set_languages(row, bad, by=user)
    clock_commands.set_languages(row, ["ht", "tl", "ht"], by=user)
    assert clock_commands.held(row).room.languages == ["ht", "tl"]
    assert [e.type for e in streams.read(row.stream_id)].count(clock.LANGUAGES_SET) == 1


@pytest.mark.django_db(transaction=True)
def test_the_console_s_clock_forms_refuse_bad_input_and_change_nothing(client, dominoes):
    row, user = dominoes, _director()
    client.force_login(user)
    head = streams.read(row.stream_id)[-1].seq
    for action, data in (
        ("clock", {"clock": "explode"}),
        ("clock", {"clock": "extend"}),  # by how many minutes?
        ("clock", {"clock": "set", "minutes": "0"}),
        ("clock", {"clock": "set", "minutes": "361"}),
        ("clock", {"clock": "start"}),  # never set
        ("clock_rule", {"at_time": "maybe"}),
        ("screen_languages", {"languages": ["ht", "xx"]}),
        ("screen_languages", {}),
        ("end_at_time", {}),  # the rule is still the director's
    ):
        answer = client.post(f"/tournaments/{row.pk}/do/{action}", data)
        assert answer.status_code == 400, (action, data, answer.status_code)
        assert streams.read(row.stream_id)[-1].seq == head, (action, data)
    for action, data in (
        ("clock", {"clock": "set", "minutes": "1"}),
        ("clock", {"clock": "start"}),
        ("clock_rule", {"at_time": "score"}),
        ("screen_languages", {"languages": ["tl", "ht"]}),
    ):
        assert client.post(f"/tournaments/{row.pk}/do/{action}", data).status_code == 302, (action, data)
    page = client.get(f"/tournaments/{row.pk}/").content.decode()
    assert 'id="round-clock"' in page and 'value="score" selected' in page
    assert clock_commands.held(row).room.languages == ["tl", "ht"]
    # The time is not up by the server's clock: refused, whatever a browser may think.
    assert client.post(f"/tournaments/{row.pk}/do/end_at_time", {}).status_code == 400
