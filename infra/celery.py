"""The Celery app. Used only when REDIS_URL is set; otherwise games.worker runs tasks in-process."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")

app = Celery("tablehall")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
