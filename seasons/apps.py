from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.eventlog import streams
        from seasons import log

        streams.register_fold(log.STREAM, log.fold)
