from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        """Every subscription of the tournaments app, in one place."""
        from games import signals as game_signals
        from games.access.seats import CLUBS, ORGANISES
        from games.eventlog import streams
        from tournaments import clubs, log, projection, ratings, signals
        from tournaments.commands import demo_series, results
        from tournaments.models import organises

        streams.register_fold(projection.STREAM, log.fold)
        if (
            organises not in ORGANISES
        ):  # who may see a table whose deal is secret (games.access.seats.may_see)
            ORGANISES.append(organises)
        if clubs.clubs_of not in CLUBS:  # who may see a club-only table (games.access.seats.in_club)
            CLUBS.append(clubs.clubs_of)

        def finished(sender: Any, game_id: int, outcome: dict[str, Any], **kwargs: Any) -> None:
            ratings.record(game_id, outcome, kwargs.get("number", 1))
            results.on_game_finished(game_id, outcome)

        game_signals.game_finished.connect(finished, dispatch_uid="tournaments.finished", weak=False)

        def repeat(sender: Any, tournament_id: int, **kwargs: Any) -> None:
            demo_series.on_finished(tournament_id)

        signals.tournament_finished.connect(repeat, dispatch_uid="tournaments.repeat", weak=False)
