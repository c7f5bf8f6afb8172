from django.apps import AppConfig


class ReplayConfig(AppConfig):
    name = "replay"

    def ready(self) -> None:
        """Every subscription of the replay app, in one place: replay sockets told a game moved on."""
        from games.live import publish
        from replay import live

        publish.follow(live.moved)
