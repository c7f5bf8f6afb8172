from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Table chat"

    def ready(self) -> None:
        """The chat's messages ride on the table's socket (games.live.consumers.SEAT_MESSAGES): registered
        here, so that games never imports the chat."""
        from chat import sockets

        sockets.register()
