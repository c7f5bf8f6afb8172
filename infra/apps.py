from django.apps import AppConfig


class InfraConfig(AppConfig):
    """The project package as an app, so every process (web and Celery) meters itself."""

    name = "infra"
    verbose_name = "Infrastructure"

    def ready(self) -> None:
        from infra import metrics

        metrics.install()
