"""The Celery app. Used only when REDIS_URL is set; otherwise games.computers.worker runs tasks in-process."""

import os

from celery import Celery
from celery.signals import worker_process_init

from infra.heap import settle

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "infra.settings")

app = Celery("tablehall")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _settled(**_kwargs: object) -> None:
    settle()  # a pool process plays every table's turns: its collector's pauses are the tables' pauses
