"""OpenSkill ratings per game, for everyone and per club, updated by every rated game.

Rated: the games of rated tables and of tournaments (``Game.is_rated``: a table's kind is fixed when
it is made, so a game counts from its first event or never). Casual games never count: they allow
undo, restart with the deal known, and the strong computer's hints. A game whose log holds an undo,
redo or restart is refused all the same (which only a bug or a forged log could put there). Each
game of a rated table counts on its own (``number``: a new game at the table once one is over).
Teams (partnerships) and free-for-all tables use Plackett-Luce with the game's places. A game is
rated once: its ``RatingHistory`` rows are the proof.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from games.computers import standin
from games.eventlog import queries, streams
from games.models import Game
from games.words import computers
from tournaments import log, projection
from tournaments.models import Club, MatchGame, Rating, RatingHistory

MODEL = PlackettLuce()
RATED_KINDS = (Game.Kind.RATED, Game.Kind.TOURNAMENT)


def player_key(seat: dict[str, Any]) -> str | None:
    """Who a seat is in the ratings: ``user:ID``, ``bot:LEVEL:N`` for computer N of a level (the same
    player at every table, whatever language its table was made in), None for a guest."""
    if seat["user_id"]:
        return f"user:{seat['user_id']}"
    if seat["bot_level"]:
        return computers.rating_key(seat["bot_level"], seat.get("bot_number") or seat["number"] + 1)
    return None  # a guest: not rated


def entrant_key(entrant: Any) -> str | None:
    """A tournament entrant's key (``tournaments.log.Entrant``), as its seats are rated."""
    if entrant.user_id:
        return f"user:{entrant.user_id}"
    if entrant.bot_level:
        return computers.rating_key(entrant.bot_level, entrant.bot_number or entrant.id)
    return None


def counts(kind: str, game_id: int, tournament_game: bool) -> bool:
    """Whether a table's games are rated: a rated table's, or a tournament's that its tournament
    knows (an imported copy of one is not), and never one with a move taken back."""
    if kind == Game.Kind.TOURNAMENT and not tournament_game:
        return False
    return kind in RATED_KINDS and not queries.was_taken_back(game_id)


def record(game_id: int, outcome: dict[str, Any], number: int = 1) -> bool:
    """Rate game ``number`` of a table once it is finished, if it counts; whether it was rated now."""
    if queries.deal_still_secret(game_id):
        # A rating's move would tell how the deal went before other tables have played it: the
        # tournament rates the game when the deal is released (tournaments.service._rate_released).
        return False
    info = queries.seating(game_id)
    if standin.stood_in(info["seats"]):
        return False  # a computer played out an absent person's seat (#30): not that person's game
    match = MatchGame.objects.filter(game_id=game_id).select_related("match__tournament").first()
    if not counts(info["kind"], game_id, match is not None):
        return False
    found = [player_key(s) for s in info["seats"]]
    keys = [k for k in found if k is not None]
    if len(keys) != len(found):
        return False
    teams = outcome.get("teams") or [[s] for s in range(len(keys))]
    # A computer entrant of a partnership plays both seats of its side: one player. A person on two
    # seats, or anyone on two sides, cannot be rated.
    sides = [[keys[s] for s in team] for team in teams]
    sides = [list(dict.fromkeys(side)) if all(k.startswith("bot:") for k in side) else side for side in sides]
    everyone = [k for side in sides for k in side]
    if len(set(everyone)) != len(everyone):
        return False
    places = outcome["places"]
    ranks = [
        float(min(places[s] for s in team) if len(places) == len(keys) else places[i])
        for i, team in enumerate(teams)
    ]
    club_ids: list[int | None] = [None]
    if match is not None and match.match.tournament.club_id:
        club_ids.append(match.match.tournament.club_id)
    names = {keys[s]: _name(info["seats"][s]) for s in range(len(keys))}
    with transaction.atomic():
        for club_id in club_ids:
            _rate((game_id, number), info["engine"], club_id, sides, ranks, names)
    return True


def _name(seat: dict[str, Any]) -> str:
    """The name a rating row keeps (pages name computers from the key, in the reader's language)."""
    if seat["bot_level"]:
        return computers.stored_name(seat.get("bot_number") or seat["number"] + 1, seat["bot_level"])
    return str(seat["display_name"])


