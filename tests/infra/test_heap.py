"""A long-lived process freezes what start-up made, so the collector's full passes skip it (#36)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def frozen_after(statement: str) -> int:
    code = f"import gc; {statement}; print(gc.get_freeze_count())"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "RESUME_TABLES": "0"},  # the embedded mode would start playing the tables
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return int(out.stdout.split()[-1])


def test_the_web_process_freezes_its_start_up() -> None:
    # Django, the apps and the engines: far more than a bare interpreter's objects.
    assert frozen_after("import django") == 0
    assert frozen_after("import infra.asgi") > 50_000


def test_a_celery_pool_process_freezes_its_start_up() -> None:
    statement = (
        "from infra.celery import app; from celery.signals import worker_process_init; "
        "worker_process_init.send(sender=None)"
    )
    assert frozen_after(statement) > 10_000
