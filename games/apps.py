from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings

        # store registers the SQLite trigger function; publish, worker and controls their after-commit
        # hooks (games.hooks: publishing, then the computer seats' next turns, then a demo table's next
        # deal); credentials the closing of a signed-out session's sockets.
        from games import credentials, engines, publish, store, worker  # noqa: F401
        from games.commands import controls  # noqa: F401

        for name, module in settings.EXTRA_ENGINES.items():
            engines.register(name, module)
