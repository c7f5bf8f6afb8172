"""The Django rows of a tournament, written from its folded state (and only from it).

Each change rewrites the tournament's rows inside the transaction that appended the event, so
the rows never disagree with the log; ``rebuild`` does the same for every stream.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.commands import deals as game_deals
from games.eventlog import streams
from tournaments import deals, formats, log
from tournaments.models import Entry, Match, MatchGame, Round, Tournament

STREAM = "tournament"


def _text(values: dict[str, Fraction]) -> dict[str, str]:
    return {k: str(v) for k, v in values.items()}


def result_json(result: log.Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "places": {str(e): p for e, p in result.places.items()},
        "scores": {str(e): str(s) for e, s in result.scores.items()},
    }


def write(stream_id: int, t: log.Tournament) -> Tournament:
    """The rows everyone reads: results of duplicate deals still in play elsewhere are left out of
    matches and standings until their deals are released (tournaments/deals.py)."""
    finished = {
        g.game_id for r in t.rounds for table in r.tables for g in table.games if g.places is not None
    }
    room_clock = t.room_clock.as_json()
    t = deals.public(t)
    row, _created = Tournament.objects.update_or_create(
        stream_id=stream_id,
        defaults={
            "name": t.name,
            "club_id": t.club_id,
            "game": t.game,
            "format": t.format,
            "options": t.options,
            "status": t.status,
            "round": len(t.rounds),
            "planned_rounds": formats.announced_rounds(t),
            "created_by_id": t.created_by,
            "seq": t.seq,
            "over_the_board": t.over_the_board,
            "board_rounds": sorted(t.board_rounds),
            "clock": room_clock,
        },
    )
    row.entries.all().delete()
    row.matches.all().delete()
    row.rounds.all().delete()
    seed = {e: i + 1 for i, e in enumerate(t.seeding)}
    rank: dict[int, tuple[int, dict[str, str]]] = {}
    if any(r.tables for r in t.rounds):
        for r in formats.standings(t):
            rank[int(r.entrant)] = (r.rank, _text(r.values))
    if t.final_places:
        rank = {e: (t.final_places.get(e, len(t.entrants)), v) for e, (_r, v) in rank.items()}
    Entry.objects.bulk_create(
        Entry(
            tournament=row,
            number=e.id,
            name=e.name,
            user_id=e.user_id,
            bot_level=e.bot_level,
            bot_number=e.bot_number,
            members=e.members,
            checked_in=e.checked_in,
            withdrawn=e.withdrawn,
            seed=seed.get(e.id),
            rank=rank.get(e.id, (None, {}))[0],
            values=rank.get(e.id, (None, {}))[1],
            bye_requests=sorted(e.bye_requests),
        )
        for e in t.entrants.values()
    )
    Round.objects.bulk_create(
        Round(
            tournament=row,
            number=r.number,
            started=r.started,
            complete=r.complete(),
            byes=r.byes,
            half_byes=r.half_byes,
            locked=sorted(r.locked),
            over_the_board=r.over_the_board,
            stale=r.stale,
        )
        for r in t.rounds
    )
    for rnd in t.rounds:
        for table in rnd.tables:
            match = Match.objects.create(
                tournament=row,
                round=rnd.number,
                key=table.key,
                entrants=table.entrants,
                result=result_json(table.result),
                computed=result_json(table.computed),
                override_reason=table.override_reason,
                forfeit=table.forfeit,
                stand_ins=table.stand_ins,
                board=board_json(table),
            )
            MatchGame.objects.bulk_create(
                MatchGame(
                    match=match,
                    game_id=g.game_id,
                    number=g.number,
                    seats=g.seats,
                    finished=g.game_id in finished,
                    places=None if g.places is None else {str(e): p for e, p in g.places.items()},
                )
                for g in table.games
            )
    return row


def board_json(table: log.Table) -> list[dict[str, Any]]:
    """A table's games over the board as its pages read them."""
    return [
        {
            "number": g.number,
            "hands": g.hands,
            "entered_by": g.entered_by,
            "entered_seq": g.entered_seq,
            "confirmed": sorted(g.confirmed),
            "disputes": g.disputes,
            "seats": g.seats,
            "places": None if g.places is None else {str(e): p for e, p in g.places.items()},
            "scores": None if g.scores is None else _text({str(e): s for e, s in g.scores.items()}),
            "recorded_hands": g.recorded_hands,
            "resolved_by": g.resolved_by,
            "reason": g.reason,
        }
        for g in table.board
    ]


def release_deals(t: log.Tournament, rounds: int | None = 2) -> list[int]:
    """Tell the games store which deals of the duplicate rounds (the last ``rounds``, or all) every
    table has played (tournaments/deals.py); the finished games that became public by it."""
    released: list[int] = []
    for rnd in t.rounds[-rounds:] if rounds else t.rounds:
        if rnd.started and deals.is_duplicate(rnd):
            assert rnd.secret_seed is not None
            released += game_deals.release_deals(deals.group_key(rnd.secret_seed), deals.open_below(rnd))
    return released


def load(stream_id: int) -> log.Tournament:
    return log.fold([e.as_dict() for e in streams.read(stream_id)])


def rebuild() -> int:
    """Rewrite every tournament's rows from its log; the number of tournaments."""
    count = 0
    for stream_id in streams.ids(STREAM):
        t = load(stream_id)
        write(stream_id, t)
        release_deals(t, rounds=None)
        count += 1
    return count
