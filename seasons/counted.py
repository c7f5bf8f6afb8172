"""Which games count in the points ranking, read from the event log each time it moves.

A game counts when its engine has a points ranking (``points_ranking``) and it was played for real:
a rated or tournament table (``tournaments.ratings.counts``: never casual, never a lesson, never one
with a move taken back), finished (an abandoned table — a no-show's forfeit — never is), every seat a
player the ratings know (no guest), its deal no longer secret at another table (a duplicate round),
and, for a tournament's game, its table neither forfeited nor corrected by the organiser
(``result.overridden``: the games' own result no longer stands) nor of an entrant whose results were
annulled. Everything here is derived from the logs, so a correction or an annulled game changes the
ranking the next time it is read; the fold is kept per process until one of the game's rated tables changes (a game ends, a new one
starts) or another part's stream moves (a tournament's log).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

from django.db.models import Count, Max

from games import engines
from games.eventlog import queries, streams
from games.models import Event, Game
from seasons.points import Counted
from tournaments import formats, log
from tournaments import ratings as rating_rules
from tournaments.models import MatchGame

_kept: dict[str, tuple[tuple[Any, ...], list[Counted]]] = {}
_lock = threading.Lock()


def has_points(game: str) -> bool:
    """Whether the game's rules rank players by points (its engine says so by having the hook)."""
    try:
        return callable(getattr(engines.get(game), "points_ranking", None))
    except engines.IllegalAction:
        return False


def games_with_points() -> list[str]:
    return [g for g in engines.names() if has_points(g)]


def counted(game: str) -> list[Counted]:
    """Every game of ``game`` that counts, oldest first (kept until the store moves on)."""
    if not has_points(game):
        return []
    head = _head(game)
    with _lock:
        kept = _kept.get(game)
        if kept is not None and kept[0] == head:
            return kept[1]
    found = _read(game)
    with _lock:
        _kept[game] = (head, found)
    return found


def _head(game: str) -> tuple[Any, ...]:
    """What the kept fold depends on: the game's rated tables (a table's row changes when a game at
    it ends or a new one starts; a move does not change it) and the last event of the other parts'
    streams (a tournament's correction, forfeit, released deal). Any move anywhere would otherwise
    throw the fold away."""
    tables = Game.objects.tables().filter(engine=game, kind__in=list(rating_rules.RATED_KINDS))
    rows = tables.aggregate(n=Count("id"), changed=Max("updated_at"), ended=Max("finished_at"))
    logs = Event.objects.filter(game__kind=Game.Kind.LOG).aggregate(last=Max("id"))["last"] or 0
    return (rows["n"], rows["changed"], rows["ended"], logs)


def forget() -> None:
    """Drop the kept folds (tests that rewrite the store)."""
    with _lock:
        _kept.clear()


def _excluded_tables(game_ids: list[int]) -> tuple[set[int], dict[int, int | None]]:
    """Of these tournament games: those whose table was forfeited, corrected or annulled, and each
    game's club. One fold per tournament."""
    rows = MatchGame.objects.filter(game_id__in=game_ids).select_related("match__tournament")
    by_stream: dict[int, list[int]] = defaultdict(list)
    club: dict[int, int | None] = {}
    for row in rows:
        by_stream[row.match.tournament.stream_id].append(row.game_id)
        club[row.game_id] = row.match.tournament.club_id
    out: set[int] = set()
    for stream_id, ids in by_stream.items():
        t = log.fold([e.as_dict() for e in streams.read(stream_id)])
        annulled = formats._annulled(t)  # noqa: SLF001 - the one rule of which results are annulled
        wanted = set(ids)
        for rnd in t.rounds:
            for table in rnd.tables:
                mine = wanted & {g.game_id for g in table.games}
                if mine and (table.forfeit or table.override is not None or annulled & set(table.entrants)):
                    out |= mine
    return out, club


def _read(game: str) -> list[Counted]:
    hook: Any = engines.get(game).points_ranking  # type: ignore[attr-defined]
    played = queries.played_games(rating_rules.RATED_KINDS, engine=game)
    tournament_games = set(
        MatchGame.objects.filter(game_id__in=[p.game_id for p in played]).values_list("game_id", flat=True)
    )
    excluded, clubs = _excluded_tables(sorted(tournament_games))
    seating: dict[int, dict[str, Any]] = {}
    found: list[Counted] = []
    for p in played:
        if p.game_id in excluded or queries.deal_still_secret(p.game_id):
            continue
        info = seating.get(p.game_id) or seating.setdefault(p.game_id, queries.seating(p.game_id))
        if not rating_rules.counts(info["kind"], p.game_id, p.game_id in tournament_games):
            continue
        keys = [rating_rules.player_key(s) for s in info["seats"]]
        if any(k is None for k in keys) or len(set(keys)) != len(keys):
            continue  # a guest, or one player on two seats: not a ranking's game
        names = [rating_rules._name(s) for s in info["seats"]]  # noqa: SLF001 - the name ratings keep
        for index, points in enumerate(hook(p.outcome), start=1):
            found.append(
                Counted(
                    game,
                    p.game_id,
                    p.number,
                    index,
                    p.finished_at,
                    clubs.get(p.game_id),
                    tuple((str(k), n, int(pts)) for k, n, pts in zip(keys, names, points, strict=True)),
                )
            )
    return found
