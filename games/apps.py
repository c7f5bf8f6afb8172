from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Every subscription of the games app, in one place (the other apps wire theirs in their own
        ``ready``: tournaments, seasons, chat, replay, infra's metrics)."""
        from django.conf import settings
        from django.contrib.auth.signals import user_logged_out
        from django.db.backends.signals import connection_created

        from games import engines, hooks
        from games.access import credentials
        from games.commands import controls
        from games.computers import worker
        from games.eventlog import store
        from games.live import publish

        # After each commit, in this order: the updates to their audiences, then the computer seats'
        # next turns (infra's metrics count the move between them, order 20), last a demo table's
        # next deal once its game ended.
        hooks.register("publish", publish.on_change, order=10)
        hooks.register("computer turns", worker.on_change, order=30)
        hooks.register("demo tables", controls.deal_again, order=90)
        # A signed-out session's sockets are closed; SQLite gets the store's trigger function.
        user_logged_out.connect(credentials.logged_out, dispatch_uid="games.access.credentials.logged_out")
        connection_created.connect(store.register_sqlite_function, dispatch_uid="games.eventlog.store.sqlite")

        for name, module in settings.EXTRA_ENGINES.items():
            engines.register(name, module)
