"""A benchmark's clean-up never hides its figures: a scratch database that a straggler still holds is
dropped all the same (its sessions ended first), and a drop that cannot be done is said, not raised."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from django.db import connection

from tests.bench import benchlib

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _exists(name: str) -> bool:
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return cursor.fetchone() is not None


def test_a_scratch_database_held_by_a_straggler_is_dropped_all_the_same():
    name = f"scratch_{uuid.uuid4().hex[:8]}"
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
    s = connection.settings_dict
    straggler = psycopg.connect(
        host=s["HOST"], port=s["PORT"], user=s["USER"], password=s["PASSWORD"], dbname=name
    )
    try:
        # What failed before: a session is left on it (a plain DROP DATABASE waits 5 s for it, then fails).
        with connection.creation._nodb_cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name])
            assert cursor.fetchone()[0] >= 1, "the straggler holds the scratch database"
        assert benchlib.drop_scratch(name)
        assert not _exists(name)
    finally:
        straggler.close()
        benchlib.drop_scratch(name)


def test_a_drop_that_cannot_be_done_is_said_not_raised(capsys, monkeypatch):
    def broken():
        raise RuntimeError("the server is away")

    monkeypatch.setattr(connection.creation, "_nodb_cursor", broken)
    assert benchlib.drop_scratch("scratch_gone") is False
    assert "drop it by hand" in capsys.readouterr().err


def test_the_wilson_interval_of_a_rate():
    """The benches' 95% interval of a win rate (draws counted half): the textbook figures, and no
    games knowing nothing."""
    from tests.bench.benchlib import wilson

    low, high = wilson(24, 40)
    assert round(low, 3) == 0.446 and round(high, 3) == 0.737
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0
