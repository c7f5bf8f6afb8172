"""The Django project package: settings, urls, asgi and the Celery app."""

from infra.celery import app as celery_app

__all__ = ["celery_app"]
