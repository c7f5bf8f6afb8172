from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings

        from games import engines, store  # noqa: F401 - store registers the SQLite trigger function

        for name, module in settings.EXTRA_ENGINES.items():
            engines.register(name, module)
