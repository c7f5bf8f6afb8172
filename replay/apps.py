from django.apps import AppConfig


class ReplayConfig(AppConfig):
    name = "replay"

    def ready(self) -> None:
        # The after-commit hook that tells replay sockets a game moved on (replay.live).
        from replay import live  # noqa: F401
