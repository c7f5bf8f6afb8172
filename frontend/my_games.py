"""The profile as a player's home (#33): their games in play first (their turn marked), then the games
they finished with opponents and result, their ratings, and the reviews of their games."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.eventlog.tables import load_table
from games.models import Game, Seat
from games.words.catalogue import titles
from replay.models import Review
from tournaments.models import Rating

#: Finished games listed on the page (each one's result is folded from its log).
RECENT = 10


@dataclass
class MyGame:
    game: Game
    title: Any
    mine: list[int]
    others: list[Seat] = field(default_factory=list)
    my_turn: bool = False
    place: int | None = None  # 1 = first; None while in play or when the game was stopped
    sides: int = 0
    reviewed: bool = False


def _rows(user: Any, games: list[Game], names: dict[str, Any]) -> list[MyGame]:
    seats: dict[int, list[Seat]] = {g.pk: [] for g in games}
    for seat in Seat.objects.filter(game__in=[g.pk for g in games]).order_by("game_id", "number"):
        seats[seat.game_id].append(seat)
    out = []
    for g in games:
        mine = [s.number for s in seats[g.pk] if s.user_id == user.pk]
        others = [s for s in seats[g.pk] if s.user_id != user.pk]
        out.append(MyGame(g, names.get(g.engine, g.engine), mine, others))
    return out


def for_user(user: Any) -> dict[str, Any]:
    names = titles()
    played = Game.objects.listed().filter(seats__user=user).distinct()
    live = _rows(user, list(played.filter(status=Game.Status.ACTIVE).order_by("-updated_at")[:30]), names)
    for row in live:
        table = load_table(row.game)
        row.my_turn = bool(set(table.to_act()) & set(row.mine)) and not table.timeline.paused
    live.sort(key=lambda r: not r.my_turn)  # the games waiting for this player first
    done = list(played.filter(status=Game.Status.FINISHED).order_by("-finished_at")[:RECENT])
    finished = _rows(user, done, names)
    reviewed = set(
        Review.objects.filter(game__in=done, status=Review.Status.DONE).values_list("game_id", flat=True)
    )
    for row in finished:
        outcome = load_table(row.game).outcome()
        if outcome and row.mine:
            row.place = min(outcome["places"][n] for n in row.mine)
            row.sides = max(outcome["places"])
        row.reviewed = row.game.pk in reviewed
    ratings = Rating.objects.filter(player=f"user:{user.pk}", club__isnull=True).order_by("game")
    return {
        "live_games": live,
        "finished_games": finished,
        "my_ratings": [(r, names.get(r.game, r.game)) for r in ratings],
    }
