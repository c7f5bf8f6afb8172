"""The replay core: every perspective is what that audience was sent live; who may look from where.

(a) Random computer games of each engine are played through the real service; every message the
    live tables sent (games.live.publish.table_message, as table_changed builds it after each command) is
    kept, and the replay's picture at the moment with the same seq must be equal to it, for every seat
    and for the spectators (also with a spectator delay).
(b) frames.allowed: a live game shows only your own seats and the spectators' picture (as delayed);
    all cards open only once the game is over; a duplicate deal still played elsewhere stays closed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.commands import deals
from games.eventlog import queries
from games.eventlog.tables import Table
from games.live import publish
from games.models import Game
from replay import access, frames
from replay.frames import ALL, PUBLIC, NotAllowed

from .play import new_game, play

pytestmark = pytest.mark.django_db(transaction=True)

SEED = random.SystemRandom().randrange(2**31)

GAMES = [
    ("skyjo", 2, {"target": 30}, 0),
    ("skyjo", 4, {"target": 15}, 0),
    ("dominoes", 2, {"variant": "block", "target": 20}, 0),
    ("dominoes", 3, {"variant": "draw", "target": 15}, 2),
    ("dominoes", 4, {"variant": "all_fives", "partnerships": True, "target": 20}, 0),
    ("kazino", 2, {"match": "single"}, 1),
    ("pitch", 3, {"max_hands": 3}, 0),
    ("pitch", 4, {"partnerships": True, "max_hands": 3}, 3),
]


def plain(value: Any) -> Any:
    """As a client receives it: through JSON."""
    return json.loads(json.dumps(value))


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[int | None, int], Any]:
    """Every view the live tables sent: (seat or None for spectators, seq) → view."""
    out: dict[tuple[int | None, int], Any] = {}
    real = publish.table_message

    def spy(table: Table, seat: int | None, since: int) -> dict[str, Any]:
        message = real(table, seat, since)
        out[(seat, message["seq"])] = plain(message["view"])
        return message

    monkeypatch.setattr(publish, "table_message", spy)
    return out


@pytest.mark.parametrize(("engine", "players", "options", "delay"), GAMES)
def test_every_perspective_at_every_event_is_what_that_audience_was_sent_live(
    sent: dict[tuple[int | None, int], Any], engine: str, players: int, options: dict[str, Any], delay: int
) -> None:
    seed = SEED + players
    game = new_game(engine, players, options=options, seed=seed, spectator_delay=delay)
    play(game)
    replay = frames.load(game.pk)
    assert replay.finished
    # A live message names the last stored seq of its command, which may follow the command's last
    # engine event (the fair-deal proof, games/eventlog/commitment.py): its moment is the one at or before it.
    ends = {m.seq for m in replay.moments if m.command_end}
    moment_of = {seq: replay.moments[replay.index_of(seq)] for _seat, seq in sent}
    assert {moment_of[seq].seq for seat, seq in sent if seat == 0} == ends, (
        f"seed {seed}: a command end was not sent"
    )
    public_seqs = {moment_of[seq].seq for seat, seq in sent if seat is None}
    assert public_seqs <= ends
    if delay:
        assert len(public_seqs) < len(ends), "the delayed spectators saw fewer positions"
    for (seat, seq), view in sent.items():
        index = moment_of[seq].index
        assert replay.moments[index].command_end
        perspective = PUBLIC if seat is None else seat
        picture = plain(replay.picture(index, perspective))
        assert picture == view, f"seed {seed}: {engine} seq {seq} from {perspective} differs from live"


def finished_game(engine: str = "dominoes", **kwargs: Any) -> Game:
    game = new_game(engine, 2, options={"target": 10} if engine == "dominoes" else {}, **kwargs)
    play(game)
    return game


def refusal(replay: frames.Replay, perspective: Any, index: int, seats: frozenset[int]) -> str | None:
    try:
        frames.allowed(replay, perspective, index, seats)
    except NotAllowed as exc:
        return str(exc.args[0])
    return None


def test_a_live_game_opens_only_your_own_seat_and_the_spectators_picture(django_user_model: Any) -> None:
    alice = django_user_model.objects.create_user("alice")
    # A target no twelve moves can reach: one Block round alone may score more than 50 (CI saw it end).
    game = new_game("dominoes", 3, options={"target": 1000}, humans={0: alice}, spectator_delay=2)
    play(game, moves=12)
    replay = frames.load(game.pk)
    assert not replay.finished
    last = len(replay.moments) - 1
    mine = frozenset({0})
    assert refusal(replay, 0, last, mine) is None
    assert refusal(replay, 1, last, mine) == "not_your_seat"
    assert refusal(replay, 0, last, frozenset()) == "not_your_seat"
    assert refusal(replay, ALL, 0, mine) == "hand_not_over"
    assert refusal(replay, PUBLIC, replay.public_upto, frozenset()) is None
    assert replay.public_upto < last, "two moves of delay"
    assert refusal(replay, PUBLIC, replay.public_upto + 1, frozenset()) == "not_public_yet"
    assert refusal(replay, 7, 0, mine) == "no_such_seat"
    assert refusal(replay, 0, last + 1, mine) == "no_such_moment"
    viewer = access.Viewer(user_id=alice.pk, seats=mine)
    assert access.offered(replay, viewer) == [0, PUBLIC]
    stranger = access.Viewer(user_id=None, seats=frozenset())
    assert access.offered(replay, stranger) == [PUBLIC]
    assert access.last_visible(replay, stranger) == replay.public_upto


def test_a_finished_game_opens_every_seat_and_all_cards() -> None:
    replay = frames.load(finished_game().pk)
    assert replay.finished
    last = len(replay.moments) - 1
    for perspective in (0, 1, PUBLIC, ALL):
        assert refusal(replay, perspective, 0, frozenset()) is None
        assert refusal(replay, perspective, last, frozenset()) is None
    stranger = access.Viewer(user_id=None, seats=frozenset())
    assert access.offered(replay, stranger) == [0, 1, PUBLIC, ALL]


def test_a_duplicate_deal_stays_closed_until_its_group_releases_it() -> None:
    seed = SEED
    key = "t1-r1"
    done = new_game(
        "kazino", 2, options={"match": "single"}, seed=seed, kind=Game.Kind.TOURNAMENT, deal=(key, 0)
    )
    # The other table has not even created its game yet: the deal is secret all the same.
    assert play(done).outcome() is not None
    assert queries.deal_still_secret(done.pk)
    replay = frames.load(done.pk)
    assert not replay.finished
    last = len(replay.moments) - 1
    assert refusal(replay, ALL, last, frozenset()) == "hand_not_over"
    assert refusal(replay, 1, last, frozenset({0})) == "not_your_seat"
    assert refusal(replay, 0, last, frozenset({0})) is None
    assert refusal(replay, PUBLIC, last, frozenset()) == "not_public_yet"
    # Releasing an earlier deal opens nothing of this one; releasing this one opens it, once.
    assert deals.release_deals(key, 0) == []
    assert queries.deal_still_secret(done.pk)
    assert deals.release_deals(key, 1) == [done.pk]
    assert deals.release_deals(key, 1) == []
    assert deals.release_deals(key, 0) == [], "a release never narrows"
    replay = frames.load(done.pk)
    assert replay.finished
    assert refusal(replay, ALL, last, frozenset()) is None


def test_a_link_lands_where_it_says_or_on_the_spectators_picture_with_a_notice(
    django_user_model: Any,
) -> None:
    bob = django_user_model.objects.create_user("bob")
    game = new_game("pitch", 2, humans={1: bob})
    play(game, moves=10)
    replay = frames.load(game.pk)
    seq = replay.moments[5].seq
    player = access.Viewer(user_id=bob.pk, seats=frozenset({1}))
    stranger = access.Viewer(user_id=None, seats=frozenset())
    assert access.land(replay, player, str(seq), "1") == access.Position(5, 1)
    assert access.land(replay, stranger, str(seq), "1") == access.Position(5, PUBLIC, "not_your_seat")
    assert access.land(replay, player, str(seq), "all") == access.Position(5, PUBLIC, "hand_not_over")
    # No link: a player starts from their own seat, now; a bad value is ignored with a notice.
    last = len(replay.moments) - 1
    assert access.land(replay, player, None, None) == access.Position(last, 1)
    assert access.land(replay, player, "soon", None).notice == "bad_seq"
    assert access.land(replay, player, None, "everyone") == access.Position(last, 1, "bad_perspective")