def _rate(
    played: tuple[int, int],
    game: str,
    club_id: int | None,
    teams: list[list[str]],
    ranks: list[float],
    names: dict[str, str],
    at: datetime | None = None,
) -> None:
    game_id, number = played
    rows = {}
    for key in (k for team in teams for k in team):
        row, _ = Rating.objects.select_for_update().get_or_create(
            player=key,
            game=game,
            club=club_id and Club.objects.get(pk=club_id),
            defaults={"name": names[key], "mu": MODEL.mu, "sigma": MODEL.sigma},
        )
        if RatingHistory.objects.filter(rating=row, game_id=game_id, number=number).exists():
            return  # rated already (a repeated signal)
        rows[key] = row
    rated = MODEL.rate(
        [[MODEL.rating(mu=rows[k].mu, sigma=rows[k].sigma, name=k) for k in team] for team in teams],
        ranks=ranks,
    )
    now = at or timezone.now()
    for team, new, rank in zip(teams, rated, ranks, strict=True):
        for key, value in zip(team, new, strict=True):
            row = rows[key]
            row.mu, row.sigma, row.games, row.name = value.mu, value.sigma, row.games + 1, names[key]
            row.save(update_fields=["mu", "sigma", "games", "name", "updated_at"])
            RatingHistory.objects.create(
                rating=row,
                game_id=game_id,
                number=number,
                mu=value.mu,
                sigma=value.sigma,
                at=now,
                place=int(rank),
                sides=len(teams),
            )


@dataclass(frozen=True)
class BoardPlayed:
    """A game played over the board, as its tournament's log recorded it first (``result.recorded``).

    It has no table of its own: its rating is keyed by the tournament's stream and that event's seq
    (``RatingHistory.game_id`` and ``number``), so it is rated once, with the result the log holds
    now: a correction (a result entered alone, a forged confirmation) re-derives every rating from
    the logs (``rebuild``, after the correction commits), so no rating keeps the result it replaced
    (#37 item 4)."""

    stream_id: int
    seq: int
    game: str
    club_id: int | None
    players: list[tuple[str | None, str]]  # (player key or None, name) per entrant of the table
    places: list[int]
    finished_at: datetime


def board_players(t: log.Tournament, entrants: list[int]) -> list[tuple[str | None, str]]:
    """Rated as online: players signed in to an account; a name typed in (a guest) or a partnership
    (two people, one entrant) is not."""
    out: list[tuple[str | None, str]] = []
    for number in entrants:
        e = t.entrants[number]
        key = f"user:{e.user_id}" if e.user_id and not e.members else None
        out.append((key, e.name))
    return out


def record_board(played: BoardPlayed) -> bool:
    """Rate a game played over the board, once; whether it was rated now."""
    keys = [k for k, _name in played.players]
    if not keys or any(k is None for k in keys) or len(set(keys)) != len(keys):
        return False
    names = {k: name for k, name in played.players if k is not None}
    teams = [[k] for k in keys if k is not None]
    with transaction.atomic():
        for club_id in [None, played.club_id] if played.club_id else [None]:
            _rate(
                (played.stream_id, played.seq),
                played.game,
                club_id,
                teams,
                [float(p) for p in played.places],
                names,
                at=played.finished_at,
            )
    return True


def board_played(stream_id: int | None = None) -> list[BoardPlayed]:
    """Every game recorded over the board (in one tournament, or in all), as first recorded."""
    found: list[BoardPlayed] = []
    for sid in [stream_id] if stream_id is not None else streams.ids(projection.STREAM):
        stored = streams.read(sid)
        if not any(event.type == "result.recorded" for event in stored):
            continue
        t = log.fold([e.as_dict() for e in stored])
        first: dict[tuple[str, int], Any] = {}
        latest: dict[tuple[str, int], dict[str, int]] = {}
        for event in stored:
            if event.type != "result.recorded":
                continue
            about = (event.data["table"], int(event.data["game"]))
            first.setdefault(about, event)  # its key and time: when it was first recorded
            latest[about] = event.data["places"]  # its result: the last one recorded (a correction)
        for about, event in first.items():
            places = latest[about]
            entrants = [int(e) for e in places]
            found.append(
                BoardPlayed(
                    sid,
                    event.seq,
                    t.game,
                    t.club_id,
                    board_players(t, entrants),
                    [int(places[str(e)]) for e in entrants],
                    event.created_at,
                )
            )
    return found


def record_board_game(stream_id: int, seq: int) -> bool:
    """Rate the game over the board first recorded by event ``seq`` of a tournament (after commit)."""
    return any(record_board(p) for p in board_played(stream_id) if p.seq == seq)


def rebuild() -> int:
    """Rate every finished game again from scratch, in the order they finished: the same games, with
    the same numbers, that ``record`` rated as they ended, and the games played over the board."""
    Rating.objects.all().delete()
    rated = 0
    online: list[tuple[datetime, int, Any]] = [
        (p.finished_at, 0, p) for p in queries.played_games(RATED_KINDS)
    ]
    board: list[tuple[datetime, int, Any]] = [(p.finished_at, 1, p) for p in board_played()]
    for _at, kind, played in sorted(online + board, key=lambda x: (x[0], x[1])):
        done = record_board(played) if kind else record(played.game_id, played.outcome, played.number)
        rated += int(done)
    return rated
