from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games import signals, streams
        from tournaments import log, projection, ratings, service

        streams.register_fold(projection.STREAM, log.fold)

        def finished(sender: Any, game_id: int, outcome: dict[str, Any], **kwargs: Any) -> None:
            ratings.record(game_id, outcome, kwargs.get("number", 1))
            service.on_game_finished(game_id, outcome)

        signals.game_finished.connect(finished, dispatch_uid="tournaments.finished", weak=False)
