"""Undo of the last console action (#30): a revoking event, the action kept in the log, the fold as
if it never happened; refused once something was played on it (docs/tournaments.md "Undo")."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.errors import ServiceError
from games.eventlog import streams
from tests.tournaments.test_absence import finish_round
from tournaments import log, projection, service, undo
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SKYJO = {"game_config": {"target": 10}}
KAZINO = {"game_config": {"match": "single"}}


def state(row: Tournament) -> log.Tournament:
    return projection.load(row.stream_id)


def without_revoked(row: Tournament) -> log.Tournament:
    """The fold of the log with the revoked events and the undos left out, as if never given."""
    stored = streams.read(row.stream_id)
    gone = undo.revoked([e.as_dict() for e in stored])
    return log.fold([e.as_dict() for e in stored if e.seq not in gone and e.type != undo.UNDONE])


def same(a: log.Tournament, b: log.Tournament) -> bool:
    b = copy.deepcopy(b)
    b.seq = a.seq  # the undone action and its undo keep their places in the log
    return dataclasses.asdict(a) == dataclasses.asdict(b)


def tables(t: log.Tournament) -> list[tuple[str, list[int]]]:
    return [(tb.key, list(tb.entrants)) for tb in t.rounds[-1].tables]


def last(row: Tournament) -> Any:
    found = service.last_action(row.stream_id)
    assert found is not None
    return found


def swiss(td: Any, game: str = "skyjo", **options: Any) -> Tournament:
    config = SKYJO if game == "skyjo" else KAZINO
    size = {"table_size": 4} if game == "skyjo" else {}
    row = service.create(
        "Night", game, "swiss", {**config, **size, "rounds": 2, "auto_start": False, **options}, by=td
    )
    for _ in range(8 if game == "skyjo" else 4):
        service.register(row, "", bot_level="random", by=td)
    service.start(row, by=td)
    return row


@pytest.fixture
def td() -> Any:
    return get_user_model().objects.create_user("td")


def test_an_undone_swap_folds_as_if_never_made_and_stays_in_the_log(td: Any) -> None:
    row = swiss(td)
    paired = tables(state(row))
    a, b = paired[0][1][0], paired[1][1][0]
    service.edit_pairing(row, "lock", table=paired[1][0], reason="friends", by=td)
    service.edit_pairing(row, "swap", a=a, b=b, reason="mistake", by=td)
    found = last(row)
    assert found.kind == "round.edited" and found.events[0]["edit"] == "swap" and not found.refusal
    assert service.undo_last(row, found.seq, by=td) is not None
    t = state(row)
    assert tables(t) == paired and same(t, without_revoked(row))
    types = [e.type for e in streams.read(row.stream_id)]
    assert types[-2:] == ["round.edited", undo.UNDONE], "the swap is kept, revoked"
    # A second press of the same button changes nothing more.
    assert service.undo_last(row, found.seq, by=td) is None
    assert state(row).seq == t.seq
    # Undo again walks one action back: the lock.
    before = last(row)
    assert before.events[0]["edit"] == "lock"
    service.undo_last(row, before.seq, by=td)
    assert state(row).rounds[-1].locked == set() and same(state(row), without_revoked(row))


def test_an_undone_withdrawal_before_the_round_brings_the_entrant_and_the_pairing_back(td: Any) -> None:
    row = swiss(td)
    paired = tables(state(row))
    gone = paired[0][1][0]
    service.withdraw(row, gone, by=td)
    assert gone not in {e for _k, es in tables(state(row)) for e in es}
    service.undo_last(row, last(row).seq, by=td)
    t = state(row)
    assert not t.entrants[gone].withdrawn and tables(t) == paired and same(t, without_revoked(row))
    assert not Entry.objects.get(tournament=row, number=gone).withdrawn, "the rows follow the fold"
    service.withdraw(row, gone, by=td)  # and the withdrawal can be given again
    assert state(row).entrants[gone].withdrawn


def test_an_undone_check_in_and_seeding_before_the_start(td: Any) -> None:
    ana = get_user_model().objects.create_user("ana")
    row = service.create("Night", "kazino", "swiss", {**KAZINO, "rounds": 2, "check_in": True}, by=td)
    me = service.register(row, "ana", user=ana)
    service.seed(row, "random", by=td)
    service.check_in(row, me, by=td)
    service.undo_last(row, last(row).seq, by=td)
    assert not state(row).entrants[me].checked_in
    assert last(row).kind == "tournament.seeded"
    service.undo_last(row, last(row).seq, by=td)
    assert same(state(row), without_revoked(row)) and state(row).seeding == []


def test_an_undone_correction_takes_back_the_result_and_the_stale_mark(td: Any) -> None:
    row = swiss(td)
    service.start_round(row, by=td)
    finish_round(row)
    t = state(row)
    table = t.rounds[0].tables[0]
    assert table.result is not None
    places = {str(e): len(table.entrants) - table.result.places[e] + 1 for e in table.entrants}
    service.override(row, table.key, places, None, "wrong way round", by=td)
    assert state(row).rounds[1].stale
    service.undo_last(row, last(row).seq, by=td)
    t = state(row)
    assert t.table(table.key).override is None and not t.rounds[1].stale
    assert same(t, without_revoked(row))


def test_undo_is_refused_once_the_round_started_or_a_game_was_played(td: Any) -> None:
    row = swiss(td, "kazino")
    paired = tables(state(row))
    service.edit_pairing(row, "swap", a=paired[0][1][0], b=paired[1][1][0], reason="x", by=td)
    swap = last(row)
    service.start_round(row, by=td)
    found = last(row)
    assert found.kind == "round.started" and found.refusal == undo.NOT_UNDOABLE
    with pytest.raises(ServiceError) as exc:
        service.undo_last(row, swap.seq, by=td)
    assert exc.value.code == "moved_on" and exc.value.status == 409
    with pytest.raises(ServiceError) as exc:
        service.undo_last(row, found.seq, by=td)
    assert exc.value.code == undo.NOT_UNDOABLE
    # A forfeit where a game was played stopped that game: it is not undone.
    table = state(row).rounds[0].tables[0]
    service.forfeit(row, table.key, [table.entrants[0]], "left", by=td)
    forfeit = last(row)
    assert forfeit.kind == "result.forfeited" and forfeit.refusal == undo.PLAYED_ON
    seq = state(row).seq
    with pytest.raises(ServiceError):
        service.undo_last(row, forfeit.seq, by=td)
    assert state(row).seq == seq, "a refusal appends nothing"


def test_a_swap_undone_after_the_round_started_is_refused_as_such() -> None:
    @dataclasses.dataclass
    class E:
        seq: int
        type: str
        data: dict[str, Any]
        actor: str
        command_id: str

    stored = [E(1, "round.edited", {}, "user:1", "edit-1"), E(2, "round.started", {}, "system", "auto-2")]
    found = undo.last_action(stored)
    assert found is not None and found.refusal == undo.ROUND_STARTED
    stored.append(E(3, undo.UNDONE, {"revokes": [1]}, "user:1", "undo-1"))
    assert undo.last_action(stored) is None, "a revoked action is no longer the last"


def test_only_the_organiser_undoes(td: Any) -> None:
    ana = get_user_model().objects.create_user("ana")
    row = swiss(td, "kazino")
    paired = tables(state(row))
    service.edit_pairing(row, "swap", a=paired[0][1][0], b=paired[1][1][0], reason="x", by=td)
    with pytest.raises(ServiceError) as exc:
        service.undo_last(row, last(row).seq, by=ana)
    assert exc.value.code == "not_organiser"
