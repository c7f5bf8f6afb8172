"""OpenSkill ratings per game, for everyone and per club, updated by every rated game.

Rated: every tournament game, and every casual Kazino game (the Kazino ranking counts every
online game, seed 002). Teams (partnerships) and free-for-all tables use Plackett-Luce with the
game's places. A game is rated once: its ``RatingHistory`` rows are the proof.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from games import service as games
from tournaments.models import Club, MatchGame, Rating, RatingHistory

MODEL = PlackettLuce()
ALWAYS_RATED = frozenset({"kazino"})


def player_key(seat: dict[str, Any]) -> str | None:
    if seat["user_id"]:
        return f"user:{seat['user_id']}"
    if seat["bot_level"]:
        return f"bot:{seat['display_name']}"
    return None  # a guest: not rated


def record(game_id: int, outcome: dict[str, Any]) -> bool:
    """Rate a finished game if it counts; whether it was rated now."""
    if games.deal_still_secret(game_id):
        # A rating's move would tell how the deal went before other tables have played it: the
        # tournament rates the game when the deal is released (tournaments.service._rate_released).
        return False
    info = games.seating(game_id)
    match = MatchGame.objects.filter(game_id=game_id).select_related("match__tournament").first()
    if match is None and not (info["kind"] == "casual" and info["engine"] in ALWAYS_RATED):
        return False
    found = [player_key(s) for s in info["seats"]]
    keys = [k for k in found if k is not None]
    if len(keys) != len(found):
        return False
    teams = outcome.get("teams") or [[s] for s in range(len(keys))]
    if len({keys[s] for team in teams for s in team}) != len(keys):
        return False  # one player on two sides cannot be rated
    places = outcome["places"]
    ranks = [
        float(min(places[s] for s in team) if len(places) == len(keys) else places[i])
        for i, team in enumerate(teams)
    ]
    club_ids: list[int | None] = [None]
    if match is not None and match.match.tournament.club_id:
        club_ids.append(match.match.tournament.club_id)
    names = {keys[s]: info["seats"][s]["display_name"] for s in range(len(keys))}
    with transaction.atomic():
        for club_id in club_ids:
            _rate(game_id, info["engine"], club_id, [[keys[s] for s in team] for team in teams], ranks, names)
    return True


def _rate(
    game_id: int,
    game: str,
    club_id: int | None,
    teams: list[list[str]],
    ranks: list[float],
    names: dict[str, str],
) -> None:
    rows = {}
    for key in (k for team in teams for k in team):
        row, _ = Rating.objects.select_for_update().get_or_create(
            player=key,
            game=game,
            club=club_id and Club.objects.get(pk=club_id),
            defaults={"name": names[key], "mu": MODEL.mu, "sigma": MODEL.sigma},
        )
        if RatingHistory.objects.filter(rating=row, game_id=game_id).exists():
            return  # rated already (a repeated signal)
        rows[key] = row
    rated = MODEL.rate(
        [[MODEL.rating(mu=rows[k].mu, sigma=rows[k].sigma, name=k) for k in team] for team in teams],
        ranks=ranks,
    )
    now = timezone.now()
    for team, new in zip(teams, rated, strict=True):
        for key, value in zip(team, new, strict=True):
            row = rows[key]
            row.mu, row.sigma, row.games, row.name = value.mu, value.sigma, row.games + 1, names[key]
            row.save(update_fields=["mu", "sigma", "games", "name", "updated_at"])
            RatingHistory.objects.create(rating=row, game_id=game_id, mu=value.mu, sigma=value.sigma, at=now)


def rebuild() -> int:
    """Rate every finished game again from scratch, in the order they finished."""
    Rating.objects.all().delete()
    rated = 0
    for game_id in games.finished_games():
        outcome = games.result(game_id)
        if outcome is not None and record(game_id, outcome):
            rated += 1
    return rated
